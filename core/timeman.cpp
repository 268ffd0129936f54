#include "core/timeman.h"

#include <algorithm>

#include "core/search.h"

namespace fanorona {

void TimeManager::start(const SearchLimits& limits, Color side, int overhead_ms) {
    start_ = limits.given == Clock::time_point{} ? Clock::now() : limits.given;
    const double overhead = overhead_ms / 1000.0;
    timed_ = false;
    deadline_seconds_ = 1e18;
    if (limits.movetime_ms > 0) {
        timed_ = true;
        deadline_seconds_ = limits.movetime_ms / 1000.0 - overhead;
    }
    const int s = int(side);
    if (limits.time_ms[s] > 0 && !limits.infinite) {
        timed_ = true;
        const double left = limits.time_ms[s] / 1000.0, inc = limits.inc_ms[s] / 1000.0;
        const double usable = left - overhead;
        const int moves = limits.movestogo > 0 ? limits.movestogo : kClockMoves;
        const double share = std::min(usable / moves + inc * 0.75, usable * 0.5);
        deadline_seconds_ = std::min(deadline_seconds_, share);
    }
    if (timed_) deadline_seconds_ = std::max(0.001, deadline_seconds_);
}

bool TimeManager::stop_after_iteration(int root_moves) const {
    return timed_ && (root_moves == 1 || deadline_passed());
}

} // namespace fanorona
