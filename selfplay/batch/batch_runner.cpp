#include "selfplay/batch/batch_runner.h"

#include <csignal>
#include <exception>
#include <map>
#include <mutex>

#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

namespace fanorona {

std::atomic<bool>& interrupt_flag() {
    static std::atomic<bool> flag{false};
    return flag;
}

namespace {
extern "C" void on_interrupt(int sig) {
    interrupt_flag().store(true);
    std::signal(sig, SIG_DFL); // a second Ctrl-C ends the program at once
}
} // namespace

void install_interrupt_handlers() {
    std::signal(SIGINT, on_interrupt);
    std::signal(SIGTERM, on_interrupt);
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
    std::mutex mutex;
    std::map<std::size_t, std::vector<PlayedGame>> pending;
    std::uint64_t handed = 0;
    std::size_t next = 0;
    std::exception_ptr failure;
    std::atomic<bool> failed{false};
    const int threads = options.threads > 0 ? options.threads : tbb::info::default_concurrency();
    tbb::task_arena arena(threads);
    arena.execute([&] {
        tbb::parallel_for(
            tbb::blocked_range<std::size_t>(0, indices.size(), 1),
            [&](const tbb::blocked_range<std::size_t>& range) {
                for (std::size_t slot = range.begin(); slot != range.end(); ++slot) {
                    if (interrupt_flag().load() || failed.load() ||
                        (options.stop && options.stop->load()))
                        return;
                    std::vector<PlayedGame> game;
                    try {
                        game = play(indices[slot]);
                    } catch (...) {
                        std::lock_guard lock(mutex);
                        if (!failure) failure = std::current_exception();
                        failed = true;
                        return;
                    }
                    std::lock_guard lock(mutex);
                    pending.emplace(slot, std::move(game));
                    while (!failed && !pending.empty() && pending.begin()->first == next) {
                        try {
                            for (PlayedGame& g : pending.begin()->second) {
                                sink(std::move(g));
                                ++handed;
                            }
                        } catch (...) {
                            failure = std::current_exception();
                            failed = true;
                            break;
                        }
                        pending.erase(pending.begin());
                        ++next;
                    }
                }
            },
            tbb::simple_partitioner());
    });
    if (failure) std::rethrow_exception(failure);
    return handed;
}

} // namespace fanorona
