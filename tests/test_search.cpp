// Tests of the search: exact results in small endings, draws by rule, determinism, limits,
// no allocation per node, the parameter table and the baseline movers.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <new>
#include <thread>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "core/bench.h"
#include "core/board/baseline.h"
#include "core/board/movegen.h"
#include "core/board/notation.h"
#include "core/search.h"
#include "core/weights.h"

// Every allocation of the test program is counted, to check that searching allocates nothing
// per node.
namespace {
std::atomic<std::uint64_t> g_allocations{0};
}

void* operator new(std::size_t size) {
    g_allocations.fetch_add(1, std::memory_order_relaxed);
    if (void* p = std::malloc(size ? size : 1)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t size) {
    g_allocations.fetch_add(1, std::memory_order_relaxed);
    if (void* p = std::malloc(size ? size : 1)) return p;
    throw std::bad_alloc();
}
// The replacements of operator delete are kept out of line: inlined into a caller, their free()
// would meet the library's operator new there and GCC 12 would report a mismatched pair
// (-Wmismatched-new-delete), though here new and delete are both malloc and free.
[[gnu::noinline]] void operator delete(void* p) noexcept {
    std::free(p);
}
[[gnu::noinline]] void operator delete[](void* p) noexcept {
    std::free(p);
}
[[gnu::noinline]] void operator delete(void* p, std::size_t) noexcept {
    std::free(p);
}
[[gnu::noinline]] void operator delete[](void* p, std::size_t) noexcept {
    std::free(p);
}
// The nothrow forms too, so that every allocation and release goes through malloc/free (a
// sanitizer reports a mismatch otherwise).
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
    g_allocations.fetch_add(1, std::memory_order_relaxed);
    return std::malloc(size ? size : 1);
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
    g_allocations.fetch_add(1, std::memory_order_relaxed);
    return std::malloc(size ? size : 1);
}
[[gnu::noinline]] void operator delete(void* p, const std::nothrow_t&) noexcept {
    std::free(p);
}
[[gnu::noinline]] void operator delete[](void* p, const std::nothrow_t&) noexcept {
    std::free(p);
}

using namespace fanorona;

namespace {

// Exact game value by plain minimax to `depth` plies: kWinScore - n for a win in n plies,
// -(kWinScore - n) for a loss in n plies, 0 when neither is forced within the depth.
int solve(Position& pos, const Rules& rules, int depth, int ply = 0) {
    if (!pos.player()) return -(kWinScore - ply);
    MoveList list;
    generate_moves(pos, rules, list);
    if (list.empty()) return -(kWinScore - ply);
    if (depth == 0) return 0;
    int best = -kInfiniteScore;
    for (const Move& m : list) {
        const UndoInfo undo = pos.make_move(m);
        best = std::max(best, -solve(pos, rules, depth - 1, ply + 1));
        pos.unmake_move(m, undo);
    }
    return best;
}

Rules rules_for(Variant v) {
    Rules r;
    r.variant = v;
    return r;
}

// A random position of `nw` white and `nb` black pieces (White to move), drawn with `next`.
template <class Rng> Position random_ending(Variant v, int nw, int nb, Rng& next) {
    const Geometry& g = geometry(v);
    Bitboard white = 0, black = 0;
    while (popcount(white) < nw) white |= bit(make_square(next() % g.width, next() % g.height));
    while (popcount(black) < nb) {
        const Bitboard b = bit(make_square(next() % g.width, next() % g.height));
        if (!(b & white)) black |= b;
    }
    return Position::from_pieces(v, white, black, Color::White);
}

// Calls on_ending(game, exact) for `count` random 5x9 positions of 3 white against 2 black
// pieces (White to move, the game not over), drawn from `seed`; `exact` is solve() to 4 plies.
template <class OnEnding>
void for_each_small_ending(const Rules& rules, std::uint64_t seed, int count, OnEnding on_ending) {
    std::uint64_t state = seed;
    auto next = [&] {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return state >> 33;
    };
    for (int checked = 0; checked < count;) {
        Position pos = random_ending(Variant::Tsivy, 3, 2, next);
        const Game game(rules, pos);
        if (game.outcome().over()) continue;
        ++checked;
        on_ending(game, solve(pos, rules, 4));
    }
}

SearchResult search_depth(const Game& game, int depth, Searcher* searcher = nullptr) {
    Searcher local(1);
    SearchLimits limits;
    limits.depth = depth;
    return (searcher ? *searcher : local).search(game, limits);
}

} // namespace

TEST_CASE("A forced capture of every piece is found with its exact distance", "[search]") {
    struct Case {
        const char* position;
        int plies;
    };
    const Case cases[] = {
        {"9/9/1W7/1W7/3B5 w", 3}, {"9/9/W5W2/9/3BB4 w", 3}, {"9/5W2W/9/9/2W2B3 w", 3},
        {"6W2/W3B4/9/9/W8 w", 5}, {"B3W4/9/9/9/9 w", 5},    {"9/W7W/9/9/B8 w", 5},
    };
    const Rules rules = rules_for(Variant::Tsivy);
    for (const Case& c : cases) {
        INFO(c.position);
        Position pos = Position::from_string(c.position, Variant::Tsivy);
        REQUIRE(solve(pos, rules, c.plies) == kWinScore - c.plies);
        REQUIRE(solve(pos, rules, c.plies - 1) == 0); // no shorter win
        const Game game(rules, pos);
        const SearchResult r = search_depth(game, 8);
        CHECK(r.score == kWinScore - c.plies);
        CHECK(is_decisive(r.score));
        CHECK(plies_to_end(r.score) == c.plies);
        // Playing the principal variation out captures every black piece.
        Game line = game;
        for (const Move& m : r.pv) line.play(m);
        CHECK(line.outcome().result == GameResult::WhiteWins);
        CHECK(line.outcome().reason == EndReason::CaptureAll);
    }
}

TEST_CASE("Search agrees with exact minimax in random small endings", "[search]") {
    for (Variant v : {Variant::Tsivy, Variant::Dimy}) {
        const Rules rules = rules_for(v);
        std::uint64_t state = 12345;
        auto next = [&] {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            return state >> 33;
        };
        int checked = 0, decisive = 0;
        while (checked < 40) {
            const int nw = 1 + int(next() % 3), nb = 1 + int(next() % 3);
            Position pos = random_ending(v, nw, nb, next);
            const Game game(rules, pos);
            if (game.outcome().over()) continue;
            ++checked;
            const int exact = solve(pos, rules, 4);
            const SearchResult r = search_depth(game, 6);
            INFO(pos.to_string() << " exact " << exact << " search " << r.score);
            if (exact != 0) {
                ++decisive;
                CHECK(r.score == exact);
            } else {
                // No forced result within 4 plies: a decisive score must be beyond 4 plies.
                if (is_decisive(r.score)) CHECK(std::abs(plies_to_end(r.score)) > 4);
            }
        }
        CHECK(decisive >= 5);
    }
}

TEST_CASE("The only move that does not lose, a quiet one, is found", "[search]") {
    struct Case {
        Variant variant;
        const char* position;
        const char* move;
    };
    const Case cases[] = {
        {Variant::Tsivy, "5W3/7B1/9/5B1B1/5W3 w", "f5e5"},
        {Variant::Tsivy, "5B3/9/9/4WWBB1/9 w", "e2d2"},
        {Variant::Tsivy, "W2B5/2B6/9/3B5/3W5 w", "d1e1"},
        {Variant::Dimy, "1W3/5/2B2/3B1/1B2W w", "b5b4"},
        {Variant::Dimy, "5/WB3/1B3/2W2/B4 w", "c2b2"},
    };
    for (const Case& c : cases) {
        INFO(c.position);
        const Rules rules = rules_for(c.variant);
        Position pos = Position::from_string(c.position, c.variant);
        const Move only = parse_move(pos, rules, c.move);
        REQUIRE_FALSE(only.is_capture());
        // The premise, checked exactly: every other move loses within 4 plies, this one does not.
        MoveList list;
        generate_moves(pos, rules, list);
        for (const Move& m : list) {
            const UndoInfo undo = pos.make_move(m);
            const int value = -solve(pos, rules, 3, 1);
            pos.unmake_move(m, undo);
            if (m == only)
                REQUIRE(value > -(kWinScore - kMaxPly));
            else
                REQUIRE(value < -(kWinScore - kMaxPly));
        }
        const SearchResult r = search_depth(Game(rules, pos), 8);
        CHECK(r.best == only);
        CHECK_FALSE(is_decisive(r.score));
    }
}

TEST_CASE("The search sees a draw by repetition", "[search]") {
    const Rules rules = rules_for(Variant::Dimy);
    const Position start = Position::from_string("4B/5/5/5/WWW2 w", Variant::Dimy);
    Game game(rules, start);
    for (const char* m : {"a1a2", "e5e4", "a2a1", "e4e5", "a1a2", "e5e4", "a2a1"}) game.play(m);
    REQUIRE_FALSE(game.outcome().over());
    // Black, two pieces down, can repeat the position a third time.
    const SearchResult r = search_depth(game, 4);
    CHECK(move_to_string(game.position(), rules, r.best) == "e4e5");
    CHECK(r.score == 0);
    // Without the history the same position is simply lost material.
    const SearchResult fresh = search_depth(Game(rules, game.position()), 4);
    CHECK(fresh.score < -100);
}

TEST_CASE("The search sees a draw by the no-capture limit", "[search]") {
    const Rules rules = rules_for(Variant::Dimy);
    const Game at_limit(rules, Position::from_string("4B/5/5/5/WWW2 b 99 20", Variant::Dimy));
    const Game early(rules, Position::from_string("4B/5/5/5/WWW2 b 0 20", Variant::Dimy));
    CHECK(search_depth(at_limit, 5).score == 0);
    CHECK(search_depth(early, 5).score < -100);
    // The side ahead sees the draw coming one turn earlier.
    const Game white(rules, Position::from_string("4B/5/5/5/WWW2 w 99 20", Variant::Dimy));
    CHECK(search_depth(white, 5).score == 0);
}

TEST_CASE("Near the no-capture limit the table does not mix counters", "[search]") {
    // 4 against 2, quiet. A searcher that has just searched the position with a fresh counter
    // must score it near the limit exactly as a fresh searcher does.
    const Rules rules = rules_for(Variant::Tsivy);
    const char* board = "1B7/3WW2W1/9/9/1W2B4"; // from data/endings/4v2.txt
    const Game fresh_counter(rules,
                             Position::from_string(std::string(board) + " w 0 30", Variant::Tsivy));
    const Game near_limit(rules,
                          Position::from_string(std::string(board) + " w 96 30", Variant::Tsivy));
    // The correction history (core/correction.h) carries from search to search by design and
    // keys on the pieces alone; it is off here, where the table's keys are under test.
    Searcher used(4);
    used.params().set(Param::CorrHistory, 0);
    search_depth(fresh_counter, 7, &used);
    const SearchResult after = search_depth(near_limit, 6, &used);
    Searcher clean(4);
    clean.params().set(Param::CorrHistory, 0);
    const SearchResult alone = search_depth(near_limit, 6, &clean);
    CHECK(after.score == alone.score);
    CHECK(after.best == alone.best);
}

TEST_CASE("A stopped iteration answers with its best move once a root move is searched fully",
          "[search]") {
    // Node limits stop the search at an exact node, so these results are reproducible.
    bool changed_move = false;
    for (const BenchPosition& b : bench_positions()) {
        const Game game(rules_for(b.variant), Position::from_string(b.position, b.variant));
        MoveList legal;
        generate_moves(game.position(), game.rules(), legal);
        Searcher searcher(4);
        std::vector<IterationInfo> done;
        SearchLimits deep;
        deep.depth = 5;
        searcher.search(game, deep, [&](const IterationInfo& i) { done.push_back(i); });
        REQUIRE(done.size() == 5);
        for (int d = 1; d < 5; ++d) {
            const std::uint64_t lo = done[std::size_t(d - 1)].nodes,
                                hi = done[std::size_t(d)].nodes;
            // One node into iteration d + 1: nothing of it is searched; iteration d answers.
            SearchLimits limits;
            limits.nodes = lo + 1;
            searcher.clear();
            SearchResult r = searcher.search(game, limits);
            CHECK(r.depth == d);
            CHECK_FALSE(r.partial);
            CHECK(r.best == done[std::size_t(d - 1)].pv[0]);
            // Further in: a legal move, the completed depth, a PV starting with the move.
            for (int k = 1; k < 8; ++k) {
                limits.nodes = lo + (hi - lo) * std::uint64_t(k) / 8;
                searcher.clear();
                r = searcher.search(game, limits);
                CHECK(r.depth == d);
                CHECK(std::find(legal.begin(), legal.end(), r.best) != legal.end());
                REQUIRE_FALSE(r.pv.empty());
                CHECK(r.pv[0] == r.best);
                if (r.partial && r.best != done[std::size_t(d - 1)].pv[0]) changed_move = true;
            }
        }
    }
    // Somewhere an unfinished iteration had already found a better move than the last one.
    CHECK(changed_move);
}

TEST_CASE("Searches with depth and node limits are deterministic", "[search]") {
    for (Variant v : {Variant::Tsivy, Variant::Dimy}) {
        const Game game(rules_for(v), Position::start(v));
        Searcher a(4), b(4);
        SearchLimits limits;
        limits.depth = 6;
        const SearchResult ra = a.search(game, limits);
        const SearchResult rb = b.search(game, limits);
        CHECK(ra.best == rb.best);
        CHECK(ra.score == rb.score);
        CHECK(ra.nodes == rb.nodes);
        CHECK(ra.pv == rb.pv);
        // The same searcher after clear() repeats itself too.
        a.clear();
        const SearchResult rc = a.search(game, limits);
        CHECK(rc.nodes == ra.nodes);
        CHECK(rc.best == ra.best);

        SearchLimits by_nodes;
        by_nodes.nodes = 20000;
        a.clear();
        b.clear();
        const SearchResult na = a.search(game, by_nodes);
        const SearchResult nb = b.search(game, by_nodes);
        CHECK(na.nodes == nb.nodes);
        CHECK(na.best == nb.best);
        CHECK(na.score == nb.score);
        CHECK(na.nodes <= 20000);
        CHECK(na.has_move);
    }
}

TEST_CASE("A fixed-depth search allocates nothing per node", "[search]") {
    const Game game(rules_for(Variant::Tsivy), Position::start(Variant::Tsivy));
    Searcher searcher(4);
    SearchLimits limits;
    limits.depth = 7;
    searcher.search(game, limits); // warm up
    searcher.clear();
    const std::uint64_t before = g_allocations.load();
    const SearchResult r = searcher.search(game, limits);
    const std::uint64_t allocations = g_allocations.load() - before;
    INFO("nodes " << r.nodes << ", allocations " << allocations);
    CHECK(r.nodes > 20000);
    // Only per search and per iteration (the principal variation), never per node.
    CHECK(allocations <= 4 + 2 * std::uint64_t(r.depth));
}

TEST_CASE("The evaluation and move generation allocate nothing", "[search]") {
    Position pos = Position::start(Variant::Tsivy);
    const Rules rules = rules_for(Variant::Tsivy);
    const Weights w = handset_weights();
    const std::uint64_t before = g_allocations.load();
    int sum = 0;
    for (int i = 0; i < 100; ++i) {
        MoveList list;
        generate_moves(pos, rules, list);
        if (list.empty()) break;
        sum += evaluate(pos, rules, w);
        Features f;
        extract_features(pos, rules, f);
        sum += f.count;
        pos.make_move(list[i % list.size()]);
    }
    CHECK(g_allocations.load() == before);
    CHECK(sum != 0);
}

TEST_CASE("A node limit and a move time end the search, stop() ends an infinite one", "[search]") {
    const Game game(rules_for(Variant::Tsivy), Position::start(Variant::Tsivy));
    Searcher searcher(4);
    SearchLimits limits;
    limits.nodes = 5000;
    SearchResult r = searcher.search(game, limits);
    CHECK(r.nodes <= 5000);
    CHECK(r.has_move);

    SearchLimits timed;
    timed.movetime_ms = 100;
    const auto t0 = std::chrono::steady_clock::now();
    r = searcher.search(game, timed);
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    CHECK(secs < 2.0);
    CHECK(r.has_move);

    // Short movetimes and clocks in a middle game: a legal move, no gross overshoot (the bound is
    // generous: a loaded machine or a sanitizer build must pass too).
    const Game middle(rules_for(Variant::Tsivy),
                      Position::from_string("3BBBBBB/2WBBBBBB/B2W1BWBW/2W1WWWWW/1W1W1WWWW b 0 8",
                                            Variant::Tsivy));
    MoveList legal;
    generate_moves(middle.position(), middle.rules(), legal);
    SearchLimits clock;
    clock.time_ms[int(Color::Black)] = 1000; // 1000 / 25 = 40 ms for this move
    for (int ms : {1, 20, 50}) {
        SearchLimits limit;
        limit.movetime_ms = ms;
        for (const SearchLimits& l : {limit, clock}) {
            searcher.clear();
            const auto start = std::chrono::steady_clock::now();
            r = searcher.search(middle, l);
            const double used =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            CHECK(used < 1.0);
            REQUIRE(r.has_move);
            CHECK(std::find(legal.begin(), legal.end(), r.best) != legal.end());
        }
    }

    SearchLimits infinite;
    infinite.infinite = true;
    std::thread stopper([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        searcher.stop();
    });
    r = searcher.search(game, infinite);
    stopper.join();
    CHECK(r.has_move);
    CHECK(r.depth >= 1);
}

TEST_CASE("A position without legal moves gives no move", "[search]") {
    const Rules rules = rules_for(Variant::Dimy);
    const Game lost(rules, Position::from_string("5/5/5/5/W4 b", Variant::Dimy));
    const SearchResult r = search_depth(lost, 3);
    CHECK_FALSE(r.has_move);
}

TEST_CASE("Internal iterative reduction, history reductions, countermoves and singular "
          "extensions: off by default, exact in small endings when on, deterministic, and they "
          "change the tree",
          "[search]") {
    const SearchParams defaults;
    CHECK(defaults[Param::IirMinDepth] == 64);
    CHECK(defaults[Param::LmrHistoryDiv] == 0);
    CHECK(defaults[Param::CounterMoves] == 0);
    CHECK(defaults[Param::SeMinDepth] == 64);

    // The benchmark positions at depth 7 (mostly middle games with quiet moves): the node count
    // is repeatable and differs from the default search's.
    const Rules rules = rules_for(Variant::Tsivy);
    Searcher off(4);
    const std::uint64_t base = run_bench(off, 7);
    const std::pair<const char*, int> switched_on[] = {
        {"IirMinDepth", 3}, {"LmrHistoryDiv", 2048}, {"CounterMoves", 1}, {"SeMinDepth", 4}};
    for (const auto& [name, value] : switched_on) {
        INFO(name);
        Searcher a(4), b(4);
        REQUIRE(a.params().set(name, value));
        REQUIRE(b.params().set(name, value));
        const std::uint64_t na = run_bench(a, 7);
        CHECK(na == run_bench(b, 7));
        CHECK(na != base); // the feature acts on the tree

        // Forced results within 4 plies keep their exact scores in random small endings.
        int decisive = 0;
        for_each_small_ending(rules, 777, 80, [&](const Game& game, int exact) {
            if (exact == 0) return;
            ++decisive;
            a.clear();
            SearchLimits six;
            six.depth = 6;
            INFO(game.position().to_string());
            CHECK(a.search(game, six).score == exact);
        });
        CHECK(decisive >= 3);
    }
}

TEST_CASE("Pruning of capture nodes, the quiescence fail-low cut, history pruning and the "
          "exposed-move penalty: off by default, deterministic, they change the tree and keep "
          "forced wins won",
          "[search]") {
    const SearchParams defaults;
    CHECK(defaults[Param::RfpCaptures] == 0);
    CHECK(defaults[Param::QsLowMargin] == -1);
    CHECK(defaults[Param::HistPruneDepth] == 0);
    CHECK(defaults[Param::UnsafePenalty] == 0);

    const Rules rules = rules_for(Variant::Tsivy);
    Searcher off(4);
    const std::uint64_t base = run_bench(off, 7);
    // Each feature with what it needs switched on (capture-node pruning rides on reverse
    // futility pruning's depth and margin), against the same table without the feature.
    using Settings = std::vector<std::pair<const char*, int>>;
    const std::pair<Settings, Settings> cases[] = {
        {{{"RfpMaxDepth", 3}, {"RfpCaptures", 1}}, {{"RfpMaxDepth", 3}}},
        {{{"QsLowMargin", 100}}, {}},
        {{{"HistPruneDepth", 3}, {"HistPruneMargin", 1000}}, {}},
        {{{"UnsafePenalty", 8000}}, {}},
    };
    for (const auto& [with, without] : cases) {
        INFO(with.back().first);
        Searcher a(4), b(4), c(4);
        for (const auto& [name, value] : with) {
            REQUIRE(a.params().set(name, value));
            REQUIRE(b.params().set(name, value));
        }
        for (const auto& [name, value] : without) REQUIRE(c.params().set(name, value));
        const std::uint64_t na = run_bench(a, 7);
        CHECK(na == run_bench(b, 7));
        CHECK(na != (without.empty() ? base : run_bench(c, 7))); // the feature acts on the tree

        // Random small endings that are forced wins within 4 plies stay won at depth 6.
        int wins = 0;
        for_each_small_ending(rules, 4242, 80, [&](const Game& game, int exact) {
            if (exact <= 0) return;
            ++wins;
            a.clear();
            SearchLimits six;
            six.depth = 6;
            INFO(game.position().to_string());
            const int score = a.search(game, six).score;
            CHECK(is_decisive(score));
            CHECK(score > 0);
        });
        CHECK(wins >= 3);
    }
}

TEST_CASE("Search parameters are set by name within their range", "[search]") {
    SearchParams p;
    CHECK(p.set("AspWindow", 50));
    CHECK(p.get("aspwindow") == 50);
    CHECK(p[Param::AspWindow] == 50);
    CHECK_FALSE(p.set("NoSuchParameter", 1));
    CHECK_THROWS_AS(p.set("AspWindow", 0), std::out_of_range);
    CHECK_THROWS_AS(p.get("NoSuchParameter"), std::out_of_range);
    CHECK(int(p.list().size()) == kParamCount);
    for (const SearchParam& param : p.list()) {
        CHECK(param.min <= param.value);
        CHECK(param.value <= param.max);
    }
}

TEST_CASE("greedy_move takes the largest capture, seeded and deterministic", "[search]") {
    const Rules rules = rules_for(Variant::Tsivy);
    const Position start = Position::start(Variant::Tsivy);
    MoveList list;
    generate_moves(start, rules, list);
    int best = 0;
    for (const Move& m : list) best = std::max(best, popcount(m.captured));
    bool varied = false;
    const Move first = greedy_move(start, rules, 0);
    for (std::uint64_t seed = 0; seed < 20; ++seed) {
        const Move m = greedy_move(start, rules, seed);
        CHECK(popcount(m.captured) == best);
        CHECK(m == greedy_move(start, rules, seed));
        varied = varied || !(m == first);
    }
    CHECK(varied); // several moves capture the most pieces from the start
    const Position none = Position::from_string("5/5/5/5/W4 b", Variant::Dimy);
    CHECK_THROWS_AS(greedy_move(none, rules_for(Variant::Dimy), 1), std::invalid_argument);
}

TEST_CASE("The search plays positions with more moves than a list holds inline", "[search]") {
    // 868 legal moves (see test_movegen): the searcher's per-ply lists and ordering scores grow,
    // and the result is one of the legal moves.
    const Rules rules = rules_for(Variant::Tsivy);
    const Position pos =
        Position::from_string("WBB2B2B/B3WBW2/W1BBB1B1B/1BB2BB2/B1BBB1BBB w", Variant::Tsivy);
    MoveList list;
    generate_moves(pos, rules, list);
    REQUIRE(list.size() > kInlineMoves);
    const SearchResult r = search_depth(Game(rules, pos), 3);
    CHECK(list.contains(r.best));
}

TEST_CASE("The evaluation cache forgets evaluations when the weights or the rules change",
          "[search]") {
    // A searcher caches static evaluations; after new weights or other rules, it must search
    // like a fresh searcher set up that way.
    const Game tsivy(Rules{}, Position::start(Variant::Tsivy));
    SearchLimits limits;
    limits.depth = 5;
    Weights other = handset_weights();
    other.values[feature_index("mobility_mg")] += 40;
    other.values[feature_index("material_mg")] -= 30;

    Searcher fresh(1);
    fresh.set_weights(other);
    const SearchResult expected = fresh.search(tsivy, limits);

    Searcher used(1);
    used.search(tsivy, limits); // fills the cache with the default weights' evaluations
    used.clear();
    used.set_weights(other);
    const SearchResult again = used.search(tsivy, limits);
    CHECK(again.nodes == expected.nodes);
    CHECK(again.score == expected.score);
    CHECK(again.pv == expected.pv);

    // The same position under firstturn rules (no chains on the first turns) evaluates
    // differently (capture_now counts the largest legal capture).
    Rules firstturn;
    firstturn.ruleset = RuleSet::FirstTurn;
    const Game restricted(firstturn, Position::start(Variant::Tsivy));
    Searcher fresh_ft(1);
    fresh_ft.set_weights(other);
    const SearchResult expected_ft = fresh_ft.search(restricted, limits);
    used.clear();
    const SearchResult again_ft = used.search(restricted, limits);
    CHECK(again_ft.nodes == expected_ft.nodes);
    CHECK(again_ft.score == expected_ft.score);
    CHECK(again_ft.pv == expected_ft.pv);
}
