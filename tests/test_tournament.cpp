// Tournaments end to end: external engines (the toolkit's own and misbehaving ones), resume and
// extension, SPRT stopping, the live stream, bad player specs.

#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "selfplay/engine/engine_spec.h"
#include "selfplay/engine/process.h"
#include "selfplay/formats/games_file.h"
#include "tests/cli_helpers.h"

using namespace test_cli;

namespace {

std::vector<fanorona::GameRecord> games_of(const std::string& dir) {
    return fanorona::read_games_file(dir + "/games.tsv").games;
}

} // namespace

TEST_CASE("the toolkit's engine over pipes plays the same games as in-process", "[tournament]") {
    const std::string dir = fresh_dir("external_same");
    const Run r = run_cli("tournament --quiet --games 4 --openings random:3 --out " + dir +
                          " --player name=ext,cmd=" + FANORONA_BINARY +
                          ",args=engine,depth=2 --player name=int,depth=2");
    INFO(r.output);
    REQUIRE(r.status == 0);
    const auto games = games_of(dir);
    REQUIRE(games.size() == 4);
    // Game 2k has ext as White, 2k+1 int as White, from the same opening: the same engine at the
    // same depth must then play the same moves.
    CHECK(games[0].moves == games[1].moves);
    CHECK(games[2].moves == games[3].moves);
    CHECK(games[0].moves != games[2].moves);
}

TEST_CASE("each engine fault loses the game, is recorded, and the tournament goes on",
          "[tournament]") {
    // The startup limit is generous except for the engine that is slow to start: a loaded
    // machine can take more than 300 ms to start a shell script.
    struct Fault {
        const char* script;
        const char* reason;
        const char* startup_ms;
    };
    const Fault faults[] = {{"crash", "crash", "10000"},
                            {"hang", "timeout", "10000"},
                            {"illegal", "illegal-move", "10000"},
                            {"malformed", "illegal-move", "10000"},
                            {"slowstart", "hang", "300"}};
    for (const auto& [script, reason, startup] : faults) {
        const std::string dir = fresh_dir(std::string("fault_") + script);
        const Run r = run_cli("tournament --quiet --games 4 --out " + dir +
                              " --player name=bad,cmd=" + engine_script(script) +
                              ",depth=2,timeout=300,startup=" + startup +
                              " --player name=rnd,builtin=random");
        INFO(script << ": " << r.output);
        REQUIRE(r.status == 0);
        const auto games = games_of(dir);
        REQUIRE(games.size() == 4);
        for (const auto& g : games) {
            CHECK(g.reason == reason);
            const bool bad_is_white = g.white.rfind("bad(", 0) == 0;
            CHECK(g.result == (bad_is_white ? fanorona::GameResult::BlackWins
                                            : fanorona::GameResult::WhiteWins));
        }
    }
}

TEST_CASE("a tournament resumes and extends to the files of one longer run", "[tournament]") {
    const std::string players = " --player name=a,depth=2 --player name=b,depth=1 "
                                "--player name=c,builtin=greedy --format roundrobin "
                                "--openings random:4 --quiet";
    const std::string full = fresh_dir("t_full");
    REQUIRE(run_cli("tournament --games 4" + players + " --out " + full).status == 0);
    const std::string part = fresh_dir("t_part");
    REQUIRE(run_cli("tournament --games 2" + players + " --out " + part).status == 0);
    CHECK(games_of(part).size() == 6);
    const Run again = run_cli("tournament --games 4" + players + " --out " + part);
    CHECK(again.status != 0);
    REQUIRE(run_cli("tournament --games 4" + players + " --resume --out " + part).status == 0);
    CHECK(slurp_run_file(full + "/games.tsv") == slurp_run_file(part + "/games.tsv"));
    CHECK(slurp(full + "/live.jsonl") == slurp(part + "/live.jsonl"));
    const auto results = nlohmann::json::parse(slurp(part + "/results.json"));
    CHECK(results["games"] == 12);
    CHECK(results["complete"] == true);
}

TEST_CASE("an SPRT stops the tournament once it decides", "[tournament]") {
    const std::string dir = fresh_dir("sprt");
    const Run r = run_cli("tournament --quiet --sprt elo0=0,elo1=20 --games 400 --out " + dir +
                          " --player name=engine,depth=2 --player name=rnd,builtin=random");
    INFO(r.output);
    REQUIRE(r.status == 0);
    CHECK_THAT(r.output, Catch::Contains("H1 accepted"));
    const auto results = nlohmann::json::parse(slurp(dir + "/results.json"));
    CHECK(results["games"].get<int>() < 400);
    CHECK(results["sprt"]["verdict"] == "H1 accepted");
    CHECK(results["sprt"]["llr"].get<double>() >= results["sprt"]["upper_bound"].get<double>());
    // One live line per finished pair, the last one carrying the verdict.
    std::istringstream live(slurp(dir + "/live.jsonl"));
    int lines = 0;
    std::string line, last;
    while (std::getline(live, line)) ++lines, last = line;
    CHECK(lines == results["pairs"].get<int>());
    CHECK(nlohmann::json::parse(last)["sprt"]["verdict"] == "H1 accepted");
}

TEST_CASE("bad player specs get one-line errors", "[tournament]") {
    using fanorona::EngineSpec;
    CHECK_THROWS_WITH(EngineSpec::parse("depth=3"), Catch::Contains("name=... is required"));
    CHECK_THROWS_WITH(EngineSpec::parse("name=a,depth=x"), Catch::Contains("depth=x"));
    CHECK_THROWS_WITH(EngineSpec::parse("name=a,colour=red"),
                      Catch::Contains("unknown key 'colour'"));
    CHECK_THROWS_WITH(EngineSpec::parse("name=a,weights=/no/such/file"),
                      Catch::Contains("/no/such/file"));
    CHECK_THROWS_WITH(EngineSpec::parse("name=a,builtin=smart"),
                      Catch::Contains("random or greedy"));
    CHECK_THROWS_WITH(EngineSpec::parse("name=a,tc=fast"), Catch::Contains("tc=fast"));
    CHECK(EngineSpec::parse("name=a,tc=2+0.05").time_control.inc_ms == 50);
    const Run r = run_cli("tournament --player name=a,depth=2 --player name=a,depth=3 --out " +
                          fresh_dir("dupe"));
    CHECK(r.status != 0);
    CHECK_THAT(r.output, Catch::Contains("used twice"));
    const std::string nocmd = fresh_dir("nocmd");
    const Run missing =
        run_cli("tournament --quiet --games 2 --out " + nocmd +
                " --player name=x,cmd=/no/such/engine --player name=r,builtin=random");
    CHECK(missing.status == 1); // a program that cannot start is refused before the run
    CHECK_THAT(missing.output,
               Catch::Contains("x: cmd=/no/such/engine: No such file or directory"));
}

TEST_CASE("a forfeit is reported with the engine's last line on standard error", "[tournament]") {
    // The toolkit's engine with a weights file it rejects: it prints one error line and exits at
    // start-up, so each of its games is lost as a crash. The first three forfeits are reported
    // with that line, then one summary.
    const std::string dir = fresh_dir("forfeit_warning");
    std::filesystem::create_directories(dir);
    const std::string bad = dir + "/bad_weights.txt";
    std::ofstream(bad) << "fanorona-weights 2\n";
    const Run r =
        run_cli("tournament --quiet --games 6 --out " + dir +
                "/t --player name=a,depth=1 --player 'name=broken,cmd=" + FANORONA_BINARY +
                ",args=engine --weights " + bad + "'");
    INFO(r.output);
    REQUIRE(r.status == 0);
    for (const auto& g : games_of(dir + "/t")) CHECK(g.reason == "crash");
    CHECK_THAT(r.output, Catch::Contains("fanorona: warning: game 0: broken forfeits (crash): "
                                         "engine exited during start-up; its standard error: "
                                         "fanorona: " +
                                         bad + ":1: "));
    CHECK_THAT(r.output, Catch::Contains("weights missing at end of text"));
    std::size_t warnings = 0;
    for (std::size_t at = 0; (at = r.output.find("forfeits (crash)", at)) != std::string::npos;
         ++at)
        ++warnings;
    CHECK(warnings == 3);
    CHECK_THAT(r.output, Catch::Contains("6 games forfeited by a player"));
}

TEST_CASE("killing an engine kills what it started (its whole process group)", "[tournament]") {
    const std::string dir = fresh_dir("hangchild");
    std::filesystem::create_directories(dir);
    const std::string pidfile = dir + "/pids";
    {
        fanorona::ChildProcess child;
        child.start({engine_script("hangchild"), pidfile});
        REQUIRE(child.write_line("uci"));
        std::string line;
        do {
            REQUIRE(child.read_line(line, 5000) == fanorona::ChildProcess::ReadStatus::Line);
        } while (line != "uciok");
        const auto pids = pids_in(pidfile);
        REQUIRE(pids.size() == 1);
        CHECK(process_alive(pids[0])); // alive before the kill...
        child.kill();
        CHECK(process_gone(pids[0])); // ...and gone with its parent
    }
    // Through a tournament: each forfeit for hanging kills the engine, its helper and its hang.
    const std::string tdir = fresh_dir("hangchild_t");
    const std::string tpids = dir + "/tpids";
    const Run r = run_cli("tournament --quiet --games 2 --out " + tdir + " --player name=bad,cmd=" +
                          engine_script("hangchild") + ",args=" + tpids +
                          ",depth=2,timeout=300,startup=3000 --player name=rnd,builtin=random");
    INFO(r.output);
    REQUIRE(r.status == 0);
    for (const auto& g : games_of(tdir)) CHECK(g.reason == "timeout");
    const auto pids = pids_in(tpids);
    REQUIRE(pids.size() == 2); // one start per forfeited game
    for (const long pid : pids) CHECK(process_gone(pid));
}

TEST_CASE("an engine command that cannot run gets a one-line error naming it and why",
          "[tournament]") {
    fanorona::ChildProcess child;
    CHECK_THROWS_WITH(child.start({"/no/such/engine"}),
                      "cannot start engine command '/no/such/engine': No such file or directory");
    // common.sh is not executable: exec fails with EACCES.
    const std::string script = std::string(FANORONA_TEST_DATA) + "/../engines/common.sh";
    CHECK_THROWS_WITH(child.start({script}),
                      "cannot start engine command '" + script +
                          "': Permission denied (the file is not executable)");
    CHECK_FALSE(child.running());
}

TEST_CASE("a tournament killed at random moments, also while resuming, resumes to the files of "
          "an uninterrupted run",
          "[tournament]") {
    // A few hundred ms uninterrupted: kill moments of a few ms would race the program's start.
    const std::string args =
        "tournament --games 12 --player name=a,depth=3 --player name=b,depth=2 "
        "--player name=c,builtin=greedy --format roundrobin "
        "--openings random:4 --seed 5 --threads 1 --quiet --out ";
    const std::string ref = fresh_dir("t_kill_reference");
    int ms = 0;
    REQUIRE(run_cli_timed(args + ref, ms).status == 0);
    // Kills at seeded moments in the first third of the uninterrupted run's time (whatever the
    // build's speed).
    for (const std::uint64_t seed : {1, 2}) {
        const std::string dir = fresh_dir("t_killed_" + std::to_string(seed));
        const KillRun r = run_with_kills(args + dir, seed, 4, ms / 20, ms / 3);
        INFO("seed " << seed << ": killed " << r.kills << " of 4 starts; " << r.last.output);
        REQUIRE(r.last.status == 0);
        CHECK(r.kills >= 1);
        for (const char* f : {"games.tsv", "live.jsonl", "settings.json", "results.txt"})
            CHECK(slurp_run_file(ref + "/" + f) == slurp_run_file(dir + "/" + f));
    }
}

TEST_CASE("a rating interval puts the ratings of all players into the live stream",
          "[tournament]") {
    const std::string players = " --quiet --format roundrobin --max-turns 40 --rating-interval 2 "
                                "--player name=a,depth=1 --player name=g,builtin=greedy "
                                "--player name=r,builtin=random --out ";
    const std::string dir = fresh_dir("rating_interval");
    const Run r = run_cli("tournament --games 4" + players + dir);
    INFO(r.output);
    REQUIRE(r.status == 0);
    std::istringstream live(slurp(dir + "/live.jsonl"));
    int k = 0;
    for (std::string line; std::getline(live, line); ++k) {
        const auto j = nlohmann::json::parse(line);
        INFO("pair " << k);
        CHECK(j["pair"] == k);
        // Every second pair (all pairings together): the ratings table's players, best first.
        CHECK(j.contains("ratings") == ((k + 1) % 2 == 0));
        if (!j.contains("ratings")) continue;
        REQUIRE(j["ratings"].size() == 3);
        std::set<std::string> names;
        std::uint64_t games = 0;
        for (std::size_t i = 0; i < 3; ++i) {
            CHECK(j["ratings"][i]["rank"] == i + 1);
            names.insert(j["ratings"][i]["name"].get<std::string>());
            games += j["ratings"][i]["games"].get<std::uint64_t>();
            CHECK(j["ratings"][i].contains("elo"));
            CHECK(j["ratings"][i].contains("error95"));
        }
        CHECK(names == std::set<std::string>{"a", "g", "r"});
        CHECK(games == 2 * j["games"].get<std::uint64_t>()); // each game counts for both
    }
    CHECK(k == 6);
    // A resumed run writes the same lines.
    const std::string part = fresh_dir("rating_interval_part");
    REQUIRE(run_cli("tournament --games 2" + players + part).status == 0);
    REQUIRE(run_cli("tournament --games 4 --resume" + players + part).status == 0);
    CHECK(slurp(part + "/live.jsonl") == slurp(dir + "/live.jsonl"));
}

namespace {

// The lines of `path` that start with `prefix`, without it.
std::vector<std::string> lines_with(const std::string& path, const std::string& prefix) {
    std::ifstream in(path);
    std::vector<std::string> out;
    for (std::string line; std::getline(in, line);)
        if (line.rfind(prefix, 0) == 0) out.push_back(line.substr(prefix.size()));
    return out;
}

} // namespace

TEST_CASE("arg= reaches the engine as one argument and dir= is its working folder",
          "[tournament][spec]") {
    const std::string dir = fresh_dir("engine_argv");
    const std::string work = dir + "/work";
    std::filesystem::create_directories(work);
    // seen.txt is relative: written in the engine's working folder.
    const Run r = run_cli("tournament --quiet --threads 1 --games 2 --out " + dir +
                          "/t --player 'name=x,cmd=" + engine_script("argv") + ",args=seen.txt " +
                          FANORONA_BINARY + ",arg=two words,arg=a\\,b,depth=1,dir=" + work +
                          "' --player name=r,builtin=random");
    INFO(r.output);
    REQUIRE(r.status == 0);
    for (const auto& g : games_of(dir + "/t")) CHECK(g.reason != "crash");
    const std::string seen = work + "/seen.txt";
    REQUIRE(std::filesystem::exists(seen));
    CHECK(lines_with(seen, "arg ") == std::vector<std::string>{"two words", "a,b"});
    const auto pwd = lines_with(seen, "pwd ");
    REQUIRE(pwd.size() == 1); // one process for both games (no restart=)
    CHECK(pwd[0] == std::filesystem::canonical(work).string());
    // A relative cmd=./PROGRAM is found from dir=, by the check before the run as by the start.
    std::filesystem::copy_file(engine_script("argv"), work + "/eng.sh");
    const Run relative =
        run_cli("tournament --quiet --threads 1 --games 2 --out " + dir +
                "/rel --player 'name=x,cmd=./eng.sh,args=seen2.txt " + FANORONA_BINARY +
                ",depth=1,dir=" + work + "' --player name=r,builtin=random");
    INFO(relative.output);
    CHECK(relative.status == 0);
    CHECK(lines_with(work + "/seen2.txt", "pwd ").size() == 1);
    // A folder that does not exist is refused before the run starts.
    const Run bad = run_cli("tournament --quiet --games 2 --out " + dir +
                            "/u --player name=x,cmd=/bin/true,dir=" + dir +
                            "/none --player name=r,builtin=random");
    CHECK(bad.status != 0);
    CHECK_THAT(bad.output, Catch::Contains("--player: dir=" + dir +
                                           "/none: no such folder (the engine's working folder)"));
    CHECK_FALSE(std::filesystem::exists(dir + "/u/games.tsv"));
}

TEST_CASE("restart=on starts a fresh engine process each game", "[tournament][spec]") {
    const std::string dir = fresh_dir("engine_restart");
    std::filesystem::create_directories(dir);
    for (const std::string restart : {"on", "off"}) {
        const std::string seen = dir + "/seen_" + restart;
        const Run r = run_cli("tournament --quiet --threads 1 --games 4 --out " + dir + "/t_" +
                              restart + " --player 'name=x,cmd=" + engine_script("argv") +
                              ",args=" + seen + " " + FANORONA_BINARY +
                              ",depth=1,restart=" + restart + "' --player name=r,builtin=random");
        INFO(r.output);
        REQUIRE(r.status == 0);
        const auto pids = lines_with(seen, "pid ");
        CHECK(pids.size() == (restart == "on" ? 4u : 1u));
        CHECK(std::set<std::string>(pids.begin(), pids.end()).size() == pids.size());
    }
}

TEST_CASE("tournament --each applies settings to every player, under each player's own",
          "[tournament]") {
    const std::string dir = fresh_dir("each");
    const Run r = run_cli("tournament --quiet --games 2 --out " + dir +
                          " --each depth=1,hash=2 --player name=a --player name=b,depth=2");
    INFO(r.output);
    REQUIRE(r.status == 0);
    const auto games = games_of(dir);
    REQUIRE(games.size() == 2);
    const std::string names = games[0].white + " " + games[0].black;
    CHECK_THAT(names, Catch::Contains("a(") && Catch::Contains("depth=1,hash=2)"));
    CHECK_THAT(names, Catch::Contains("b(") && Catch::Contains("depth=2,hash=2)"));
    // A key that a player cannot take is refused, saying where it came from.
    const Run bad = run_cli("tournament --quiet --games 2 --out " + fresh_dir("each_bad") +
                            " --each hash=8 --player name=a --player name=x,cmd=/bin/true");
    CHECK(bad.status != 0);
    CHECK_THAT(bad.output,
               Catch::Contains("--player: x: hash=8: a setting of the toolkit's engine, not of an "
                               "external one (cmd=); set the engine's own option with "
                               "option.Hash=8 (from --each)"));
    const Run named = run_cli("tournament --quiet --games 2 --out " + fresh_dir("each_name") +
                              " --each name=z --player name=a --player name=b");
    CHECK(named.status != 0);
    CHECK_THAT(named.output, Catch::Contains("--each: name=z: a key of one player"));
}

TEST_CASE("a round robin where one player loses every game rates every player, --anchor and "
          "--prior-draws",
          "[tournament][stats]") {
    const std::string dir = fresh_dir("rated_all");
    const std::string players =
        " --format roundrobin --games 4 --openings random:2 --player name=a,depth=2 --player "
        "name=b,depth=3 --player name=rnd,builtin=random";
    const Run r = run_cli("tournament --quiet --out " + dir + "/default" + players);
    INFO(r.output);
    REQUIRE(r.status == 0);
    auto table = [](const std::string& d) {
        std::ifstream in(d + "/results.json");
        return nlohmann::json::parse(in)["table"];
    };
    auto elo_of = [](const nlohmann::json& t, const std::string& name) {
        for (const auto& p : t["players"])
            if (p["name"] == name) return p["elo"];
        return nlohmann::json();
    };
    const auto d = table(dir + "/default");
    // rnd lost every game (a, b scored every point): rated all the same, by the default prior.
    CHECK(d["default_prior_reason"] == "a, b scored every point against the other players they "
                                       "met");
    for (const char* name : {"a", "b", "rnd"}) CHECK(elo_of(d, name).is_number());
    CHECK(elo_of(d, "rnd").get<double>() < elo_of(d, "a").get<double>());
    CHECK_THAT(r.output, Catch::Contains("2 prior draws per pairing (by default: a, b scored"));
    CHECK_THAT(r.output, Catch::Contains("Elo (pair)"));

    const Run anchored = run_cli("tournament --quiet --out " + dir + "/anchored" + players +
                                 " --anchor rnd=1000 --prior-draws 8");
    INFO(anchored.output);
    REQUIRE(anchored.status == 0);
    const auto a = table(dir + "/anchored");
    CHECK(elo_of(a, "rnd") == 1000);
    CHECK(a["prior_draws"] == 8);
    CHECK_FALSE(a.contains("default_prior_reason"));
    // More prior draws: the ratings closer together than by default.
    CHECK(elo_of(a, "a").get<double>() - 1000 <
          elo_of(d, "a").get<double>() - elo_of(d, "rnd").get<double>());
    CHECK_THAT(anchored.output, Catch::Contains("rnd fixed at 1000"));

    const Run none =
        run_cli("tournament --quiet --out " + dir + "/none" + players + " --prior-draws 0");
    REQUIRE(none.status == 0);
    CHECK_THAT(none.output, Catch::Contains("No ratings: ratings do not exist"));
    const Run bad =
        run_cli("tournament --quiet --out " + dir + "/bad" + players + " --anchor nobody");
    CHECK(bad.status != 0);
    CHECK_THAT(bad.output, Catch::Contains("--anchor nobody: no player called nobody (a, b, rnd)"));

    // The report refits the table with its own options.
    const Run page = run_cli("report --tournament " + dir + "/default --anchor b=2000 --out " +
                             dir + "/page.html");
    INFO(page.output);
    REQUIRE(page.status == 0);
    std::ifstream html(dir + "/page.html");
    const std::string text((std::istreambuf_iterator<char>(html)), {});
    CHECK_THAT(text, Catch::Contains("b fixed at 2000"));
    CHECK_THAT(text, Catch::Contains("<th>Elo (pair)</th>"));
    CHECK_THAT(text, Catch::Contains("+2000.0"));
    const Run nobody =
        run_cli("report --tournament " + dir + "/default --anchor zz --out " + dir + "/page2.html");
    CHECK(nobody.status != 0);
    // The report names the players of the results' table, in its order (by rating).
    std::string listed;
    for (const auto& p : d["players"])
        listed += (listed.empty() ? "" : ", ") + p["name"].get<std::string>();
    CHECK_THAT(nobody.output, Catch::Contains("--anchor zz: no player called zz (" + listed + ")"));
    const Run alone = run_cli("report --prior-draws 3 --out " + dir + "/page3.html");
    CHECK(alone.status != 0);
    CHECK_THAT(alone.output, Catch::Contains("--prior-draws: refits a tournament's ratings"));
}

TEST_CASE("without a terminal a tournament prints plain progress lines and the ratings every N "
          "pairs on stdout",
          "[tournament]") {
    const std::string dir = fresh_dir("plain_progress");
    std::filesystem::create_directories(dir);
    const std::string err = dir + "/stderr.txt";
    // stderr to a file (not a terminal), stdout to the pipe.
    const Run r = run_shell(std::string("(") + FANORONA_BINARY +
                            " tournament --games 6 --max-turns 40 --rating-interval 1 --player "
                            "name=a,depth=1 --player name=r,builtin=random --out " +
                            dir + "/t 2>" + err + ")");
    INFO(r.output);
    REQUIRE(r.status == 0);
    const std::string progress = slurp(err);
    INFO(progress);
    CHECK(progress.find('\r') == std::string::npos);
    CHECK(progress.find('\033') == std::string::npos);
    const auto lines = lines_of(progress);
    REQUIRE(lines.size() >= 2);
    CHECK(lines.front().rfind("0/6 games  a vs r: W 0 D 0 L 0  Elo ", 0) == 0);
    CHECK(lines.back().rfind("6/6 games  a vs r: W ", 0) == 0);
    CHECK(lines.back().find("games/s  ETA ") != std::string::npos);
    // The ratings table after each of the 3 pairs, on stdout.
    for (int pairs = 1; pairs <= 3; ++pairs)
        CHECK(r.output.find("Ratings after " + std::to_string(pairs) + " pairs (" +
                            std::to_string(2 * pairs) + " games):\n") != std::string::npos);
    // --quiet: no progress, the ratings still on stdout.
    const Run q = run_shell(std::string("(") + FANORONA_BINARY +
                            " tournament --quiet --games 2 --max-turns 40 --rating-interval 1 "
                            "--player name=a,depth=1 --player name=r,builtin=random --out " +
                            dir + "/q 2>" + err + ")");
    CHECK(q.status == 0);
    CHECK(slurp(err).empty());
    CHECK(q.output.find("Ratings after 1 pairs (2 games):\n") != std::string::npos);
}

TEST_CASE("an SPRT without a game count plays its first games at once and says up to",
          "[tournament]") {
    const std::string dir = fresh_dir("sprt_lazy");
    std::filesystem::create_directories(dir);
    const std::string err = dir + "/stderr.txt";
    // 100,000 pairs of random:4 openings: drawn up front they took 12-28 s before any game.
    const auto start = std::chrono::steady_clock::now();
    const Run r = run_shell(std::string("(timeout -s INT 6 ") + FANORONA_BINARY +
                            " tournament --sprt elo0=0,elo1=5 --openings random:4 --max-turns 40 "
                            "--player name=a,depth=1 --player name=b,depth=1 --out " +
                            dir + "/t 2>" + err + ")");
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    INFO(r.output << slurp(err));
    CHECK(secs < 30);
    const std::size_t games = lines_of(slurp(dir + "/t/games.tsv")).size() - 1; // the header
    CHECK(games >= 2);
    const auto lines = lines_of(slurp(err));
    REQUIRE(!lines.empty());
    CHECK(lines.front().rfind("0 games (up to 200000)  a vs b: ", 0) == 0);
    CHECK(slurp(err).find("LLR ") != std::string::npos);
    CHECK(slurp(err).find("ETA") == std::string::npos);
}

TEST_CASE("results.json names the program and each external engine by its id name",
          "[tournament]") {
    const std::string dir = fresh_dir("engine_names");
    const Run r = run_cli("tournament --quiet --games 2 --max-turns 20 --out " + dir +
                          " --player name=ext,cmd=" + FANORONA_BINARY +
                          ",args=engine,depth=1 --player name=int,depth=1");
    INFO(r.output);
    REQUIRE(r.status == 0);
    const auto j = nlohmann::json::parse(slurp(dir + "/results.json"));
    REQUIRE(j.contains("engine_names"));
    CHECK(j["engine_names"] == nlohmann::json{{"ext", "Fanorona Lab"}}); // int is built in
    CHECK(j["program"]["name"] == "fanorona");
    CHECK(j["program"]["bench_signature"].get<std::uint64_t>() > 0);
}
