#pragma once
// The one thread limit of a command (--threads N): while a ThreadLimit lives, no oneTBB step of
// the process (games, opening scoring, feature extraction, fitting) uses more than N threads.

#include <cstddef>
#include <memory>

#include <tbb/global_control.h>

namespace fanorona {

// Holds the limit; 0 (all cores) sets none. Nested limits: the smallest one holds.
class ThreadLimit {
public:
    explicit ThreadLimit(int threads) {
        if (threads > 0)
            control_ = std::make_unique<tbb::global_control>(
                tbb::global_control::max_allowed_parallelism, std::size_t(threads));
    }

private:
    std::unique_ptr<tbb::global_control> control_;
};

} // namespace fanorona
