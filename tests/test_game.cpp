// Games: the end of the game (capture-all, no moves, repetition, the no-capture limit), undo, and
// playing moves from strings.

#include <catch2/catch.hpp>

#include "core/board/game.h"
#include "tests/rules_helpers.h"

using namespace fanorona;
using namespace fanorona::test;

namespace {

// White a1 and Black i5 are far apart: neither can ever capture, so these four paika moves
// bring the position back to where it started.
const char* const kShuffle[] = {"a1b1", "i5h5", "b1a1", "h5i5"};

} // namespace

TEST_CASE("threefold repetition is a draw", "[game]") {
    Game game(Rules{}, tsivy("a1", "i5"));
    CHECK(game.occurrences() == 1);
    for (int round = 0; round < 2; ++round)
        for (int i = 0; i < 4; ++i) {
            CHECK_FALSE(game.outcome().over());
            game.play(kShuffle[i]);
            INFO("round " << round << " move " << i);
            // The start position comes back after every four moves; the others twice at most.
            CHECK(game.occurrences() == (i == 3 ? round + 2 : round + 1));
        }
    CHECK(game.outcome() == Outcome{GameResult::Draw, EndReason::Repetition});
    CHECK(result_name(game.outcome().result) == "1/2-1/2");
    CHECK(end_reason_name(game.outcome().reason) == "repetition");
    // The count is configurable, and 0 turns it off.
    Rules lenient;
    lenient.repetition_count = 4;
    Rules off;
    off.repetition_count = 0;
    for (const Rules& rules : {lenient, off}) {
        Game g(rules, tsivy("a1", "i5"));
        for (int i = 0; i < 8; ++i) g.play(kShuffle[i % 4]);
        CHECK_FALSE(g.outcome().over());
    }
}

TEST_CASE("100 turns without capture is a draw", "[game]") {
    Rules rules;
    rules.repetition_count = 0; // the shuffle would otherwise repeat first
    Game game(rules, tsivy("a1", "i5"));
    for (int turn = 0; turn < 100; ++turn) {
        CHECK_FALSE(game.outcome().over());
        game.play(kShuffle[turn % 4]);
    }
    CHECK(game.position().turns_since_capture() == 100);
    CHECK(game.outcome() == Outcome{GameResult::Draw, EndReason::NoCaptureLimit});
    CHECK(end_reason_name(EndReason::NoCaptureLimit) == "no-capture-limit");
    game.undo();
    CHECK_FALSE(game.outcome().over());

    // The counter comes from the position string, and a capture resets it.
    Game late(Rules{}, tsivy("c3 a1", "f3 i5", 'w', "98 200"));
    late.play("c3d3"); // a paika move (the 99th quiet turn) that offers d3 to Black
    CHECK(late.position().turns_since_capture() == 99);
    CHECK_FALSE(late.outcome().over());
    late.play("f3e3A"); // the 100th turn captures, so there is no draw
    CHECK(late.position().turns_since_capture() == 0);
    CHECK_FALSE(late.outcome().over());
}

TEST_CASE("capturing every enemy piece wins", "[game]") {
    Game game(Rules{}, tsivy("c3", "e3 f3"));
    CHECK_FALSE(game.outcome().over());
    game.play("c3d3A");
    CHECK(game.position().pieces(Color::Black) == 0);
    CHECK(game.outcome() == Outcome{GameResult::WhiteWins, EndReason::CaptureAll});
    CHECK(result_name(GameResult::WhiteWins) == "1-0");
    CHECK(end_reason_name(EndReason::CaptureAll) == "capture-all");
}

TEST_CASE("a player with no legal move loses", "[game]") {
    Game white_stuck(Rules{}, tsivy("a1", "b1 a2 b2"));
    CHECK(white_stuck.outcome() == Outcome{GameResult::BlackWins, EndReason::NoMoves});
    Game black_stuck(Rules{}, tsivy("b1 a2 b2", "a1", 'b'));
    CHECK(black_stuck.outcome() == Outcome{GameResult::WhiteWins, EndReason::NoMoves});
    CHECK(result_name(GameResult::BlackWins) == "0-1");
    CHECK(end_reason_name(EndReason::NoMoves) == "no-moves");
}

TEST_CASE("undo restores the game exactly", "[game]") {
    const Position start = Position::start(Variant::Tsivy);
    Game game;
    CHECK(game.position() == start);
    game.undo(); // nothing to undo: no effect
    CHECK(game.moves().empty());
    CHECK(game.hashes().size() == 1);

    game.play("d3e3W");
    const Position after_one = game.position();
    MoveList list;
    generate_moves(game.position(), game.rules(), list);
    REQUIRE_FALSE(list.empty());
    game.play(list[0]);
    CHECK(game.moves().size() == 2);
    CHECK(game.hashes().size() == 3);
    CHECK(game.hashes().back() == game.position().hash());
    CHECK(game.moves_string().rfind("d3e3W ", 0) == 0);

    game.undo();
    CHECK(game.position() == after_one);
    CHECK(game.moves_string() == "d3e3W");
    game.undo();
    CHECK(game.position() == start);
    CHECK(game.moves().empty());
    CHECK(game.hashes() == std::vector<Key>{start.hash()});
    CHECK(game.moves_string().empty());

    // Undoing a winning capture brings the game back to life.
    Game won(Rules{}, tsivy("c3", "e3"));
    won.play("c3d3A");
    CHECK(won.outcome().over());
    won.undo();
    CHECK_FALSE(won.outcome().over());
    CHECK(won.position() == tsivy("c3", "e3"));
}

TEST_CASE("an illegal move string leaves the game unchanged", "[game]") {
    Game game;
    CHECK_THROWS_AS(game.play("d2e3"), MoveError); // paika while capture is compulsory
    CHECK_THROWS_AS(game.play("zz"), MoveError);
    CHECK(game.moves().empty());
    CHECK(game.position() == Position::start(Variant::Tsivy));
    const Move m = game.play("e2e3A");
    CHECK(m.captured == points("e4 e5"));
    CHECK(game.position().side_to_move() == Color::Black);
}
