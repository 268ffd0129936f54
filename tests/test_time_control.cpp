// Time controls: tc= with moves-in-time (40/60+0.5), the clock's margin (timemargin=), movestogo
// on the way to an external engine and in our time manager, and the clocks of a game that the
// runner refills after each period.

#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "core/board/movegen.h"
#include "core/board/notation.h"
#include "core/search.h"
#include "core/timeman.h"
#include "selfplay/engine/engine_spec.h"
#include "selfplay/engine/external_player.h"
#include "selfplay/games/game_runner.h"
#include "tests/cli_helpers.h"

using namespace fanorona;

namespace {

// Plays the first legal move at once (or after `delay_ms`), and keeps the clock of each turn.
class ClockRecorder : public Player {
public:
    explicit ClockRecorder(int delay_ms = 0) : delay_ms_(delay_ms) {}
    MoveChoice choose(const Game& game, const Clock& clock) override {
        clocks.push_back(clock);
        if (delay_ms_ > 0) std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms_));
        MoveList list;
        generate_moves(game.position(), game.rules(), list);
        return MoveChoice{list[0], std::nullopt, 0, false};
    }
    std::vector<Clock> clocks;

private:
    int delay_ms_;
};

GameSetup setup_with(const std::string& white_spec, const std::string& black_spec, int turns) {
    GameSetup s;
    s.opening.start = Position::start(s.rules.variant);
    s.adjudication.max_turns = turns;
    s.time_control = EngineSpec::parse(white_spec).time_control;
    s.black_time_control = EngineSpec::parse(black_spec).time_control;
    s.white_name = "w";
    s.black_name = "b";
    return s;
}

} // namespace

TEST_CASE("tc= takes moves-in-time controls, and the old forms still", "[timecontrol][spec]") {
    const EngineSpec a = EngineSpec::parse("name=A,tc=40/60+0.5,depth=3");
    CHECK(a.time_control.moves == 40);
    CHECK(a.time_control.base_ms == 60000);
    CHECK(a.time_control.inc_ms == 500);
    CHECK(a.time_control.margin_ms == TimeMargins::kClockGraceMs);
    CHECK(a.description() == "A(weights=tuned,params=tuned,net=tsivy,depth=3,tc=40/60000ms+500ms)");
    // The description parses back to the same spec.
    const EngineSpec back = EngineSpec::parse("name=A,tc=40/60000ms+500ms,depth=3");
    CHECK(back.description() == a.description());
    CHECK(back.time_control.moves == 40);
    CHECK(EngineSpec::parse("name=A,tc=5/2").time_control.moves == 5);
    CHECK(EngineSpec::parse("name=A,tc=5/2").time_control.inc_ms == 0);

    // The old forms, and their descriptions, unchanged.
    const EngineSpec old = EngineSpec::parse("name=T,tc=10+0.1,nodes=1000");
    CHECK(old.time_control.moves == 0);
    CHECK(old.time_control.base_ms == 10000);
    CHECK(old.description() ==
          "T(weights=tuned,params=tuned,net=tsivy,nodes=1000,tc=10000ms+100ms)");
    CHECK(EngineSpec::parse("name=T,tc=10000ms+100ms").time_control.inc_ms == 100);
    // A later tc= replaces the earlier, its period too; tc=none is no clock.
    CHECK(EngineSpec::parse("name=T,tc=40/60,tc=10").time_control.moves == 0);
    const EngineSpec none = EngineSpec::parse("name=T,tc=40/60,timemargin=7,tc=none");
    CHECK(none.time_control.base_ms == 0);
    CHECK(none.time_control.moves == 0);
    CHECK(none.time_control.margin_ms == 7);
    CHECK(none.limits.depth == EngineSpec::kDefaultDepth);

    for (const char* bad :
         {"name=a,tc=0/60", "name=a,tc=x/60", "name=a,tc=/60", "name=a,tc=40/", "name=a,tc=-4/60",
          "name=a,tc=+4/60", "name=a,tc=10001/60", "name=a,tc=40/60/2"})
        CHECK_THROWS_WITH(EngineSpec::parse(bad), Catch::Contains("expected [turns/]seconds"));
}

TEST_CASE("timemargin= sets a player's clock grace, shown only when not the default",
          "[timecontrol][spec]") {
    const EngineSpec m = EngineSpec::parse("name=M,tc=10+0.1,timemargin=250,depth=2");
    CHECK(m.time_control.margin_ms == 250);
    CHECK(m.description() ==
          "M(weights=tuned,params=tuned,net=tsivy,depth=2,tc=10000ms+100ms,timemargin=250)");
    // In any order: tc= keeps the margin.
    CHECK(EngineSpec::parse("name=M,timemargin=250,tc=10").time_control.margin_ms == 250);
    CHECK(EngineSpec::parse("name=M,tc=10,timemargin=" + std::to_string(TimeMargins::kClockGraceMs))
              .description()
              .find("timemargin") == std::string::npos);
    CHECK_THROWS_WITH(EngineSpec::parse("name=M,timemargin=-1"),
                      Catch::Contains("timemargin=-1: expected a whole number from 0 to 86400000"));
    bool listed = false;
    for (const SpecRange& r : EngineSpec::ranges()) listed |= std::string(r.key) == "timemargin";
    CHECK(listed);
}

TEST_CASE("the time manager shares the clock over movestogo when given", "[timecontrol][search]") {
    TimeManager t;
    SearchLimits l;
    l.time_ms[int(Color::White)] = 10000;
    t.start(l, Color::White, 0);
    CHECK(t.budget() == Approx(10.0 / TimeManager::kClockMoves));
    l.movestogo = 5; // 10 s for 5 turns: 2 s each
    t.start(l, Color::White, 0);
    CHECK(t.budget() == Approx(2.0));
    l.inc_ms[int(Color::White)] = 400;
    t.start(l, Color::White, 0);
    CHECK(t.budget() == Approx(2.0 + 0.3));
    l.movestogo = 1; // at most half of what is left, still
    t.start(l, Color::White, 0);
    CHECK(t.budget() == Approx(5.0));
}

TEST_CASE("on a clock the deadline runs past the share by TmMaxPercent and a movetime stays exact",
          "[timecontrol][search]") {
    TimeManager t;
    SearchLimits l;
    const int w = int(Color::White);
    l.time_ms[w] = 10000; // a share of 10 s / 25 = 0.4 s
    t.start(l, Color::White, 0, 300);
    CHECK(t.budget() == Approx(0.4));
    CHECK(t.deadline() == Approx(1.2));
    t.start(l, Color::White, 0, 1000); // 4 s, within half of the clock
    CHECK(t.deadline() == Approx(4.0));
    t.start(l, Color::White, 0);
    CHECK(t.deadline() == Approx(t.budget())); // 100 percent: the share is the deadline
    l.movestogo = 1;                           // the share is already half of the clock: no more
    t.start(l, Color::White, 0, 300);
    CHECK(t.budget() == Approx(5.0));
    CHECK(t.deadline() == Approx(5.0));

    SearchLimits both; // a movetime below the clock's share: the movetime rules, exact
    both.movetime_ms = 100;
    both.time_ms[w] = 10000;
    t.start(both, Color::White, 0, 300);
    CHECK(t.budget() == Approx(0.1));
    CHECK(t.deadline() == Approx(0.1));
    both.movetime_ms = 1000; // ... and above it: the clock's share, then the deadline past it
    t.start(both, Color::White, 0, 200);
    CHECK(t.budget() == Approx(0.4));
    CHECK(t.deadline() == Approx(0.8));
}

TEST_CASE("after an iteration a clock's search stops at a percent of its share and a movetime's "
          "at its deadline only",
          "[timecontrol][search]") {
    TimeManager t;
    SearchLimits clock;
    clock.time_ms[int(Color::White)] = 10000; // share 0.4 s, deadline 4 s
    t.start(clock, Color::White, 0, 1000);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    CHECK(!t.deadline_passed());
    CHECK(t.stop_after_iteration(20, 1)); // 1% of the share (4 ms) has passed
    CHECK(!t.stop_after_iteration(20, 100));
    CHECK(t.stop_after_iteration(1, 100)); // a single legal move

    SearchLimits movetime;
    movetime.movetime_ms = 1000;
    t.start(movetime, Color::White, 0, 1000);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    CHECK(!t.stop_after_iteration(20, 1)); // no share to scale: the movetime is used whole
}

TEST_CASE("a moves-in-time control refills the clock after each period of the side's turns",
          "[timecontrol]") {
    // White: 3 turns in 5 s; Black: a plain 5 s clock.
    const GameSetup s =
        setup_with("name=w,builtin=random,tc=3/5", "name=b,builtin=random,tc=5", 14);
    ClockRecorder white, black;
    const PlayedGame g = play_game(s, white, black);
    CHECK(g.record.reason == "length-cap");
    REQUIRE(white.clocks.size() == 7);
    const int w = int(Color::White), b = int(Color::Black);
    const int to_go[] = {3, 2, 1, 3, 2, 1, 3};
    for (std::size_t i = 0; i < white.clocks.size(); ++i) {
        INFO("White's turn " << i);
        CHECK(white.clocks[i].enabled);
        CHECK(white.clocks[i].moves_to_go[w] == to_go[i]);
        CHECK(white.clocks[i].moves_to_go[b] == 0);
        // The time of each period comes in after its last turn (the players answer at once).
        const int periods = int(i) / 3 + 1;
        CHECK(white.clocks[i].time_ms[w] <= periods * 5000);
        CHECK(white.clocks[i].time_ms[w] > periods * 5000 - 1000);
        CHECK(white.clocks[i].time_ms[b] <= 5000);
    }
    for (const Clock& c : black.clocks) CHECK(c.time_ms[b] <= 5000);
}

TEST_CASE("a player's time margin decides whether a late move loses on time", "[timecontrol]") {
    // White needs about 300 ms a turn with a clock of 50 ms: 250 ms late each turn.
    const GameSetup strict =
        setup_with("name=w,builtin=random,tc=0.05", "name=b,builtin=random", 6);
    ClockRecorder slow(300), quick;
    const PlayedGame lost = play_game(strict, slow, quick);
    CHECK(lost.record.reason == "timeout");
    CHECK(lost.record.result == GameResult::BlackWins);
    CHECK(slow.clocks.size() == 1);

    const GameSetup forgiving =
        setup_with("name=w,builtin=random,tc=0.05,timemargin=5000", "name=b,builtin=random", 6);
    ClockRecorder slow2(300), quick2;
    const PlayedGame played = play_game(forgiving, slow2, quick2);
    CHECK(played.record.reason == "length-cap");
    CHECK(slow2.clocks.size() == 3);
}

TEST_CASE("an external engine is told the turns to its next time control (movestogo)",
          "[timecontrol][protocol_client]") {
    const std::string dir = test_cli::fresh_dir("movestogo");
    std::filesystem::create_directories(dir);
    const std::string log = dir + "/received.txt";
    const Rules rules;
    const Game game(rules, Position::start(rules.variant));
    MoveList list;
    generate_moves(game.position(), rules, list);
    const std::string answer = move_to_string(game.position(), rules, list[0]);

    ExternalEngineConfig config;
    config.argv = {std::string(FANORONA_TEST_DATA) + "/../engines/scripted.sh", log, answer};
    ExternalPlayer player(config, rules);
    Clock clock;
    clock.enabled = true;
    clock.time_ms[0] = 9000;
    clock.time_ms[1] = 8000;
    clock.inc_ms[0] = 100;
    clock.inc_ms[1] = 200;
    clock.moves_to_go[0] = 7;
    CHECK(player.choose(game, clock).move == list[0]);
    clock.moves_to_go[0] = 0; // no moves-in-time control: no movestogo
    CHECK(player.choose(game, clock).move == list[0]);
    std::vector<std::string> gos;
    for (const std::string& line : test_cli::file_lines(log))
        if (line.rfind("go", 0) == 0) gos.push_back(line);
    CHECK(gos == std::vector<std::string>{"go wtime 9000 btime 8000 winc 100 binc 200 movestogo 7",
                                          "go wtime 9000 btime 8000 winc 100 binc 200"});
}

TEST_CASE("a clocked engine facing an unclocked one is told only its own clock",
          "[timecontrol][protocol_client]") {
    const std::string dir = test_cli::fresh_dir("unclocked_opponent");
    std::filesystem::create_directories(dir);
    const std::string log = dir + "/received.txt";
    const Rules rules;
    const Game game(rules, Position::start(rules.variant)); // White to move
    MoveList list;
    generate_moves(game.position(), rules, list);
    ExternalEngineConfig config;
    config.argv = {std::string(FANORONA_TEST_DATA) + "/../engines/scripted.sh", log,
                   move_to_string(game.position(), rules, list[0])};
    ExternalPlayer player(config, rules);
    Clock clock; // White has a clock, Black (a depth-limited player) none: its time reads 0
    clock.enabled = true;
    clock.time_ms[0] = 9000;
    clock.inc_ms[0] = 100;
    CHECK(player.choose(game, clock).move == list[0]);
    std::vector<std::string> gos;
    for (const std::string& line : test_cli::file_lines(log))
        if (line.rfind("go", 0) == 0) gos.push_back(line);
    CHECK(gos == std::vector<std::string>{"go wtime 9000 winc 100"});
}

TEST_CASE("a tournament with moves-in-time controls sends movestogo and counts down",
          "[timecontrol][tournament]") {
    // Our own engine over pipes, which reads movestogo (its time manager shares the clock over
    // it), against itself in-process; the games are short (--max-turns).
    const std::string dir = test_cli::fresh_dir("tc_tournament");
    const test_cli::Run r = test_cli::run_cli(
        "tournament --quiet --games 2 --max-turns 16 --openings start --out " + dir +
        " --player name=ext,cmd=" FANORONA_BINARY ",args=engine,tc=3/0.3+0.01,timemargin=1000" +
        " --player name=own,tc=4/2,depth=2");
    INFO(r.output);
    CHECK(r.status == 0);
    std::ifstream games(dir + "/games.tsv");
    std::string text((std::istreambuf_iterator<char>(games)), {});
    CHECK_THAT(text, Catch::Contains("ext(cmd=" FANORONA_BINARY " engine,tc=3/300ms+10ms,"
                                     "timemargin=1000)"));
    CHECK_THAT(text, Catch::Contains("own(weights=tuned,params=tuned,net=tsivy,depth=2,"
                                     "tc=4/2000ms+0ms)"));
    CHECK_THAT(text, !Catch::Contains("timeout"));
}
