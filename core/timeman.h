#pragma once
// Time management of one search: from the limits (movetime, clocks and increments) and the
// MoveOverheadMs parameter, one deadline. Iterative deepening goes on until it; the search checks
// it every kTimeCheckNodes nodes and stops there, keeping the best move found so far (search.h).

#include <chrono>

#include "core/types.h"

namespace fanorona {

struct SearchLimits;

// Nodes between two looks at the clock (a power of two; a few microseconds of search).
inline constexpr unsigned kTimeCheckNodes = 256;

// The clock and deadline of the current search. Invariant: when not timed(), the deadline is
// never reached; when timed, it is at least 1 ms after start().
class TimeManager {
public:
    // Starts the clock for a search by `side` under `limits` (at limits.given when set, else
    // now), keeping `overhead_ms` back for communication. Movetime: the deadline is movetime -
    // overhead. Clocks: the time left minus the overhead, divided by kClockMoves, plus 3/4 of the
    // increment, at most half of what is left. Both given: the earlier. `infinite` ignores the
    // clocks (analysis), not a movetime.
    void start(const SearchLimits& limits, Color side, int overhead_ms);

    static constexpr int kClockMoves = 25; // a clock's time is shared out over this many moves

    bool timed() const { return timed_; }
    double elapsed() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }
    // The time this search may use, in seconds (meaningless when not timed()).
    double budget() const { return deadline_seconds_; }
    // True once the deadline has passed: the search must stop now.
    bool deadline_passed() const { return timed_ && elapsed() >= deadline_seconds_; }
    // After a completed iteration: true when no other should start, because the deadline has
    // passed or the root has a single move.
    bool stop_after_iteration(int root_moves) const;

private:
    using Clock = std::chrono::steady_clock;
    Clock::time_point start_;
    bool timed_ = false;
    double deadline_seconds_ = 1e18;
};

} // namespace fanorona
