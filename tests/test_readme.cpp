// The README shows real output: the main job's output between its markers is what the program
// prints at this commit (tools/readme_output.sh writes it), and its command is the Makefile's.

#include <catch2/catch.hpp>

#include <filesystem>
#include <sstream>

#include "tests/cli_helpers.h"

using namespace test_cli;

namespace {

const std::string kRoot = std::string(FANORONA_TEST_DATA) + "/../..";
const std::string kBegin = "<!-- main-job-output: begin";
const std::string kEnd = "<!-- main-job-output: end";

// The lines of the README's main-job block inside its ``` fence.
std::vector<std::string> readme_block() {
    const auto lines = lines_of(slurp(kRoot + "/README.md"));
    std::vector<std::string> block;
    bool inside = false;
    for (const auto& line : lines) {
        if (line.rfind(kBegin, 0) == 0) {
            inside = true;
            continue;
        }
        if (line.rfind(kEnd, 0) == 0) break;
        if (inside && line.rfind("```", 0) != 0) block.push_back(line);
    }
    return block;
}

// The main job's arguments: the recipe of the Makefile's `run` target after `$(FANORONA) `.
std::string makefile_main_job() {
    const auto lines = lines_of(slurp(kRoot + "/Makefile"));
    for (std::size_t i = 0; i + 1 < lines.size(); ++i)
        if (lines[i].rfind("run:", 0) == 0) {
            const std::string prefix = "\t$(FANORONA) ";
            if (lines[i + 1].rfind(prefix, 0) == 0) return lines[i + 1].substr(prefix.size());
        }
    return "";
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
    for (auto p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size()))
        s.replace(p, from.size(), to);
    return s;
}

} // namespace

TEST_CASE("the README's main job is the Makefile's", "[readme]") {
    const auto block = readme_block();
    const std::string job = makefile_main_job();
    INFO("README.md needs a block between '" + kBegin + "' and '" + kEnd +
         "' (tools/readme_output.sh writes it)");
    REQUIRE(block.size() >= 3);
    REQUIRE_FALSE(job.empty());
    CHECK(block[0] == "$ make run");
    CHECK(block[1] == "build/tools/fanorona " + job);
    CHECK(job.find("--out runs/main") != std::string::npos);
}

TEST_CASE("the README shows what the main job prints at this commit", "[readme][slow]") {
    const auto block = readme_block();
    const std::string job = makefile_main_job();
    REQUIRE(block.size() >= 3);
    REQUIRE(job.find("--out runs/main") != std::string::npos);
    const std::string dir = fresh_dir("readme_main");
    std::filesystem::create_directories(dir);
    const std::string out = dir + "/main";
    // The job as `make run` starts it, in the repository (its paths are relative), into `out`;
    // stdout only (stderr holds progress and timings).
    const Run r = run_shell("(cd " + kRoot + " && " + FANORONA_BINARY + " " +
                            replace_all(job, "--out runs/main", "--out " + out) + " 2>" + dir +
                            "/stderr.txt)");
    INFO(slurp(dir + "/stderr.txt"));
    REQUIRE(r.status == 0);
    const std::string printed = replace_all(r.output, out, "runs/main");
    std::string shown;
    for (std::size_t i = 2; i < block.size(); ++i) shown += block[i] + "\n";
    INFO("if the change of output is intended, run tools/readme_output.sh to update README.md");
    CHECK(shown == printed);

    // The page of the same run tells the loop's story.
    const std::string html = slurp(out + "/report.html");
    for (const char* id : {"loop-summary", "loop-iterations", "loop-elo-chart", "loop-loss-chart",
                           "loop-weights", "iter-1-selfplay", "iter-1-tune", "opening-explorer"})
        CHECK(html.find("id=\"" + std::string(id) + "\"") != std::string::npos);
    CHECK(html.find("not provided") == std::string::npos);
}
