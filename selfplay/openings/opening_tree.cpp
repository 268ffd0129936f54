#include "selfplay/openings/opening_tree.h"

#include <algorithm>
#include <fstream>
#include <stdexcept>

#include "core/board/notation.h"

namespace fanorona {

void OpeningStats::add(GameResult result, std::size_t length) {
    ++games;
    total_length += length;
    if (result == GameResult::WhiteWins)
        ++white_wins;
    else if (result == GameResult::BlackWins)
        ++black_wins;
    else
        ++draws;
}

void OpeningStats::add_eval(int centipieces) {
    eval_sum += centipieces;
    ++eval_games;
}

double OpeningStats::score() const {
    return games ? (double(white_wins) + 0.5 * double(draws)) / double(games) : 0.5;
}

double OpeningStats::avg_length() const {
    return games ? double(total_length) / double(games) : 0.0;
}

std::optional<double> OpeningStats::avg_eval() const {
    if (!eval_games) return std::nullopt;
    return eval_sum / double(eval_games);
}

const OpeningMove* OpeningNode::find_move(const std::string& notation) const {
    for (const OpeningMove& m : moves)
        if (m.move == notation) return &m;
    return nullptr;
}

std::string board_string(const Position& pos) {
    return Position::from_pieces(pos.variant(), pos.pieces(Color::White), pos.pieces(Color::Black),
                                 pos.side_to_move())
        .to_string();
}

OpeningTree::OpeningTree(const Rules& rules, int plies) : rules_(rules), plies_(plies) {
    if (plies < 0) throw std::invalid_argument("opening tree: plies must not be negative");
}

OpeningNode& OpeningTree::node_for(const Position& pos, int ply, const std::string& root,
                                   const std::vector<std::string>& line) {
    auto [it, inserted] = nodes_.try_emplace(pos.hash());
    OpeningNode& node = it->second;
    if (inserted) {
        node.hash = pos.hash();
        node.position = board_string(pos);
        node.ply = ply;
        node.root = root;
        node.line = line;
    } else if (ply < node.ply) {
        node.ply = ply;
        node.root = root;
        node.line = line;
    }
    return node;
}

void OpeningTree::add_game(const GameRecord& game, const std::string& where) {
    // The moves the tree takes, checked before any node is touched.
    const Game replayed = replay_game(game, rules_, where, std::size_t(std::max(plies_, 0)));
    Position pos = replayed.start();
    const std::string root = board_string(pos);
    if (!nodes_.contains(pos.hash())) roots_.push_back(pos.hash());
    const std::size_t length = game.moves.size();
    // A game that repeats a position adds itself to that position (and move) only once.
    std::vector<Key> seen_nodes;
    std::vector<std::pair<Key, std::string>> seen_moves;
    std::vector<std::string> line;
    const auto eval_at = [&](std::size_t i) -> std::optional<int> {
        return i < game.scores.size() ? game.scores[i] : std::nullopt;
    };
    for (int ply = 0;; ++ply) {
        OpeningNode& node = node_for(pos, ply, root, line);
        const bool first_visit =
            std::find(seen_nodes.begin(), seen_nodes.end(), node.hash) == seen_nodes.end();
        if (first_visit) {
            seen_nodes.push_back(node.hash);
            node.stats.add(game.result, length);
            if (const auto e = eval_at(std::size_t(ply))) node.stats.add_eval(*e);
        }
        if (ply >= plies_ || std::size_t(ply) >= length) break;
        const Move& m = replayed.moves()[std::size_t(ply)];
        // Store the canonical spelling, so "D2E3a" and "d2e3A" are one move.
        const std::string notation = move_to_string(pos, rules_, m);
        pos.make_move(m);
        line.push_back(notation);
        const bool first_move_visit = std::find(seen_moves.begin(), seen_moves.end(),
                                                std::pair{node.hash, notation}) == seen_moves.end();
        if (first_move_visit) {
            seen_moves.emplace_back(node.hash, notation);
            OpeningMove* edge = nullptr;
            for (OpeningMove& x : node.moves)
                if (x.move == notation) edge = &x;
            if (!edge) {
                node.moves.push_back({notation, pos.hash(), {}});
                edge = &node.moves.back();
            }
            edge->stats.add(game.result, length);
            if (const auto e = eval_at(std::size_t(ply))) edge->stats.add_eval(*e);
        }
    }
    ++games_;
}

void OpeningTree::add_file(const GamesFile& file, const std::string& path,
                           const std::vector<int>& lines, GameKind kind) {
    if (kind == GameKind::Vela && !file.header.series)
        throw GamesFileError(path + ":1: header: not a file of Vela series (only the runs of "
                                    "`--series vela` hold Vela games)");
    const RuleSet ruleset = kind == GameKind::Vela ? RuleSet::Vela : file.header.ruleset;
    if (file.header.variant != rules_.variant || ruleset != rules_.ruleset)
        throw GamesFileError(
            path + ":1: header: variant=" + std::string(variant_name(file.header.variant)) +
            " rules=" + std::string(ruleset_name(ruleset)) +
            " differs from the other files' variant=" + std::string(variant_name(rules_.variant)) +
            " rules=" + std::string(ruleset_name(rules_.ruleset)));
    for (std::size_t i = 0; i < file.games.size(); ++i) {
        const std::string where = i < lines.size()
                                      ? path + ":" + std::to_string(lines[i])
                                      : path + ": game " + std::to_string(file.games[i].index);
        if (file.games[i].kind != kind) continue;
        add_game(file.games[i], where);
    }
}

std::vector<int> games_file_data_lines(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::vector<int> lines;
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
        if (in.eof()) break; // a last line without '\n' is not read as a game
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (!line.empty() && line[0] != '#') lines.push_back(n);
    }
    return lines;
}

void OpeningTree::finish() {
    for (auto& [key, node] : nodes_)
        std::sort(node.moves.begin(), node.moves.end(),
                  [](const OpeningMove& a, const OpeningMove& b) {
                      if (a.stats.games != b.stats.games) return a.stats.games > b.stats.games;
                      return a.move < b.move;
                  });
    std::stable_sort(roots_.begin(), roots_.end(), [this](Key a, Key b) {
        return nodes_.at(a).stats.games > nodes_.at(b).stats.games;
    });
}

const OpeningNode* OpeningTree::find(Key hash) const {
    const auto it = nodes_.find(hash);
    return it == nodes_.end() ? nullptr : &it->second;
}

std::vector<const OpeningNode*> OpeningTree::nodes() const {
    std::vector<const OpeningNode*> out;
    out.reserve(nodes_.size());
    for (const auto& [key, node] : nodes_) out.push_back(&node);
    std::sort(out.begin(), out.end(), [](const OpeningNode* a, const OpeningNode* b) {
        if (a->ply != b->ply) return a->ply < b->ply;
        if (a->stats.games != b->stats.games) return a->stats.games > b->stats.games;
        return a->position < b->position;
    });
    return out;
}

namespace {

// Reads each file and adds its games of kind `kind_of(file, path)` to a tree of `ruleset`
// (the first file's when none is given).
template <class KindOf>
OpeningTree read_tree(const std::vector<std::string>& paths, int plies,
                      std::optional<RuleSet> ruleset, KindOf kind_of) {
    if (paths.empty()) throw std::invalid_argument("no games files given");
    std::optional<OpeningTree> tree;
    for (const std::string& path : paths) {
        const GamesFile file = read_games_file(path);
        const GameKind kind = kind_of(file, path);
        if (!tree) {
            Rules rules;
            rules.variant = file.header.variant;
            rules.ruleset = ruleset                  ? *ruleset
                            : kind == GameKind::Vela ? RuleSet::Vela
                                                     : file.header.ruleset;
            tree.emplace(rules, plies);
        }
        tree->add_file(file, path, games_file_data_lines(path), kind);
    }
    tree->finish();
    return std::move(*tree);
}

} // namespace

OpeningTree build_opening_tree(const std::vector<std::string>& paths, int plies, GameKind kind) {
    return read_tree(paths, plies, std::nullopt,
                     [kind](const GamesFile&, const std::string&) { return kind; });
}

OpeningTree build_opening_tree(const std::vector<std::string>& paths, int plies, RuleSet ruleset) {
    return read_tree(
        paths, plies, ruleset, [ruleset](const GamesFile& file, const std::string& path) {
            if (file.header.ruleset == ruleset) return GameKind::Normal;
            if (ruleset == RuleSet::Vela && file.header.series) return GameKind::Vela;
            throw GamesFileError(
                path + ":1: header: rules=" + std::string(ruleset_name(file.header.ruleset)) +
                (file.header.series ? " (Vela series)" : "") + ": no games played under " +
                std::string(ruleset_name(ruleset)) + " rules");
        });
}

} // namespace fanorona
