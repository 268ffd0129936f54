// docs/tutorial.md runs as written: its ```sh blocks, in order, as one bash script in a fresh
// folder, at small sizes (GAMES, POSITIONS and DEPTH in the environment, as the tutorial says),
// with the toolkit's engine as "your engine"; then what each step should leave is there.

#include <catch2/catch.hpp>

#include <chrono>
#include <sstream>

#include <nlohmann/json.hpp>

#include "tests/cli_helpers.h"

using namespace test_cli;

namespace {

// The ```sh blocks of a Markdown text, in order.
std::vector<std::string> sh_blocks(const std::string& text) {
    std::vector<std::string> blocks;
    std::istringstream in(text);
    std::string line, block;
    bool inside = false;
    while (std::getline(in, line)) {
        if (!inside && line == "```sh") {
            inside = true;
            block.clear();
        } else if (inside && line == "```") {
            inside = false;
            blocks.push_back(block);
        } else if (inside) {
            block += line + "\n";
        }
    }
    return blocks;
}

} // namespace

TEST_CASE("the tutorial's commands run as written at small sizes", "[tutorial][slow]") {
    const std::string doc = slurp(std::string(FANORONA_TEST_DATA) + "/../../docs/tutorial.md");
    const auto blocks = sh_blocks(doc);
    REQUIRE(blocks.size() == 6); // set-up, check, engines file, match, timeuse, report
    const std::string dir = fresh_dir("tutorial");
    std::filesystem::create_directories(dir);
    std::string script = "set -e\ncd " + dir + "\n";
    for (const auto& b : blocks) script += b;
    std::ofstream(dir + "/tutorial.sh") << script;
    const auto t0 = std::chrono::steady_clock::now();
    const Run r = run_shell("F=" + std::string(FANORONA_BINARY) +
                            " GAMES=4 POSITIONS=5 DEPTH=2 bash " + dir + "/tutorial.sh");
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    INFO(r.output);
    REQUIRE(r.status == 0);
    WARN("the tutorial's commands took " << seconds << " s at GAMES=4");
    // check-engine named the player and passed; the engines file was read; the match wrote its
    // games, its log and its final page; timeuse and report ran.
    CHECK(r.output.find("engine mine ('") != std::string::npos);
    const auto check = nlohmann::json::parse(slurp(dir + "/runs/check.json"));
    CHECK_FALSE(check.empty());
    std::size_t games = 0;
    {
        std::istringstream in(slurp(dir + "/runs/match/games.tsv"));
        for (std::string line; std::getline(in, line);) games += !line.empty() && line[0] != '#';
    }
    CHECK(games == 4);
    CHECK(slurp(dir + "/runs/match.log").find("\tmine\t>\tgo") != std::string::npos);
    const std::string page = slurp(dir + "/runs/match/report.html");
    CHECK(page.find("id=\"tournament-browser\"") != std::string::npos);
    CHECK(page.find("http-equiv=\"refresh\"") == std::string::npos);
    CHECK(r.output.find("mine") != std::string::npos);
    CHECK(slurp(dir + "/runs/match-report.html").find("id=\"tournament-browser\"") !=
          std::string::npos);
}
