#pragma once
// Move strings (docs/rules.md): the start point, then each step's destination with A (approach) or
// W (withdrawal) after a capturing step. "e2e3", "d3e3A", "c1d1Ad2A". Either case is accepted.

#include <stdexcept>
#include <string>
#include <string_view>

#include "core/board/movegen.h"

namespace fanorona {

// Thrown for a move string that is malformed or not legal; what() says why.
struct MoveError : std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};

// The move as a string; `m` must be legal in `pos`.
std::string move_to_string(const Position& pos, const Rules& rules, const Move& m);

// The legal move the string describes, or a MoveError naming the problem.
Move parse_move(const Position& pos, const Rules& rules, std::string_view text);

} // namespace fanorona
