// Games files in the report: results, end reasons and lengths, and a step-through game viewer.

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "core/board/notation.h"
#include "core/board/replay.h"
#include "selfplay/formats/json_text.h"
#include "selfplay/formats/time_use.h"
#include "tools/report/html.h"
#include "tools/report/sections.h"
#include "tools/report/svg_board.h"
#include "tools/report/svg_chart.h"

namespace fanorona::report {

namespace {

// The colours of players' lines in a chart, in turn.
const char* const kPlayerColors[] = {"#2f6db8", "#b8452f", "#3a8a3a",
                                     "#8a4fb0", "#c08a1a", "#4a9aa0"};

// What a move told of its search, for its frame's caption: ", 12.345 ms, depth 5, 3400 nodes".
std::string stats_caption(const MoveStats& s) {
    std::string out;
    if (s.time_us >= 0) out += fmt(", %.3f ms", double(s.time_us) / 1000);
    if (s.depth >= 0) out += fmt(", depth %d", s.depth);
    if (s.nodes >= 0) out += fmt(", %lld nodes", static_cast<long long>(s.nodes));
    if (s.clock_ms >= 0) out += fmt(", %lld ms left", static_cast<long long>(s.clock_ms));
    return out;
}

// The time of each move of one game, by colour (the per-move `times` column).
std::string game_time_chart(const GameRecord& game, Color first, const std::string& id) {
    Series white{"White: " + player_name_of(game.white), kPlayerColors[0], {}, {}, {}, {}, true};
    Series black{"Black: " + player_name_of(game.black), kPlayerColors[1], {}, {}, {}, {}, true};
    for (std::size_t i = 0; i < game.stats.size(); ++i) {
        if (game.stats[i].time_us < 0) continue;
        Series& s = (i % 2 == 0) == (first == Color::White) ? white : black;
        s.x.push_back(double(i + 1));
        s.y.push_back(double(game.stats[i].time_us) / 1000);
    }
    if (white.x.empty() && black.x.empty()) return "";
    Chart c;
    c.id = id + "-times";
    c.title = "Time per move of game " + std::to_string(game.index) + " (ms)";
    c.x_label = "turn";
    c.y_label = "ms";
    c.integer_x = true;
    c.height = 220;
    for (Series* s : {&white, &black})
        if (!s->x.empty()) c.series.push_back(std::move(*s));
    return chart_svg(c);
}

// Each player's time, depth and nodes per move over the games (their per-move columns), as a
// table and a chart of the mean time by turn; "" when no move has any.
std::string time_use_part(const std::vector<GameRecord>& games, Variant variant,
                          const std::string& id_prefix) {
    const std::vector<PlayerTimeUse> players = time_use_by_player(games, variant);
    bool any = false;
    for (const PlayerTimeUse& p : players) any |= p.timed || p.with_depth || p.with_nodes;
    if (!any) return "";
    auto known = [](double v, int decimals) {
        return v < 0 ? std::string("&ndash;") : num(v, decimals);
    };
    std::string out = "<h3>Time use</h3>\n<table class=\"data\" id=\"" + esc(id_prefix) +
                      "-timeuse\"><thead><tr><th>player</th><th>moves</th><th>timed</th>"
                      "<th>mean ms</th><th>max ms</th><th>mean depth</th><th>mean nodes</th>"
                      "<th>nodes/s</th></tr></thead><tbody>";
    for (const PlayerTimeUse& p : players)
        out += "<tr><td>" + esc(p.name) + "</td><td class=\"num\">" + std::to_string(p.moves) +
               "</td><td class=\"num\">" + std::to_string(p.timed) + "</td><td class=\"num\">" +
               known(p.mean_ms(), 2) + "</td><td class=\"num\">" +
               (p.timed ? num(p.max_ms, 2) : std::string("&ndash;")) + "</td><td class=\"num\">" +
               known(p.mean_depth(), 2) + "</td><td class=\"num\">" + known(p.mean_nodes(), 0) +
               "</td><td class=\"num\">" + known(p.nodes_per_second(), 0) + "</td></tr>";
    out += "</tbody></table>\n";
    Chart c;
    c.id = id_prefix + "-time-by-turn";
    c.title = "Mean time per move by turn, per player (ms)";
    c.x_label = "turn";
    c.y_label = "ms";
    c.integer_x = true;
    std::size_t colour = 0;
    for (const PlayerTimeUse& p : players) {
        Series s{p.name, kPlayerColors[colour++ % std::size(kPlayerColors)], {}, {}, {}, {}, false};
        for (std::size_t t = 0; t < p.ms_by_turn.size(); ++t) {
            if (p.timed_by_turn[t] <= 0) continue;
            s.x.push_back(double(t + 1));
            s.y.push_back(p.ms_by_turn[t]);
        }
        s.markers = s.x.size() == 1;
        if (!s.x.empty()) c.series.push_back(std::move(s));
    }
    if (!c.series.empty()) out += chart_svg(c);
    out += "<p class=\"note\">From the games file's per-move columns: times are the engine's "
           "own search time (external engines: from <code>go</code> written to "
           "<code>bestmove</code> read), in whole milliseconds.</p>\n";
    return out;
}

// The lines of an engine log (docs/formats.md, "Engine log") by game, for the games in `wanted`:
// [ms, player, dir, text], at most `cap` a game (`more` counts the rest).
struct GameLogLines {
    nlohmann::json lines = nlohmann::json::array();
    int more = 0;
};
std::map<std::uint64_t, GameLogLines> engine_log_by_game(const std::string& path,
                                                         const std::set<std::uint64_t>& wanted,
                                                         int cap, Notes& notes, std::string& html) {
    std::map<std::uint64_t, GameLogLines> out;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        html += notes.problem(path + ": the engine log cannot be read");
        return out;
    }
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::size_t tab[4];
        std::size_t from = 0;
        bool ok = true;
        for (std::size_t& t : tab) {
            t = line.find('\t', from);
            if (t == std::string::npos) {
                ok = false;
                break;
            }
            from = t + 1;
        }
        if (!ok) continue;
        const std::string game = line.substr(tab[0] + 1, tab[1] - tab[0] - 1);
        if (game.empty() || game.find_first_not_of("0123456789") != std::string::npos ||
            game.size() > 18)
            continue;
        const std::uint64_t index = std::stoull(game);
        if (!wanted.contains(index)) continue;
        GameLogLines& g = out[index];
        if (int(g.lines.size()) >= cap) {
            ++g.more;
            continue;
        }
        std::string text = line.substr(tab[3] + 1);
        if (!text.empty() && text.back() == '\r') text.pop_back();
        g.lines.push_back({std::atoll(line.substr(0, tab[0]).c_str()),
                           line.substr(tab[1] + 1, tab[2] - tab[1] - 1),
                           line.substr(tab[2] + 1, tab[3] - tab[2] - 1), std::move(text)});
    }
    return out;
}

// The opening of a game for the browser's filter: its opening moves, or "-" for none.
std::string opening_label(const GameRecord& g) {
    std::string out;
    for (int i = 0; i < g.opening_turns && std::size_t(i) < g.moves.size(); ++i)
        out += (i ? " " : "") + g.moves[std::size_t(i)];
    return out.empty() ? "-" : out;
}

// Names in the order they first came, each coded by its place (the browser's data names a
// player, reason or opening by its code).
struct NameCodes {
    std::vector<std::string> names;
    std::map<std::string, int> at;
    int code(const std::string& name) {
        const auto [it, added] = at.emplace(name, int(names.size()));
        if (added) names.push_back(name);
        return it->second;
    }
};

// One game's detail for the browser's viewer: its moves, scores and, when any move tells them,
// times, depths, nodes and clocks.
nlohmann::json game_detail(const GameRecord& g, Variant variant) {
    using Json = nlohmann::json;
    Json d = {{"m", g.moves}};
    Color first = Color::White;
    try {
        first = Position::from_string(g.start, variant).side_to_move();
    } catch (const std::exception&) { // the viewer names a bad start; here White moves
    }
    d["w"] = first == Color::White ? 1 : 0;
    Json scores = Json::array(), times = Json::array(), depths = Json::array(),
         nodes = Json::array(), clocks = Json::array();
    bool any_stats = false, any_clock = false;
    for (std::size_t i = 0; i < g.moves.size(); ++i) {
        scores.push_back(i < g.scores.size() && g.scores[i] ? Json(*g.scores[i]) : Json());
        const MoveStats s = i < g.stats.size() ? g.stats[i] : MoveStats{};
        any_stats |= s.known();
        // Milliseconds to the microsecond (games.tsv version 4 times moves in microseconds).
        times.push_back(s.time_us >= 0 ? Json(double(s.time_us) / 1000) : Json());
        depths.push_back(s.depth >= 0 ? Json(s.depth) : Json());
        nodes.push_back(s.nodes >= 0 ? Json(s.nodes) : Json());
        // The mover's clock after the move (clocked players only), milliseconds.
        any_clock |= s.clock_ms >= 0;
        clocks.push_back(s.clock_ms >= 0 ? Json(s.clock_ms) : Json());
    }
    d["s"] = std::move(scores);
    if (any_stats) {
        d["t"] = std::move(times);
        d["d"] = std::move(depths);
        d["n"] = std::move(nodes);
    }
    if (any_clock) d["c"] = std::move(clocks);
    return d;
}

// The engine log's lines of the detailed games onto their details (rows in game order, details
// in the same order); problems reading it into `out`. Whether any game has lines.
bool attach_engine_log(const std::string& engine_log, const std::set<std::uint64_t>& detailed,
                       const nlohmann::json& rows, nlohmann::json& details, Notes& notes,
                       std::string& out) {
    bool has_log = false;
    std::string problems;
    const auto logs = engine_log_by_game(engine_log, detailed, kBrowserLogLines, notes, problems);
    out += problems;
    for (const auto& [index, lines] : logs) {
        // The detail of game `index`.
        for (const nlohmann::json& row : rows) {
            if (row[0].get<std::uint64_t>() != index) continue;
            const int d = row[7].get<int>();
            if (d >= 0) {
                details[std::size_t(d)]["log"] = lines.lines;
                if (lines.more) details[std::size_t(d)]["more"] = lines.more;
                has_log = true;
            }
            break;
        }
    }
    return has_log;
}

// The browser's filters, table, viewer and note, for the page's script.
std::string browser_controls(std::size_t games, const std::string& engine_log) {
    std::string out =
        "<div class=\"gb-filters\"><label>player <select class=\"gb-player\"></select></label>"
        "<label>result <select class=\"gb-result\"></select></label>"
        "<label>ended by <select class=\"gb-reason\"></select></label>"
        "<label>opening <input type=\"search\" class=\"gb-opening\" "
        "placeholder=\"moves (part)\"></label><span class=\"gb-count note\"></span></div>\n"
        "<div class=\"gb-table\"><table class=\"data gb-games\"><thead><tr><th>game</th>"
        "<th>White</th><th>Black</th><th>result</th><th>ended by</th><th>turns</th>"
        "<th>opening</th></tr></thead><tbody></tbody></table></div>\n"
        "<div class=\"gb-view\"><p class=\"note\">Click a game to see its moves.</p></div>\n";
    out += "<p class=\"note\">Every game of the file (" + std::to_string(games) +
           "); the moves, scores, depths and times of the first " +
           std::to_string(std::min<std::size_t>(games, kBrowserDetailedGames)) +
           (engine_log.empty()
                ? std::string()
                : ", with at most " + std::to_string(kBrowserLogLines) +
                      " lines each of the engine log <code>" + esc(engine_log) + "</code>") +
           ".</p>\n";
    return out;
}

} // namespace

std::string game_browser(const std::vector<GameRecord>& games, Variant variant,
                         const std::string& id, const std::string& engine_log, Notes& notes) {
    using Json = nlohmann::json;
    // Step 1. A row for every game, a detail for the first kBrowserDetailedGames.
    NameCodes players, reasons, openings;
    Json rows = Json::array(), details = Json::array();
    std::set<std::uint64_t> detailed;
    for (const GameRecord& g : games) {
        const int result = g.result == GameResult::WhiteWins ? 0
                           : g.result == GameResult::Draw    ? 1
                                                             : 2;
        int detail = -1;
        if (int(details.size()) < kBrowserDetailedGames) {
            detail = int(details.size());
            detailed.insert(g.index);
            details.push_back(game_detail(g, variant));
        }
        rows.push_back({g.index, players.code(player_name_of(g.white)),
                        players.code(player_name_of(g.black)), result, reasons.code(g.reason),
                        g.moves.size(), openings.code(opening_label(g)), detail});
    }
    // Step 2. The engine log's lines of the detailed games.
    std::string out =
        "<h3>Game browser</h3>\n<div class=\"game-browser\" id=\"" + esc(id) + "\">\n";
    const bool has_log =
        !engine_log.empty() && attach_engine_log(engine_log, detailed, rows, details, notes, out);
    // Step 3. The data for the script, and the controls.
    const Json data = {{"players", players.names},   {"reasons", reasons.names},
                       {"openings", openings.names}, {"games", rows},
                       {"details", details},         {"log", has_log},
                       {"max_rows", kBrowserRows}};
    std::string text = to_json_text(data);
    for (std::size_t p = text.find('<'); p != std::string::npos; p = text.find('<', p))
        text.replace(p, 1, "\\u003c");
    out += "<script type=\"application/json\" class=\"gb-data\">" + text + "</script>\n";
    out += browser_controls(games.size(), engine_log);
    return out + "</div>\n";
}

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
    const Color first = pos.side_to_move(); // the mover of the first turn
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
        if (std::size_t(i) < game.stats.size())
            caption += stats_caption(game.stats[std::size_t(i)]);
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
    out += game_time_chart(game, first, id);
    return out + "</div>\n";
}

std::string games_overview(const GamesFile& file, const std::string& id_prefix, int max_frames,
                           Notes& notes, const std::string& engine_log) {
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
    out += time_use_part(games, file.header.variant, id_prefix);
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
    out += game_browser(games, file.header.variant, id_prefix + "-browser", engine_log, notes);
    return out;
}

} // namespace fanorona::report
