#include "core/timeman.h"

#include <algorithm>

#include "core/search.h"

namespace fanorona {

void TimeManager::start(const SearchLimits& limits, Color side, int overhead_ms, int max_percent) {
    start_ = limits.given == Clock::time_point{} ? Clock::now() : limits.given;
    const double overhead = overhead_ms / 1000.0;
    timed_ = false;
    clocked_ = false;
    share_seconds_ = deadline_seconds_ = 1e18;
    if (limits.movetime_ms > 0) {
        timed_ = true;
        share_seconds_ = deadline_seconds_ = limits.movetime_ms / 1000.0 - overhead;
    }
    const int s = int(side);
    if (limits.time_ms[s] > 0 && !limits.infinite) {
        timed_ = true;
        const double left = limits.time_ms[s] / 1000.0, inc = limits.inc_ms[s] / 1000.0;
        const double usable = left - overhead;
        const int moves = limits.movestogo > 0 ? limits.movestogo : kClockMoves;
        const double share = std::min(usable / moves + inc * 0.75, usable * 0.5);
        if (share < share_seconds_) {
            clocked_ = true;
            share_seconds_ = share;
            deadline_seconds_ =
                std::min({deadline_seconds_, share * max_percent / 100.0, usable * 0.5});
        }
    }
    if (timed_) {
        share_seconds_ = std::max(0.001, share_seconds_);
        deadline_seconds_ = std::max(share_seconds_, deadline_seconds_);
    }
}

bool TimeManager::stop_after_iteration(int root_moves, int share_percent) const {
    if (!timed_) return false;
    if (root_moves == 1 || deadline_passed()) return true;
    return clocked_ && elapsed() >= share_seconds_ * share_percent / 100.0;
}

} // namespace fanorona
