#include "selfplay/openings/search_book.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <thread>
#include <tuple>
#include <unordered_set>

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "core/board/notation.h"
#include "core/common/fork_join.h"
#include "core/search.h"
#include "selfplay/openings/remote_scoring.h"

namespace fanorona {

namespace {

// Depth-first over whole turns; a position seen before at the same ply has the same subtree
// and is skipped (its first move order is kept).
void walk(Position& pos, const Rules& rules, int ply, int plies, std::vector<std::string>& line,
          std::vector<std::unordered_set<Key>>& seen, std::vector<ScoredOpening>& out) {
    if (!seen[std::size_t(ply)].insert(pos.hash()).second) return;
    MoveList list;
    generate_moves(pos, rules, list);
    if (ply == plies) {
        if (!list.empty() && !wiped_out(pos)) out.push_back({line, pos, 0, 0});
        return;
    }
    for (const Move& m : list) {
        line.push_back(move_to_string(pos, rules, m));
        const UndoInfo undo = pos.make_move(m);
        walk(pos, rules, ply + 1, plies, line, seen, out);
        pos.unmake_move(m, undo);
        line.pop_back();
    }
}

} // namespace

std::vector<ScoredOpening> enumerate_openings(const Rules& rules, int plies) {
    std::vector<ScoredOpening> out;
    std::vector<std::unordered_set<Key>> seen(std::size_t(plies) + 1);
    std::vector<std::string> line;
    Position pos = Position::start(rules.variant);
    walk(pos, rules, 0, plies, line, seen, out);
    return out;
}

void score_opening(Searcher& searcher, const OpeningScoring& scoring, ScoredOpening& o) {
    searcher.clear(); // a fresh table for each position: results independent of order
    Game game(scoring.rules, Position::start(scoring.rules.variant));
    for (const auto& m : o.moves) game.play(m);
    SearchLimits limits;
    limits.depth = scoring.depth;
    const SearchResult r = searcher.search(game, limits);
    o.score = o.position.side_to_move() == Color::White ? r.score : -r.score;
    o.depth = r.depth;
}

void score_openings(std::vector<ScoredOpening>& openings, const OpeningScoring& scoring) {
    tbb::enumerable_thread_specific<Searcher> searchers([&] {
        Searcher s(scoring.hash_mb);
        s.set_weights(scoring.weights);
        return s;
    });
    // Positions are claimed in order, one at a time here, in blocks by the other ranks.
    std::atomic<std::size_t> next{0};
    const auto claim = [&](std::size_t n) {
        const std::size_t first = std::min(next.fetch_add(n), openings.size());
        return std::pair{first, std::min(first + n, openings.size())};
    };
    std::exception_ptr remote_failure;
    std::thread remote;
    if (const RemoteScorer& scorer = remote_scorer(); scorer.available && scorer.available())
        remote = std::thread([&] {
            try {
                scorer.score(openings, scoring, claim);
            } catch (...) {
                remote_failure = std::current_exception();
            }
        });
    tbb::task_arena arena(scoring.threads > 0 ? scoring.threads : tbb::task_arena::automatic);
    const ForkJoin fork_join; // what TSan cannot see inside libtbb (core/common/fork_join.h)
    try {
        arena.execute([&] {
            tbb::parallel_for(0, arena.max_concurrency(), fork_join.body([&](int) {
                for (auto [i, end] = claim(1); i < end; std::tie(i, end) = claim(1))
                    score_opening(searchers.local(), scoring, openings[i]);
            }));
        });
        fork_join.joined();
    } catch (...) {
        fork_join.joined();
        next = openings.size(); // the other ranks get no more
        if (remote.joinable()) remote.join();
        throw;
    }
    if (remote.joinable()) remote.join();
    if (remote_failure) std::rethrow_exception(remote_failure);
}

std::vector<BookEntry> balanced_search_book(const std::vector<ScoredOpening>& openings,
                                            ScoreRange range) {
    std::vector<std::size_t> kept;
    for (std::size_t i = 0; i < openings.size(); ++i)
        if (range.contains(openings[i].score)) kept.push_back(i);
    std::stable_sort(kept.begin(), kept.end(), [&](std::size_t a, std::size_t b) {
        return std::abs(openings[a].score) < std::abs(openings[b].score);
    });
    std::vector<BookEntry> out;
    for (std::size_t i : kept) {
        const ScoredOpening& o = openings[i];
        std::string line;
        for (const auto& m : o.moves) line += (line.empty() ? "" : " ") + m;
        char comment[64];
        std::snprintf(comment, sizeof comment, "search depth=%d score=%+d", o.depth, o.score);
        out.push_back({line.empty() ? o.position.to_string() : line, comment});
    }
    return out;
}

} // namespace fanorona
