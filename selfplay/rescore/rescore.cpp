#include "selfplay/rescore/rescore.h"

#include <algorithm>
#include <exception>
#include <mutex>
#include <thread>

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "core/common/fork_join.h"
#include "core/common/memory.h"
#include "selfplay/games/batch_runner.h"

namespace fanorona {

bool rescored(const CorpusGame& game, std::size_t ply, bool all) {
    if (ply < game.moves.size()) return all || game.scores[ply].has_value();
    return ply == game.moves.size() && game.end_score.has_value();
}

CorpusGame rescore_game(const CorpusGame& game, const Rules& corpus_rules,
                        const RescoreSettings& settings, Searcher& searcher, RescoreCount& count) {
    Rules rules = corpus_rules;
    rules.ruleset = game.ruleset;
    settings.engine.configure(searcher, rules);
    searcher.clear();
    const SearchLimits limits = settings.engine.search_limits();
    CorpusGame out = game;
    Game played(rules, game.start);
    const auto search = [&] {
        const SearchResult r = searcher.search(played, limits);
        ++count.positions;
        count.nodes += r.nodes;
        return std::optional<int>(r.score);
    };
    for (std::size_t i = 0; i < game.moves.size(); ++i) {
        out.scores[i] = rescored(game, i, settings.all) ? search() : std::nullopt;
        played.play(game.moves[i]);
    }
    if (rescored(game, game.moves.size(), settings.all)) out.end_score = search();
    return out;
}

struct GameRescorer::Impl {
    Rules rules;
    RescoreSettings settings;
    int threads;
    tbb::task_arena arena;
    // Each worker's searcher, made on its first game (with the spec's hash size).
    tbb::enumerable_thread_specific<std::unique_ptr<Searcher>> searchers;

    Impl(const Rules& r, const RescoreSettings& s, int t)
        : rules(r), settings(s), threads(t > 0 ? t : tbb::info::default_concurrency()),
          arena(threads) {}

    Searcher& searcher() {
        std::unique_ptr<Searcher>& s = searchers.local();
        if (!s) {
            const std::size_t mb = settings.engine.hash_mb;
            allocate_for("--hash " + std::to_string(mb), std::uint64_t(mb) << 20,
                         [&] { s = std::make_unique<Searcher>(mb); });
        }
        return *s;
    }
};

GameRescorer::GameRescorer(const Rules& corpus_rules, const RescoreSettings& settings, int threads)
    : impl_(std::make_unique<Impl>(corpus_rules, settings, threads)) {}

GameRescorer::~GameRescorer() = default;

std::size_t GameRescorer::rescore(const std::vector<CorpusGame>& games,
                                  std::vector<CorpusGame>& results,
                                  const RescoreProgress& on_done) {
    results.assign(games.size(), CorpusGame{});
    std::mutex mutex; // guards claimed, failure and on_done
    std::size_t claimed = 0;
    std::exception_ptr failure;
    const RescoreClaim claim = [&](std::size_t n) -> std::pair<std::size_t, std::size_t> {
        std::lock_guard lock(mutex);
        if (failure || interrupt_flag().load() || claimed >= games.size())
            return {claimed, claimed};
        const std::size_t first = claimed;
        claimed = std::min(games.size(), claimed + std::max<std::size_t>(n, 1));
        return {first, claimed};
    };
    const RescoreDeliver deliver = [&](std::size_t k, CorpusGame&& game,
                                       const RescoreCount& count) {
        results.at(k) = std::move(game);
        std::lock_guard lock(mutex);
        try {
            if (on_done) on_done(k, count);
        } catch (...) {
            // A failed write: no game starts after it (and the other ranks finish their blocks).
            if (!failure) failure = std::current_exception();
        }
    };
    const auto fail = [&](std::exception_ptr e) {
        std::lock_guard lock(mutex);
        if (!failure) failure = e;
    };

    // The other ranks claim blocks of the same list on a thread of their own.
    std::thread remote;
    const RemoteRescorer& link = remote_rescorer();
    if (link.available && link.rescore && link.available())
        remote = std::thread([&] {
            try {
                link.rescore(games, impl_->rules, impl_->settings, impl_->threads, claim, deliver);
            } catch (...) {
                fail(std::current_exception());
            }
        });
    const ForkJoin fork_join; // what TSan cannot see inside libtbb (core/common/fork_join.h)
    impl_->arena.execute(fork_join.body([&] {
        tbb::parallel_for(tbb::blocked_range<std::size_t>(0, games.size(), 1),
                          fork_join.body([&](const tbb::blocked_range<std::size_t>& range) {
                              for (std::size_t slot = range.begin(); slot != range.end(); ++slot) {
                                  // Each task takes the next game not claimed yet, so that remote
                                  // ranks and local workers share one list.
                                  const auto [k, end] = claim(1);
                                  if (k == end) return;
                                  try {
                                      RescoreCount count;
                                      CorpusGame g =
                                          rescore_game(games[k], impl_->rules, impl_->settings,
                                                       impl_->searcher(), count);
                                      deliver(k, std::move(g), count);
                                  } catch (...) {
                                      fail(std::current_exception());
                                      return;
                                  }
                              }
                          }),
                          tbb::simple_partitioner());
    }));
    fork_join.joined();
    if (remote.joinable()) remote.join();
    if (failure) std::rethrow_exception(failure);
    return claimed;
}

} // namespace fanorona
