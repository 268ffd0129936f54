// The transposition table: what is stored is found, and clear() (O(1), by epochs) empties the
// table exactly, also after the epoch counter wraps around.

#include <vector>

#include <catch2/catch.hpp>

#include "core/search.h"
#include "core/transposition.h"

using namespace fanorona;

TEST_CASE("clear() empties the table, across the epoch counter's wrap", "[search]") {
    TranspositionTable tt(1);
    const Move move{Bitboard(1) << 20, 3, 4};
    std::vector<Key> earlier;
    for (int round = 0; round < 600; ++round) { // 1200 clears: the epoch counter wraps 4 times
        const Key key = 0x9e3779b97f4a7c15ull * Key(round + 1);
        int found = 0; // nothing from any earlier epoch comes back
        for (Key k : earlier) found += tt.probe(k) != nullptr;
        CHECK(found == 0);
        earlier.push_back(key);
        tt.store(key, round, 5, BoundExact, &move);
        const TTEntry* e = tt.probe(key);
        REQUIRE(e != nullptr);
        CHECK(e->score == round);
        CHECK(e->depth == 5);
        CHECK(e->bound == BoundExact);
        CHECK(bool(e->has_move));
        CHECK(e->move() == move);
        // A store without a move keeps the move of the same position, not of a cleared one.
        tt.store(key, round, 6, BoundLower, nullptr);
        CHECK(bool(tt.probe(key)->has_move));
        tt.clear();
        CHECK(tt.probe(key) == nullptr);
        tt.store(key, round, 2, BoundUpper, nullptr);
        CHECK_FALSE(bool(tt.probe(key)->has_move));
        tt.clear();
    }
    CHECK(tt.hashfull() == 0);
}

TEST_CASE("a searcher after many games searches like a fresh one", "[search]") {
    Rules rules;
    const Game start(rules, Position::start(Variant::Tsivy));
    SearchLimits deep;
    deep.depth = 6;
    Searcher fresh(1);
    const SearchResult expected = fresh.search(start, deep);

    Searcher used(1);
    SearchLimits shallow;
    shallow.depth = 3;
    for (int game = 0; game < 300; ++game) { // past the 255 clears of one epoch cycle
        Game g(rules, Position::start(Variant::Tsivy));
        for (int turn = 0; turn < game % 7 && !g.outcome().over(); ++turn) {
            const SearchResult r = used.search(g, shallow);
            REQUIRE(r.has_move);
            g.play(r.best);
        }
        used.clear();
    }
    const SearchResult again = used.search(start, deep);
    CHECK(again.nodes == expected.nodes);
    CHECK(again.best == expected.best);
    CHECK(again.score == expected.score);
    CHECK(again.pv == expected.pv);
}

TEST_CASE("a failed resize leaves the table and the searcher as they were", "[search]") {
    const std::size_t impossible = std::size_t(1) << 40; // 2^60 bytes: no allocator gives that
    TranspositionTable tt(1);
    const Move move{Bitboard(1) << 20, 3, 4};
    tt.store(42, 7, 3, BoundExact, &move);
    CHECK_THROWS_AS(tt.resize(impossible), std::bad_alloc);
    CHECK(tt.size_mb() == 1);
    const TTEntry* e = tt.probe(42); // the old table, contents and all
    REQUIRE(e != nullptr);
    CHECK(e->score == 7);
    tt.store(43, 8, 3, BoundExact, &move);
    CHECK(tt.probe(43) != nullptr);

    Searcher searcher(2);
    CHECK_THROWS_AS(searcher.set_hash_mb(impossible), std::bad_alloc);
    CHECK(searcher.hash_mb() == 2);
    const Game game(Rules{}, Position::start(Variant::Tsivy));
    SearchLimits limits;
    limits.depth = 3;
    CHECK(searcher.search(game, limits, {}).has_move);
}
