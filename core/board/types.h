#pragma once
// Basic value types shared by the whole engine: colours, variants, points, directions, moves.

#include <cstdint>

namespace fanorona {

using Bitboard = std::uint64_t;
using Key = std::uint64_t;
using Square = int; // index y * stride + x (Geometry::stride: 9 on tsivy and dimy)

// The row stride of tsivy and dimy (and of every board that fits 9 points a row in 64 bits);
// make_square, file_of and rank_of use it. Geometry::square/file/rank work on every board.
inline constexpr int kStride = 9;
inline constexpr Square kNoSquare = -1;

enum class Color : std::uint8_t { White = 0, Black = 1 };
constexpr Color operator~(Color c) {
    return Color(int(c) ^ 1);
}

// A board and game: tsivy (5x9), dimy (5x5), Fanoron-telo (3x3 three-in-a-row), and every other
// odd-by-odd size of at most 64 points (docs/rules.md "Other board sizes"), as indices into the
// table of core/board/bitboard.h (kBoardShapes). Values below kVariantCount only.
enum class Variant : std::uint8_t { Tsivy = 0, Dimy = 1, Telo = 2 };
inline constexpr int kVariantCount = 30;

// The eight line directions, clockwise from north. Odd values are diagonals.
enum Direction : int { North, NorthEast, East, SouthEast, South, SouthWest, West, NorthWest };
inline constexpr int kDirections = 8;
constexpr Direction opposite(Direction d) {
    return Direction((d + 4) & 7);
}
constexpr bool is_diagonal(Direction d) {
    return d & 1;
}
// Whether a step in direction d increases the point index (N, NE, E, NW) on every board.
constexpr bool ascending(int d) {
    return d == North || d == NorthEast || d == East || d == NorthWest;
}

constexpr Bitboard bit(Square s) {
    return Bitboard(1) << s;
}
// The 9-wide layout of tsivy and dimy (other boards: Geometry::file, rank, square).
constexpr int file_of(Square s) {
    return s % kStride;
}
constexpr int rank_of(Square s) {
    return s / kStride;
}
constexpr Square make_square(int x, int y) {
    return y * kStride + x;
}

// One whole turn: the piece's start and end point and every piece it captures.
// Two turns with equal (from, to, captured) are the same move; a paika move captures nothing.
// In Fanoron-telo a placement on point s is {0, s, s} (from == to), a step is a paika move.
struct Move {
    Bitboard captured; // left uninitialised by default so move lists cost nothing to create
    std::uint8_t from;
    std::uint8_t to;

    constexpr bool is_capture() const { return captured != 0; }
    friend constexpr bool operator==(const Move&, const Move&) = default;
};

} // namespace fanorona
