#include "core/bench.h"

#include <array>

namespace fanorona {

namespace {

// Openings, middle games and endings from engine games, and both start positions.
constexpr std::array<BenchPosition, 14> kPositions = {{
    {Variant::Tsivy, "BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w 0 1"},
    {Variant::Tsivy, "BBB2BBBB/BBBW1BBBB/BW3BWBW/WWW2WWWW/WWW1WWWWW b 0 4"},
    {Variant::Tsivy, "BBBBBBBBB/BB1BBBBBB/BW1W1BWBW/WW1WWWWWW/WW1WWWWWW b 0 4"},
    {Variant::Tsivy, "3BBBBBB/2WBBBBBB/B2W1BWBW/2W1WWWWW/1W1W1WWWW b 0 8"},
    {Variant::Tsivy, "BBB2B3/B5B1B/BB4WW1/W8/W2B4W b 0 8"},
    {Variant::Tsivy, "3B3BB/7BB/6BBW/2W1WW1WW/1W1W1W1WW w 0 15"},
    {Variant::Tsivy, "1BB2BB2/1B7/7WB/3B5/W8 w 0 15"},
    {Variant::Tsivy, "7B1/B8/1B7/WWW3W2/9 w 1 15"},
    {Variant::Tsivy, "6B1B/7B1/3W5/3W2W2/1W1WWW3 w 1 29"},
    {Variant::Tsivy, "5B2B/2W4B1/9/1W1W2W2/4W1W2 w 0 43"},
    {Variant::Dimy, "BBBBB/BBBBB/BW1BW/WWWWW/WWWWW w 0 1"},
    {Variant::Dimy, "BB1BB/BBBWB/B1WB1/WWW1W/WWW1W b 0 4"},
    {Variant::Dimy, "BB1B1/2BW1/BBWBW/1WW2/4W b 0 8"},
    {Variant::Dimy, "1B1B1/BW3/4W/WB3/3B1 b 0 8"},
}};

} // namespace

std::span<const BenchPosition> bench_positions() {
    return kPositions;
}

std::uint64_t run_bench(Searcher& searcher, int depth,
                        const std::function<void(const BenchEntry&)>& on_position) {
    std::uint64_t total = 0;
    for (int i = 0; i < int(kPositions.size()); ++i) {
        const BenchPosition& b = kPositions[i];
        Rules rules;
        rules.variant = b.variant;
        const Game game(rules, Position::from_string(b.position, b.variant));
        searcher.clear();
        SearchLimits limits;
        limits.depth = depth;
        const SearchResult r = searcher.search(game, limits);
        total += r.nodes;
        if (on_position) on_position(BenchEntry{i, &b, r});
    }
    return total;
}

} // namespace fanorona
