#pragma once
// Baseline opponents for strength matches: simple, seeded, deterministic move choosers.

#include <cstdint>

#include "core/board/movegen.h"

namespace fanorona {

// A move chosen uniformly (by `seed`) among the legal moves that capture the most pieces; among
// all paika moves when there is no capture. The same arguments give the same move on every
// platform. Throws std::invalid_argument when the side to move has no legal move.
Move greedy_move(const Position& pos, const Rules& rules, std::uint64_t seed);

// A move chosen uniformly (by `seed`) among all legal moves; same guarantees as greedy_move.
Move random_move(const Position& pos, const Rules& rules, std::uint64_t seed);

// The index random_move() picks among the `n` (> 0) legal moves of `pos`, in generation order:
// a chooser for random_playout() (core/board/playout.h).
int random_move_index(const Position& pos, std::uint64_t seed, int n);

} // namespace fanorona
