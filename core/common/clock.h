#pragma once
// Time on the steady clock as the progress lines and reports show it: the seconds since a moment.

#include <chrono>

namespace fanorona {

// Seconds on the steady clock from `t` to now.
inline double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

} // namespace fanorona
