// The command line's error contract: every error is one line `fanorona: <message>` and status 1;
// --help prints the help and exits 0.

#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/cli_helpers.h"

using namespace test_cli;

namespace {

int count_lines(const std::string& s) {
    int n = 0;
    for (const char c : s) n += c == '\n';
    if (!s.empty() && s.back() != '\n') ++n;
    return n;
}

} // namespace

TEST_CASE("every command-line error is one line starting fanorona: with status 1", "[cli]") {
    // Each kind of error CLI11 reports itself (which would print two lines and exit 105 or 106)
    // and errors the commands raise.
    const std::pair<const char*, const char*> cases[] = {
        {"perft --depth 1 --no-such-option", "--no-such-option"},    // unknown option
        {"perft --depth x", "--depth"},                              // not a number
        {"perft --depth 99", "--depth"},                             // out of range
        {"perft", "--depth"},                                        // missing required
        {"dump", "file"},                                            // missing positional
        {"perft --depth 1 --variant hexagon", "--variant"},          // not a member
        {"perft --depth 1 extra", "extra"},                          // extra argument
        {"no-such-command", "no-such-command"},                      // unknown subcommand
        {"perft --depth", "--depth"},                                // option without value
        {"perft --depth 1 --fen nonsense", "--fen"},                 // raised by the command
        {"dump /no/such/positions/file", "/no/such/positions/file"}, // unreadable input
    };
    for (const auto& [args, mention] : cases) {
        const Run r = run_cli(args);
        INFO("fanorona " << args << "\n" << r.output);
        CHECK(r.status == 1);
        CHECK(count_lines(r.output) == 1);
        CHECK_THAT(r.output, Catch::StartsWith("fanorona: "));
        CHECK_THAT(r.output, Catch::Contains(mention));
        CHECK_THAT(r.output, !Catch::Contains("Run with --help"));
    }
}

TEST_CASE("help prints the help text and exits 0", "[cli]") {
    // A bare `fanorona` prints the help too (as git), on stdout.
    for (const char* args : {"", "--help", "perft --help", "tournament -h"}) {
        const Run r = run_cli(args);
        INFO("fanorona " << args << "\n" << r.output);
        CHECK(r.status == 0);
        CHECK(count_lines(r.output) > 3);
        CHECK_THAT(r.output, Catch::Contains("Options:") || Catch::Contains("OPTIONS:"));
        CHECK_THAT(r.output, !Catch::StartsWith("fanorona: "));
    }
}

TEST_CASE("fanorona --version prints the provenance that run folders record", "[cli]") {
    const Run v = run_cli("--version");
    INFO(v.output);
    REQUIRE(v.status == 0);
    const auto lines = lines_of(v.output);
    REQUIRE(lines.size() == 5);
    CHECK(lines[0].rfind("fanorona ", 0) == 0);
    CHECK(lines[1].rfind("commit ", 0) == 0);
    CHECK(lines[2].rfind("build ", 0) == 0);
    CHECK(lines[3].rfind("bench ", 0) == 0);
    // The default network's file (core/CMakeLists.txt).
    CHECK(lines[4] ==
          "net " + std::filesystem::path(FANORONA_DEFAULT_NET_FILE).filename().string());
    // In a git checkout: the commit checked out now (CMake configures again when HEAD moves).
    const Run head = run_shell("git -C " + std::string(FANORONA_TEST_DATA) +
                               "/../.. rev-parse --short HEAD 2>/dev/null");
    if (head.status == 0 && !lines_of(head.output).empty())
        CHECK(lines[1] == "commit " + lines_of(head.output).front());
    const std::string dir = fresh_dir("version_provenance");
    const Run t = run_cli("tournament --quiet --games 2 --max-turns 20 --player name=a,depth=1 "
                          "--player name=r,builtin=random --out " +
                          dir);
    INFO(t.output);
    REQUIRE(t.status == 0);
    for (const char* file : {"/settings.json", "/results.json"}) {
        const auto j = nlohmann::json::parse(slurp(dir + file));
        INFO(file);
        REQUIRE(j.contains("program"));
        const auto& p = j["program"];
        CHECK(lines[0] == "fanorona " + p["version"].get<std::string>());
        CHECK(lines[1] == "commit " + p["commit"].get<std::string>());
        CHECK(lines[2] == "build " + p["build_type"].get<std::string>());
        CHECK(lines[3] == "bench " + std::to_string(p["bench_signature"].get<std::uint64_t>()));
    }
}
