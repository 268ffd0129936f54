// Random playouts (core/board/playout.h): the one loop behind the bench's and the tests' sample
// positions, random openings and the tuner's synthetic games.

#include <catch2/catch.hpp>

#include <vector>

#include "core/board/baseline.h"
#include "core/board/playout.h"
#include "core/common/rng.h"

using namespace fanorona;

TEST_CASE("a playout visits each position before its move and stops at its limits", "[playout]") {
    const Rules rules;
    Game game(rules, Position::start(Variant::Tsivy));
    std::vector<Key> visited;
    const auto choose = [](const Game& g, const MoveList& moves) {
        return random_move_index(g.position(), 5 + g.moves().size(), moves.size());
    };
    const int played = random_playout(game, {.max_turns = 12}, choose, [&](const Game& g) {
        visited.push_back(g.position().hash());
    });
    REQUIRE(played == 12); // no tsivy game ends within 12 turns of random play from the start
    CHECK(game.moves().size() == 12);
    // The positions visited are the game's, each before its move.
    CHECK(visited == std::vector<Key>(game.hashes().begin(), game.hashes().end() - 1));
    // random_move_index picks what random_move picks.
    Game again(rules, Position::start(Variant::Tsivy));
    for (int i = 0; i < 12; ++i)
        again.play(random_move(again.position(), rules, 5 + again.moves().size()));
    CHECK(again.moves() == game.moves());
    // A game already begun counts its moves against max_turns.
    CHECK(random_playout(game, {.max_turns = 15}, choose) == 3);
}

TEST_CASE("a playout ends with the game, or plays on through a draw when told", "[playout]") {
    // White c1 must take the last black piece, d1, by withdrawal: the game is over after it.
    Rules rules;
    rules.variant = Variant::Dimy;
    const Position one = Position::from_string("5/5/5/5/2WB1 w", Variant::Dimy);
    Game game(rules, one);
    Rng rng(3);
    const auto choose = [&rng](const Game&, const MoveList& moves) {
        return rng.below(std::uint64_t(moves.size()));
    };
    int moves_of_white = 0;
    {
        MoveList list;
        generate_moves(one, rules, list);
        moves_of_white = list.size();
    }
    REQUIRE(moves_of_white == 1); // the capture is forced
    CHECK(random_playout(game, {.max_turns = 50}, choose) == 1);
    CHECK(game.outcome().reason == EndReason::CaptureAll);
    // Black has no piece, so no move: the playout stops even when told to play on.
    CHECK(random_playout(game, {.max_turns = 50, .stop_when_over = false}, choose) == 0);

    // A draw by the no-capture rule: stop_when_over stops there, without it the playout goes on
    // (two lone pieces at opposite corners of the tsivy board cannot meet within six turns).
    Rules drawn;
    drawn.no_capture_limit = 2;
    const Position quiet = Position::from_string("B8/9/9/9/8W w", Variant::Tsivy);
    Game stops(drawn, quiet), goes_on(drawn, quiet);
    CHECK(random_playout(stops, {.max_turns = 6}, choose) == 2);
    CHECK(stops.outcome().reason == EndReason::NoCaptureLimit);
    CHECK(random_playout(goes_on, {.max_turns = 6, .stop_when_over = false}, choose) == 6);
}
