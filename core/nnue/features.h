#pragma once
// Feature indexing: which inputs of a network a position activates, for one perspective.
//
// Cells are c = y * width + x (0 .. cells - 1), not bitboard squares (whose stride may differ);
// White sees cell c as c, Black as cells - 1 - c (a 180-degree rotation, which keeps the pattern
// of diagonals on odd-sized boards). For feature set Points a piece of `owner` on cell c is input
// (owner == P ? 0 : 1) * cells + orient(P, c) of perspective P.
//
// PointsLines adds the lines of 3 consecutive points along a board line (LineTable): line L, as
// P sees the board, with its points p0 < p1 < p2 in P's cells, is input
// 2 * cells + 26 * L + config - 1, config = s(p0) + 3 s(p1) + 9 s(p2) with s = 0 empty, 1 P's
// piece, 2 the other side's; config 0 (all empty) has no input. Lines are numbered by their
// first point's cell, then East, North, North-East, North-West; diagonals leave strong points only.

#include <array>
#include <cstdint>

#include "core/board/bitboard.h"
#include "core/board/position.h"
#include "core/nnue/architecture.h"

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

// The lines of 3 points of one board, numbered by their first point's cell, then direction (East,
// North, NorthEast, NorthWest: increasing cells); view[P][l] is how perspective P sees line l:
// `base` + config is its input for a config in 1..26 (base = 2 * cells + 26 * L - 1, L the
// line's number in P's frame), sq its points in the order of P's digits. lines_of[s] lists the
// lines through square s (at most 3 per direction).
struct LineTable {
    struct View {
        std::uint16_t base = 0;
        std::array<std::int8_t, 3> sq{};
    };
    int count = 0;
    std::array<std::array<View, kMaxLines>, 2> view{};
    std::array<std::array<std::uint8_t, 12>, 64> lines_of{};
    std::array<std::uint8_t, 64> lines_of_count{};
};
// The table of variant v (built once, immutable).
const LineTable& line_table(Variant v);

// The config (0 .. 26) of a line's view for a side owning `own`, the other side owning `other`.
inline int line_config(const LineTable::View& view, Bitboard own, Bitboard other) {
    int config = 0;
    for (int k = 2; k >= 0; --k) {
        const auto s = unsigned(view.sq[std::size_t(k)]);
        config = config * 3 + int(own >> s & 1) + 2 * int(other >> s & 1);
    }
    return config;
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
// piece) and added (its end). A Fanoron-telo placement (from == to) removes nothing. With
// PointsLines, also each line through a changed point whose config changes: its old input
// removed, its new one added (none for the empty config).
struct FeatureDelta {
    std::array<std::uint16_t, kMaxActive> removed;
    std::array<std::uint16_t, kMaxActive> added;
    int removed_size = 0;
    int added_size = 0;
};
// The pieces of each colour (indexed by Color) of the position a move is played from: what a
// PointsLines delta reads besides the move (Points needs only the move).
using PieceSets = std::array<Bitboard, 2>;
inline PieceSets piece_sets(const Position& pos) {
    return {pos.pieces(Color::White), pos.pieces(Color::Black)};
}
// The delta of `m`, played by `mover` from a position of variant v whose pieces are `before`.
void move_delta(Variant v, FeatureSet features, Color perspective, Color mover, const Move& m,
                const PieceSets& before, FeatureDelta& out);

} // namespace fanorona::nnue
