#pragma once
// Runs many independent games on oneTBB workers (and, under MPI, on other ranks), and hands the
// finished games to a sink strictly in index order, so the output never depends on the number
// of threads or ranks.

#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

#include "selfplay/engine/interrupt.h"
#include "selfplay/games/game_runner.h"

namespace fanorona {

class BatchQueue;

// Other processes that play games of the batch (the ranks of an MPI job): serve() runs on its own
// thread while the local workers play, claims blocks of positions from the queue for the remote
// workers and delivers their games; it returns once every block it claimed is delivered and the
// queue has nothing more to hand out.
class RemotePlayers {
public:
    virtual ~RemotePlayers() = default;
    virtual void serve(BatchQueue& queue) = 0;
    // The processes that play the games, this one included (a game's PlayedGame::rank < ranks()).
    virtual int ranks() const = 0;
};

struct BatchOptions {
    int threads = 0;                         // 0: all cores
    const std::atomic<bool>* stop = nullptr; // when set, no new game starts (e.g. SPRT decided)
    RemotePlayers* remote = nullptr;         // other ranks sharing the batch, or none
};

// The shared state of one batch. Positions of `indices` are claimed (locally one at a time,
// remotely in blocks) and each claimed position is delivered exactly once, as one game or as the
// games of a unit (a Vela series); the sink receives the games in position order (a unit's in
// its order), from one thread at a time. Invariant: next_ <= claimed_.
class BatchQueue {
public:
    BatchQueue(const std::vector<std::uint64_t>& indices, const BatchOptions& options,
               const std::function<void(PlayedGame&&)>& sink)
        : indices_(indices), options_(options), sink_(sink) {}

    const std::vector<std::uint64_t>& indices() const { return indices_; }
    // Claims up to n positions [first, last); an empty range when no game should start (all
    // claimed, interrupted, stopped, or a failure).
    std::pair<std::size_t, std::size_t> claim(std::size_t n);
    // Hands a finished game (or unit of games) in; the sink gets it once every earlier position
    // is in.
    void deliver(std::size_t position, PlayedGame&& game);
    void deliver(std::size_t position, std::vector<PlayedGame>&& unit);
    // Records the first failure; no new game starts after it.
    void fail(std::exception_ptr failure);
    bool stopping() const;
    std::uint64_t delivered() const; // games handed to the sink
    void rethrow_failure() const;

private:
    const std::vector<std::uint64_t>& indices_;
    BatchOptions options_;
    const std::function<void(PlayedGame&&)>& sink_;
    mutable std::mutex mutex_;
    std::map<std::size_t, std::vector<PlayedGame>> pending_;
    std::size_t claimed_ = 0, next_ = 0;
    std::uint64_t handed_ = 0;
    std::exception_ptr failure_;
    std::atomic<bool> failed_{false};
};

// Plays `play(i)` for every index in `indices` in parallel and calls `sink` with each result in
// the order of `indices`, from one thread at a time. Stops starting games when interrupt_flag()
// is set, when options.stop is set, or when play or the sink throws (the first exception is
// rethrown after the games in flight end). Returns the number of games handed to the sink.
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
