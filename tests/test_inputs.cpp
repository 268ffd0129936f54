// Inputs that cannot apply are refused in every command, with one line naming the option, and
// files are checked before they are trusted: a network of another board, an empty --net, tables
// built otherwise than asked, a damaged finished table.

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/cli_helpers.h"

namespace fs = std::filesystem;
using test_cli::run_cli;

TEST_CASE("a network of another board is refused, not silently unused", "[inputs][cli]") {
    const std::string dir = test_cli::fresh_dir("inputs_net_board");
    for (const std::string& args :
         {"selfplay --variant dimy --net tsivy --games 2 --out " + dir + "/sp",
          std::string("analyze --variant dimy --net tsivy"),
          "tournament --variant dimy --player name=a,net=tsivy --player name=b --games 2 --out " +
              dir + "/t"}) {
        INFO(args);
        const auto r = run_cli(args);
        CHECK(r.status == 1);
        CHECK_THAT(r.output, Catch::Contains("net") &&
                                 Catch::Contains("a network of the tsivy board") &&
                                 Catch::Contains("dimy"));
    }
    CHECK_FALSE(fs::exists(dir + "/sp/games.tsv"));
    // The default network plays on its own board only: dimy without --net plays the weights.
    CHECK(run_cli("analyze --variant dimy --depth 2").status == 0);
    const auto empty = run_cli("analyze --net ''");
    CHECK(empty.status == 1);
    CHECK_THAT(empty.output, Catch::Contains("--net: an empty value names nothing"));
}

TEST_CASE("tables build refuses other folding and re-checks finished tables", "[inputs][cli]") {
    const std::string dir = test_cli::fresh_dir("inputs_tables");
    REQUIRE(run_cli("tables build --variant 3x3 --pieces 3 --quiet --tables " + dir).status == 0);
    auto r = run_cli("tables build --variant 3x3 --pieces 3 --no-symmetry --tables " + dir);
    CHECK(r.status == 1);
    CHECK_THAT(r.output, Catch::Contains("--no-symmetry: " + dir + " holds folded tables"));
    // A finished table damaged after its build is an error, never "already built".
    const std::string table = dir + "/3x3-2v1.fntb";
    std::string bytes = test_cli::slurp(table);
    bytes[bytes.size() - 10] = char(bytes[bytes.size() - 10] ^ 0xff);
    std::ofstream(table, std::ios::binary) << bytes;
    r = run_cli("tables build --variant 3x3 --pieces 3 --tables " + dir);
    CHECK(r.status == 1);
    CHECK_THAT(r.output, Catch::Contains(table) && Catch::Contains("checksum"));
}

TEST_CASE("a resume that drops data says so even with --quiet", "[inputs][cli]") {
    const std::string dir = test_cli::fresh_dir("inputs_resume_quiet");
    const std::string run =
        "selfplay --games 6 --depth 1 --seed 7 --threads 1 --quiet --out " + dir;
    REQUIRE(run_cli(run).status == 0);
    std::ofstream(dir + "/games.tsv", std::ios::app) << "7\tfanorona(depth=1";
    const auto r = run_cli(run + " --resume");
    CHECK(r.status == 0);
    CHECK_THAT(r.output, Catch::Contains("resume: " + dir + "/games.tsv: cut") &&
                             Catch::Contains("(a torn last line)"));
}

TEST_CASE("frontier checks its CSV's rows and its --turns before trusting them", "[inputs][cli]") {
    const std::string dir = test_cli::fresh_dir("inputs_frontier_csv");
    fs::create_directories(dir);
    const std::string run =
        "frontier --variant 3x3 --table-pieces 0 --solve-turns 1 --quiet --csv-out " + dir +
        "/f.csv";
    REQUIRE(run_cli(run).status == 0);
    std::string rows = test_cli::slurp(dir + "/f.csv");
    const std::size_t row = rows.find("\ntree,1,") + 1;
    const std::size_t value =
        rows.find(',', rows.find(',', rows.find(',', rows.find(',', row) + 1) + 1) + 1);
    // The row's value word and bounds: "win,1,1" becomes "win,7,-3".
    const std::size_t bounds = rows.find(',', value + 1) + 1;
    rows.replace(bounds, rows.find(',', rows.find(',', bounds) + 1) - bounds, "7,-3");
    std::ofstream(dir + "/f.csv", std::ios::binary | std::ios::trunc) << rows;
    const auto r = run_cli(run);
    CHECK(r.status == 1);
    CHECK_THAT(r.output,
               Catch::Contains(dir + "/f.csv:3: lo: expected a whole number from -1 to 1"));
    REQUIRE(
        run_cli("selfplay --variant 3x3 --games 2 --depth 1 --quiet --out " + dir + "/sp").status ==
        0);
    const auto twice =
        run_cli("frontier --variant 3x3 --table-pieces 0 " + dir + "/sp/games.tsv --turns 4,4");
    CHECK(twice.status == 1);
    CHECK_THAT(twice.output, Catch::Contains("--turns: 4 given twice"));
}

TEST_CASE("train: tables of another board refused, a resume by another spelling accepted, "
          "clear messages",
          "[inputs][cli]") {
    const std::string dir = test_cli::fresh_dir("inputs_train");
    REQUIRE(
        run_cli("selfplay --games 4 --depth 1 --seed 3 --threads 1 --quiet --out " + dir + "/sp")
            .status == 0);
    REQUIRE(
        run_cli("tables build --variant dimy --pieces 2 --quiet --tables " + dir + "/tb").status ==
        0);
    const std::string data = dir + "/sp/positions.bin";
    auto r = run_cli("train " + data + " --relabel-tables " + dir + "/tb --hidden 16 --out " + dir +
                     "/a.net");
    CHECK(r.status == 1);
    CHECK_THAT(r.output, Catch::Contains("positions of the tsivy board, but the tables"));
    REQUIRE(run_cli("train " + data + " --epochs 1 --hidden 16 --out " + dir + "/n.net").status ==
            0);
    r = run_cli("train " + dir + "/sp/../sp/positions.bin --epochs 2 --hidden 16 --resume --out " +
                dir + "/n.net");
    CHECK(r.status == 0);
    CHECK_THAT(r.output, Catch::Contains("resumed from"));
    r = run_cli("train " + data + " --lr 0 --out " + dir + "/z.net");
    CHECK(r.status == 1);
    CHECK_THAT(r.output, Catch::Contains("--lr: '0' is not a positive number"));
    CHECK(r.output.size() < 200);
    r = test_cli::run_shell("printf 'go depth 99999999999999999999\\nquit\\n' | " FANORONA_BINARY
                            " engine");
    CHECK_THAT(r.output, Catch::Contains("is too large"));
}
