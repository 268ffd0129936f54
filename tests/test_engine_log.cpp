// The engine log (--log FILE, issue 54): a tournament's external engines' lines both ways and
// their standard error, from every worker into one file; a forfeit's warning names the log;
// `fanorona engine --log FILE` logs the engine's side; the option means the same in every
// command that has it, and a log that is one of the run's inputs or outputs is refused.

#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "selfplay/formats/games_file.h"
#include "tests/cli_helpers.h"

using namespace test_cli;

namespace {

// One line of an engine log.
struct LogLine {
    long long ms = -1;
    std::string game, player, dir, text;
};

// The lines of a log after its header lines; every line must have the five columns, a time and a
// direction (checked here).
std::vector<LogLine> read_log(const std::string& path) {
    std::istringstream in(slurp(path));
    std::vector<LogLine> lines;
    std::string line;
    REQUIRE(std::getline(in, line));
    CHECK(line == "# fanorona-engine-log 1");
    REQUIRE(std::getline(in, line));
    CHECK(line == "#ms\tgame\tplayer\tdir\ttext");
    while (std::getline(in, line)) {
        if (!line.empty() && line[0] == '#') continue; // the header of a later opening
        std::vector<std::string> cols;
        std::stringstream cells(line);
        for (std::string c; std::getline(cells, c, '\t');) cols.push_back(c);
        if (!line.empty() && line.back() == '\t') cols.emplace_back();
        INFO(line);
        REQUIRE(cols.size() == 5);
        LogLine l;
        REQUIRE(!cols[0].empty());
        REQUIRE(cols[0].find_first_not_of("0123456789") == std::string::npos);
        l.ms = std::stoll(cols[0]);
        l.game = cols[1];
        l.player = cols[2];
        l.dir = cols[3];
        l.text = cols[4];
        CHECK((l.dir == ">" || l.dir == "<" || l.dir == "stderr"));
        lines.push_back(l);
    }
    return lines;
}

bool has(const std::vector<LogLine>& lines, const std::string& dir, const std::string& text_start,
         const std::string& game = "") {
    for (const LogLine& l : lines)
        if (l.dir == dir && l.text.rfind(text_start, 0) == 0 && (game.empty() || l.game == game))
            return true;
    return false;
}

} // namespace

TEST_CASE("tournament --log: every line both ways and the engines' standard error, by game and "
          "player",
          "[engine_log][tournament]") {
    const std::string dir = fresh_dir("engine_log_tournament");
    std::filesystem::create_directories(dir);
    const std::string log = dir + "/engines.log";
    // Two external players (one writing to its standard error), two workers, one shared log.
    const Run r = run_cli(
        "tournament --quiet --games 4 --threads 2 --openings random:3 --out " + dir + "/t --log " +
        log + " --player 'name=noisy,cmd=" + engine_script("noisy") + ",args=" + FANORONA_BINARY +
        " engine,depth=2' --player name=quiet,cmd=" + FANORONA_BINARY + ",args=engine,depth=1");
    INFO(r.output);
    REQUIRE(r.status == 0);
    const std::vector<LogLine> lines = read_log(log);
    REQUIRE(!lines.empty());
    std::set<std::string> games, players;
    long long last = 0;
    for (const LogLine& l : lines) {
        games.insert(l.game);
        players.insert(l.player);
        CHECK(l.ms >= last); // the times go up the file
        last = l.ms;
    }
    CHECK(games == std::set<std::string>{"0", "1", "2", "3"});
    CHECK(players == std::set<std::string>{"noisy", "quiet"});
    for (const std::string game : {"0", "1", "2", "3"}) {
        CHECK(has(lines, ">", "position ", game));
        CHECK(has(lines, "<", "bestmove ", game));
    }
    CHECK(has(lines, ">", "uci"));
    CHECK(has(lines, "<", "uciok"));
    CHECK(has(lines, ">", "go depth 2"));
    CHECK(has(lines, ">", "go depth 1"));
    CHECK(has(lines, "<", "info depth 2 "));
    CHECK(has(lines, "stderr", "noisy: starting " + std::string(FANORONA_BINARY) + " engine"));
    // Each engine's lines are its own: noisy searches at depth 2, quiet at depth 1.
    for (const LogLine& l : lines) {
        if (l.player == "noisy") CHECK(l.text != "go depth 1");
        if (l.player == "quiet") CHECK(l.text != "go depth 2");
        if (l.dir == "stderr") CHECK(l.player == "noisy");
    }
    // A second run into the same log empties it; a resume adds to it.
    const std::string pair =
        " --player name=a,depth=1 --player name=b,cmd=" + std::string(FANORONA_BINARY) +
        ",args=engine,depth=1";
    REQUIRE(
        run_cli("tournament --quiet --games 2 --out " + dir + "/u --log " + log + pair).status ==
        0);
    const std::string once = slurp(log);
    CHECK(once.find("noisy") == std::string::npos);
    REQUIRE(run_cli("tournament --quiet --games 4 --resume --out " + dir + "/u --log " + log + pair)
                .status == 0);
    const std::string twice = slurp(log);
    CHECK(twice.rfind(once, 0) == 0);
    CHECK(twice.size() > once.size());
    const auto resumed = read_log(log);
    CHECK(has(resumed, ">", "position ", "3"));
}

TEST_CASE("a forfeit's warning names the engine log, which holds the engine's last words",
          "[engine_log][tournament]") {
    // The toolkit's engine with a weights file it rejects: one error line on its standard error,
    // then it exits at start-up.
    const std::string dir = fresh_dir("engine_log_forfeit");
    std::filesystem::create_directories(dir);
    const std::string bad = dir + "/bad_weights.txt";
    std::ofstream(bad) << "fanorona-weights 2\n";
    const std::string log = dir + "/engines.log";
    const Run r = run_cli("tournament --quiet --games 2 --out " + dir + "/t --log " + log +
                          " --player name=a,depth=1 --player 'name=broken,cmd=" + FANORONA_BINARY +
                          ",args=engine --weights " + bad + "'");
    INFO(r.output);
    REQUIRE(r.status == 0);
    CHECK_THAT(r.output, Catch::Contains("broken forfeits (crash): engine exited during start-up; "
                                         "its standard error: fanorona: " +
                                         bad));
    CHECK_THAT(r.output, Catch::Contains("; see the engine log " + log));
    const std::vector<LogLine> lines = read_log(log);
    CHECK(has(lines, ">", "uci", "0"));
    CHECK(has(lines, "stderr", "fanorona: " + bad, "0"));
    CHECK(has(lines, "stderr", "fanorona: " + bad, "1"));
    // Without a log the warning does not name one.
    const Run plain =
        run_cli("tournament --quiet --games 2 --out " + dir +
                "/plain --player name=a,depth=1 --player 'name=broken,cmd=" + FANORONA_BINARY +
                ",args=engine --weights " + bad + "'");
    CHECK_THAT(plain.output, Catch::Contains("broken forfeits (crash)"));
    CHECK(plain.output.find("engine log") == std::string::npos);
}

TEST_CASE("fanorona engine --log: the engine's side, added to at every start",
          "[engine_log][protocol]") {
    const std::string dir = fresh_dir("engine_log_server");
    std::filesystem::create_directories(dir);
    const std::string log = dir + "/engine.log";
    for (int start = 0; start < 2; ++start) {
        const Run r = run_shell("printf 'uci\\nisready\\nposition startpos\\ngo depth 2\\nquit\\n' "
                                "| " FANORONA_BINARY " engine --log " +
                                log);
        INFO(r.output);
        REQUIRE(r.status == 0);
    }
    const std::vector<LogLine> lines = read_log(log);
    int ucis = 0;
    for (const LogLine& l : lines) {
        CHECK(l.game == "-");
        CHECK(l.player == "-");
        ucis += l.dir == ">" && l.text == "uci";
    }
    CHECK(ucis == 2); // the second start added to the file
    CHECK(has(lines, "<", "uciok"));
    CHECK(has(lines, "<", "readyok"));
    CHECK(has(lines, ">", "go depth 2"));
    CHECK(has(lines, "<", "bestmove "));
    CHECK(has(lines, ">", "quit"));
}

TEST_CASE("the engine log: --log is the same option in every command that has it, and refuses the "
          "run's files",
          "[engine_log][options]") {
    for (const std::string command : {"tournament", "selfplay", "spsa", "loop", "engine"}) {
        const Run help = run_cli(command + " --help");
        INFO(command);
        CHECK_THAT(help.output, Catch::Contains("--log TEXT"));
        CHECK_THAT(help.output, Catch::Contains("Engine log"));
    }
    const std::string dir = fresh_dir("engine_log_refused");
    std::filesystem::create_directories(dir);
    // The program of an external player (a copy) is an input.
    const std::string program = dir + "/engine.sh";
    std::filesystem::copy_file(engine_script("noisy"), program);
    const std::string before = slurp(program);
    const Run input = run_cli("tournament --quiet --games 2 --out " + dir + "/t --log " + program +
                              " --player 'name=a,cmd=" + program + ",args=" + FANORONA_BINARY +
                              " engine,depth=1' --player name=b,builtin=random");
    CHECK(input.status != 0);
    CHECK_THAT(input.output, Catch::Contains("--log " + program + ": the same file as the input"));
    CHECK(slurp(program) == before);
    const Run output =
        run_cli("tournament --quiet --games 2 --out " + dir + "/u --log " + dir +
                "/u/games.tsv --player name=a,depth=1 --player name=b,builtin=random");
    CHECK(output.status != 0);
    CHECK_THAT(output.output, Catch::Contains("--log " + dir +
                                              "/u/games.tsv: the same file as "
                                              "the output --out (its games.tsv)"));
    CHECK_FALSE(std::filesystem::exists(dir + "/u/games.tsv"));
}

TEST_CASE("a loss on time is warned of and names the engine log", "[engine_log][tournament]") {
    // The random mover told to answer after 300 ms, on a clock of 100 ms and no increment: it
    // loses on time at its first move (the referee's margin is 100 ms).
    const std::string dir = fresh_dir("engine_log_time");
    std::filesystem::create_directories(dir);
    const std::string log = dir + "/engines.log";
    const std::string slow = std::string(" --player 'name=slow,cmd=") + FANORONA_RANDOM_ENGINE +
                             ",args=--fault slow,tc=0.1'";
    const Run r = run_cli("tournament --quiet --games 2 --out " + dir + "/t --log " + log +
                          " --player name=a,depth=1" + slow);
    INFO(r.output);
    REQUIRE(r.status == 0);
    CHECK_THAT(r.output, Catch::Contains("slow loses on time (timeout): its move took "));
    CHECK_THAT(r.output,
               Catch::Contains("ms on its clock (margin 100 ms); see the engine log " + log));
    for (const fanorona::GameRecord& g : fanorona::read_games_file(dir + "/t/games.tsv").games)
        CHECK(g.reason == "timeout");
    const Run plain = run_cli("tournament --quiet --games 2 --out " + dir +
                              "/plain --player name=a,depth=1" + slow);
    CHECK_THAT(plain.output, Catch::Contains("slow loses on time (timeout)"));
    CHECK(plain.output.find("engine log") == std::string::npos);
}
