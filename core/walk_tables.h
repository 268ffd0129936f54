#pragma once
// Internal to move generation: compile-time tables and bit tricks that find every capturing step
// of one piece, and the line each one takes, without loops or data-dependent branches.
//
// A direction mask (DirMask) holds bit d for Direction d. Because Direction runs clockwise,
// opposite(d) is d + 4 (mod 8), so the mask of the opposite directions is the mask rotated by 4.
//
// The window of a bitboard around point s is the bitboard shifted so that bit 20 + delta holds
// the point s + delta, for every delta in [-20, 20] (up to two steps in any direction). Points
// off the 64-bit range read as 0; the per-point masks in WalkTables drop the directions that
// would wrap around the board's edge or leave a weak point diagonally.

#include <array>
#include <bit>
#include <cstdint>
#if defined(__BMI2__)
#include <immintrin.h>
#endif

#include "core/bitboard.h"

namespace fanorona::walk {

using DirMask = unsigned;

// Per-board tables for the chain walk. Every mask only names lines that exist on the board.
// `windowed`: the board has the 9-wide layout, so the window bit tricks below apply; other boards
// read each neighbour through `near` and `far` instead.
struct WalkTables {
    bool windowed = true;
    int delta[kDirections] = {};            // as Geometry::delta
    std::int8_t near[kDirections][64] = {}; // the point one step away, or kNoSquare
    std::int8_t far[kDirections][64] = {};  // the point two steps away, or kNoSquare
    std::uint8_t step_dirs[64] = {};        // d with a line s -> s+d
    std::uint8_t approach_dirs[64] = {};    // d with lines s -> s+d -> s+2d (an approach target)
    std::uint8_t withdraw_dirs[64] = {}; // d with lines s -> s+d and s -> s-d (a withdrawal target)
    Bitboard ray[kDirections][64] = {};  // s and every point beyond it in direction d
};

constexpr WalkTables make_walk_tables(const Geometry& g) {
    WalkTables t;
    t.windowed = g.stride == kStride;
    for (int d = 0; d < kDirections; ++d) t.delta[d] = g.delta[d];
    for (int s = 0; s < 64; ++s) {
        for (int d = 0; d < kDirections; ++d) {
            t.near[d][s] = std::int8_t(kNoSquare);
            t.far[d][s] = std::int8_t(kNoSquare);
        }
        if (!g.on_board(s)) continue;
        for (int d = 0; d < kDirections; ++d) {
            t.near[d][s] = g.neighbor[d][s];
            if (g.neighbor[d][s] != kNoSquare) t.far[d][s] = g.neighbor[d][g.neighbor[d][s]];
            for (int r = s; r != kNoSquare; r = g.neighbor[d][r]) t.ray[d][s] |= bit(r);
            const int q = g.neighbor[d][s];
            if (q == kNoSquare) continue;
            t.step_dirs[s] |= std::uint8_t(1u << d);
            if (g.neighbor[d][q] != kNoSquare) t.approach_dirs[s] |= std::uint8_t(1u << d);
            if (g.neighbor[opposite(Direction(d))][s] != kNoSquare)
                t.withdraw_dirs[s] |= std::uint8_t(1u << d);
        }
    }
    return t;
}

constexpr std::array<WalkTables, kVariantCount> make_all_walk_tables() {
    std::array<WalkTables, kVariantCount> all{};
    for (std::size_t v = 0; v < all.size(); ++v) all[v] = make_walk_tables(kGeometries[v]);
    return all;
}
inline constexpr std::array<WalkTables, kVariantCount> kWalkTables = make_all_walk_tables();
inline const WalkTables& walk_tables(Variant v) {
    return kWalkTables[std::size_t(v)];
}

inline Bitboard window(Bitboard bb, Square s) {
    const int shift = s - 20;
    return shift >= 0 ? bb >> shift : bb << -shift;
}

#if defined(__BMI2__)
// Window bits of the points one and two steps away, in increasing order, which is the order
// SW, S, SE, W, E, NW, N, NE of their deltas -10, -9, -8, -1, 1, 8, 9, 10.
inline constexpr Bitboard kNearBits = 0x70281C00ULL;   // bits 10 11 12 19 21 28 29 30
inline constexpr Bitboard kFarBits = 0x15000440015ULL; // bits 0 2 4 18 22 36 38 40

// kByDirection[m]: a mask in the delta order above rewritten in Direction order.
constexpr std::array<std::uint8_t, 256> make_by_direction() {
    constexpr Direction kDeltaOrder[8] = {SouthWest, South,     SouthEast, West,
                                          East,      NorthWest, North,     NorthEast};
    std::array<std::uint8_t, 256> table{};
    for (unsigned m = 0; m < 256; ++m)
        for (int i = 0; i < 8; ++i)
            if (m >> i & 1) table[m] |= std::uint8_t(1u << kDeltaOrder[i]);
    return table;
}
inline constexpr std::array<std::uint8_t, 256> kByDirection = make_by_direction();

// Bit d set when the point one step away in direction d is set in window w.
inline DirMask near_dirs(Bitboard w) {
    return kByDirection[_pext_u64(w, kNearBits)];
}
// Bit d set when the point two steps away in direction d is set in window w.
inline DirMask far_dirs(Bitboard w) {
    return kByDirection[_pext_u64(w, kFarBits)];
}
#else
// The same without BMI2. Window bits of the neighbours: N 29, NE 30, E 21, SE 12, S 11, SW 10,
// W 19, NW 28; of the points two steps away: N 38, NE 40, E 22, SE 4, S 2, SW 0, W 18, NW 36.
inline DirMask near_dirs(Bitboard w) {
    return DirMask(((w >> 29) & 3) | ((w >> 19) & 4) | ((w >> 9) & 8) | ((w >> 7) & 16) |
                   ((w >> 5) & 32) | ((w >> 13) & 64) | ((w >> 21) & 128));
}
inline DirMask far_dirs(Bitboard w) {
    return DirMask(((w >> 38) & 1) | ((w >> 39) & 2) | ((w >> 20) & 4) | ((w >> 1) & 8) |
                   ((w << 2) & 16) | ((w << 5) & 32) | ((w >> 12) & 64) | ((w >> 29) & 128));
}
#endif

inline DirMask rotate4(DirMask m) {
    return ((m << 4) | (m >> 4)) & 0xFF;
}

// The capturing steps of a piece on s. `open` holds the points it may step to (empty and not yet
// visited this turn), `opp` the opponent pieces. Bit d of approach (withdraw): the step in
// direction d captures by approach (withdrawal).
struct NodeCaptures {
    DirMask approach;
    DirMask withdraw;
};

// node_captures on a board without the 9-wide layout: each neighbour read from the tables.
inline NodeCaptures node_captures_by_table(const WalkTables& t, Square s, Bitboard open,
                                           Bitboard opp) {
    NodeCaptures c{0, 0};
    for (DirMask m = t.step_dirs[s]; m; m &= m - 1) {
        const int d = std::countr_zero(m);
        if (!(open >> t.near[d][s] & 1)) continue;
        const int far = t.far[d][s], back = t.near[d ^ 4][s];
        if (far != kNoSquare && (opp >> far & 1)) c.approach |= 1u << d;
        if (back != kNoSquare && (opp >> back & 1)) c.withdraw |= 1u << d;
    }
    return c;
}

inline NodeCaptures node_captures(const WalkTables& t, Square s, Bitboard open, Bitboard opp) {
    if (!t.windowed) [[unlikely]]
        return node_captures_by_table(t, s, open, opp);
    const Bitboard o = window(opp, s);
    const DirMask can = near_dirs(window(open, s)) & t.step_dirs[s];
    return {far_dirs(o) & t.approach_dirs[s] & can,
            rotate4(near_dirs(o)) & t.withdraw_dirs[s] & can};
}

// The unbroken line of opponent pieces from `first` (an opponent piece) in direction d: the
// points of the ray before its first point that is not an opponent piece.
inline Bitboard capture_line(const WalkTables& t, Square first, int d, Bitboard opp) {
    const Bitboard ray = t.ray[d][first];
    const Bitboard stops = ray & ~opp;
    // Ascending: everything below the lowest stop (all of the ray when there is none).
    const Bitboard below = (stops & (0 - stops)) - 1;
    // Descending: everything above the highest stop. stops never holds bit 63 (no board reaches
    // it), so shifting it left loses nothing, and the added bit 0 makes "no stop" give 0.
    const Bitboard upto = (~Bitboard(0) >> std::countl_zero((stops << 1) | 1)) >> 1;
    return ray & (fanorona::ascending(d) ? below : ~upto);
}

} // namespace fanorona::walk
