#pragma once
// Internal to move generation: compile-time tables and bit tricks that find every capturing step
// of one piece, and the line each one takes, without loops or data-dependent branches.
//
// A direction mask (DirMask) holds bit d for Direction d. Because Direction runs clockwise,
// opposite(d) is d + 4 (mod 8), so the mask of the opposite directions is the mask rotated by 4.
//
// The window of a bitboard around point s is the bitboard shifted so that bit c + delta holds
// the point s + delta, for every delta in [-c, c] with c = 2 * (stride + 1) (up to two steps in
// any direction; c = 20 on the 9-wide layout). Points off the 64-bit range read as 0; the
// per-point masks in WalkTables drop the directions that would wrap around the board's edge or
// leave a weak point diagonally. The window needs 4 * (stride + 1) + 1 bits, so it serves every
// stride up to 14: all boards but 3x15, 3x17, 3x19 and 3x21, which read each neighbour from
// tables instead.

#include <array>
#include <bit>
#include <cstdint>
#if defined(__BMI2__)
#include <immintrin.h>
#endif

#include "core/board/bitboard.h"

namespace fanorona::walk {

using DirMask = unsigned;

// The widest stride whose window (4 * (stride + 1) + 1 bits) fits in 64 bits.
inline constexpr int kMaxWindowStride = 14;

// Per-board tables for the chain walk. Every mask only names lines that exist on the board.
// `windowed`: the window bit tricks below apply (stride at most kMaxWindowStride); other boards
// read each neighbour through `near` and `far` instead. `centre` and the window bit masks are
// those of the board's stride.
struct WalkTables {
    bool windowed = true;
    int centre = 0;                         // c: window bit of the point itself
    Bitboard near_bits = 0;                 // window bits c + delta[d] of the neighbours
    Bitboard far_bits = 0;                  // window bits c + 2 * delta[d], two steps away
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
    t.windowed = g.stride <= kMaxWindowStride;
    t.centre = 2 * (g.stride + 1);
    for (int d = 0; d < kDirections; ++d) {
        t.delta[d] = g.delta[d];
        if (!t.windowed) continue;
        t.near_bits |= bit(t.centre + g.delta[d]);
        t.far_bits |= bit(t.centre + 2 * g.delta[d]);
    }
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

// The window layout of the 9-wide boards as constants, so that their scan needs no load: centre
// 20, neighbours at bits 10 11 12 19 21 28 29 30, points two steps away at 0 2 4 18 22 36 38 40.
struct NineWindow {
    static constexpr int centre = 2 * (kStride + 1);
    static constexpr Bitboard near_bits = 0x70281C00ULL;
    static constexpr Bitboard far_bits = 0x15000440015ULL;
};

template <class Layout> inline Bitboard window(const Layout& t, Bitboard bb, Square s) {
    const int shift = s - t.centre;
    return shift >= 0 ? bb >> shift : bb << -shift;
}

// On every stride from 3 up, the window bits of the neighbours come in the order SW, S, SE, W, E,
// NW, N, NE of their deltas -stride-1, -stride, -stride+1, -1, 1, stride-1, stride, stride+1, and
// those of the points two steps away in the same order.
constexpr std::array<Direction, 8> kDeltaOrder = {SouthWest, South,     SouthEast, West,
                                                  East,      NorthWest, North,     NorthEast};

// kByDirection[m]: a mask in the delta order above rewritten in Direction order.
constexpr std::array<std::uint8_t, 256> make_by_direction() {
    std::array<std::uint8_t, 256> table{};
    for (unsigned m = 0; m < 256; ++m)
        for (int i = 0; i < 8; ++i)
            if (m >> i & 1) table[m] |= std::uint8_t(1u << kDeltaOrder[i]);
    return table;
}
inline constexpr std::array<std::uint8_t, 256> kByDirection = make_by_direction();

// Whether every windowed board's window fits in 64 bits and lists its neighbours in kDeltaOrder.
constexpr bool windows_fit() {
    for (const WalkTables& t : kWalkTables) {
        if (!t.windowed) continue;
        if (t.centre + 2 * t.delta[NorthEast] > 63 || t.centre + 2 * t.delta[SouthWest] < 0)
            return false;
        for (int i = 0; i + 1 < 8; ++i)
            if (t.delta[kDeltaOrder[std::size_t(i)]] >= t.delta[kDeltaOrder[std::size_t(i + 1)]])
                return false;
    }
    return true;
}
static_assert(kWalkTables[0].near_bits == NineWindow::near_bits &&
                  kWalkTables[0].far_bits == NineWindow::far_bits,
              "NineWindow is the window of the 9-wide layout");
static_assert(windows_fit(), "a windowed board's window must fit 64 bits in delta order");

#if defined(__BMI2__)
// Bit d set when the point one step away in direction d is set in window w.
template <class Layout> inline DirMask near_dirs(const Layout& t, Bitboard w) {
    return kByDirection[_pext_u64(w, t.near_bits)];
}
// Bit d set when the point two steps away in direction d is set in window w.
template <class Layout> inline DirMask far_dirs(const Layout& t, Bitboard w) {
    return kByDirection[_pext_u64(w, t.far_bits)];
}
#else
// The same without BMI2: the bits picked one by one, in delta order.
inline DirMask pick_dirs(Bitboard w, Bitboard bits) {
    unsigned m = 0;
    for (int i = 0; i < 8; ++i, bits &= bits - 1)
        m |= unsigned(w >> std::countr_zero(bits) & 1) << i;
    return kByDirection[m];
}
template <class Layout> inline DirMask near_dirs(const Layout& t, Bitboard w) {
    return pick_dirs(w, t.near_bits);
}
template <class Layout> inline DirMask far_dirs(const Layout& t, Bitboard w) {
    return pick_dirs(w, t.far_bits);
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

// node_captures through the window of `layout` (the board's own, or NineWindow).
template <class Layout>
inline NodeCaptures node_captures_in_window(const WalkTables& t, const Layout& layout, Square s,
                                            Bitboard open, Bitboard opp) {
    const Bitboard o = window(layout, opp, s);
    const DirMask can = near_dirs(layout, window(layout, open, s)) & t.step_dirs[s];
    return {far_dirs(layout, o) & t.approach_dirs[s] & can,
            rotate4(near_dirs(layout, o)) & t.withdraw_dirs[s] & can};
}

inline NodeCaptures node_captures(const WalkTables& t, Square s, Bitboard open, Bitboard opp) {
    if (t.centre == NineWindow::centre) [[likely]]
        return node_captures_in_window(t, NineWindow{}, s, open, opp);
    if (!t.windowed) [[unlikely]]
        return node_captures_by_table(t, s, open, opp);
    return node_captures_in_window(t, t, s, open, opp);
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
