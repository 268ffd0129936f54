// Tests of the search's helpers: move ordering (core/movepick.h) and time management
// (core/timeman.h), and the correction history (core/correction.h).

#include <chrono>
#include <thread>

#include <catch2/catch.hpp>

#include "core/correction.h"
#include "core/movepick.h"
#include "core/search.h"
#include "core/timeman.h"

using namespace fanorona;

namespace {

Move quiet(int from, int to) {
    return Move{0, std::uint8_t(from), std::uint8_t(to)};
}
Move capture(int from, int to, Bitboard taken) {
    return Move{taken, std::uint8_t(from), std::uint8_t(to)};
}

} // namespace

TEST_CASE("Moves come out table move first, then captures by size, killers, history", "[search]") {
    MoveList moves;
    const Move small = capture(1, 2, 0b1), big = capture(3, 4, 0b111), killer = quiet(5, 6),
               liked = quiet(7, 8), plain = quiet(9, 10), table = quiet(11, 12);
    for (const Move& m : {plain, small, liked, killer, table, big}) moves.push(m);
    History history;
    history.update(Color::White, liked, 500);
    history.update(Color::Black, plain, 9000); // the other side's history does not count
    Killers killers;
    killers.add(killer);
    MoveOrder order;
    order.score(moves, &table, killers, history, Color::White);
    const Move expected[] = {table, big, small, killer, liked, plain};
    for (int i = 0; i < moves.count; ++i) {
        order.pick(moves, i);
        CHECK(moves[i] == expected[i]);
    }
}

TEST_CASE("A quiet move that leaves its piece capturable by one step is marked exposed, and "
          "the penalty orders it after the safe ones",
          "[search]") {
    // 5x5, White c1 alone against Black c4: c1-c2 walks into an approach from c4 (c4-c3).
    const Position approach = Position::from_string("5/2B2/5/5/2W2 w", Variant::Dimy);
    const Geometry& g = approach.geo();
    const int c1 = g.square(2, 0), c2 = g.square(2, 1), d1 = g.square(3, 0), b2 = g.square(1, 1),
              b1 = g.square(1, 0), a1 = g.square(0, 0);
    CHECK(lands_exposed(approach, quiet(c1, c2)));
    CHECK_FALSE(lands_exposed(approach, quiet(c1, d1)));
    CHECK_FALSE(lands_exposed(approach, quiet(c1, b2)));
    // Black c3 next to b2 on the diagonal, d4 empty behind it: c3-d4 withdraws from b2.
    const Position withdrawal = Position::from_string("5/5/2B2/5/1W3 w", Variant::Dimy);
    CHECK(lands_exposed(withdrawal, quiet(b1, b2)));
    CHECK(lands_exposed(withdrawal, quiet(b1, a1))); // c3-b2 approaches a1

    MoveList moves;
    for (const Move& m : {quiet(c1, c2), quiet(c1, d1), quiet(c1, b2)}) moves.push(m);
    History history;
    history.update(Color::White, quiet(c1, c2), 2000); // liked, but exposed
    const Killers killers;
    MoveOrder order;
    order.score(moves, nullptr, killers, history, Color::White, nullptr, &approach, 8000);
    order.pick(moves, 0);
    order.pick(moves, 1);
    CHECK(moves[2] == quiet(c1, c2));
    order.score(moves, nullptr, killers, history, Color::White); // no penalty: history first
    order.pick(moves, 0);
    CHECK(moves[0] == quiet(c1, c2));
}

TEST_CASE("A cut-off rewards the move, punishes the quiets tried before it, and makes a killer",
          "[search]") {
    MoveList moves;
    const Move a = quiet(1, 2), b = quiet(3, 4), best = quiet(5, 6);
    for (const Move& m : {a, b, best}) moves.push(m);
    History history;
    Killers killers;
    killers.add(a);
    const int tried[] = {0, 1, 2};
    update_on_cutoff(history, killers, Color::White, moves, tried, best, 3);
    CHECK(history.at(Color::White, best) > 0);
    CHECK(history.at(Color::White, a) < 0);
    CHECK(history.at(Color::White, b) < 0);
    CHECK(history.at(Color::Black, best) == 0);
    CHECK(killers.moves[0] == best);
    CHECK(killers.moves[1] == a);
    killers.add(best); // already first: no change
    CHECK(killers.moves[1] == a);
    for (int i = 0; i < 1000; ++i) history.update(Color::White, best, 400 * 32);
    CHECK(history.at(Color::White, best) <= kHistoryMax);
}

TEST_CASE("The time manager: deadlines from movetime and clocks", "[search]") {
    TimeManager t;
    SearchLimits depth_only;
    depth_only.depth = 5;
    t.start(depth_only, Color::White, 10);
    CHECK(!t.timed());
    CHECK(!t.deadline_passed());
    CHECK(!t.stop_after_iteration(1));

    SearchLimits movetime;
    movetime.movetime_ms = 1;
    t.start(movetime, Color::White, 0);
    CHECK(t.timed());
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    CHECK(t.deadline_passed());
    CHECK(t.stop_after_iteration(20));

    SearchLimits clock;
    clock.time_ms[int(Color::Black)] = 600000;
    t.start(clock, Color::White, 0); // White has no clock: untimed
    CHECK(!t.timed());
    t.start(clock, Color::Black, 0);
    CHECK(t.timed());
    CHECK(!t.deadline_passed());
    CHECK(!t.stop_after_iteration(20));
    CHECK(t.stop_after_iteration(1)); // a single legal move: no further iteration

    // The deadline: the movetime less the overhead; a clock's share: (left - overhead) / 25 plus
    // 3/4 of the increment, at most half of what is left; the earlier of the two when both given.
    SearchLimits both;
    both.movetime_ms = 100;
    t.start(both, Color::White, 10);
    CHECK(t.budget() == Approx(0.090));
    both.time_ms[int(Color::White)] = 1010; // (1010 - 10) / 25 = 40 ms, before the 90 ms
    t.start(both, Color::White, 10);
    CHECK(t.budget() == Approx(0.040));
    SearchLimits inc;
    inc.time_ms[int(Color::White)] = 10000;
    inc.inc_ms[int(Color::White)] = 1000;
    t.start(inc, Color::White, 0);
    CHECK(t.budget() == Approx(10.0 / 25 + 0.75));
    inc.time_ms[int(Color::White)] = 1000; // 1 / 25 + 0.75 is more than half of 1 s
    t.start(inc, Color::White, 0);
    CHECK(t.budget() == Approx(0.5));
    SearchLimits tiny;
    tiny.movetime_ms = 5;
    t.start(tiny, Color::White, 20); // never below 1 ms
    CHECK(t.budget() == Approx(0.001));

    clock.infinite = true; // analysis: the clock does not stop it
    t.start(clock, Color::Black, 0);
    CHECK(!t.timed());
}

TEST_CASE("The correction history learns a position's error, shares half of it through one "
          "side's pieces, and stays within its limit",
          "[search]") {
    const auto make = [](Bitboard white, Bitboard black, Color side) {
        return Position::from_pieces(Variant::Tsivy, white, black, side, 0, 1);
    };
    const Position a = make(0b111, Bitboard(0b111) << 30, Color::White);
    const Position same_own = make(0b111, Bitboard(0b1011) << 28, Color::White);
    const Position other_side = make(0b111, Bitboard(0b111) << 30, Color::Black);
    CorrectionHistory h;
    CHECK(h.correction(a) == 0);
    // As the search feeds it: the difference from the corrected score, until it settles.
    for (int i = 0; i < 200; ++i) h.update(a, 40 - h.correction(a), 8);
    CHECK(std::abs(h.correction(a) - 40) <= 2);
    CHECK(std::abs(h.correction(same_own) - 20) <= 1); // the White-pieces table only
    CHECK(h.correction(other_side) == 0);
    h.update(a, -30, 1); // a shallow disagreement moves it a little
    CHECK(h.correction(a) < 40);
    CHECK(h.correction(a) > 30);
    for (int i = 0; i < 200; ++i) h.update(a, 5000, 20);
    CHECK(h.correction(a) == CorrectionHistory::kLimit / CorrectionHistory::kGrain);
    h.clear();
    CHECK(h.correction(a) == 0);
}
