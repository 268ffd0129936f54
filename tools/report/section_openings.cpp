// The openings section: the opening tree of `fanorona openings --out DIR` (openings.json) as
// nested folding lists with statistics, the main line on boards, and the most played balanced
// positions.

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <set>
#include <unordered_map>

#include "core/board/notation.h"
#include "selfplay/formats/formats.h"
#include "selfplay/formats/json_text.h"
#include "selfplay/formats/rules_json.h"
#include "selfplay/openings/opening_output.h"
#include "selfplay/openings/opening_tree.h"
#include "tools/report/html.h"
#include "tools/report/sections.h"
#include "tools/report/svg_board.h"

namespace fanorona::report {

namespace {

using Json = nlohmann::json;

// The tree of a loop's games: the turns it follows, and the fewest games a position needs (a
// self-play opening is played by a pair of games, so 4 games are at least two openings).
constexpr int kLoopTreeTurns = 8;
constexpr std::uint64_t kLoopTreeMinGames = 4;

struct TreeView {
    std::unordered_map<std::string, const Json*> by_hash;
    std::set<std::string> expanded; // positions already shown in the tree
    int max_ply;
    double min_share;
};

std::string stats_cells(const Json& s, double share) {
    const double w = number_at(s, "white_wins"), d = number_at(s, "draws"),
                 b = number_at(s, "black_wins");
    std::string out = "<span class=\"games\">" + num(number_at(s, "games"), 0) + "</span>";
    if (std::isfinite(share))
        out += fmt("<span class=\"share\" title=\"share of the position's games\"><span "
                   "style=\"width:%.1f%%\"></span></span><span class=\"pct\">%s</span>",
                   100.0 * share, percent(share, 0).c_str());
    out += wdl_bar(w, d, b);
    out += "<span class=\"score\" title=\"White's score\">" + num(number_at(s, "score"), 3) +
           "</span><span class=\"len\" title=\"average game length\">" +
           num(number_at(s, "avg_length"), 1) + " turns</span>";
    const double e = number_at(s, "avg_eval");
    if (std::isfinite(e))
        out += "<span class=\"eval\" title=\"average engine score, centi-pieces, White's "
               "view\">" +
               signed_num(e, 0) + " cp</span>";
    return out;
}

void render_moves(const Json& node, TreeView& v, std::string& out) {
    const auto& moves = array_at(node, "moves");
    const int ply = int_at(node, "ply");
    std::size_t folded = 0;
    double folded_games = 0;
    out += "<ul>";
    for (std::size_t i = 0; i < moves.size(); ++i) {
        const Json& m = moves[i];
        const double share = number_at(m, "share");
        if (i > 0 && !(share >= v.min_share)) {
            ++folded;
            folded_games += number_at(m, "games");
            continue;
        }
        const std::string label = "<span class=\"mv\">" + std::to_string(ply + 1) + ". " +
                                  esc(string_at(m, "move")) + "</span>" + stats_cells(m, share);
        const auto it = v.by_hash.find(string_at(m, "child"));
        const Json* child = it == v.by_hash.end() ? nullptr : it->second;
        const bool has_moves = child && !array_at(*child, "moves").empty();
        if (child && !v.expanded.insert(string_at(*child, "hash")).second) {
            out += "<li class=\"leaf\">" + label +
                   "<span class=\"transposition\">transposition: shown above</span></li>";
            continue;
        }
        if (!has_moves || ply + 1 >= v.max_ply) {
            out += "<li class=\"leaf\">" + label + "</li>";
            continue;
        }
        out += std::string("<li><details") + (i == 0 && ply < 3 ? " open" : "") + "><summary>" +
               label + "</summary>";
        render_moves(*child, v, out);
        out += "</details></li>";
    }
    if (folded > 0)
        out += "<li class=\"folded\">" + std::to_string(folded) + " other move" +
               (folded == 1 ? "" : "s") + " (" + num(folded_games, 0) + " games, each under " +
               percent(v.min_share, 0) + ")</li>";
    out += "</ul>";
}

// The opening tree of a loop's self-play games (every iteration's), as openings.json would hold
// it; nullopt (with a note in `out`) when there are no games or they cannot be read.
std::optional<Json> loop_openings(const std::string& loop, Notes& notes, std::string& out) {
    std::vector<std::string> files;
    for (int n = 1; file_exists(loop + "/iter-" + std::to_string(n) + "/selfplay/games.tsv"); ++n)
        files.push_back(loop + "/iter-" + std::to_string(n) + "/selfplay/games.tsv");
    if (files.empty()) {
        out += missing_note("No self-play games in " + loop + " yet.");
        return std::nullopt;
    }
    OpeningView view;
    view.min_games = kLoopTreeMinGames;
    try {
        const OpeningTree tree = build_opening_tree(files, kLoopTreeTurns);
        out += "<p class=\"source\">The opening tree of the self-play games of " +
               std::to_string(files.size()) + " iteration" + (files.size() == 1 ? "" : "s") +
               " of <code>" + esc(loop) +
               "</code> (<code>iter-N/selfplay/games.tsv</code>; as "
               "<code>fanorona openings GAMES.tsv... --turns " +
               std::to_string(kLoopTreeTurns) + " --min-games " +
               std::to_string(kLoopTreeMinGames) + "</code> builds it).</p>\n";
        return Json::parse(to_json_text(opening_tree_json(tree, view)));
    } catch (const std::exception& e) {
        out += notes.problem(std::string("opening tree of the loop's games: ") + e.what());
        return std::nullopt;
    }
}

// Step 1 of openings_section: the opening tree, from --opening-stats DIR or the loop's games
// (`path` names it); nullopt, with a note in `out`, when there is none.
std::optional<Json> read_openings(const ReportInputs& in, Notes& notes, std::string& out,
                                  std::string& path) {
    if (!in.opening_stats.empty()) {
        out += "<p class=\"source\">From <code>" + esc(in.opening_stats) + "</code>.</p>\n";
        path = in.opening_stats + "/openings.json";
        std::optional<Json> j = read_json(path, notes, out);
        if (!j && !file_exists(path)) out += notes.problem(path + ": not found");
        return j;
    }
    if (!in.loop.empty()) {
        path = in.loop + "/iter-N/selfplay/games.tsv";
        return loop_openings(in.loop, notes, out);
    }
    out += missing_note("Openings: not provided (--opening-stats DIR).");
    return std::nullopt;
}

// Step 3: the tree, from each root; the roots.
std::vector<const Json*> render_tree(const Json& j, TreeView& v, std::string& out) {
    out += "<h3>Main lines</h3>\n<div class=\"tree\" id=\"opening-tree\">";
    std::vector<const Json*> roots;
    for (const auto& r : array_at(j, "roots"))
        if (r.is_string() && v.by_hash.contains(r.get<std::string>()))
            roots.push_back(v.by_hash[r.get<std::string>()]);
    if (roots.empty()) out += "<p class=\"note\">No positions in the tree.</p>";
    for (const Json* root : roots) {
        v.expanded.insert(string_at(*root, "hash"));
        out += "<div class=\"root\"><div class=\"root-head\"><code>" +
               esc(string_at(*root, "position")) + "</code>" +
               stats_cells(*root, std::numeric_limits<double>::quiet_NaN()) + "</div>";
        render_moves(*root, v, out);
        out += "</div>";
    }
    out += "</div>\n";
    return roots;
}

// Step 4: the main line from `root` on boards, the most played move at each turn.
void render_main_line(const Json* root, const Rules& rules, const TreeView& v, int depth,
                      const std::string& path, Notes& notes, std::string& out) {
    out += "<h3>Main line</h3>\n<p class=\"note\">The most played move at each turn.</p>\n"
           "<div class=\"board-row\" id=\"main-line\">";
    try {
        const Json* node = root;
        Position pos = Position::from_string(string_at(*node, "position"), rules.variant);
        out += "<figure>" + board_svg(pos, {}, "start") + "<figcaption>start</figcaption></figure>";
        for (int ply = 0; ply < depth; ++ply) {
            const auto& moves = array_at(*node, "moves");
            if (moves.empty()) break;
            const std::string text = string_at(moves[0], "move");
            const Move m = parse_move(pos, rules, text);
            const BoardMarks marks = move_marks(pos, rules, m);
            pos.make_move(m);
            const std::string caption = std::to_string(ply + 1) + ". " + text + " (" +
                                        num(number_at(moves[0], "games"), 0) + " games, score " +
                                        num(number_at(moves[0], "score"), 3) + ")";
            out += "<figure>" + board_svg(pos, marks, caption) + "<figcaption>" + esc(caption) +
                   "</figcaption></figure>";
            const auto it = v.by_hash.find(string_at(moves[0], "child"));
            if (it == v.by_hash.end()) break;
            node = it->second;
        }
    } catch (const std::exception& e) {
        out += notes.problem(path + ": main line: " + e.what());
    }
    out += "</div>\n";
}

// Step 5: the most played balanced positions at the tree's depth.
void render_balanced(const Json& j, const Rules& rules, const std::string& path, Notes& notes,
                     std::string& out) {
    const int plies = int_at(j, "plies");
    std::vector<const Json*> balanced;
    for (const auto& p : array_at(j, "positions")) {
        const double s = number_at(p, "score");
        if (plies >= 0 && int_at(p, "ply") == plies && s >= 0.4 && s <= 0.6) balanced.push_back(&p);
    }
    std::stable_sort(balanced.begin(), balanced.end(), [](const Json* a, const Json* b) {
        return number_at(*a, "games") > number_at(*b, "games");
    });
    if (balanced.size() > 8) balanced.resize(8);
    out += "<h3>Balanced openings</h3>\n";
    if (balanced.empty()) {
        out += "<p class=\"note\">No position after " + std::to_string(plies) +
               " turns has White's score between 0.4 and 0.6.</p>\n";
        return;
    }
    out += "<p class=\"note\">The most played positions after " + std::to_string(plies) +
           " turns with White's score between 0.4 and 0.6 (<code>fanorona openings --book "
           "FILE --balanced 0.4:0.6</code> writes them as a suite).</p>\n<table class=\"data\" "
           "id=\"balanced-table\"><thead><tr><th>position</th><th>line</th><th>games</th>"
           "<th>results</th><th>score</th><th>eval</th></tr></thead><tbody>";
    for (const Json* p : balanced) {
        std::string board;
        try {
            board = board_svg(Position::from_string(string_at(*p, "position"), rules.variant), {},
                              string_at(*p, "position"), 16);
        } catch (const std::exception& e) {
            board = notes.problem(path + ": position: " + e.what());
        }
        out += "<tr><td>" + board + "</td><td><code>" + esc(string_at(*p, "line")) +
               "</code></td><td class=\"num\">" + num(number_at(*p, "games"), 0) + "</td><td>" +
               wdl_bar(number_at(*p, "white_wins"), number_at(*p, "draws"),
                       number_at(*p, "black_wins")) +
               "</td><td class=\"num\">" + num(number_at(*p, "score"), 3) +
               "</td><td class=\"num\">" + signed_num(number_at(*p, "avg_eval"), 0) + "</td></tr>";
    }
    out += "</tbody></table>\n";
}

} // namespace

std::string openings_section(const ReportInputs& in, Notes& notes) {
    std::string out = "<section id=\"openings\">\n<h2>Openings</h2>\n";
    // Step 1. The tree and its board and rules.
    std::string path;
    const std::optional<Json> j = read_openings(in, notes, out, path);
    if (!j) return out + "</section>\n";
    check_format(*j, path, kOpeningsFormat, notes, out);
    Rules rules;
    try {
        rules = rules_from_json(*j);
    } catch (const std::invalid_argument& e) {
        out += notes.problem(path + ": " + e.what() + " (read as tsivy, standard rules)");
    }
    // Step 2. What the tree holds, and the explorer.
    TreeView v;
    v.max_ply = in.tree_depth;
    v.min_share = in.tree_share;
    const auto& positions = array_at(*j, "positions");
    for (const auto& p : positions) v.by_hash[string_at(p, "hash")] = &p;
    out += "<p>" + num(number_at(*j, "games"), 0) + " games, the first " +
           num(number_at(*j, "plies"), 0) + " turns (" + esc(variant_name(rules.variant)) + ", " +
           esc(ruleset_name(rules.ruleset)) + " rules), " + std::to_string(positions.size()) +
           " positions with at least " + num(number_at(*j, "min_games"), 0) +
           " games. Score is White's (win 1, draw &frac12;); the bar shows White wins, draws "
           "and Black wins; moves chosen in fewer than " +
           percent(in.tree_share, 0) + " of a position's games are folded.</p>\n";
    out += "<h3>Explorer</h3>\n" + opening_explorer(*j, rules, "opening-explorer", path, notes);
    // Step 3. The tree; step 4, its main line; step 5, the balanced positions.
    const std::vector<const Json*> roots = render_tree(*j, v, out);
    if (!roots.empty()) render_main_line(roots[0], rules, v, in.tree_depth, path, notes, out);
    render_balanced(*j, rules, path, notes, out);
    return out + "</section>\n";
}

} // namespace fanorona::report
