#pragma once
// Time management of one search: from the limits (movetime, clocks and increments) and the
// MoveOverheadMs parameter, a hard deadline checked during the search and a soft one that
// decides whether another iteration of iterative deepening starts.

#include <chrono>

#include "core/types.h"

namespace fanorona {

struct SearchLimits;

// The clock and deadlines of the current search. Invariant: when not timed(), the deadlines are
// never reached; soft_seconds <= hard_seconds except with movetime, where both are equal.
class TimeManager {
public:
    // Starts the clock for a search by `side` under `limits`, keeping `overhead_ms` back.
    void start(const SearchLimits& limits, Color side, int overhead_ms);

    bool timed() const { return timed_; }
    double elapsed() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }
    // True once the hard deadline has passed: the search must stop now.
    bool hard_deadline_passed() const { return timed_ && elapsed() >= hard_seconds_; }
    // After a completed iteration: true when another should not start, because it could not
    // finish in the soft budget (past 60% of it) or because the root has a single move.
    bool stop_after_iteration(int root_moves) const;

private:
    using Clock = std::chrono::steady_clock;
    Clock::time_point start_;
    bool timed_ = false;
    double soft_seconds_ = 1e18, hard_seconds_ = 1e18;
};

} // namespace fanorona
