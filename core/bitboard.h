#pragma once
// Board geometry of each variant, computed at compile time: which points exist, which are strong,
// each point's neighbour in every direction, and masks for shifting whole bitboards one step.

#include <array>
#include <bit>

#include "core/types.h"

namespace fanorona {

// Immutable tables for one board size. A line joins neighbours orthogonally everywhere and
// diagonally between strong points (x + y even, which is an even index in the 9-wide layout).
struct Geometry {
    int width = 0;
    int height = 0;
    int points = 0;
    Bitboard board = 0;                  // every point of the board
    Bitboard strong = 0;                 // points with diagonal lines
    Bitboard can_step[kDirections] = {}; // points with a line leaving in that direction
    std::array<std::array<std::int8_t, 64>, kDirections> neighbor{}; // kNoSquare when none

    constexpr bool on_board(Square s) const { return s >= 0 && s < 64 && (board >> s & 1); }

    // The points one step from `bb` in direction d, following lines only.
    constexpr Bitboard shift(Bitboard bb, Direction d) const {
        bb &= can_step[d];
        const int delta = kDelta[d];
        return delta > 0 ? bb << delta : bb >> -delta;
    }
};

constexpr Geometry make_geometry(int width, int height) {
    Geometry g;
    g.width = width;
    g.height = height;
    g.points = width * height;
    const int dx[kDirections] = {0, 1, 1, 1, 0, -1, -1, -1};
    const int dy[kDirections] = {1, 1, 0, -1, -1, -1, 0, 1};
    for (auto& row : g.neighbor) row.fill(std::int8_t(kNoSquare));
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            const Square s = make_square(x, y);
            g.board |= bit(s);
            const bool strong = (x + y) % 2 == 0;
            if (strong) g.strong |= bit(s);
            for (int d = 0; d < kDirections; ++d) {
                if (is_diagonal(Direction(d)) && !strong) continue;
                const int nx = x + dx[d], ny = y + dy[d];
                if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
                g.can_step[d] |= bit(s);
                g.neighbor[d][s] = std::int8_t(make_square(nx, ny));
            }
        }
    return g;
}

inline constexpr Geometry kGeometries[2] = {make_geometry(9, 5), make_geometry(5, 5)};
constexpr const Geometry& geometry(Variant v) {
    return kGeometries[int(v)];
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
