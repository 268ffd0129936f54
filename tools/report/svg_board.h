#pragma once
// Board diagrams as inline SVG: the lattice with its diagonals, the pieces, and optionally the
// last move (an arrow along its path) with the pieces it captured (faded, crossed in red).

#include <optional>
#include <string>
#include <vector>

#include "core/board/movegen.h"

namespace fanorona::report {

// What a diagram marks besides the pieces. path[0] is the moving piece's start point; captured
// pieces belonged to `captured_color` and are no longer on the board drawn.
struct BoardMarks {
    std::vector<Square> path;
    Bitboard captured = 0;
    Color captured_color = Color::Black;
};

// The marks of move `m` played in `before` (which must be legal there).
BoardMarks move_marks(const Position& before, const Rules& rules, const Move& m);

// An <svg class="board"> of `pos` with `marks`; `caption` becomes its title (tooltip).
std::string board_svg(const Position& pos, const BoardMarks& marks = {},
                      const std::string& caption = "", int spacing = 36);

// Where board_svg draws point `s` of `g` at `spacing` (x, y in the SVG's units), for pages whose
// script draws pieces on a board_svg of an empty board.
struct BoardPoint {
    double x;
    double y;
};
BoardPoint board_point(const Geometry& g, Square s, int spacing = 36);

} // namespace fanorona::report
