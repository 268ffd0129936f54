// Games files in the report: results, end reasons and lengths, and a step-through game viewer.

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "core/board/notation.h"
#include "core/board/replay.h"
#include "tools/report/html.h"
#include "tools/report/sections.h"
#include "tools/report/svg_board.h"
#include "tools/report/svg_chart.h"

namespace fanorona::report {

std::string game_viewer(const GameRecord& game, const Rules& rules, const std::string& id,
                        int max_frames, Notes& notes) {
    std::string out = "<div class=\"viewer\" id=\"" + esc(id) + "\">\n";
    out += "<p class=\"viewer-head\">Game " + std::to_string(game.index) + ": <b>" +
           esc(game.white) + "</b> (White) against <b>" + esc(game.black) + "</b> (Black), " +
           esc(std::string(result_name(game.result))) + " by " + esc(game.reason) + " after " +
           std::to_string(game.moves.size()) + " turns";
    if (game.opening_turns > 0)
        out += ", the first " + std::to_string(game.opening_turns) + " from the opening";
    out += ".</p>\n<div class=\"frames\">\n";
    Position pos;
    try {
        pos = Position::from_string(game.start, rules.variant);
    } catch (const std::exception& e) {
        return out + "</div>" +
               notes.problem("game " + std::to_string(game.index) + ": start: " + e.what()) +
               "</div>\n";
    }
    auto frame = [&](int turn, const BoardMarks& marks, const std::string& caption) {
        return fmt("<figure class=\"frame%s\" data-turn=\"%d\">", turn == 0 ? " current" : "",
                   turn) +
               board_svg(pos, marks, caption) + "<figcaption>" + esc(caption) +
               "</figcaption></figure>\n";
    };
    out += frame(0, {}, "start position");
    std::string problem;
    const int shown = std::min<int>(int(game.moves.size()), max_frames);
    Game replayed(rules, pos);
    for (int i = 0; i < shown; ++i) {
        Move m;
        try {
            m = play_listed_move(replayed, game.moves[std::size_t(i)], i + 1);
        } catch (const ReplayError& e) {
            problem = notes.problem("game " + std::to_string(game.index) + ": " + e.what());
            break;
        }
        const BoardMarks marks = move_marks(pos, rules, m);
        const bool white = pos.side_to_move() == Color::White;
        pos.make_move(m);
        std::string caption = "turn " + std::to_string(i + 1) + ", " + (white ? "White" : "Black") +
                              ": " + game.moves[std::size_t(i)];
        if (m.captured) caption += fmt(" (captures %d)", popcount(m.captured));
        if (std::size_t(i) < game.scores.size() && game.scores[std::size_t(i)])
            caption += fmt(", score %+d", *game.scores[std::size_t(i)]);
        out += frame(i + 1, marks, caption);
    }
    out += "</div>\n";
    out += "<div class=\"controls\"><button type=\"button\" data-step=\"first\" title=\"first "
           "position (Home)\">&laquo;</button><button type=\"button\" data-step=\"prev\" "
           "title=\"previous turn (left arrow)\">&lsaquo;</button><input type=\"range\" min=\"0\" "
           "max=\"" +
           std::to_string(shown) +
           "\" value=\"0\" aria-label=\"turn\"><button type=\"button\" data-step=\"next\" "
           "title=\"next turn (right arrow)\">&rsaquo;</button><button type=\"button\" "
           "data-step=\"last\" title=\"last position (End)\">&raquo;</button>"
           "<span class=\"turn-label\">start position</span></div>\n";
    if (shown < int(game.moves.size()))
        out +=
            "<p class=\"note\">Only the first " + std::to_string(shown) + " turns are shown.</p>";
    out += problem;
    // The scores over the game; wins and losses found by the search are drawn at the edge.
    constexpr double kClip = 1500;
    bool clipped = false;
    Series s{"score (White's view)", "#b8452f", {}, {}, {}, {}};
    for (std::size_t i = 0; i < game.scores.size(); ++i) {
        s.x.push_back(double(i + 1));
        double v =
            game.scores[i] ? double(*game.scores[i]) : std::numeric_limits<double>::quiet_NaN();
        if (std::abs(v) > kClip) {
            v = std::copysign(kClip, v);
            clipped = true;
        }
        s.y.push_back(v);
    }
    if (!game.scores.empty()) {
        Chart c;
        c.id = id + "-scores";
        c.title =
            "Search scores of game " + std::to_string(game.index) + " (centi-pieces, White's view)";
        c.x_label = "turn";
        c.y_label = "score";
        c.series.push_back(std::move(s));
        c.lines.push_back({"0", "#888888", 0});
        c.height = 220;
        out += chart_svg(c);
        if (clipped)
            out += "<p class=\"note\">Scores beyond &plusmn;1500 (found wins and losses) are "
                   "drawn at &plusmn;1500.</p>\n";
    }
    return out + "</div>\n";
}

std::string games_overview(const GamesFile& file, const std::string& id_prefix, int max_frames,
                           Notes& notes) {
    std::vector<GameRecord> games; // the games played (not a Vela series' skipped places)
    for (const GameRecord& g : file.games)
        if (g.played()) games.push_back(g);
    std::string out;
    if (games.empty()) return out + "<p class=\"note\">The games file holds no games.</p>\n";
    double white = 0, draws = 0, black = 0, total_length = 0;
    std::map<std::string, int> reasons;
    std::size_t longest = 0;
    for (const auto& g : games) {
        white += g.result == GameResult::WhiteWins;
        black += g.result == GameResult::BlackWins;
        draws += g.result == GameResult::Draw;
        ++reasons[g.reason];
        total_length += double(g.moves.size());
        longest = std::max(longest, g.moves.size());
    }
    const double n = double(games.size());
    out += "<table class=\"summary\"><tr><th>games</th><td>" + std::to_string(games.size()) +
           "</td></tr><tr><th>results</th><td>White " + num(white, 0) + " (" + percent(white / n) +
           "), draws " + num(draws, 0) + " (" + percent(draws / n) + "), Black " + num(black, 0) +
           " (" + percent(black / n) + ") " + wdl_bar(white, draws, black) +
           "</td></tr><tr><th>White's score</th><td>" + num((white + draws / 2) / n, 3) +
           "</td></tr><tr><th>average length</th><td>" + num(total_length / n, 1) +
           " turns (longest " + std::to_string(longest) + ")</td></tr><tr><th>ended by</th><td>";
    std::string sep;
    for (const auto& [reason, count] : reasons) {
        out += sep + esc(reason) + " " + std::to_string(count);
        sep = ", ";
    }
    out += "</td></tr></table>\n";
    // Length histogram with about 20 bins of a round width.
    const auto ticks = nice_ticks(0, double(std::max<std::size_t>(longest, 1)), 20);
    const int width = std::max(1, int(ticks.size() > 1 ? ticks[1] - ticks[0] : 1));
    std::vector<double> counts(longest / std::size_t(width) + 1, 0.0);
    for (const auto& g : games) counts[g.moves.size() / std::size_t(width)] += 1;
    std::vector<std::string> labels;
    for (std::size_t i = 0; i < counts.size(); ++i)
        labels.push_back(std::to_string(int(i) * width));
    out += bar_chart_svg(id_prefix + "-lengths",
                         "Game lengths (bars of " + std::to_string(width) + " turns)",
                         "turns (bar start)", labels, counts);
    // A viewer of the first decisive game (or the first game).
    std::size_t pick = 0;
    for (std::size_t i = 0; i < games.size(); ++i)
        if (games[i].result != GameResult::Draw) {
            pick = i;
            break;
        }
    const Rules rules = games[pick].rules(file.header.rules()); // a Vela game: Vela rules
    out += "<h3>A game</h3>\n";
    out += game_viewer(games[pick], rules, id_prefix + "-game", max_frames, notes);
    return out;
}

} // namespace fanorona::report
