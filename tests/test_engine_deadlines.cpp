// The engine process's deadlines, signals and borders (selfplay/engine/process.h,
// protocol_client.h): engines that talk but never answer end within their deadline, SIGTERM ends
// a tournament that waits on a silent engine at once and leaves no engine behind, absurd numbers
// from an engine give a games file that every reader reads, and the small faults of engine
// commands (a folder, a missing program, NUL bytes, a FIFO as a network) are one-line errors.

#include <catch2/catch.hpp>

#include <chrono>
#include <climits>
#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <thread>

#include <nlohmann/json.hpp>

#include "core/common/clock.h"
#include "selfplay/engine/process.h"
#include "selfplay/engine/protocol_client.h"
#include "selfplay/formats/games_file.h"
#include "tests/cli_helpers.h"

using namespace test_cli;
using fanorona::seconds_since;

namespace {

std::vector<fanorona::GameRecord> games_of(const std::string& dir) {
    return fanorona::read_games_file(dir + "/games.tsv").games;
}

// Waits up to ten seconds for `path` to list `n` PIDs.
std::vector<long> wait_for_pids(const std::string& path, std::size_t n) {
    for (int i = 0; i < 1000; ++i) {
        const auto pids = pids_in(path);
        if (pids.size() >= n) return pids;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return pids_in(path);
}

// An engine script in `dir` that appends its own PID (which exec keeps) and that of a helper
// child to `pidfile`, then hangs on "go" like hang.sh.
std::string pid_writing_engine(const std::string& dir, const std::string& pidfile) {
    const std::string path = dir + "/pid_engine.sh";
    std::ofstream(path) << "#!/usr/bin/env bash\nsleep 1000 &\necho $$ $! >> " << pidfile
                        << "\nexec bash " << engine_script("hang") << " \n";
    std::filesystem::permissions(path, std::filesystem::perms::owner_all);
    return path;
}

} // namespace

TEST_CASE("an engine that prints id lines for ever but never uciok forfeits at its start-up "
          "deadline",
          "[deadlines]") {
    const std::string dir = fresh_dir("chatty_start");
    const auto t0 = std::chrono::steady_clock::now();
    const Run r = run_cli("tournament --quiet --games 2 --threads 1 --out " + dir +
                          " --player name=c,cmd=" + engine_script("chattystart") +
                          ",depth=2,startup=200 --player name=r,builtin=random");
    INFO(r.output);
    CHECK(seconds_since(t0) < 20 * kSlowdown);
    REQUIRE(r.status == 0);
    for (const auto& g : games_of(dir)) CHECK(g.reason == "hang");
    CHECK_THAT(r.output, Catch::Contains("did not answer 'uciok' during start-up within 200 ms"));
}

TEST_CASE("an engine that prints info lines for ever after go forfeits at its go deadline, "
          "under every kind of limit",
          "[deadlines]") {
    for (const std::string limit : {"depth=2,timeout=200", "movetime=50", "tc=0.2+0"}) {
        const std::string dir = fresh_dir("chatty_go");
        const auto t0 = std::chrono::steady_clock::now();
        const Run r = run_cli("tournament --quiet --games 2 --threads 1 --out " + dir +
                              " --player name=c,cmd=" + engine_script("chattygo") + "," + limit +
                              " --player name=r,builtin=random");
        INFO(limit << ": " << r.output);
        CHECK(seconds_since(t0) < 20 * kSlowdown);
        REQUIRE(r.status == 0);
        const auto games = games_of(dir);
        CHECK(games.size() == 2);
        for (const auto& g : games) CHECK(g.reason == "timeout");
    }
}

TEST_CASE("the protocol client's waits are counted from the request, whatever the engine "
          "prints",
          "[deadlines]") {
    using namespace fanorona;
    {
        ProtocolClient client({{engine_script("chattystart")}, {}, Rules{}, 300, {}, {}});
        const auto t0 = std::chrono::steady_clock::now();
        try {
            client.start();
            FAIL("started an engine that never says uciok");
        } catch (const PlayerFault& f) {
            CHECK(f.reason == "hang");
        }
        CHECK(seconds_since(t0) < 10 * kSlowdown);
        CHECK_FALSE(client.running());
    }
    {
        ProtocolClient client({{engine_script("chattygo")}, {}, Rules{}, 5000, {}, {}});
        client.start();
        client.new_game();
        const Game game(Rules{}, Position::start(Variant::Tsivy));
        client.send_position(game);
        const auto t0 = std::chrono::steady_clock::now();
        try {
            client.go(game, "go movetime 100", 300);
            FAIL("a bestmove from an engine that never sends one");
        } catch (const PlayerFault& f) {
            CHECK(f.reason == "timeout");
        }
        CHECK(seconds_since(t0) < 10 * kSlowdown);
    }
}

TEST_CASE("a line longer than the cap is cut, its rest dropped, and the next line read",
          "[deadlines]") {
    fanorona::ChildProcess child;
    child.start(
        {"/bin/sh", "-c", "head -c 1000000 /dev/zero | tr '\\000' a; echo; echo next; sleep 5"});
    std::string line;
    REQUIRE(child.read_line(line, 10000) == fanorona::ChildProcess::ReadStatus::Line);
    CHECK(line.size() == fanorona::ChildProcess::kMaxLineBytes);
    CHECK(line.find_first_not_of('a') == std::string::npos);
    REQUIRE(child.read_line(line, 10000) == fanorona::ChildProcess::ReadStatus::Line);
    CHECK(line == "next");
    // An engine that floods its output: the reader still stops at its deadline.
    child.start({"/usr/bin/yes"});
    const auto t0 = std::chrono::steady_clock::now();
    const auto deadline = t0 + std::chrono::milliseconds(200);
    fanorona::ChildProcess::ReadStatus s;
    while ((s = child.read_line(line, deadline)) == fanorona::ChildProcess::ReadStatus::Line) {
    }
    CHECK(s == fanorona::ChildProcess::ReadStatus::Timeout);
    CHECK(seconds_since(t0) < 5 * kSlowdown);
}

TEST_CASE("timeuse of an engine that prints lines for ever ends with an error", "[deadlines]") {
    const auto t0 = std::chrono::steady_clock::now();
    const Run r = run_cli("timeuse --engine /usr/bin/yes --movetimes 20 --repeat 1");
    INFO(r.output);
    CHECK(r.status == 1);
    CHECK_THAT(r.output, Catch::Contains("uciok"));
    CHECK(seconds_since(t0) < 30 * kSlowdown);
}

TEST_CASE("SIGTERM ends a tournament waiting on a silent engine at once, and no engine is left",
          "[deadlines]") {
    const std::string dir = fresh_dir("sigterm");
    std::filesystem::create_directories(dir);
    const std::string pidfile = dir + "/pids";
    const std::string engine = pid_writing_engine(dir, pidfile);
    // depth=2 and the default timeout: a minute's wait for each bestmove.
    const pid_t pid =
        spawn_cli("tournament --quiet --games 4 --threads 2 --out " + dir +
                  "/t --player name=silent,cmd=" + engine + ",depth=2 --player name=r,depth=1");
    REQUIRE(pid > 0);
    auto pids = wait_for_pids(pidfile, 2);
    REQUIRE(pids.size() >= 2);
    std::this_thread::sleep_for(std::chrono::milliseconds(300)); // at its go by now
    const auto t0 = std::chrono::steady_clock::now();
    ::kill(pid, SIGTERM);
    const int status = wait_exit(pid);
    CHECK(seconds_since(t0) < 10 * kSlowdown);
    CHECK(status == 1); // "interrupted"
    for (const long p : pids_in(pidfile)) CHECK(process_gone(p));
}

TEST_CASE("an engine dies with its referee (PR_SET_PDEATHSIG)", "[deadlines]") {
    const std::string dir = fresh_dir("pdeathsig");
    std::filesystem::create_directories(dir);
    const std::string pidfile = dir + "/pids";
    const std::string engine = pid_writing_engine(dir, pidfile);
    const pid_t pid =
        spawn_cli("tournament --quiet --games 2 --threads 1 --out " + dir +
                  "/t --player name=silent,cmd=" + engine + ",depth=2 --player name=r,depth=1");
    REQUIRE(pid > 0);
    const auto pids = wait_for_pids(pidfile, 2);
    REQUIRE(pids.size() >= 2);
    ::kill(pid, SIGKILL); // no handler runs: the kernel ends the engine
    wait_exit(pid);
    CHECK(process_gone(pids[0])); // the engine itself (its helper child is its own business)
    if (process_alive(pids[1])) ::kill(pids[1], SIGKILL);
}

TEST_CASE("absurd engine numbers are clamped where they enter: every reader reads the games",
          "[deadlines]") {
    const std::string dir = fresh_dir("absurd");
    // Both engines report score cp -2147483648 for the side to move before every move: from
    // White's view one says -big and the other +big, which never agree on a winner (a negation
    // that overflowed made both -2147483648 and adjudicated wins for Black).
    const std::string engine =
        std::string("cmd=") + FANORONA_RANDOM_ENGINE + ",args=--fault absurd,depth=1";
    const std::string args = "tournament --quiet --games 4 --threads 1 --win-margin 100 "
                             "--win-turns 1 --max-turns 30 '--player=name=a," +
                             engine + "' '--player=name=b," + engine + "' --out " + dir;
    const Run r = run_cli(args);
    INFO(r.output);
    REQUIRE(r.status == 0);
    const auto games = games_of(dir);
    REQUIRE(games.size() == 4);
    for (const auto& g : games) {
        CHECK(g.reason != "adjudication");
        REQUIRE_FALSE(g.stats.empty());
        for (std::size_t i = std::size_t(g.opening_turns); i < g.stats.size(); ++i) {
            CHECK(g.stats[i].depth == fanorona::MoveNumberRanges::kMaxDepth);
            CHECK(g.stats[i].nodes == fanorona::MoveNumberRanges::kMaxNodes);
            // `time` clamped to the millisecond range: more than the referee measured, latency 0.
            CHECK(g.stats[i].latency_us == 0);
        }
        for (const auto& s : g.scores)
            if (s)
                CHECK((*s == fanorona::MoveNumberRanges::kMaxScore ||
                       *s == -fanorona::MoveNumberRanges::kMaxScore));
    }
    for (const std::string& reader :
         {"report --tournament " + dir + " --out " + dir + "/report.html", "timeuse " + dir,
          "openings " + dir + "/games.tsv --turns 2"}) {
        const Run read = run_cli(reader);
        INFO(reader << ": " << read.output);
        CHECK(read.status == 0);
    }
    const Run resumed = run_cli(args + " --resume");
    INFO(resumed.output);
    CHECK(resumed.status == 0);
}

TEST_CASE("check-engine flags a second uciok and words after the bestmove's move", "[deadlines]") {
    for (const std::string fault : {"uciok-twice", "bestmove-junk"}) {
        const std::string dir = fresh_dir("check_" + fault);
        std::filesystem::create_directories(dir);
        const Run r =
            run_cli(std::string("check-engine --player name=r,cmd=") + FANORONA_RANDOM_ENGINE +
                    ",args='--fault " + fault +
                    "' --random-positions 5 --timeout 1000 --json-out " + dir + "/c.json");
        INFO(fault << ": " << r.output);
        const auto j = nlohmann::json::parse(slurp(dir + "/c.json"));
        bool flagged = false;
        const std::string said = fault == "uciok-twice" ? "'uciok' again" : "junk";
        for (const auto& c : j["checks"])
            flagged |= c["status"] != "pass" &&
                       c["detail"].get<std::string>().find(said) != std::string::npos;
        CHECK(flagged);
    }
}

TEST_CASE("an engine command that cannot start is refused before the run with one line",
          "[deadlines]") {
    const std::string dir = fresh_dir("unstartable");
    std::filesystem::create_directories(dir + "/folder");
    for (const auto& [cmd, why] : std::vector<std::pair<std::string, std::string>>{
             {"/no/such/engine", "No such file or directory"},
             {dir + "/folder", "is a folder, not a program"},
             {engine_script("common"), "Permission denied (the file is not executable)"}}) {
        const Run r = run_cli("tournament --quiet --games 2 --out " + dir +
                              "/t --player name=x,cmd=" + cmd + " --player name=r,builtin=random");
        INFO(r.output);
        CHECK(r.status == 1);
        CHECK_THAT(r.output, Catch::Contains("cmd=" + cmd + ": " + why));
        CHECK_FALSE(std::filesystem::exists(dir + "/t/games.tsv"));
    }
    const Run check =
        run_cli("check-engine --player name=x,cmd=" + dir + "/folder --random-positions 2");
    CHECK(check.status == 1);
    CHECK_THAT(check.output, Catch::Contains("is a folder, not a program"));
}

TEST_CASE("NUL bytes in cmd, args and option values are refused with one line", "[deadlines]") {
    const std::string dir = fresh_dir("nul");
    std::filesystem::create_directories(dir);
    for (const std::string& field :
         {std::string(R"("cmd":"/bin/tr\u0000ue")"),
          std::string(R"("cmd":")") + FANORONA_RANDOM_ENGINE + R"(","args":"a\u0000b")",
          std::string(R"("cmd":")") + FANORONA_RANDOM_ENGINE + R"(","option.X":"a\u0000b")"}) {
        const std::string engines = dir + "/engines.json";
        std::ofstream(engines) << R"({"engines":[{"name":"n",)" << field << "}]}\n";
        const Run r =
            run_cli("tournament --quiet --games 2 --engines " + engines +
                    " --player conf=n --player name=r,builtin=random --out " + dir + "/t");
        INFO(field << ": " << r.output);
        CHECK(r.status == 1);
        CHECK_THAT(r.output, Catch::Contains("NUL byte"));
        CHECK(lines_of(r.output).size() == 1);
    }
}

TEST_CASE("setoption Net naming a FIFO is refused without blocking the engine", "[deadlines]") {
    const std::string dir = fresh_dir("net_fifo");
    std::filesystem::create_directories(dir);
    const std::string fifo = dir + "/net.fifo";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    const auto t0 = std::chrono::steady_clock::now();
    const Run r = run_shell("printf 'uci\\nsetoption name Net value " + fifo +
                            "\\nisready\\nquit\\n' | timeout 20 " FANORONA_BINARY " engine");
    INFO(r.output);
    CHECK(r.status != 124); // not ended by the timeout
    CHECK(seconds_since(t0) < 15 * kSlowdown);
    CHECK_THAT(r.output, Catch::Contains("not a regular file"));
    CHECK_THAT(r.output, Catch::Contains("readyok"));
}
