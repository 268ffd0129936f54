// The per-move statistics of games files (issue 54): each move's time, depth and nodes in
// games.tsv (version 3) from built-in and external players; files of versions 1 and 2 still
// read, and a folder an older build began goes on in its version; `timeuse GAMES` and the
// report read the columns.

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "selfplay/formats/games_file.h"
#include "tests/cli_helpers.h"

using namespace fanorona;
using namespace test_cli;

namespace {

std::size_t columns(const std::string& line) {
    return std::size_t(std::count(line.begin(), line.end(), '\t')) + 1;
}

// The mover of turn i (0-based) of a game: its start position's side to move plays turn 0.
const std::string& mover(const GameRecord& g, std::size_t i) {
    const bool white_first = g.start.find(" w") != std::string::npos;
    return (i % 2 == 0) == white_first ? g.white : g.black;
}

// A games file's text rewritten as an older build wrote it: version 1, the first ten columns.
std::string as_version_1(const std::string& text) {
    std::string out;
    for (const std::string& line : lines_of(text)) {
        std::string l = line;
        if (l.rfind("# fanorona-games 4", 0) == 0) l.replace(0, 18, "# fanorona-games 1");
        std::size_t tabs = 0, cut = l.size();
        for (std::size_t i = 0; i < l.size(); ++i)
            if (l[i] == '\t' && ++tabs == 10) cut = i;
        out += l.substr(0, cut) + "\n";
    }
    return out;
}

// ... or version 3: the first thirteen columns (no clocks, no latencies).
std::string as_version_3(const std::string& text) {
    std::string out;
    for (const std::string& line : lines_of(text)) {
        std::string l = line;
        if (l.rfind("# fanorona-games 4", 0) == 0) l.replace(0, 18, "# fanorona-games 3");
        std::size_t tabs = 0, cut = l.size();
        for (std::size_t i = 0; i < l.size(); ++i)
            if (l[i] == '\t' && ++tabs == 13) cut = i;
        out += l.substr(0, cut) + "\n";
    }
    return out;
}

} // namespace

TEST_CASE("a tournament's games.tsv has each move's time, depth and nodes",
          "[move_stats][tournament]") {
    const std::string dir = fresh_dir("move_stats_tournament");
    // A gauntlet: ext (the toolkit's engine over pipes) against the same engine in-process, and
    // against a random mover, which tells nothing.
    const Run r = run_cli("tournament --quiet --games 4 --openings random:3 --out " + dir +
                          " --player name=ext,cmd=" + FANORONA_BINARY +
                          ",args=engine,depth=2 --player name=int,depth=2 "
                          "--player name=rnd,builtin=random");
    INFO(r.output);
    REQUIRE(r.status == 0);
    const std::vector<std::string> lines = lines_of(slurp(dir + "/games.tsv"));
    REQUIRE(lines.size() == 2 + 8);
    CHECK(lines[0] == "# fanorona-games 4 variant=tsivy rules=standard");
    CHECK(lines[1] == "#index\twhite\tblack\tresult\treason\tturns\topening_turns\tstart\tmoves\t"
                      "scores\ttimes\tdepths\tnodes\tclocks\tlatencies");
    for (std::size_t k = 2; k < lines.size(); ++k) CHECK(columns(lines[k]) == 15);

    const GamesFile file = read_games_file(dir + "/games.tsv");
    CHECK(file.header.move_stats);
    CHECK(file.header.micro_times);
    REQUIRE(file.games.size() == 8);
    std::uint64_t timed = 0, zero = 0; // the searched moves, and those timed 0 microseconds
    for (const GameRecord& g : file.games) {
        INFO("game " << g.index);
        REQUIRE(g.stats.size() == g.moves.size());
        for (std::size_t i = 0; i < g.moves.size(); ++i) {
            const MoveStats& s = g.stats[i];
            if (i < std::size_t(g.opening_turns) || mover(g, i).rfind("rnd(", 0) == 0) {
                CHECK_FALSE(s.known()); // the opening's moves and the random mover's
                continue;
            }
            CHECK(s.depth == 2);
            CHECK(s.nodes > 0);
            CHECK(s.time_us >= 0);
            CHECK(s.time_us < 60000000);
            ++timed;
            zero += s.time_us == 0;
        }
    }
    // In microseconds even depth-2 moves are timed: few zeros (whole milliseconds read 0 for
    // almost all of them).
    CHECK(timed > 0);
    CHECK(zero * 10 <= timed);
    // Games 0 and 1: ext and int from one opening, colours swapped: the same engine at the same
    // depth plays the same moves, and tells the same depth and nodes whether it runs in-process
    // (its search's count) or over pipes (its last `info ... nodes`).
    const GameRecord& a = file.games[0];
    const GameRecord& b = file.games[1];
    REQUIRE(a.moves == b.moves);
    for (std::size_t i = std::size_t(a.opening_turns); i < a.moves.size(); ++i) {
        CHECK(a.stats[i].depth == b.stats[i].depth);
        CHECK(a.stats[i].nodes == b.stats[i].nodes);
    }
}

TEST_CASE("games.tsv records a clocked player's clock after each move and an external engine's "
          "latency",
          "[move_stats][tournament]") {
    const std::string dir = fresh_dir("move_stats_clocks");
    // clk: the built-in engine on a clock of 5 s, no increment (depth-limited, so quick: its moves
    // take well under a millisecond each, which the clock still counts);
    // ext: the toolkit's engine over pipes, which tells `info ... time`, without a clock.
    constexpr std::int64_t kBaseMs = 5000, kIncMs = 0;
    const Run r =
        run_cli("tournament --quiet --games 2 --openings random:3 --out " + dir +
                " --player name=clk,depth=3,tc=5+0 --player name=ext,cmd=" + FANORONA_BINARY +
                ",args=engine,depth=2");
    INFO(r.output);
    REQUIRE(r.status == 0);
    const std::string text = slurp(dir + "/games.tsv");
    const GamesFile file = read_games_file(dir + "/games.tsv");
    CHECK(file.header.micro_times);
    REQUIRE(file.games.size() == 2);
    std::uint64_t clocked = 0, latencies = 0, ext_moves = 0;
    for (const GameRecord& g : file.games) {
        INFO("game " << g.index);
        REQUIRE(g.stats.size() == g.moves.size());
        std::int64_t previous = -1, own = 0, spent_ms = 0;
        for (std::size_t i = 0; i < g.moves.size(); ++i) {
            const MoveStats& s = g.stats[i];
            if (i < std::size_t(g.opening_turns)) {
                CHECK(s.clock_ms == -1);
                CHECK(s.latency_us == -1);
                continue;
            }
            if (mover(g, i).rfind("clk(", 0) == 0) {
                ++own;
                CHECK(s.latency_us == -1); // a built-in player has no latency
                REQUIRE(s.clock_ms >= 0);
                // Never above the base and the increments so far; each move costs its time less
                // the increment (the clock keeps what is under a millisecond for the next move).
                CHECK(s.clock_ms <= kBaseMs + own * kIncMs);
                spent_ms += s.time_us / 1000;
                if (previous >= 0) CHECK(s.clock_ms <= previous + kIncMs); // never going up
                previous = s.clock_ms;
                ++clocked;
            } else {
                CHECK(s.clock_ms == -1); // ext has no clock
                ++ext_moves;
                // '-' where the engine told no `info time` (a search that ended before its first
                // iteration tells only `info depth 0 nodes N`).
                if (s.latency_us < 0) continue;
                CHECK(s.latency_us <= s.time_us);
                CHECK(s.latency_us < 2000000); // small: pipes and parsing, not searching
                ++latencies;
            }
        }
        // The clock went down by at least what the moves' searches took (the referee's measure
        // holds more), to within the millisecond carried.
        REQUIRE(own > 0);
        CHECK(previous <= kBaseMs + own * kIncMs - spent_ms + 1);
        CHECK(previous < kBaseMs); // a game's moves took at least a millisecond in all
    }
    CHECK(clocked > 0);
    CHECK(latencies > 0);
    CHECK(2 * latencies >= ext_moves); // most moves are searched
    // The file round-trips through its reader and writer.
    std::string again = games_header_lines(file.header);
    for (const GameRecord& g : file.games) again += format_game_record(g);
    CHECK(again == text);
    // timeuse: the mean latency for ext, the least clock for clk; '-' where there is none.
    const Run use = run_cli("timeuse " + dir + " --json-out " + dir + "/use.json");
    INFO(use.output);
    REQUIRE(use.status == 0);
    CHECK_THAT(use.output, Catch::Contains("latency ms"));
    CHECK_THAT(use.output, Catch::Contains("min clock"));
    const nlohmann::json j = nlohmann::json::parse(slurp(dir + "/use.json"));
    REQUIRE(j["players"].size() == 2);
    for (const nlohmann::json& p : j["players"]) {
        INFO(p.dump());
        if (p["player"] == "clk") {
            CHECK(p["mean_latency_ms"].is_null());
            REQUIRE(p["min_clock_ms"].is_number());
            CHECK(p["min_clock_ms"].get<std::int64_t>() <= kBaseMs + kIncMs);
        } else {
            CHECK(p["player"] == "ext");
            CHECK(p["min_clock_ms"].is_null());
            REQUIRE(p["mean_latency_ms"].is_number());
            CHECK(p["mean_latency_ms"].get<double>() >= 0);
        }
    }
}

TEST_CASE("games files: the per-move columns round trip, versions 1, 2 and 3 still read",
          "[move_stats][games_file]") {
    GameRecord r;
    r.index = 3;
    r.white = "a(depth=2)";
    r.black = "b(cmd=x)";
    r.result = GameResult::BlackWins;
    r.reason = "capture-all";
    r.start = Position::start(Variant::Tsivy).to_string();
    r.moves = {"d3e3W", "b4c3A", "d3d2A"};
    r.opening_turns = 1;
    r.scores = {std::nullopt, 12, -40};
    r.stats = {MoveStats{}, MoveStats{7, 2, 1234}, MoveStats{15, -1, -1}};
    const std::string line = format_game_record(r);
    CHECK(line.ends_with("\t- 7 15\t- 2 -\t- 1234 -\t-\t-\n"));
    CHECK(columns(line) == 15);
    CHECK(parse_game_record(line.substr(0, line.size() - 1), "x:3") == r);
    // With series: the per-move columns come after kind and beneficiary.
    const std::string series = format_game_record(r, true);
    CHECK(columns(series) == 17);
    CHECK(series.find("\tnormal\t-\t- 7 15\t") != std::string::npos);
    CHECK(parse_game_record(series.substr(0, series.size() - 1), "x:3") == r);
    // The older versions' lines: no per-move columns, and a record read from them has no stats.
    const std::string old = format_game_record(r, false, false);
    CHECK(columns(old) == 10);
    GameRecord without = r;
    without.stats.clear();
    CHECK(parse_game_record(old.substr(0, old.size() - 1), "x:3") == without);
    CHECK(columns(format_game_record(r, true, false)) == 12);
    // Nothing told: five lone '-'; entries all '-' read as nothing told.
    const std::string none = format_game_record(without);
    CHECK(none.ends_with("\t-\t-\t-\t-\t-\n"));
    GameRecord unknown = r;
    unknown.stats.assign(3, MoveStats{});
    CHECK(format_game_record(unknown) == none);
    const std::string dashes = old.substr(0, old.size() - 1) + "\t- - -\t-\t- - -\t-\t- - -";
    CHECK(parse_game_record(dashes, "x:3") == without);
    // Bad columns: one-line errors naming the line and the column.
    const std::string base = old.substr(0, old.size() - 1);
    CHECK_THROWS_WITH(parse_game_record(base + "\t1 2\t-\t-\t-\t-", "x:4"),
                      "x:4: times: has 2 entries for 3 moves");
    CHECK_THROWS_WITH(parse_game_record(base + "\t-\t1 x 2\t-\t-\t-", "x:5"),
                      "x:5: depths: expected a whole number, found 'x'");
    CHECK_THROWS_WITH(parse_game_record(base + "\t-\t-\t1 -2 3\t-\t-", "x:6"),
                      "x:6: nodes: expected a whole number, found '-2'");
    CHECK_THROWS_WITH(parse_game_record(base + "\t-\t-\t-\t1 -\t-", "x:6"),
                      "x:6: clocks: has 2 entries for 3 moves");
    CHECK_THROWS_WITH(parse_game_record(base + "\t-\t-\t-\t-\t- - y", "x:6"),
                      "x:6: latencies: expected a whole number, found 'y'");
    CHECK_THROWS_WITH(parse_game_record(base + "\t-", "x:7"),
                      Catch::StartsWith("x:7: line: expected 10 (version 1), 12 (version 2), 15 "
                                        "or 17 (version 4) tab-separated columns, found 11"));
    // A version-3 line (three per-move columns) reads as version 3 only.
    CHECK_THROWS_WITH(parse_game_record(base + "\t-\t-\t-", "x:8"),
                      Catch::StartsWith("x:8: line: expected 10 (version 1), 12 (version 2), 15"));
    CHECK(parse_game_record(base + "\t-\t-\t-", "x:8", false) == without);
    // Clocks and latencies round trip.
    GameRecord timed = r;
    timed.stats[1].clock_ms = 4980;
    timed.stats[2].latency_us = 250;
    const std::string timed_line = format_game_record(timed);
    CHECK(timed_line.ends_with("\t- 4980 -\t- - 250\n"));
    CHECK(parse_game_record(timed_line.substr(0, timed_line.size() - 1), "x:9") == timed);
    // ... and a version-3 line has no room for them.
    GameRecord no_clocks = timed;
    no_clocks.stats[1].clock_ms = -1;
    no_clocks.stats[2].latency_us = -1;
    const std::string v3_line = format_game_record(timed, false, true, false);
    CHECK(columns(v3_line) == 13);
    CHECK(parse_game_record(v3_line.substr(0, v3_line.size() - 1), "x:9", false).stats[1] ==
          MoveStats{0, 2, 1234}); // 7 microseconds: 0 ms

    const std::string dir = fresh_dir("move_stats_versions");
    std::filesystem::create_directories(dir);
    // A version 1 file (an older build's): it reads, its games without stats.
    const GamesFile v1 =
        read_games_file(std::string(FANORONA_TEST_DATA) + "/report/tournament/games.tsv");
    CHECK_FALSE(v1.header.move_stats);
    CHECK_FALSE(v1.header.series);
    REQUIRE(!v1.games.empty());
    for (const GameRecord& g : v1.games) CHECK(g.stats.empty());
    // A version 2 file (Vela series, 12 columns).
    GameRecord vela = r;
    vela.kind = GameKind::Vela;
    vela.beneficiary = vela.white;
    std::ofstream(dir + "/v2.tsv")
        << "# fanorona-games 2 variant=tsivy rules=standard series=vela\n#index\twhite\tblack\t"
           "result\treason\tturns\topening_turns\tstart\tmoves\tscores\tkind\tbeneficiary\n"
        << format_game_record(vela, true, false);
    const GamesFile v2 = read_games_file(dir + "/v2.tsv");
    CHECK(v2.header.series);
    CHECK_FALSE(v2.header.move_stats);
    REQUIRE(v2.games.size() == 1);
    CHECK(v2.games[0].kind == GameKind::Vela);
    CHECK(v2.games[0].stats.empty());
    // Version 3: the same columns, the times in whole milliseconds, read as microseconds.
    GamesHeader milli;
    milli.micro_times = false;
    CHECK(games_header_lines(milli).rfind("# fanorona-games 3 variant=tsivy rules=standard\n", 0) ==
          0);
    GameRecord in_ms = r;
    in_ms.stats = {MoveStats{}, MoveStats{7000, 2, 1234}, MoveStats{15000, -1, -1}};
    const std::string ms_line = format_game_record(in_ms, false, true, false);
    CHECK(ms_line.ends_with("\t- 7 15\t- 2 -\t- 1234 -\n"));
    std::ofstream(dir + "/v3ms.tsv") << games_header_lines(milli) << ms_line;
    const GamesFile v3ms = read_games_file(dir + "/v3ms.tsv");
    CHECK(v3ms.header.move_stats);
    CHECK_FALSE(v3ms.header.micro_times);
    REQUIRE(v3ms.games.size() == 1);
    CHECK(v3ms.games[0] == in_ms);
    // Version 4, with and without series: the header says how many columns a line has.
    GamesHeader h;
    CHECK(games_header_lines(h).rfind("# fanorona-games 4 variant=tsivy rules=standard\n", 0) == 0);
    std::ofstream(dir + "/v3.tsv") << games_header_lines(h) << format_game_record(r);
    const GamesFile v3 = read_games_file(dir + "/v3.tsv");
    CHECK(v3.header.move_stats);
    REQUIRE(v3.games.size() == 1);
    CHECK(v3.games[0] == r);
    h.series = true;
    std::ofstream(dir + "/v3s.tsv") << games_header_lines(h) << format_game_record(vela, true);
    const GamesFile v3s = read_games_file(dir + "/v3s.tsv");
    CHECK(v3s.header.series);
    REQUIRE(v3s.games.size() == 1);
    CHECK(v3s.games[0] == vela);
    std::ofstream(dir + "/mixed.tsv") << games_header_lines(GamesHeader{}) << old;
    CHECK_THROWS_WITH(read_games_file(dir + "/mixed.tsv"),
                      Catch::Contains("mixed.tsv:3: line: expected 15 tab-separated columns in a "
                                      "version 4 file"));
    std::ofstream(dir + "/v9.tsv") << "# fanorona-games 9 variant=tsivy rules=standard\n";
    CHECK_THROWS_WITH(read_games_file(dir + "/v9.tsv"),
                      Catch::Contains("v9.tsv:1: header: games file format version 9 (this build "
                                      "reads versions 1, 2, 3 and 4)"));
}

TEST_CASE("a run folder an older build began resumes in its own version",
          "[move_stats][run_folder]") {
    const std::string players = " --quiet --openings random:3 --player name=a,depth=2 "
                                "--player name=b,depth=1";
    const std::string full = fresh_dir("move_stats_full");
    REQUIRE(run_cli("tournament --games 4 --out " + full + players).status == 0);
    const std::string part = fresh_dir("move_stats_old");
    REQUIRE(run_cli("tournament --games 2 --out " + part + players).status == 0);
    const std::string games = part + "/games.tsv";
    const std::string older = as_version_1(slurp(games));
    std::ofstream(games, std::ios::trunc) << older;
    const Run r = run_cli("tournament --games 4 --resume --out " + part + players);
    INFO(r.output);
    REQUIRE(r.status == 0);
    CHECK(r.output.find("resume:") == std::string::npos); // nothing was cut
    const std::string text = slurp(games);
    CHECK(text.rfind("# fanorona-games 1 variant=tsivy rules=standard\n", 0) == 0);
    const std::vector<std::string> lines = lines_of(text);
    REQUIRE(lines.size() == 2 + 4);
    for (std::size_t k = 1; k < lines.size(); ++k) CHECK(columns(lines[k]) == 10);
    const GamesFile resumed = read_games_file(games);
    CHECK_FALSE(resumed.header.move_stats);
    CHECK(resumed.games.size() == 4);
    // The games are those of one run of this build, less the per-move columns.
    CHECK(text == as_version_1(slurp(full + "/games.tsv")));

    // Version 3 (milliseconds): goes on in version 3, its new lines' times in milliseconds.
    const std::string v3 = fresh_dir("move_stats_v3");
    REQUIRE(run_cli("tournament --games 2 --out " + v3 + players).status == 0);
    const std::string v3_games = v3 + "/games.tsv";
    std::string v3_text = as_version_3(slurp(v3_games));
    std::ofstream(v3_games, std::ios::trunc) << v3_text;
    const Run r3 = run_cli("tournament --games 4 --resume --out " + v3 + players);
    INFO(r3.output);
    REQUIRE(r3.status == 0);
    const GamesFile v3_resumed = read_games_file(v3_games);
    CHECK(v3_resumed.header.move_stats);
    CHECK_FALSE(v3_resumed.header.micro_times);
    REQUIRE(v3_resumed.games.size() == 4);
    for (std::size_t k = 2; k < 4; ++k) // the new games: whole milliseconds, read times 1000
        for (const MoveStats& s : v3_resumed.games[k].stats)
            if (s.time_us >= 0) CHECK(s.time_us % 1000 == 0);
}

TEST_CASE("timeuse GAMES: each player's time, depth and nodes per move from games files",
          "[move_stats][timeuse]") {
    const std::string dir = fresh_dir("move_stats_timeuse");
    REQUIRE(run_cli("tournament --quiet --games 2 --openings random:3 --out " + dir +
                    "/t --player name=deep,depth=2 --player name=rnd,builtin=random")
                .status == 0);
    const Run r = run_cli("timeuse " + dir + "/t --json-out " + dir + "/use.json");
    INFO(r.output);
    REQUIRE(r.status == 0);
    CHECK_THAT(r.output, Catch::Contains("mean ms"));
    CHECK_THAT(r.output, Catch::Contains("nodes/s"));
    const nlohmann::json j = nlohmann::json::parse(slurp(dir + "/use.json"));
    CHECK(j["format"] == "fanorona-timeuse-games 1");
    REQUIRE(j["players"].size() == 2);
    const nlohmann::json& deep = j["players"][0];
    const nlohmann::json& rnd = j["players"][1];
    CHECK(deep["player"] == "deep");
    CHECK(deep["moves"].get<int>() > 0);
    CHECK(deep["timed"] == deep["moves"]);
    CHECK(deep["mean_depth"] == 2.0);
    CHECK(deep["mean_nodes"].get<double>() > 0);
    CHECK(deep["mean_ms"].get<double>() >= 0);
    CHECK(rnd["player"] == "rnd");
    CHECK(rnd["moves"].get<int>() > 0);
    CHECK(rnd["timed"] == 0);
    CHECK(rnd["mean_ms"].is_null());
    CHECK(rnd["mean_depth"].is_null());
    // The games file itself, and a version 1 file: moves without statistics.
    const Run file = run_cli("timeuse " + dir + "/t/games.tsv");
    CHECK(file.status == 0);
    CHECK(file.output == r.output);
    const Run old = run_cli("timeuse " + std::string(FANORONA_TEST_DATA) + "/report/tournament");
    REQUIRE(old.status == 0);
    CHECK_THAT(old.output, Catch::Contains("d3 "));
    // Games files are read, not an engine measured: the measuring options are refused.
    const Run both = run_cli("timeuse " + dir + "/t --engine x");
    CHECK(both.status != 0);
    CHECK_THAT(both.output, Catch::Contains("excludes"));
    const Run missing = run_cli("timeuse " + dir + "/none.tsv");
    CHECK(missing.status == 1);
    CHECK_THAT(missing.output, Catch::Contains(dir + "/none.tsv"));
}

TEST_CASE("the report shows the per-move statistics: captions, the game's times, each player's "
          "time use",
          "[move_stats][report]") {
    const std::string dir = fresh_dir("move_stats_report");
    REQUIRE(run_cli("tournament --quiet --games 2 --openings random:3 --out " + dir +
                    "/t --player name=deep,depth=2 --player name=shallow,depth=1")
                .status == 0);
    const Run r = run_cli("report --out " + dir + "/r.html --tournament " + dir + "/t");
    INFO(r.output);
    REQUIRE(r.status == 0);
    const std::string html = slurp(dir + "/r.html");
    for (const char* id :
         {"tournament-timeuse", "tournament-time-by-turn", "tournament-game-times"})
        CHECK(html.find("id=\"" + std::string(id) + "\"") != std::string::npos);
    CHECK(html.find("<tr><td>deep</td>") != std::string::npos);
    CHECK(html.find("<tr><td>shallow</td>") != std::string::npos);
    CHECK(html.find(", depth 2, ") != std::string::npos);
    CHECK(html.find(", depth 1, ") != std::string::npos);
    CHECK(html.find(" nodes</figcaption>") != std::string::npos);
    // A version 1 games file has no per-move statistics: no time use, no times chart.
    const Run old = run_cli("report --out " + dir + "/old.html --tournament " +
                            std::string(FANORONA_TEST_DATA) + "/report/tournament");
    REQUIRE(old.status == 0);
    const std::string old_html = slurp(dir + "/old.html");
    CHECK(old_html.find("id=\"tournament-game\"") != std::string::npos);
    CHECK(old_html.find("tournament-timeuse") == std::string::npos);
    CHECK(old_html.find("tournament-game-times") == std::string::npos);
}
