#include "selfplay/games/batch_runner.h"

#include <exception>
#include <map>
#include <mutex>
#include <thread>

#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "core/common/fork_join.h"

namespace fanorona {

std::pair<std::size_t, std::size_t> BatchQueue::claim(std::size_t n) {
    std::lock_guard lock(mutex_);
    if (stopping() || claimed_ >= indices_.size()) return {claimed_, claimed_};
    const std::size_t first = claimed_;
    claimed_ = std::min(indices_.size(), claimed_ + std::max<std::size_t>(n, 1));
    return {first, claimed_};
}

void BatchQueue::deliver(std::size_t position, PlayedGame&& game) {
    std::vector<PlayedGame> unit;
    unit.push_back(std::move(game));
    deliver(position, std::move(unit));
}

void BatchQueue::deliver(std::size_t position, std::vector<PlayedGame>&& unit) {
    std::lock_guard lock(mutex_);
    pending_.emplace(position, std::move(unit));
    while (!failed_ && !pending_.empty() && pending_.begin()->first == next_) {
        try {
            for (PlayedGame& g : pending_.begin()->second) {
                sink_(std::move(g));
                ++handed_;
            }
        } catch (...) {
            if (!failure_) failure_ = std::current_exception();
            failed_ = true;
            break;
        }
        pending_.erase(pending_.begin());
        ++next_;
    }
}

void BatchQueue::fail(std::exception_ptr failure) {
    std::lock_guard lock(mutex_);
    if (!failure_) failure_ = failure;
    failed_ = true;
}

bool BatchQueue::stopping() const {
    return interrupt_flag().load() || failed_.load() || (options_.stop && options_.stop->load());
}

std::uint64_t BatchQueue::delivered() const {
    std::lock_guard lock(mutex_);
    return handed_;
}

void BatchQueue::rethrow_failure() const {
    std::lock_guard lock(mutex_);
    if (failure_) std::rethrow_exception(failure_);
}

std::uint64_t run_batch(const std::vector<std::uint64_t>& indices, const BatchOptions& options,
                        const std::function<PlayedGame(std::uint64_t index)>& play,
                        const std::function<void(PlayedGame&&)>& sink) {
    return run_unit_batch(
        indices, options,
        [&play](std::uint64_t index) {
            std::vector<PlayedGame> one;
            one.push_back(play(index));
            return one;
        },
        sink);
}

std::uint64_t run_unit_batch(const std::vector<std::uint64_t>& indices, const BatchOptions& options,
                             const std::function<std::vector<PlayedGame>(std::uint64_t unit)>& play,
                             const std::function<void(PlayedGame&&)>& sink) {
    BatchQueue queue(indices, options, sink);
    std::thread remote;
    if (options.remote)
        remote = std::thread([&] {
            try {
                options.remote->serve(queue);
            } catch (...) {
                queue.fail(std::current_exception());
            }
        });
    const int threads = options.threads > 0 ? options.threads : tbb::info::default_concurrency();
    tbb::task_arena arena(threads);
    const ForkJoin fork_join; // what TSan cannot see inside libtbb (core/common/fork_join.h)
    arena.execute(fork_join.body([&] {
        tbb::parallel_for(tbb::blocked_range<std::size_t>(0, indices.size(), 1),
                          fork_join.body([&](const tbb::blocked_range<std::size_t>& range) {
                              for (std::size_t slot = range.begin(); slot != range.end(); ++slot) {
                                  // Each task plays the next unclaimed game, so that remote ranks
                                  // and local workers share one list.
                                  const auto [position, end] = queue.claim(1);
                                  if (position == end) return;
                                  try {
                                      queue.deliver(position, play(indices[position]));
                                  } catch (const Interrupted&) {
                                      return; // the game in flight is abandoned, not written
                                  } catch (...) {
                                      queue.fail(std::current_exception());
                                      return;
                                  }
                              }
                          }),
                          tbb::simple_partitioner());
    }));
    fork_join.joined();
    if (remote.joinable()) remote.join();
    queue.rethrow_failure();
    return queue.delivered();
}

} // namespace fanorona
