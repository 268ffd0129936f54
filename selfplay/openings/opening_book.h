#pragma once
// Writing opening suites (docs/formats.md, "Opening suite"): one opening per line, either a move
// list from the start position or a position string, with `#` comments. Here the openings are
// chosen from an opening tree by their score.

#include <string>
#include <vector>

#include "selfplay/openings/opening_tree.h"

namespace fanorona {

// One line of a suite: the opening (a move list or a position string) and a comment saying why
// it was chosen (without the leading '#'; may be empty).
struct BookEntry {
    std::string opening;
    std::string comment;
};

// A closed range [low, high]; parse_range reads "LOW:HIGH" and throws std::invalid_argument
// naming `option` when it is malformed or low > high.
struct ScoreRange {
    double low = 0;
    double high = 0;
    bool contains(double x) const { return x >= low && x <= high; }
};
ScoreRange parse_range(const std::string& text, const std::string& option);

// The positions of the tree reached after exactly tree.plies() turns, by at least `min_games`
// games, whose White score lies in `range`, and where the game is not over. Most games first,
// then the most balanced, then by line.
std::vector<BookEntry> balanced_book(const OpeningTree& tree, std::uint64_t min_games,
                                     ScoreRange range);

// How a node is written in a suite (read back by parse_opening_suite in openings.h): its move
// list when its line starts from the variant's start position, its position string otherwise.
std::string opening_of(const OpeningNode& node, Variant variant);

// The suite text: `header` lines as comments, then one entry per line.
std::string format_book(const std::vector<BookEntry>& entries,
                        const std::vector<std::string>& header);

} // namespace fanorona
