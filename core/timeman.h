#pragma once
// Time management of one search: from the limits (movetime, clocks and increments) and the
// MoveOverheadMs parameter, one deadline. Iterative deepening goes on until it; the search checks
// it every kTimeCheckNodes nodes and stops there, keeping the best move found so far (search.h).

#include <chrono>

#include "core/board/types.h"

namespace fanorona {

struct SearchLimits;

// The toolkit's time margins, in milliseconds, each defined here once: what an engine keeps back
// when it budgets a move, and what referees forgive.
struct TimeMargins {
    // An engine keeps this back from each timed move for its reply to travel (the default of the
    // MoveOverheadMs search parameter, core/search_params.cpp).
    static constexpr int kEngineOverheadMs = 3;
    // A clock may run this far below zero before its player loses on time (TimeControl,
    // selfplay/engine/player.h).
    static constexpr int kClockGraceMs = 100;
    // A tournament waits this long past a timed move's time (its movetime, or all its clock) for
    // an external engine's bestmove before the engine forfeits
    // (selfplay/engine/external_player.cpp).
    static constexpr int kReplyGraceMs = 1000;
    // `fanorona timeuse` waits this long past the movetime before it gives up on an engine: it
    // measures overruns, so only a far longer wait is a failure (tools/timeuse).
    static constexpr int kMeasureGraceMs = 5000;
};

// Nodes between two looks at the clock (a power of two; a few microseconds of search).
inline constexpr unsigned kTimeCheckNodes = 256;

// The clock, budget and deadline of the current search. Invariant: when not timed(), the
// deadline is never reached; when timed, 1 ms <= budget() <= deadline().
class TimeManager {
public:
    // Starts the clock for a search by `side` under `limits` (at limits.given when set, else
    // now), keeping `overhead_ms` back for communication. Movetime: the deadline is movetime -
    // overhead. Clocks: the share of this move is the time left minus the overhead, divided by
    // the turns to the next time control (limits.movestogo) when given, else by kClockMoves, plus
    // 3/4 of the increment, at most half of what is left; the deadline is `max_percent` of the
    // share (100: the share itself), at most half of what is left. Both given: the earlier.
    // `infinite` ignores the clocks (analysis), not a movetime.
    void start(const SearchLimits& limits, Color side, int overhead_ms, int max_percent = 100);

    static constexpr int kClockMoves = 25; // a clock's time is shared out over this many moves

    bool timed() const { return timed_; }
    double elapsed() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }
    // The time this search should use, in seconds: the movetime's deadline, or the clock's
    // share (meaningless when not timed()).
    double budget() const { return share_seconds_; }
    // The time after which the search stops, even inside an iteration, in seconds.
    double deadline() const { return deadline_seconds_; }
    // True once the deadline has passed: the search must stop now.
    bool deadline_passed() const { return timed_ && elapsed() >= deadline_seconds_; }
    // After a completed iteration: true when no other should start, because the deadline has
    // passed, the root has a single move, or (on a clock) `share_percent` of the share has
    // passed: the search scales the share by how settled its best move is.
    bool stop_after_iteration(int root_moves, int share_percent = 100) const;

private:
    using Clock = std::chrono::steady_clock;
    Clock::time_point start_;
    bool timed_ = false;
    bool clocked_ = false; // the clock's share, not a movetime, sets the budget
    double share_seconds_ = 1e18;
    double deadline_seconds_ = 1e18;
};

} // namespace fanorona
