#pragma once
// Feature indexing: which inputs of a network a position activates, for one perspective.
//
// Cells are c = y * width + x (0 .. cells - 1), not bitboard squares (whose stride may differ);
// White sees cell c as c, Black as cells - 1 - c (a 180-degree rotation, which keeps the pattern
// of diagonals on odd-sized boards). For feature set Points a piece of `owner` on cell c is input
// (owner == P ? 0 : 1) * cells + orient(P, c) of perspective P.

#include <array>
#include <cstdint>

#include "core/bitboard.h"
#include "core/nnue/architecture.h"
#include "core/position.h"

namespace fanorona::nnue {

// The cell of square s (y * width + x), and the square of cell c.
constexpr int cell_of(const Geometry& g, Square s) {
    return g.rank(s) * g.width + g.file(s);
}
constexpr Square square_of(const Geometry& g, int cell) {
    return g.square(cell % g.width, cell / g.width);
}
// Cell c as seen by perspective P.
constexpr int orient(Color perspective, int cell, int cells) {
    return perspective == Color::White ? cell : cells - 1 - cell;
}

// The input of perspective P for a piece of `owner` on square s.
inline int point_feature(const Geometry& g, Color perspective, Color owner, Square s) {
    const int cells = g.points;
    return (owner == perspective ? 0 : 1) * cells + orient(perspective, cell_of(g, s), cells);
}

// The active inputs of one perspective, in no particular order (at most kMaxActive).
struct ActiveFeatures {
    std::array<std::uint16_t, kMaxActive> index;
    int size = 0;
};

// The inputs `pos` activates for `perspective` under `features`. Allocates nothing.
void active_features(const Position& pos, FeatureSet features, Color perspective,
                     ActiveFeatures& out);

// The inputs a move changes for one perspective: removed (the moved piece's start, every captured
// piece) and added (its end). A Fanoron-telo placement (from == to) removes nothing.
struct FeatureDelta {
    std::array<std::uint16_t, kMaxActive> removed;
    std::array<std::uint16_t, 2> added;
    int removed_size = 0;
    int added_size = 0;
};
// The delta of `m`, played by `mover` on a board of variant v (the position before or after).
void move_delta(Variant v, FeatureSet features, Color perspective, Color mover, const Move& m,
                FeatureDelta& out);

} // namespace fanorona::nnue
