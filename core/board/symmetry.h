#pragma once
// The symmetries of a board: the point maps that carry every line onto a line, so that the rules
// treat a position and its image alike (the same legal turns, the same value). The endgame tables
// fold by them (core/tables/material_index.h); the network trainer adds left-right mirrors of its
// positions (tuner/train_stream.h).

#include <array>
#include <cstdint>

#include "core/board/bitboard.h"
#include "core/board/position.h"

namespace fanorona {

// The symmetries of one board, identity first: the left-right mirror (map[1]), the top-bottom
// mirror (map[2]) and their product (map[3]) on every board (all sizes are odd, so the strong
// points stay strong), and on square boards also the four transpositions and rotations. Each maps
// a point index to a point index (points off the board map to -1).
struct BoardSymmetries {
    int count = 1;
    std::array<std::array<std::int8_t, 64>, 8> map{};
    Bitboard apply(int g, Bitboard bb) const {
        Bitboard out = 0;
        while (bb) out |= Bitboard(1) << map[std::size_t(g)][std::size_t(pop_lsb(bb))];
        return out;
    }
};
const BoardSymmetries& board_symmetries(Variant v);

// The index of the left-right mirror (file x to width - 1 - x, ranks kept) in BoardSymmetries.
inline constexpr int kMirrorFiles = 1;

// `bb`'s points mirrored left to right on board v. Allocates nothing; an involution.
inline Bitboard mirror_files(Bitboard bb, Variant v) {
    return board_symmetries(v).apply(kMirrorFiles, bb);
}

// `p` mirrored left to right: each side's pieces mirrored, the side to move and the turn counters
// kept. The rules are left-right symmetric (every board's width is odd), so the mirror has as
// many legal turns, the mirrored turns, and the same value.
Position mirror_files(const Position& p);

} // namespace fanorona
