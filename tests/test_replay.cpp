// Replaying move lists (core/board/replay.h): the one place a list of move strings becomes a game,
// and the one wording of a bad move, "move N 'X': why", in every command that reads move lists.

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "core/board/replay.h"
#include "selfplay/formats/games_file.h"
#include "tests/cli_helpers.h"

using namespace fanorona;

namespace {

const std::string kStart = "BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w";

} // namespace

TEST_CASE("replay plays a move list and names the first bad move", "[replay]") {
    const Rules rules;
    const Game good = replay(rules, kStart, std::vector<std::string>{"d2e3A", "c3d2A", "b2c3A"});
    CHECK(good.moves().size() == 3);
    CHECK(good.moves_string() == "d2e3A c3d2A b2c3A");

    Game game(rules, Position::start(Variant::Tsivy));
    const std::vector<std::string> moves = {"d2e3A", "c3d2A", "e5e4A", "b2c3A"};
    try {
        play_moves(game, moves);
        FAIL("an illegal third move was played");
    } catch (const ReplayError& e) {
        CHECK(e.number == 3);
        CHECK(e.move == "e5e4A");
        CHECK_FALSE(e.why.empty());
        CHECK(std::string(e.what()) == "move 3 'e5e4A': " + e.why);
    }
    // The moves before the bad one stay played.
    CHECK(game.moves_string() == "d2e3A c3d2A");

    // A malformed move is reported the same way, and is a MoveError for callers that catch those.
    CHECK_THROWS_WITH(replay(rules, kStart, std::vector<std::string>{"zz9"}),
                      Catch::StartsWith("move 1 'zz9': "));
    CHECK_THROWS_AS(replay(rules, kStart, std::vector<std::string>{"zz9"}), MoveError);
    // A bad start is the position parser's error, not a move's.
    try {
        replay(rules, "BBB/www", std::vector<std::string>{});
        FAIL("a bad start was accepted");
    } catch (const ReplayError&) {
        FAIL("a bad start was reported as a bad move");
    } catch (const std::invalid_argument&) {
    }
}

TEST_CASE("play_listed_move numbers the move as the caller counts it", "[replay]") {
    Game game;
    const Move played = play_listed_move(game, "D2E3a", 7); // either case is accepted
    CHECK(played == game.moves().back());
    CHECK_THROWS_WITH(play_listed_move(game, "d2e3A", 8), Catch::StartsWith("move 8 'd2e3A': "));
    CHECK(game.moves().size() == 1); // unchanged by the bad move
}

TEST_CASE("a games file record's bad move is named with its field", "[replay]") {
    GameRecord record;
    record.start = kStart;
    record.moves = {"d2e3A", "d2e3A"};
    const Rules rules;
    CHECK_THROWS_WITH(replay_game(record, rules, "g.tsv:3"),
                      Catch::StartsWith("g.tsv:3: moves: move 2 'd2e3A': "));
    // Only the first max_moves are read (the opening tree reads its first turns).
    CHECK(replay_game(record, rules, "g.tsv:3", 1).moves().size() == 1);
    record.start = "nonsense";
    CHECK_THROWS_WITH(replay_game(record, rules, "g.tsv:3"), Catch::StartsWith("g.tsv:3: start: "));
}

TEST_CASE("analyze --moves names a bad move in one line", "[replay][cli]") {
    using namespace test_cli;
    const Run ok = run_cli("analyze --depth 1 --moves \"d2e3A c3d2A\"");
    CHECK(ok.status == 0);
    const Run bad = run_cli("analyze --depth 1 --moves \"d2e3A c3d2A zz9\"");
    CHECK(bad.status == 1);
    CHECK_THAT(bad.output, Catch::StartsWith("fanorona: --moves: move 3 'zz9': "));
    CHECK(std::count(bad.output.begin(), bad.output.end(), '\n') == 1);
}
