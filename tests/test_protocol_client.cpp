// The protocol client (selfplay/engine/protocol_client.h), the referee's side of the engine
// protocol that tournaments and `fanorona timeuse` share: what it sends, what it makes of the
// replies, and how it fails, on fake engines (tests/engines) and on this program's own engine.

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "core/board/movegen.h"
#include "core/board/notation.h"
#include "core/board/replay.h"
#include "selfplay/engine/protocol_client.h"
#include "tests/cli_helpers.h"

using namespace fanorona;
using namespace test_cli;

namespace {

std::string fake_engine(const std::string& name) {
    return std::string(FANORONA_TEST_DATA) + "/../engines/" + name + ".sh";
}

} // namespace

TEST_CASE("the protocol client sets up the engine, sends the game and reads its reply",
          "[protocol_client]") {
    const std::string dir = fresh_dir("protocol_client");
    std::filesystem::create_directories(dir);
    const std::string log = dir + "/received.txt";
    Rules rules;
    rules.variant = Variant::Dimy;
    rules.ruleset = RuleSet::Vela;
    Game game(rules, Position::start(Variant::Dimy));
    MoveList first;
    generate_moves(game.position(), rules, first);
    game.play(first[0]);
    MoveList second;
    generate_moves(game.position(), rules, second);
    const std::string answer = move_to_string(game.position(), rules, second[0]);

    ProtocolClient client(
        {{fake_engine("scripted"), log, answer}, {{"Hash", "8"}}, rules, 3000, {}, {}});
    CHECK(client.start());
    CHECK_FALSE(client.start()); // running: not started again
    CHECK(client.engine_name() == "scripted");
    client.new_game();
    client.send_position(game);
    const EngineReply reply = client.go(game, "go depth 3", 3000);
    CHECK(reply.move == second[0]);
    CHECK(reply.depth == 2);  // the last info line's
    CHECK(reply.score == -7); // likewise
    CHECK(reply.line == "bestmove " + answer);
    CHECK(reply.received >= reply.sent);
    client.quit();
    CHECK(client.restarts() == 0);

    // What the engine read: the options, then the variant and rule set it must play.
    const std::string played = move_to_string(Position::start(Variant::Dimy), rules, first[0]);
    const std::vector<std::string> expected = {"uci",
                                               "setoption name Hash value 8",
                                               "setoption name Variant value dimy",
                                               "setoption name Rules value vela",
                                               "ucinewgame",
                                               "isready",
                                               "position startpos moves " + played,
                                               "go depth 3",
                                               "quit"};
    for (int tries = 0; tries < 100 && file_lines(log).size() < expected.size(); ++tries)
        std::this_thread::sleep_for(std::chrono::milliseconds(20)); // `quit` may still travel
    CHECK(file_lines(log) == expected);
}

TEST_CASE("the protocol client names each fault and starts the engine again after it",
          "[protocol_client]") {
    const Rules rules;
    const Game game(rules, Position::start(Variant::Tsivy));
    const auto fault_of = [&](const std::string& engine, int startup_ms) -> PlayerFault {
        ProtocolClient client({{fake_engine(engine)}, {}, rules, startup_ms, {}, {}});
        try {
            client.start();
            client.new_game();
            client.send_position(game);
            client.go(game, "go depth 1", 300);
        } catch (const PlayerFault& f) {
            CHECK_FALSE(client.running()); // killed: the next start() starts it again
            return f;
        }
        FAIL("no fault from " << engine);
        return PlayerFault("", "");
    };
    const PlayerFault illegal = fault_of("illegal", 3000);
    CHECK(illegal.reason == "illegal-move");
    CHECK_THAT(illegal.what(), Catch::StartsWith("bestmove 'a1a2': "));
    const PlayerFault malformed = fault_of("malformed", 3000);
    CHECK(malformed.reason == "illegal-move");
    CHECK(std::string(malformed.what()) == "malformed line 'bestmove'");
    CHECK(fault_of("crash", 3000).reason == "crash");
    const PlayerFault hang = fault_of("hang", 3000);
    CHECK(hang.reason == "timeout");
    CHECK(std::string(hang.what()) == "no bestmove within 300 ms");
    const PlayerFault slow = fault_of("slowstart", 200);
    CHECK(slow.reason == "hang");
    CHECK(std::string(slow.what()) ==
          "engine did not answer 'uciok' during start-up within 200 ms");

    ProtocolClient missing({{"/no/such/engine"}, {}, rules, 1000, {}, {}});
    try {
        missing.start();
        FAIL("a missing program started");
    } catch (const PlayerFault& f) {
        CHECK(f.reason == "crash");
        CHECK_THAT(f.what(), Catch::Contains("/no/such/engine"));
    }

    // After a fault the same client starts the engine again and counts the restart.
    ProtocolClient client({{fake_engine("illegal")}, {}, rules, 3000, {}, {}});
    for (int round = 0; round < 2; ++round) {
        CHECK(client.start());
        client.new_game();
        client.send_position(game);
        CHECK_THROWS_AS(client.go(game, "go depth 1", 3000), PlayerFault);
    }
    CHECK(client.restarts() == 1);
}

TEST_CASE("timeuse measures on any board and rule set", "[timeuse][protocol_client]") {
    const std::string dir = fresh_dir("timeuse_variant");
    std::filesystem::create_directories(dir);
    // This program's engine plays dimy under Vela rules only when it is told so: a dimy position
    // sent to a tsivy engine would be refused, and the run would fail.
    const Run r =
        run_cli("timeuse --variant dimy --rules vela --movetimes 2 --repeat 1 --json-out " + dir +
                "/t.json");
    INFO(r.output);
    REQUIRE(r.status == 0);
    const nlohmann::json j = nlohmann::json::parse(slurp(dir + "/t.json"));
    CHECK(j["variant"] == "dimy");
    CHECK(j["rules"] == "vela");
    REQUIRE(j["rows"].size() == 1);
    CHECK(j["rows"][0]["moves"].get<int>() > 0);

    // A board without bench positions searches its start position.
    const Run small =
        run_cli("timeuse --variant 3x5 --movetimes 2 --repeat 2 --json-out " + dir + "/s.json");
    INFO(small.output);
    REQUIRE(small.status == 0);
    CHECK(nlohmann::json::parse(slurp(dir + "/s.json"))["rows"][0]["moves"] == 2);

    // A given position is read on the given board.
    const Run given = run_cli("timeuse --variant dimy --movetimes 2 --repeat 1 --position "
                              "\"BBBBB/BBBBB/BW1BW/WWWWW/WWWWW w\"");
    INFO(given.output);
    CHECK(given.status == 0);
    const Run wrong =
        run_cli("timeuse --movetimes 2 --position \"BBBBB/BBBBB/BW1BW/WWWWW/WWWWW w\"");
    CHECK(wrong.status == 1);
    CHECK_THAT(wrong.output, Catch::StartsWith("fanorona: timeuse: position '"));

    // An engine's fault names the move it was asked for.
    const Run illegal = run_cli("timeuse --movetimes 5 --engine " + fake_engine("illegal"));
    CHECK(illegal.status == 1);
    CHECK_THAT(illegal.output, Catch::StartsWith("fanorona: timeuse: 'go movetime 10' in "));
    CHECK_THAT(illegal.output, Catch::Contains("bestmove 'a1a2': "));
}
