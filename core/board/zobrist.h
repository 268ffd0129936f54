#pragma once
// Zobrist keys, generated at compile time from a fixed seed (immutable, so safe to share).

#include <array>

#include "core/board/types.h"

namespace fanorona {

struct ZobristKeys {
    std::array<std::array<Key, 64>, 2> piece{}; // [colour][point]
    Key black_to_move = 0;
};

constexpr ZobristKeys make_zobrist_keys() {
    ZobristKeys z;
    std::uint64_t state = 0x9E3779B97F4A7C15ULL ^ 0xFA6020DAULL;
    auto next = [&state]() {
        std::uint64_t r = (state += 0x9E3779B97F4A7C15ULL);
        r = (r ^ (r >> 30)) * 0xBF58476D1CE4E5B9ULL;
        r = (r ^ (r >> 27)) * 0x94D049BB133111EBULL;
        return r ^ (r >> 31);
    };
    for (auto& colour : z.piece)
        for (auto& key : colour) key = next();
    z.black_to_move = next();
    return z;
}

inline constexpr ZobristKeys kZobrist = make_zobrist_keys();

} // namespace fanorona
