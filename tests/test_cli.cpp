// The command line's error contract: every error is one line `fanorona: <message>` and status 1;
// --help prints the help and exits 0.

#include <catch2/catch.hpp>

#include <string>

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
        {"", "subcommand"},                                          // no subcommand
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
    for (const char* args : {"--help", "perft --help", "tournament -h"}) {
        const Run r = run_cli(args);
        INFO("fanorona " << args << "\n" << r.output);
        CHECK(r.status == 0);
        CHECK(count_lines(r.output) > 3);
        CHECK_THAT(r.output, Catch::Contains("Options:") || Catch::Contains("OPTIONS:"));
        CHECK_THAT(r.output, !Catch::StartsWith("fanorona: "));
    }
}
