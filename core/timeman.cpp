#include "core/timeman.h"

#include <algorithm>

#include "core/search.h"

namespace fanorona {

void TimeManager::start(const SearchLimits& limits, Color side, int overhead_ms) {
    start_ = Clock::now();
    const double overhead = overhead_ms / 1000.0;
    timed_ = false;
    hard_seconds_ = soft_seconds_ = 1e18;
    if (limits.movetime_ms > 0) {
        timed_ = true;
        hard_seconds_ = soft_seconds_ = std::max(0.001, limits.movetime_ms / 1000.0 - overhead);
    }
    const int s = int(side);
    if (limits.time_ms[s] > 0 && !limits.infinite) {
        timed_ = true;
        const double left = limits.time_ms[s] / 1000.0, inc = limits.inc_ms[s] / 1000.0;
        const double usable = std::max(0.001, left - overhead);
        const double soft = std::min(usable / 25 + inc * 0.75, usable * 0.5);
        const double hard = std::min(soft * 4, usable * 0.6);
        soft_seconds_ = std::min(soft_seconds_, std::max(0.001, soft));
        hard_seconds_ = std::min(hard_seconds_, std::max(0.001, hard));
    }
    if (limits.infinite) timed_ = limits.movetime_ms > 0;
}

bool TimeManager::stop_after_iteration(int root_moves) const {
    return timed_ && (elapsed() >= soft_seconds_ * 0.6 || root_moves == 1);
}

} // namespace fanorona
