#include "core/board/baseline.h"

#include <stdexcept>

namespace fanorona {

namespace {

// SplitMix64 of the seed and the position, so the same seed varies from position to position.
std::uint64_t mix(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

// An index in [0, n) from a 64-bit random value (bias below n / 2^64).
int pick(std::uint64_t r, int n) {
    return int(r % std::uint64_t(n));
}

} // namespace

Move greedy_move(const Position& pos, const Rules& rules, std::uint64_t seed) {
    MoveList list;
    generate_moves(pos, rules, list);
    if (list.empty())
        throw std::invalid_argument("greedy_move: the side to move has no legal move");
    int best = 0, n = 0;
    for (const Move& m : list) {
        const int size = popcount(m.captured);
        if (size > best) best = size, n = 0;
        if (size == best) ++n;
    }
    int k = pick(mix(seed ^ pos.hash()), n);
    for (const Move& m : list)
        if (popcount(m.captured) == best && k-- == 0) return m;
    return list[0]; // unreachable
}

Move random_move(const Position& pos, const Rules& rules, std::uint64_t seed) {
    MoveList list;
    generate_moves(pos, rules, list);
    if (list.empty())
        throw std::invalid_argument("random_move: the side to move has no legal move");
    return list[random_move_index(pos, seed, list.size())];
}

int random_move_index(const Position& pos, std::uint64_t seed, int n) {
    return pick(mix(seed ^ pos.hash()), n);
}

} // namespace fanorona
