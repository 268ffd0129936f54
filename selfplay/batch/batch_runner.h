#pragma once
// Runs many independent games on oneTBB workers, one task per game, and hands the finished games
// to a sink strictly in index order, so the output never depends on the number of threads.

#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

#include "selfplay/game/game_runner.h"

namespace fanorona {

// Set from a signal handler (Ctrl-C, kill): no new game starts; games in flight still finish
// and are written.
std::atomic<bool>& interrupt_flag();
void install_interrupt_handlers();

struct BatchOptions {
    int threads = 0;                         // 0: all cores
    const std::atomic<bool>* stop = nullptr; // when set, no new game starts (e.g. SPRT decided)
};

// Plays `play(i)` for every index in `indices` in parallel and calls `sink` with each result in
// the order of `indices`, from one thread at a time. Stops starting games when interrupt_flag()
// is set or when the sink throws (the first exception is rethrown after the games in flight end).
// Returns the number of games handed to the sink.
std::uint64_t run_batch(const std::vector<std::uint64_t>& indices, const BatchOptions& options,
                        const std::function<PlayedGame(std::uint64_t index)>& play,
                        const std::function<void(PlayedGame&&)>& sink);

// The same for units of several games (a Vela series): `play(u)` returns the unit's games, which
// reach `sink` in the order of `units`, then of the unit's vector. Returns the number of games
// handed to the sink.
std::uint64_t run_unit_batch(const std::vector<std::uint64_t>& units, const BatchOptions& options,
                             const std::function<std::vector<PlayedGame>(std::uint64_t unit)>& play,
                             const std::function<void(PlayedGame&&)>& sink);

} // namespace fanorona
