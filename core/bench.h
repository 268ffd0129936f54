#pragma once
// The search benchmark: a fixed set of positions (both boards) searched to a fixed depth from a
// cleared Searcher. Its total node count is the search's signature: any change of behaviour
// changes it (the expected value is data/bench_signature.txt, checked by a test).

#include <cstdint>
#include <functional>
#include <span>
#include <string_view>

#include "core/search.h"

namespace fanorona {

// One benchmark position.
struct BenchPosition {
    Variant variant;
    std::string_view position; // position string (docs/rules.md)
};

inline constexpr int kBenchDepth = 9;

std::span<const BenchPosition> bench_positions();

// The result of searching one benchmark position.
struct BenchEntry {
    int index;
    const BenchPosition* position;
    SearchResult result;
};

// Searches every benchmark position to `depth` with standard rules, clearing the searcher before
// each; calls `on_position` after each. Returns the total node count.
std::uint64_t run_bench(Searcher& searcher, int depth,
                        const std::function<void(const BenchEntry&)>& on_position = {});

} // namespace fanorona
