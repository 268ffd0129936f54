// `fanorona frontier`: the tree's values are solve's, the sample is the seed's alone, each
// position's result is the same on any thread count with a node budget, the CSV resumes, and bad
// input gets one line.

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/cli_helpers.h"

namespace {

// Runs `fanorona frontier ARGS --json-out FILE --quiet` and returns the JSON it wrote.
nlohmann::json frontier_json(const std::string& args, const std::string& json) {
    const auto r = test_cli::run_cli("frontier " + args + " --quiet --json-out " + json);
    INFO(r.output);
    REQUIRE(r.status == 0);
    return nlohmann::json::parse(test_cli::slurp(json));
}

int lines(const std::string& s) {
    return int(std::count(s.begin(), s.end(), '\n'));
}

std::string opposite(const std::string& value) {
    return value == "win" ? "loss" : value == "loss" ? "win" : value;
}

// A small self-play games file of 5x9 (tsivy) games at depth 1, made once per test process.
std::string tsivy_games() {
    static const std::string games = [] {
        const std::string dir = test_cli::fresh_dir("frontier_games");
        const auto r = test_cli::run_cli("selfplay --variant tsivy --games 6 --depth 1 --seed 3 "
                                         "--threads 1 --no-positions --quiet --out " +
                                         dir);
        REQUIRE(r.status == 0);
        return dir + "/games.tsv";
    }();
    return games;
}

} // namespace

TEST_CASE("fanorona frontier: the tree's values are solve's (3x3)", "[frontier][cli]") {
    const std::string dir = test_cli::fresh_dir("frontier_tree");
    std::filesystem::create_directories(dir);
    const auto solve = test_cli::run_cli("solve --variant 3x3 --table-pieces 0 --method pns "
                                         "--all-moves --quiet --json-out " +
                                         dir + "/solve.json");
    REQUIRE(solve.status == 0);
    const auto s = nlohmann::json::parse(test_cli::slurp(dir + "/solve.json"));
    const std::string base = "--variant 3x3 --table-pieces 0 --solve-turns 2 --max-nodes 200000";
    const auto one = frontier_json(base + " --threads 1", dir + "/one.json");
    const auto two = frontier_json(base + " --threads 2", dir + "/two.json");
    CHECK(one["root"]["value"] == "win"); // docs/solve.md: White wins 3x3
    CHECK(one["root"]["value"] == s["value"]);
    // The positions after one turn, in solve's order of first moves; their values for the side
    // to move there are the opposite of solve's for the mover.
    std::vector<nlohmann::json> first;
    for (const auto& p : one["tree"])
        if (p["turns"] == 1) first.push_back(p);
    REQUIRE(first.size() == s["moves"].size());
    for (std::size_t i = 0; i < first.size(); ++i) {
        INFO(first[i]["moves"]);
        CHECK(first[i]["moves"] == s["moves"][i]["move"]);
        CHECK(first[i]["value"] == opposite(s["moves"][i]["value"]));
    }
    // After two turns: every reply of every first move, each proven, "moves" the line.
    REQUIRE(one["tree"].size() > first.size());
    for (const auto& p : one["tree"]) {
        CHECK(p["value"] != "unknown");
        if (p["turns"] == 2) CHECK(p["moves"].get<std::string>().find(' ') != std::string::npos);
    }
    // Each position its own searcher: the same nodes on 1 and 2 threads.
    REQUIRE(two["tree"].size() == one["tree"].size());
    for (std::size_t i = 0; i < one["tree"].size(); ++i) {
        CHECK(two["tree"][i]["nodes"] == one["tree"][i]["nodes"]);
        CHECK(two["tree"][i]["value"] == one["tree"][i]["value"]);
    }
    CHECK(one["tree_summary"][0]["proven"] == first.size());
    // A budget too small to prove anything leaves the values unknown, and the text says so.
    const auto small = test_cli::run_cli("frontier --variant dimy --table-pieces 0 --hash 1 "
                                         "--solve-turns 1 --max-nodes 1 --threads 1");
    INFO(small.output);
    REQUIRE(small.status == 0);
    CHECK(small.output.find("after 1 turn: 5 positions, 0 proven") != std::string::npos);
    CHECK(small.output.find("the root: unknown") != std::string::npos);
}

TEST_CASE("fanorona frontier: samples of 5x9 games by seed, tables, CSV resume",
          "[frontier][cli]") {
    const std::string dir = test_cli::fresh_dir("frontier_samples");
    std::filesystem::create_directories(dir);
    const std::string tables = dir + "/tb";
    REQUIRE(
        test_cli::run_cli("tables build --variant tsivy --pieces 3 --threads 1 --tables " + tables)
            .status == 0);
    const std::string games = tsivy_games();
    const std::string files =
        "--variant tsivy --tables " + tables + " " + games + " --samples 3 --hash 4";
    const std::string base = files + " --turns 12,4 --max-nodes 3000";
    const auto a = frontier_json(base + " --seed 5 --threads 1", dir + "/a.json");
    const auto b = frontier_json(base + " --seed 5 --threads 2", dir + "/b.json");
    REQUIRE(a["samples"].size() == 2);
    for (std::size_t t = 0; t < 2; ++t) {
        const auto& sa = a["samples"][t];
        CHECK(sa["turns"] == (t == 0 ? 12 : 4));
        CHECK(sa["sampled"] == std::min<int>(3, sa["games"].get<int>()));
        // The same seed: the same games, positions and results on any thread count.
        CHECK(b["samples"][t]["positions"].size() == sa["positions"].size());
        for (std::size_t i = 0; i < sa["positions"].size(); ++i) {
            const auto& p = sa["positions"][i];
            CHECK(p["game"].get<std::string>().rfind(games + "#", 0) == 0);
            CHECK(b["samples"][t]["positions"][i]["game"] == p["game"]);
            CHECK(b["samples"][t]["positions"][i]["position"] == p["position"]);
            CHECK(b["samples"][t]["positions"][i]["nodes"] == p["nodes"]);
            CHECK(b["samples"][t]["positions"][i]["value"] == p["value"]);
            CHECK(p["nodes"].get<std::uint64_t>() <= 3000 + 1024);
        }
        // The summary counts what the positions say.
        int proven = 0;
        for (const auto& p : sa["positions"]) proven += p["value"] != "unknown";
        CHECK(sa["proven"] == proven);
    }
    // The sample of a turn does not depend on the other turns asked for.
    const auto only =
        frontier_json(files + " --max-nodes 3000 --seed 5 --turns 4", dir + "/only.json");
    REQUIRE(only["samples"][0]["positions"].size() == a["samples"][1]["positions"].size());
    for (std::size_t i = 0; i < a["samples"][1]["positions"].size(); ++i)
        for (const char* key : {"game", "position", "nodes", "value"})
            CHECK(only["samples"][0]["positions"][i][key] == a["samples"][1]["positions"][i][key]);

    // The CSV: a row per position; a rerun reuses them all, a torn last line is dropped.
    const std::string csv = dir + "/f.csv";
    const auto first = test_cli::run_cli("frontier " + base + " --seed 5 --csv-out " + csv);
    REQUIRE(first.status == 0);
    const std::string rows = test_cli::slurp(csv);
    const int positions = int(a["samples"][0]["sampled"]) + int(a["samples"][1]["sampled"]);
    CHECK(lines(rows) == 2 + positions);
    {
        std::ofstream torn(csv, std::ios::app);
        torn << "turn,12,half a ro";
    }
    const auto again = test_cli::run_cli("frontier " + base + " --seed 5 --csv-out " + csv);
    REQUIRE(again.status == 0);
    CHECK(again.output.find(std::to_string(positions) + " positions' results reused") !=
          std::string::npos);
    CHECK(test_cli::slurp(csv) == rows);
    // Another budget is refused on that file.
    const auto other = test_cli::run_cli("frontier " + files +
                                         " --turns 12,4 --seed 5 --max-nodes 10 --csv-out " + csv);
    CHECK(other.status == 1);
    CHECK(other.output.find("written with other settings") != std::string::npos);
    CHECK(lines(other.output) == 1);
}

TEST_CASE("fanorona frontier: bad input gets one line", "[frontier][cli]") {
    const std::string dir = test_cli::fresh_dir("frontier_errors");
    const std::string games = tsivy_games();
    const auto one_line = [](const std::string& args, const std::string& starts) {
        const auto r = test_cli::run_cli("frontier " + args);
        INFO(r.output);
        CHECK(r.status == 1);
        CHECK(lines(r.output) == 1);
        CHECK_THAT(r.output, Catch::StartsWith("fanorona: " + starts));
    };
    one_line("--variant tsivy " + dir + "/missing.tsv", "games: File does not exist");
    one_line("--variant tsivy --table-pieces 0 --max-nodes 10 " + games + " --turns 5000",
             "--turns 5000: no game of the games files goes on past turn 5000 (the longest has ");
    one_line("--variant dimy --table-pieces 0 " + games,
             games + ": games of tsivy, not --variant dimy");
    one_line("--variant tsivy --turns 10", "--turns: needs games files");
    one_line("--variant tsivy", "nothing to solve");
    one_line("--variant tsivy --rules vela --solve-turns 1", "--rules: the solver handles");
}
