// The self-play driver end to end, as a user runs it: determinism across thread counts, resume
// after an interruption, shards and merge, pairs sharing their opening, bad input.

#include <catch2/catch.hpp>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>

#include "selfplay/formats/games_file.h"
#include "selfplay/formats/position_log.h"
#include "tests/cli_helpers.h"

using namespace test_cli;

namespace {

const std::string kSettings = "--games 8 --depth 2 --openings random:3 --seed 5 --quiet";

void expect_same_run(const std::string& a, const std::string& b) {
    CHECK(slurp_run_file(a + "/games.tsv") == slurp_run_file(b + "/games.tsv"));
    CHECK(slurp(a + "/positions.bin") == slurp(b + "/positions.bin"));
    CHECK(slurp(a + "/settings.json") == slurp(b + "/settings.json"));
}

std::string reference_run() {
    static const std::string dir = [] {
        const std::string d = fresh_dir("reference");
        const Run r = run_cli("selfplay " + kSettings + " --threads 1 --out " + d);
        REQUIRE(r.status == 0);
        return d;
    }();
    return dir;
}

} // namespace

TEST_CASE("self-play output is identical whatever the thread count", "[selfplay]") {
    const std::string ref = reference_run();
    const std::string two = fresh_dir("two_threads");
    REQUIRE(run_cli("selfplay " + kSettings + " --threads 2 --out " + two).status == 0);
    expect_same_run(ref, two);
    const auto games = fanorona::read_games_file(ref + "/games.tsv");
    CHECK(games.games.size() == 8);
    const auto log = fanorona::read_position_log(ref + "/positions.bin");
    CHECK(log.chunks == 8);
    CHECK(log.records.size() > 0);
}

TEST_CASE("game pairs share their opening and every game replays legally", "[selfplay]") {
    const auto file = fanorona::read_games_file(reference_run() + "/games.tsv");
    REQUIRE(file.games.size() == 8);
    const fanorona::Rules rules;
    for (std::size_t i = 0; i < file.games.size(); i += 2) {
        const auto& a = file.games[i];
        const auto& b = file.games[i + 1];
        CHECK(a.index == i);
        CHECK(a.opening_turns == 3);
        CHECK(a.start == b.start);
        CHECK(std::vector(a.moves.begin(), a.moves.begin() + 3) ==
              std::vector(b.moves.begin(), b.moves.begin() + 3));
        if (i >= 2) CHECK(a.moves != file.games[i - 2].moves);
        for (const auto* g : {&a, &b}) {
            const fanorona::Game game = fanorona::replay_game(*g, rules, "game");
            const auto outcome = game.outcome();
            if (g->reason != "length-cap" && g->reason != "adjudication")
                CHECK(outcome.result == g->result);
        }
    }
}

TEST_CASE("a resumed run equals an uninterrupted one, torn tails included", "[selfplay]") {
    const std::string ref = reference_run();
    const std::string dir = fresh_dir("resumed");
    REQUIRE(
        run_cli("selfplay --games 3 --depth 2 --openings random:3 --seed 5 --quiet --out " + dir)
            .status == 0);
    // A crash in the middle of writing: half a games line, a torn positions chunk.
    std::ofstream(dir + "/games.tsv", std::ios::app) << "3\tfanorona(depth=2";
    std::ofstream(dir + "/positions.bin", std::ios::app | std::ios::binary) << "CHNK\x05";
    const Run again = run_cli("selfplay " + kSettings + " --out " + dir);
    CHECK(again.status != 0);
    CHECK_THAT(again.output, Catch::Contains("--resume"));
    REQUIRE(run_cli("selfplay " + kSettings + " --resume --out " + dir).status == 0);
    expect_same_run(ref, dir);
}

TEST_CASE("a run killed at random moments, also while resuming, resumes to the same files",
          "[selfplay]") {
    const std::string ref = reference_run();
    const std::string args = "selfplay " + kSettings + " --threads 1 --out ";
    int ms = 0;
    REQUIRE(run_cli_timed(args + fresh_dir("killed_timing"), ms).status == 0);
    // Four starts, each SIGKILLed at a seeded moment in the first third of an
    // uninterrupted run's time.
    const std::string dir = fresh_dir("killed");
    const KillRun r = run_with_kills(args + dir, 11, 4, ms / 20, ms / 3);
    INFO("killed " << r.kills << " of 4 starts; " << r.last.output);
    REQUIRE(r.last.status == 0);
    CHECK(r.kills >= 1);
    expect_same_run(ref, dir);
}

TEST_CASE("a resume with other settings is refused", "[selfplay]") {
    const std::string dir = fresh_dir("mismatch");
    REQUIRE(run_cli("selfplay --games 2 --depth 1 --quiet --out " + dir).status == 0);
    const Run r = run_cli("selfplay --games 2 --depth 2 --quiet --resume --out " + dir);
    CHECK(r.status != 0);
    CHECK_THAT(r.output, Catch::Contains("settings.json") && Catch::Contains("players") &&
                             Catch::Contains("depth=2"));
}

TEST_CASE("a suite in random order: seeds choose the openings, a resume keeps the order",
          "[selfplay]") {
    const std::string dir = fresh_dir("openings_order");
    std::filesystem::create_directories(dir);
    const std::string suite = dir + "/suite.txt";
    std::ofstream(suite) << "d3e3W\nd3e3W b4c3Ad3Wd2A\nd3e3A\nd2e3A\ne2e3A\nf2e3A\n";
    auto first_moves = [](const std::string& run) {
        std::vector<std::string> firsts;
        for (const auto& g : fanorona::read_games_file(run + "/games.tsv").games)
            firsts.push_back(g.moves.at(0));
        return firsts;
    };
    auto play = [&](const std::string& name, const std::string& extra) {
        return run_cli("selfplay --games 12 --depth 1 --quiet --openings " + suite + " --out " +
                       dir + "/" + name + " " + extra);
    };
    REQUIRE(play("seq1", "--seed 1").status == 0);
    REQUIRE(play("seq2", "--seed 2").status == 0);
    CHECK(first_moves(dir + "/seq1") == first_moves(dir + "/seq2")); // file order either way
    REQUIRE(play("rnd1", "--seed 1 --openings-order random").status == 0);
    REQUIRE(play("rnd2", "--seed 2 --openings-order random").status == 0);
    CHECK(first_moves(dir + "/rnd1") != first_moves(dir + "/seq1"));
    CHECK(first_moves(dir + "/rnd1") != first_moves(dir + "/rnd2"));
    const Run resume = play("rnd1", "--seed 1 --resume");
    CHECK(resume.status != 0);
    CHECK_THAT(resume.output,
               Catch::Contains("settings.json") && Catch::Contains("openings_order"));
    const Run bad = run_cli("selfplay --games 2 --depth 1 --quiet --openings random:4 "
                            "--openings-order random --out " +
                            dir + "/bad");
    CHECK(bad.status != 0);
    CHECK_THAT(bad.output, Catch::Contains("--openings-order random: needs a suite FILE"));
}

TEST_CASE("shards merge into exactly the files of one run", "[selfplay]") {
    const std::string ref = reference_run();
    const std::string s0 = fresh_dir("shard0"), s1 = fresh_dir("shard1"), s2 = fresh_dir("shard2");
    for (const auto& [dir, i] : {std::pair{s0, 0}, {s1, 1}, {s2, 2}})
        REQUIRE(
            run_cli("selfplay " + kSettings + " --shard " + std::to_string(i) + "/3 --out " + dir)
                .status == 0);
    const std::string merged = fresh_dir("merged");
    const Run r = run_cli("merge " + s0 + " " + s1 + " " + s2 + " --out " + merged);
    INFO(r.output);
    REQUIRE(r.status == 0);
    expect_same_run(ref, merged);
    const Run missing = run_cli("merge " + s0 + " " + s1 + " --out " + fresh_dir("merged2"));
    CHECK(missing.status != 0);
    CHECK_THAT(missing.output, Catch::Contains("missing"));
}

TEST_CASE("merge names the settings file whose fields have the wrong types", "[selfplay]") {
    // Found by the settings_json fuzz target (corpus/settings_json/regress_not_object): a
    // settings.json holding a JSON string, or a field of another type, failed with nlohmann's
    // "[json.exception.type_error.306] cannot use value() with string", naming no file.
    const std::string shard = fresh_dir("merge_bad_settings");
    REQUIRE(run_cli("selfplay --games 2 --depth 1 --quiet --out " + shard).status == 0);
    const std::string settings = shard + "/settings.json";
    const std::string good = slurp(settings);
    for (const std::string& bad : {std::string("\"x\""), std::string("[1]"),
                                   good.substr(0, good.rfind('}')) + ", \"log_positions\": 5}"}) {
        std::ofstream(settings, std::ios::trunc) << bad;
        const Run r = run_cli("merge " + shard + " --out " + fresh_dir("merge_bad_out"));
        INFO(bad << " -> " << r.output);
        CHECK(r.status == 1);
        CHECK_THAT(r.output, Catch::StartsWith("fanorona: " + settings));
        CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
    }
}

TEST_CASE("self-play reports bad input in one line", "[selfplay]") {
    const std::string dir = fresh_dir("bad");
    const std::string suite = dir + "_suite.txt";
    std::ofstream(suite) << "# ok\nd3e3W\nd3e3W q7q8\n";
    Run r = run_cli("selfplay --games 2 --depth 1 --quiet --openings " + suite + " --out " + dir);
    CHECK(r.status != 0);
    CHECK_THAT(r.output, Catch::Contains(suite + ":3: move 2 'q7q8'"));
    r = run_cli("selfplay --games 2 --depth 1 --quiet --openings random:x --out " + dir);
    CHECK(r.status != 0);
    CHECK_THAT(r.output, Catch::Contains("random:TURNS"));
    r = run_cli("selfplay --games 2 --depth 1 --quiet --weights /nonexistent/w.txt --out " + dir);
    CHECK(r.status != 0);
    CHECK_THAT(r.output, Catch::Contains("/nonexistent/w.txt"));
    // Games start from --openings: a --fen would be silently ignored, so it is refused.
    r = run_cli("selfplay --games 2 --depth 1 --quiet --fen \"W4/5/5/5/4B w\" --out " + dir);
    CHECK(r.status != 0);
    CHECK_THAT(r.output, Catch::Contains("--fen"));
    r = run_cli("selfplay --games 2 --depth 1 --quiet --out /proc/forbidden");
    CHECK(r.status != 0);
    CHECK_THAT(r.output, Catch::Contains("/proc/forbidden"));
}

TEST_CASE("dump prints a positions log as CSV", "[selfplay]") {
    const Run r = run_cli("dump --csv --limit 2 " + reference_run() + "/positions.bin");
    REQUIRE(r.status == 0);
    CHECK_THAT(r.output, Catch::StartsWith("game,turn,side,score,depth,result"));
    CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 3);
}
