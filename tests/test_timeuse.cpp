// `fanorona timeuse`: the engine's time per move measured from outside, over the protocol.

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "tests/cli_helpers.h"

using namespace test_cli;

TEST_CASE("timeuse times go movetime to bestmove and writes JSON beside the text", "[timeuse]") {
    const std::string dir = fresh_dir("timeuse");
    std::filesystem::create_directories(dir);
    const std::string pos = "\"3BBBBBB/2WBBBBBB/B2W1BWBW/2W1WWWWW/1W1W1WWWW b 0 8\"";
    const Run r = run_cli("timeuse --movetimes 2,5 --repeat 2 --position " + pos + " --json-out " +
                          dir + "/t.json");
    INFO(r.output);
    REQUIRE(r.status == 0);
    CHECK_THAT(r.output, Catch::Contains("movetime"));
    const nlohmann::json j = nlohmann::json::parse(slurp(dir + "/t.json"));
    CHECK(j["format"] == "fanorona-timeuse 1");
    REQUIRE(j["rows"].size() == 2);
    CHECK(j["rows"][0]["movetime_ms"] == 2);
    CHECK(j["rows"][1]["movetime_ms"] == 5);
    for (const auto& row : j["rows"]) {
        CHECK(row["moves"] == 2);
        CHECK(row["min_ms"].get<double>() > 0);
        CHECK(row["max_ms"].get<double>() >= row["mean_ms"].get<double>());
        CHECK(row["max_ms"].get<double>() < 5000); // a generous bound: no hang
    }
}

TEST_CASE("timeuse refuses what it cannot measure, in one line", "[timeuse][cli]") {
    const Run missing = run_cli("timeuse --movetimes 5 --engine /no/such/engine");
    CHECK(missing.status == 1);
    CHECK_THAT(missing.output, Catch::StartsWith("fanorona: timeuse:"));
    CHECK_THAT(missing.output, Catch::Contains("/no/such/engine"));
    // A position with a single legal move gives the engine nothing to think about.
    // (White a1 must take c1 by approach: its only move.)
    const Run forced = run_cli("timeuse --movetimes 5 --position \"9/9/9/9/W1B6 w\"");
    CHECK(forced.status == 1);
    CHECK_THAT(forced.output, Catch::Contains("fewer than two legal moves"));
    // An empty --engine names no engine: refused, not the built-in engine measured.
    for (const char* empty : {"''", "'  '"}) {
        const Run none = run_cli(std::string("timeuse --movetimes 5 --engine ") + empty);
        CHECK(none.status == 1);
        CHECK_THAT(none.output, Catch::Contains("--engine: an empty value names no engine"));
        CHECK(lines_of(none.output).size() == 1);
    }
}
