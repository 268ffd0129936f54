// The bench signature: the total node count of `fanorona bench` with the default settings (the
// engine's defaults, core/builtins.h) is kept in data/bench_signature.txt; any change
// of search behaviour must update it knowingly.

#include <fstream>
#include <sstream>
#include <string>

#include <catch2/catch.hpp>

#include "core/bench.h"
#include "selfplay/engine/engine_spec.h"

using namespace fanorona;

TEST_CASE("The bench node count matches data/bench_signature.txt", "[bench][slow]") {
    std::ifstream in(std::string(FANORONA_DATA_DIR) + "/bench_signature.txt");
    REQUIRE(in);
    std::string word;
    std::uint64_t expected = 0;
    int depth = 0;
    // Format: "depth D nodes N" (comment lines start with '#').
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream fields(line);
        std::string d, n;
        fields >> d >> depth >> n >> expected;
        REQUIRE(d == "depth");
        REQUIRE(n == "nodes");
    }
    REQUIRE(depth == kBenchDepth);
    const EngineSpec defaults; // what `fanorona bench` searches with, with no options
    Searcher searcher(defaults.hash_mb);
    defaults.configure(searcher);
    CHECK(run_bench(searcher, kBenchDepth) == expected);
}

TEST_CASE("The bench positions are legal and varied", "[bench]") {
    int tsivy = 0, dimy = 0;
    for (const BenchPosition& b : bench_positions()) {
        CHECK_NOTHROW(Position::from_string(b.position, b.variant));
        (b.variant == Variant::Tsivy ? tsivy : dimy) += 1;
    }
    CHECK(tsivy >= 8);
    CHECK(dimy >= 3);
}
