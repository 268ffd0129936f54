// Network files carry FNV-1a 64 as published (docs/formats.md): a file written to the documented
// format is read, and files written with the short offset basis before it still are.

#include <catch2/catch.hpp>

#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <string>

#include "core/common/files.h"
#include "selfplay/formats/net_file.h"
#include "tests/cli_helpers.h"

namespace {

// FNV-1a 64 from its published definition, written out here rather than taken from the program.
std::string published_fnv1a64(const std::string& bytes, std::uint64_t basis) {
    std::uint64_t h = basis;
    for (const unsigned char c : bytes) h = (h ^ c) * 1099511628211ull;
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016" PRIx64, h);
    return hex;
}

// `file` with its checksum line made anew over everything before it, with `basis`.
std::string resummed(const std::string& file, std::uint64_t basis) {
    const std::size_t at = file.rfind("\nchecksum ");
    REQUIRE(at != std::string::npos);
    const std::string body = file.substr(0, at);
    return body + "\nchecksum " + published_fnv1a64(body, basis) + "\n";
}

} // namespace

TEST_CASE("net files carry the published FNV-1a 64, older files still read", "[net][formats]") {
    const std::string dir = test_cli::fresh_dir("net_checksum");
    std::filesystem::create_directories(dir);
    REQUIRE(test_cli::run_cli("net random --seed 3 --hidden 16 --out " + dir + "/a.net").status ==
            0);
    const std::string written = test_cli::slurp(dir + "/a.net");
    // What the program writes is the documented checksum.
    CHECK(resummed(written, 14695981039346656037ull) == written);
    const auto info = test_cli::run_cli("net info " + dir + "/a.net");
    CHECK_THAT(info.output, Catch::Contains("(FNV-1a 64, verified)"));
    // A file of the older basis reads to the same network, and says so.
    fanorona::write_file_atomically(dir + "/old.net", resummed(written, 1469598103934665603ull));
    CHECK(fanorona::read_net_file(dir + "/old.net").net ==
          fanorona::read_net_file(dir + "/a.net").net);
    CHECK(fanorona::read_net_file(dir + "/old.net").short_basis_checksum);
    CHECK_FALSE(fanorona::read_net_file(dir + "/a.net").short_basis_checksum);
    // Any other checksum is damage.
    std::string damaged = written;
    damaged[damaged.size() - 2] = damaged[damaged.size() - 2] == '0' ? '1' : '0';
    fanorona::write_file_atomically(dir + "/bad.net", damaged);
    CHECK_THROWS_WITH(fanorona::read_net_file(dir + "/bad.net"),
                      Catch::Contains("the file is damaged"));
}
