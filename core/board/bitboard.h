#pragma once
// Board geometry of each variant, computed at compile time: which points exist, which are strong,
// each point's neighbour in every direction, and masks for shifting whole bitboards one step.

#include <array>
#include <bit>

#include "core/board/types.h"

namespace fanorona {

// The size of each variant's board, ranks x files, and whether it plays Fanoron-telo.
struct BoardShape {
    int ranks = 0;
    int files = 0;
    bool telo = false;
};

// Every variant's shape, by Variant value: 0 tsivy 5x9, 1 dimy 5x5, 2 telo 3x3, then the other
// odd sizes with at least 3 ranks and files and at most 64 points, by ranks then files (27).
constexpr std::array<BoardShape, kVariantCount> make_board_shapes() {
    std::array<BoardShape, kVariantCount> shapes{};
    shapes[0] = {5, 9};
    shapes[1] = {5, 5};
    shapes[2] = {3, 3, true};
    int n = 3;
    for (int r = 3; r * 3 <= 64; r += 2)
        for (int c = 3; r * c <= 64; c += 2)
            if (!(r == 5 && (c == 5 || c == 9)) && n < kVariantCount)
                shapes[std::size_t(n++)] = {r, c};
    return shapes;
}
inline constexpr std::array<BoardShape, kVariantCount> kBoardShapes = make_board_shapes();

constexpr bool board_shapes_complete() {
    int n = 0;
    for (int r = 3; r * 3 <= 64; r += 2)
        for (int c = 3; r * c <= 64; c += 2) ++n;
    return n + 1 == kVariantCount; // every size once, and telo
}
static_assert(board_shapes_complete(), "kVariantCount must count every board size and telo");

constexpr bool is_telo(Variant v) {
    return kBoardShapes[std::size_t(v)].telo;
}

// Immutable tables for one board size. A line joins neighbours orthogonally everywhere and
// diagonally between strong points (x + y even). Point s = y * stride + x: the stride is 9 when
// the board fits that layout in 64 bits (so tsivy and dimy keep their indices, hashes and table
// files), otherwise the board's width. Every point index is below 63.
struct Geometry {
    int width = 0;
    int height = 0;
    int points = 0;
    int stride = kStride;
    int delta[kDirections] = {};         // index change of a step in each direction
    Bitboard board = 0;                  // every point of the board
    Bitboard strong = 0;                 // points with diagonal lines
    Bitboard can_step[kDirections] = {}; // points with a line leaving in that direction
    std::array<std::array<std::int8_t, 64>, kDirections> neighbor{}; // kNoSquare when none

    constexpr bool on_board(Square s) const { return s >= 0 && s < 64 && (board >> s & 1); }
    constexpr Square square(int x, int y) const { return y * stride + x; }
    constexpr int file(Square s) const { return s % stride; }
    constexpr int rank(Square s) const { return s / stride; }

    // The points one step from `bb` in direction d, following lines only.
    constexpr Bitboard shift(Bitboard bb, Direction d) const {
        bb &= can_step[d];
        const int delta = this->delta[d];
        return delta > 0 ? bb << delta : bb >> -delta;
    }
};

constexpr Geometry make_geometry(int width, int height) {
    Geometry g;
    g.width = width;
    g.height = height;
    g.points = width * height;
    g.stride = width <= kStride && (height - 1) * kStride + width - 1 < 63 ? kStride : width;
    const int dx[kDirections] = {0, 1, 1, 1, 0, -1, -1, -1};
    const int dy[kDirections] = {1, 1, 0, -1, -1, -1, 0, 1};
    for (int d = 0; d < kDirections; ++d) g.delta[d] = dy[d] * g.stride + dx[d];
    for (auto& row : g.neighbor) row.fill(std::int8_t(kNoSquare));
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            const Square s = g.square(x, y);
            g.board |= bit(s);
            const bool strong = (x + y) % 2 == 0;
            if (strong) g.strong |= bit(s);
            for (int d = 0; d < kDirections; ++d) {
                if (is_diagonal(Direction(d)) && !strong) continue;
                const int nx = x + dx[d], ny = y + dy[d];
                if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
                g.can_step[d] |= bit(s);
                g.neighbor[d][s] = std::int8_t(g.square(nx, ny));
            }
        }
    return g;
}

constexpr std::array<Geometry, kVariantCount> make_geometries() {
    std::array<Geometry, kVariantCount> all{};
    for (std::size_t v = 0; v < all.size(); ++v)
        all[v] = make_geometry(kBoardShapes[v].files, kBoardShapes[v].ranks);
    return all;
}
inline constexpr std::array<Geometry, kVariantCount> kGeometries = make_geometries();
constexpr const Geometry& geometry(Variant v) {
    return kGeometries[std::size_t(v)];
}

inline int popcount(Bitboard b) {
    return std::popcount(b);
}
inline Square lsb(Bitboard b) {
    return std::countr_zero(b);
}
inline Square pop_lsb(Bitboard& b) {
    const Square s = lsb(b);
    b &= b - 1;
    return s;
}

} // namespace fanorona
