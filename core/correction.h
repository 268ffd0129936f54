#pragma once
// Correction history: what searches found beyond the static score, remembered by parts of the
// position, and added to the static score of the positions that share those parts (the idea of
// Stockfish's correction histories). Owned by a Searcher; nothing global.

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "core/board/position.h"

namespace fanorona {

// By side to move, two tables: one keyed by the side to move's pieces, one by the other side's
// (each bitboard hashed to kBits bits), in 1 / kGrain centi-pieces. An update moves an entry by
// the difference (search score - corrected static score) at a quiet node, weighted by the depth
// and shrunk as the entry nears the limit; as the difference is taken from the corrected score,
// the entries settle where the differences cancel. Invariant: every entry stays within +-kLimit
// (a correction of at most kLimit / kGrain centi-pieces).
class CorrectionHistory {
public:
    static constexpr int kBits = 14;
    static constexpr int kGrain = 16;
    static constexpr int kLimit = 128 * kGrain;

    // The correction of `pos`'s static score, centi-pieces: the mean of its two entries.
    int correction(const Position& pos) const {
        return (entry(pos, 0) + entry(pos, 1)) / (2 * kGrain);
    }
    // After a search of `pos` to `depth` (> 0) whose score is `diff` centi-pieces above its
    // corrected static score (or below, negative), or bounded so: moves both entries towards it.
    void update(const Position& pos, int diff, int depth) {
        const int bonus = std::clamp(diff * kGrain * depth / 8, -kLimit / 4, kLimit / 4);
        for (int which = 0; which < 2; ++which) {
            std::int16_t& e = entry(pos, which);
            e = std::int16_t(e + bonus - e * std::abs(bonus) / kLimit);
        }
    }
    void clear() { std::fill(table_.begin(), table_.end(), std::int16_t(0)); }

private:
    static std::size_t index(const Position& pos, int which) {
        const Bitboard pieces = which == 0 ? pos.player() : pos.opponent();
        const auto key = std::size_t((pieces * 0x9E3779B97F4A7C15ULL) >> (64 - kBits));
        return ((std::size_t(pos.side_to_move()) * 2 + std::size_t(which)) << kBits) + key;
    }
    std::int16_t entry(const Position& pos, int which) const { return table_[index(pos, which)]; }
    std::int16_t& entry(const Position& pos, int which) { return table_[index(pos, which)]; }

    std::vector<std::int16_t> table_ = std::vector<std::int16_t>(std::size_t(4) << kBits, 0);
};

} // namespace fanorona
