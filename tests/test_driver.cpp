// The one game driver, in-process: the schedule, self-play as a match of one spec against itself,
// tournaments that log positions, and the same games on any number of threads.

#include <catch2/catch.hpp>

#include "selfplay/games/driver.h"
#include "selfplay/selfplay.h"
#include "selfplay/tournament/tournament.h"
#include "tests/cli_helpers.h"

using namespace fanorona;
using test_cli::fresh_dir;
using test_cli::slurp;
using test_cli::slurp_run_file;

namespace {

// Counts the games an observer sees, replayed and new.
struct Counter : GameObserver {
    void replay(const GameRecord&, const GameSlot&) override { ++replayed; }
    void add(const PlayedGame& g, const GameSlot& s, RunFolder&) override {
        ++added;
        last_index = g.record.index;
        whites.push_back(s.white);
    }
    int replayed = 0, added = 0;
    std::uint64_t last_index = 0;
    std::vector<int> whites;
};

EngineSpec engine(const std::string& name, int depth) {
    return EngineSpec::parse("name=" + name + ",depth=" + std::to_string(depth));
}

} // namespace

TEST_CASE("the schedule pairs, swaps colours and shares openings by round", "[driver]") {
    const Schedule rr = Schedule::make(Pairing::RoundRobin, 3);
    REQUIRE(rr.pairings == std::vector<std::pair<int, int>>{{0, 1}, {0, 2}, {1, 2}});
    CHECK(rr.games_per_round() == 6);
    CHECK(rr.rounds_for(13) == 3);
    const GameSlot a = rr.slot(2), b = rr.slot(3), c = rr.slot(6);
    CHECK((a.white == 0 && a.black == 2 && a.first_of_pair));
    CHECK((b.white == 2 && b.black == 0 && !b.first_of_pair));
    CHECK(a.opening == 0);
    CHECK(c.opening == 1);
    CHECK(Schedule::make(Pairing::Gauntlet, 3).pairings.size() == 2);
    const Schedule self = Schedule::make(Pairing::SelfPlay, 1);
    CHECK((self.slot(5).white == 0 && self.slot(5).black == 0 && self.slot(5).opening == 2));
}

TEST_CASE("the driver plays the same games on any number of threads", "[driver]") {
    RunConfig c;
    c.players = {engine("e", 2)};
    c.games = 12;
    c.quiet = true;
    c.threads = 1;
    const std::string dir_one = fresh_dir("driver_one");
    c.out_dir = dir_one;
    Counter one;
    const RunOutcome r1 = run_games(c, one);
    CHECK(r1.played_now == 12);
    CHECK(one.added == 12);
    CHECK(one.last_index == 11);
    c.threads = 2;
    c.out_dir = fresh_dir("driver_two");
    Counter two;
    run_games(c, two);
    CHECK(one.whites == two.whites);
    CHECK(slurp_run_file(dir_one + "/games.tsv") == slurp_run_file(c.out_dir + "/games.tsv"));
    CHECK(slurp(dir_one + "/positions.bin") == slurp(c.out_dir + "/positions.bin"));
}

TEST_CASE("a resumed run replays the games in the folder to the observer", "[driver]") {
    RunConfig c;
    c.players = {engine("e", 1)};
    c.games = 6;
    c.quiet = true;
    c.out_dir = fresh_dir("driver_resume");
    Counter first;
    run_games(c, first);
    c.games = 10;
    c.resume = true;
    Counter second;
    const RunOutcome r = run_games(c, second);
    CHECK(second.replayed == 6);
    CHECK(second.added == 4);
    CHECK(r.games == 10);
    // Fewer games than the folder holds is refused.
    c.games = 4;
    Counter third;
    CHECK_THROWS_WITH(run_games(c, third), Catch::Contains("more than the 4 scheduled"));
}

TEST_CASE("settings that decide the games are validated once, for every run", "[driver]") {
    RunConfig c;
    c.players = {engine("e", 1)};
    c.out_dir = fresh_dir("driver_bad");
    c.quiet = true;
    Counter o;
    c.adjudication.win_turns = 0;
    CHECK_THROWS_WITH(run_games(c, o), Catch::Contains("--win-turns"));
    c.adjudication.win_turns = 4;
    c.adjudication.win_margin = -5;
    CHECK_THROWS_WITH(run_games(c, o), Catch::Contains("--win-margin"));
    c.adjudication.win_margin = 0;
    c.players.push_back(engine("f", 1));
    CHECK_THROWS_WITH(run_games(c, o), Catch::Contains("exactly one engine"));
    c.pairing = Pairing::Gauntlet;
    c.players[1].name = "e";
    CHECK_THROWS_WITH(run_games(c, o), Catch::Contains("used twice"));
}

TEST_CASE("a tournament logs positions for the tuner when asked", "[driver][tournament]") {
    TournamentConfig t;
    t.run.players = {engine("a", 1), engine("b", 2)};
    t.run.games = 4;
    t.run.quiet = true;
    t.run.log_positions = true;
    t.run.out_dir = fresh_dir("driver_tournament_positions");
    const TournamentResult r = run_tournament(t);
    CHECK(r.games == 4);
    CHECK(slurp(t.run.out_dir + "/positions.bin").size() > 16);
    // The command line's --log-positions writes the same log (with RunConfig's openings,
    // random:4; the command's default is random:6).
    const std::string dir = fresh_dir("driver_tournament_cli");
    const test_cli::Run cli = test_cli::run_cli(
        "tournament --games 4 --quiet --log-positions --openings random:4 --player name=a,depth=1 "
        "--player "
        "name=b,depth=2 --out " +
        dir);
    CHECK(cli.status == 0);
    CHECK(slurp(dir + "/positions.bin") == slurp(t.run.out_dir + "/positions.bin"));
    CHECK(slurp_run_file(dir + "/games.tsv") == slurp_run_file(t.run.out_dir + "/games.tsv"));
}
