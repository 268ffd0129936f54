#pragma once
// The opening tree of a set of games: every position of their first P turns, transpositions
// merged by hash, with the results of the games that reached it and every move played from it.

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "selfplay/formats/games_file.h"

namespace fanorona {

// Results of the games that reached a position or played a move. Counts only grow; every game
// adds to exactly one of white_wins, draws, black_wins.
struct OpeningStats {
    std::uint64_t games = 0;
    std::uint64_t white_wins = 0;
    std::uint64_t draws = 0;
    std::uint64_t black_wins = 0;
    std::uint64_t total_length = 0; // sum of the games' lengths in turns
    double eval_sum = 0;            // sum of engine scores (centi-pieces, White's view)
    std::uint64_t eval_games = 0;   // how many games gave a score here

    void add(GameResult result, std::size_t length);
    void add_eval(int centipieces);
    double score() const;      // White's score: (wins + draws / 2) / games; 0.5 with no games
    double avg_length() const; // 0 with no games
    std::optional<double> avg_eval() const;
};

// One move played from a position: its notation, the position it leads to, and its games.
struct OpeningMove {
    std::string move;
    Key child = 0;
    OpeningStats stats;
};

// One position of the tree. `line` is the first sequence of moves seen reaching it from `root`
// (the position string the games started from). After OpeningTree::finish(), `moves` are sorted
// by games (most first), then by notation.
struct OpeningNode {
    Key hash = 0;
    std::string position; // position string, board and side to move only
    int ply = 0;          // fewest turns from a root at which it was seen
    std::string root;
    std::vector<std::string> line;
    OpeningStats stats;             // the eval is the score of the move played from here
    std::vector<OpeningMove> moves; // moves played from here within the first P turns

    const OpeningMove* find_move(const std::string& notation) const;
};

// Builds the tree from games of one rule set. Every game adds itself once to each distinct
// position of its first `plies` turns (and to the position reached after them) and to each
// move between them.
class OpeningTree {
public:
    OpeningTree(const Rules& rules, int plies);

    const Rules& rules() const { return rules_; }
    int plies() const { return plies_; }
    std::uint64_t games() const { return games_; }

    // Adds one game, replaying it to check every move; throws GamesFileError naming `where`.
    void add_game(const GameRecord& game, const std::string& where);
    // Adds every game of kind `kind` of a file read from `path` (the Vela games of a Vela series
    // file, or its normal games, never its skipped places); the rules they were played under must
    // be the tree's. `lines` gives each game's line number in the file, for error messages.
    void add_file(const GamesFile& file, const std::string& path, const std::vector<int>& lines,
                  GameKind kind = GameKind::Normal);
    // Sorts moves and roots; call once after adding games, before reading.
    void finish();

    const OpeningNode* find(Key hash) const;
    const OpeningNode* find(const Position& pos) const { return find(pos.hash()); }
    // Start positions of the games, most games first.
    const std::vector<Key>& roots() const { return roots_; }
    // Every node, ordered by ply, then games (most first), then position string.
    std::vector<const OpeningNode*> nodes() const;

private:
    OpeningNode& node_for(const Position& pos, int ply, const std::string& root,
                          const std::vector<std::string>& line);

    Rules rules_;
    int plies_;
    std::uint64_t games_ = 0;
    std::unordered_map<Key, OpeningNode> nodes_;
    std::vector<Key> roots_;
};

// The position string of `pos` without its turn counters.
std::string board_string(const Position& pos);

// The line number of each game line of a games file, in order (as read_games_file reads them).
std::vector<int> games_file_data_lines(const std::string& path);

// Reads the games of kind `kind` (normal, or the Vela games of Vela series files) into a tree of
// `plies` turns; every file must use the same rules.
OpeningTree build_opening_tree(const std::vector<std::string>& paths, int plies,
                               GameKind kind = GameKind::Normal);
// Reads the games played under `ruleset` (a Vela series file's Vela games are played under Vela
// rules, every other game under its file's rules) into a tree of `plies` turns, as `tune
// --game-rules` picks positions; a file without such games is an error naming it.
OpeningTree build_opening_tree(const std::vector<std::string>& paths, int plies, RuleSet ruleset);

} // namespace fanorona
