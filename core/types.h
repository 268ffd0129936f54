#pragma once
// Basic value types shared by the whole engine: colours, variants, points, directions, moves.

#include <cstdint>

namespace fanorona {

using Bitboard = std::uint64_t;
using Key = std::uint64_t;
using Square = int; // index y * 9 + x; the 5x5 board uses the same layout with x < 5

inline constexpr int kStride = 9; // row stride of the point index on every board
inline constexpr Square kNoSquare = -1;

enum class Color : std::uint8_t { White = 0, Black = 1 };
constexpr Color operator~(Color c) {
    return Color(int(c) ^ 1);
}

enum class Variant : std::uint8_t { Tsivy = 0, Dimy = 1 };

// The eight line directions, clockwise from north. Odd values are diagonals.
enum Direction : int { North, NorthEast, East, SouthEast, South, SouthWest, West, NorthWest };
inline constexpr int kDirections = 8;
constexpr Direction opposite(Direction d) {
    return Direction((d + 4) & 7);
}
constexpr bool is_diagonal(Direction d) {
    return d & 1;
}
inline constexpr int kDelta[kDirections] = {+9, +10, +1, -8, -9, -10, -1, +8};

constexpr Bitboard bit(Square s) {
    return Bitboard(1) << s;
}
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
struct Move {
    Bitboard captured; // left uninitialised by default so move lists cost nothing to create
    std::uint8_t from;
    std::uint8_t to;

    constexpr bool is_capture() const { return captured != 0; }
    friend constexpr bool operator==(const Move&, const Move&) = default;
};

} // namespace fanorona
