// `fanorona solve` with no method, tables or memory given solves as docs/solved_boards.md did:
// df-pn with the boards' tables and 1024 MB on 5x7, 7x5, 3x9 and 9x3; alpha-beta elsewhere.

#include <catch2/catch.hpp>

#include <string>

#include <nlohmann/json.hpp>

#include "core/board/rules.h"
#include "tests/cli_helpers.h"
#include "tools/solve/tables_cache.h"

using fanorona::cli::solve_recipe;

TEST_CASE("solve_recipe: the documented recipe on the solved boards, alpha-beta elsewhere",
          "[solve][cli]") {
    const auto board = [](const char* name) { return *fanorona::parse_variant(name); };
    for (const char* name : {"5x7", "7x5"}) {
        INFO(name);
        const auto r = solve_recipe(board(name), 34);
        CHECK(std::string(r.method) == "pns");
        CHECK(r.table_pieces == 7);
        CHECK(r.hash_mb == 1024);
    }
    for (const char* name : {"3x9", "9x3"}) {
        INFO(name);
        const auto r = solve_recipe(board(name), 26);
        CHECK(std::string(r.method) == "pns");
        CHECK(r.table_pieces == 8);
    }
    // Below the root's pieces: a 5-piece position of 7x5 gets the 4-piece tables.
    CHECK(solve_recipe(board("7x5"), 5).table_pieces == 4);
    for (const char* name : {"tsivy", "dimy", "3x7", "telo"}) {
        INFO(name);
        const auto r = solve_recipe(board(name), 8);
        CHECK(std::string(r.method) == "search");
        CHECK(r.table_pieces == fanorona::cli::auto_table_pieces(board(name), 8));
        CHECK(r.hash_mb == 64);
    }
}

TEST_CASE("solve --variant 7x5 alone runs df-pn, given options win", "[solve][cli]") {
    const std::string dir = test_cli::fresh_dir("solve_recipe");
    std::filesystem::create_directories(dir);
    // Small tables and a small budget: only which method and memory run is checked here.
    const auto r = test_cli::run_cli("solve --variant 7x5 --table-pieces 2 --max-nodes 2000 "
                                     "--tables-cache " +
                                     dir + "/cache --json-out " + dir + "/auto.json");
    REQUIRE(r.status == 0);
    CHECK_THAT(r.output, Catch::Contains("method pns") && Catch::Contains("1024 MB"));
    CHECK(nlohmann::json::parse(test_cli::slurp(dir + "/auto.json"))["method"] == "pns");
    const auto given = test_cli::run_cli("solve --variant 7x5 --table-pieces 2 --max-nodes 2000 "
                                         "--method search --hash 16 --tables-cache " +
                                         dir + "/cache --json-out " + dir + "/given.json");
    REQUIRE(given.status == 0);
    CHECK(nlohmann::json::parse(test_cli::slurp(dir + "/given.json"))["method"] == "search");
}
