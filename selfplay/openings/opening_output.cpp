#include "selfplay/openings/opening_output.h"

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <unordered_set>

#include "core/common/text.h"
#include "selfplay/formats/formats.h"
#include "selfplay/formats/rules_json.h"

namespace fanorona {

namespace {

nlohmann::ordered_json stats_json(const OpeningStats& s) {
    nlohmann::ordered_json j;
    j["games"] = s.games;
    j["white_wins"] = s.white_wins;
    j["draws"] = s.draws;
    j["black_wins"] = s.black_wins;
    j["score"] = s.score();
    j["avg_length"] = s.avg_length();
    const auto e = s.avg_eval();
    j["avg_eval"] = e ? nlohmann::ordered_json(*e) : nlohmann::ordered_json(nullptr);
    j["eval_games"] = s.eval_games;
    return j;
}

std::string stats_csv(const OpeningStats& s) {
    const auto e = s.avg_eval();
    return format("%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.4f,%.2f,", s.games,
                  s.white_wins, s.draws, s.black_wins, s.score(), s.avg_length()) +
           (e ? format("%.1f", *e) : std::string()) + format(",%" PRIu64, s.eval_games);
}

// "W 45% D 10% B 45%  score 0.500  len 62.3  eval +12"
std::string stats_text(const OpeningStats& s) {
    std::string out = format("W %3.0f%% D %3.0f%% B %3.0f%%  score %.3f  len %5.1f",
                             percent_of(s.white_wins, s.games), percent_of(s.draws, s.games),
                             percent_of(s.black_wins, s.games), s.score(), s.avg_length());
    if (const auto e = s.avg_eval()) out += format("  eval %+ld", std::lround(*e));
    return out;
}

double share(const OpeningMove& m, const OpeningNode& node) {
    return node.stats.games ? double(m.stats.games) / double(node.stats.games) : 0.0;
}

void text_subtree(const OpeningTree& tree, const OpeningNode& node, const OpeningView& view,
                  const std::string& indent, std::unordered_set<Key>& printed, std::string& out) {
    std::vector<const OpeningMove*> shown;
    for (const OpeningMove& m : node.moves)
        if (m.stats.games >= view.min_games && int(shown.size()) < view.width) shown.push_back(&m);
    const std::size_t hidden = node.moves.size() - shown.size();
    for (std::size_t i = 0; i < shown.size(); ++i) {
        const OpeningMove& m = *shown[i];
        const bool last = i + 1 == shown.size() && hidden == 0;
        const std::string label = format("%d. %s", node.ply + 1, m.move.c_str());
        out += indent + (last ? "`-- " : "|-- ") +
               format("%-16s %6" PRIu64 " %4.0f%%  ", label.c_str(), m.stats.games,
                      100.0 * share(m, node)) +
               stats_text(m.stats);
        const OpeningNode* child = tree.find(m.child);
        const bool follow = child && share(m, node) >= view.min_share;
        if (child && follow && !printed.insert(child->hash).second) {
            out += "  (transposition, see above)\n";
            continue;
        }
        out += "\n";
        if (follow)
            text_subtree(tree, *child, view, indent + (last ? "    " : "|   "), printed, out);
    }
    if (hidden > 0)
        out += indent + format("`-- (%zu more move%s)\n", hidden, hidden == 1 ? "" : "s");
}

} // namespace

std::string hash_hex(Key hash) {
    return format("%016" PRIx64, hash);
}

nlohmann::ordered_json opening_tree_json(const OpeningTree& tree, const OpeningView& view) {
    nlohmann::ordered_json j;
    j["format"] = kOpeningsFormat;
    put_rules(j, tree.rules());
    j["plies"] = tree.plies();
    j["min_games"] = view.min_games;
    j["games"] = tree.games();
    j["roots"] = nlohmann::ordered_json::array();
    for (Key r : tree.roots())
        if (tree.find(r)->stats.games >= view.min_games) j["roots"].push_back(hash_hex(r));
    j["positions"] = nlohmann::ordered_json::array();
    for (const OpeningNode* n : tree.nodes()) {
        if (n->stats.games < view.min_games) continue;
        nlohmann::ordered_json p;
        p["hash"] = hash_hex(n->hash);
        p["position"] = n->position;
        p["ply"] = n->ply;
        p["root"] = n->root;
        p["line"] = join(n->line);
        p.update(stats_json(n->stats));
        p["moves"] = nlohmann::ordered_json::array();
        for (const OpeningMove& m : n->moves) {
            if (m.stats.games < view.min_games) continue;
            nlohmann::ordered_json mj;
            mj["move"] = m.move;
            mj["child"] = hash_hex(m.child);
            mj["share"] = share(m, *n);
            mj.update(stats_json(m.stats));
            p["moves"].push_back(std::move(mj));
        }
        j["positions"].push_back(std::move(p));
    }
    return j;
}

std::string opening_positions_csv(const OpeningTree& tree, const OpeningView& view) {
    std::string out = "hash,ply,position,line,games,white_wins,draws,black_wins,score,avg_length,"
                      "avg_eval,eval_games\n";
    for (const OpeningNode* n : tree.nodes()) {
        if (n->stats.games < view.min_games) continue;
        out += hash_hex(n->hash) + format(",%d,", n->ply) + n->position + "," + join(n->line) +
               "," + stats_csv(n->stats) + "\n";
    }
    return out;
}

std::string opening_moves_csv(const OpeningTree& tree, const OpeningView& view) {
    std::string out = "hash,ply,move,child,share,games,white_wins,draws,black_wins,score,"
                      "avg_length,avg_eval,eval_games\n";
    for (const OpeningNode* n : tree.nodes()) {
        if (n->stats.games < view.min_games) continue;
        for (const OpeningMove& m : n->moves) {
            if (m.stats.games < view.min_games) continue;
            out += hash_hex(n->hash) + format(",%d,", n->ply) + m.move + "," + hash_hex(m.child) +
                   format(",%.4f,", share(m, *n)) + stats_csv(m.stats) + "\n";
        }
    }
    return out;
}

std::string opening_text_tree(const OpeningTree& tree, const OpeningView& view) {
    std::string out =
        format("Opening tree of %" PRIu64 " games, first %d turns (%s, %s rules)\n", tree.games(),
               tree.plies(), std::string(variant_name(tree.rules().variant)).c_str(),
               std::string(ruleset_name(tree.rules().ruleset)).c_str());
    std::unordered_set<Key> printed;
    for (Key r : tree.roots()) {
        const OpeningNode& root = *tree.find(r);
        if (root.stats.games < view.min_games) continue;
        printed.insert(r);
        out += "\n" + root.position + format("  %" PRIu64 " games  ", root.stats.games) +
               stats_text(root.stats) + "\n";
        text_subtree(tree, root, view, "", printed, out);
    }
    return out;
}

std::string explore_text(const OpeningTree& tree, const OpeningNode& node,
                         const OpeningView& view) {
    std::string out = "position  " + node.position + "\n";
    out += "reached   after " + std::to_string(node.ply) + " turns";
    if (!node.line.empty()) out += " by " + join(node.line);
    out += "\n" + format("games     %" PRIu64 "  ", node.stats.games) + stats_text(node.stats) +
           "\n\n";
    out += format("%-16s %7s %6s %5s %5s %5s %6s %6s %7s\n", "move", "games", "share", "W%", "D%",
                  "B%", "score", "length", "eval");
    for (const OpeningMove& m : node.moves) {
        if (m.stats.games < view.min_games) continue;
        const OpeningStats& s = m.stats;
        const auto e = s.avg_eval();
        out += format("%-16s %7" PRIu64 " %5.1f%% %5.1f %5.1f %5.1f %6.3f %6.1f ", m.move.c_str(),
                      s.games, 100.0 * share(m, node), percent_of(s.white_wins, s.games),
                      percent_of(s.draws, s.games), percent_of(s.black_wins, s.games), s.score(),
                      s.avg_length()) +
               (e ? format("%+7ld", std::lround(*e)) : format("%7s", "-")) + "\n";
    }
    std::uint64_t continued = 0;
    for (const OpeningMove& m : node.moves) continued += m.stats.games;
    const std::uint64_t ended = node.stats.games > continued ? node.stats.games - continued : 0;
    if (node.ply >= tree.plies())
        out += "(the tree stops here: moves are recorded for the first " +
               std::to_string(tree.plies()) + " turns)\n";
    else if (ended > 0)
        out += format("(%" PRIu64 " games ended here)\n", ended);
    return out;
}

} // namespace fanorona
