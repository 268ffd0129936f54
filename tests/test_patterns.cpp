// The pattern features (core/patterns.h): windows, configurations, symmetry sharing.
#include <algorithm>
#include <random>

#include <catch2/catch.hpp>

#include "core/patterns.h"

using namespace fanorona;

namespace {

// A random 5x9 position as {player, opponent}: each point empty, own or opponent.
std::pair<Bitboard, Bitboard> random_board(std::mt19937_64& rng) {
    Bitboard player = 0, opponent = 0;
    for (int r = 0; r < 5; ++r)
        for (int f = 0; f < 9; ++f) {
            const auto v = rng() % 3;
            if (v == 1) player |= bit(make_square(f, r));
            if (v == 2) opponent |= bit(make_square(f, r));
        }
    return {player, opponent};
}

Bitboard mirror(Bitboard b, bool files, bool ranks) {
    Bitboard out = 0;
    for (int r = 0; r < 5; ++r)
        for (int f = 0; f < 9; ++f)
            if (b & bit(make_square(f, r)))
                out |= bit(make_square(files ? 8 - f : f, ranks ? 4 - r : r));
    return out;
}

// The configuration of the window centred at (file, rank), read straight (no symmetry).
int straight_config(Bitboard player, Bitboard opponent, int file, int rank) {
    int config = 0;
    for (int dy = 2; dy >= 0; --dy)
        for (int dx = 2; dx >= 0; --dx) {
            const Bitboard b = bit(make_square(file + dx - 1, rank + dy - 1));
            config = config * 3 + ((player & b) ? 1 : (opponent & b) ? 2 : 0);
        }
    return config;
}

} // namespace

TEST_CASE("pattern windows cover the interior points, in classes of symmetric centres",
          "[patterns]") {
    const auto& windows = pattern_windows();
    std::array<int, kPatternClasses> members{};
    for (const PatternWindow& w : windows) {
        REQUIRE(file_of(w.centre) >= 1);
        REQUIRE(file_of(w.centre) <= 7);
        REQUIRE(rank_of(w.centre) >= 1);
        REQUIRE(rank_of(w.centre) <= 3);
        ++members[w.cls];
        // The window's class is named by the centre it maps onto.
        const int f = w.mirror_files ? 8 - file_of(w.centre) : file_of(w.centre);
        const int r = w.mirror_ranks ? 4 - rank_of(w.centre) : rank_of(w.centre);
        const std::string name{char('a' + f), char('1' + r)};
        CHECK(pattern_class_name(w.cls) == name);
    }
    CHECK(members == std::array<int, kPatternClasses>{4, 4, 4, 2, 2, 2, 2, 1});
    CHECK(parse_pattern_class("d3") == 6);
    CHECK_FALSE(parse_pattern_class("a1").has_value());
}

TEST_CASE("configuration strings round trip and reject malformed text", "[patterns]") {
    for (int k : {0, 1, 2, 3, 4242, kPatternConfigs - 1}) {
        const auto s = pattern_config_string(k);
        CHECK(s.size() == 11);
        CHECK(parse_pattern_config(s) == k);
    }
    // Digit 0 is the lower left point: the last row of the text, first column.
    CHECK(pattern_config_string(1) == ".../.../x..");
    CHECK(pattern_config_string(2 * 6561) == "..o/.../...");
    for (const char* bad : {"", "..o/.../..", "..o/...-...", "..a/.../...", "..o/.../....."})
        CHECK_FALSE(parse_pattern_config(bad).has_value());
}

TEST_CASE("pattern indices read each window in its class's orientation", "[patterns]") {
    std::mt19937_64 rng(7);
    for (int trial = 0; trial < 200; ++trial) {
        const auto [player, opponent] = random_board(rng);
        PatternIndices idx;
        pattern_indices(player, opponent, idx);
        for (int i = 0; i < kPatternWindows; ++i) {
            const PatternWindow& w = pattern_windows()[std::size_t(i)];
            // Reading the mirrored board at the mirrored centre is the straight reading.
            const int f = file_of(w.centre), r = rank_of(w.centre);
            const Bitboard mp = mirror(player, w.mirror_files, w.mirror_ranks);
            const Bitboard mo = mirror(opponent, w.mirror_files, w.mirror_ranks);
            const int cf = w.mirror_files ? 8 - f : f, cr = w.mirror_ranks ? 4 - r : r;
            const int expected = straight_config(mp, mo, cf, cr);
            const int config = int(idx[std::size_t(i)] % kPatternConfigs);
            REQUIRE(int(idx[std::size_t(i)] / kPatternConfigs) == w.cls);
            REQUIRE(pattern_config_canonical(w.cls, config));
            if (pattern_config_canonical(w.cls, expected))
                REQUIRE(config == expected);
            else
                REQUIRE(config < expected); // a smaller symmetric form was taken
        }
    }
}

TEST_CASE("mirror images of a position touch the same pattern weights", "[patterns]") {
    std::mt19937_64 rng(11);
    for (int trial = 0; trial < 200; ++trial) {
        const auto [player, opponent] = random_board(rng);
        PatternIndices base;
        pattern_indices(player, opponent, base);
        std::sort(base.begin(), base.end());
        for (int s = 1; s < 4; ++s) {
            PatternIndices other;
            pattern_indices(mirror(player, s & 1, s & 2), mirror(opponent, s & 1, s & 2), other);
            std::sort(other.begin(), other.end());
            REQUIRE(other == base);
        }
    }
}

TEST_CASE("a self-symmetric window gives one weight to a configuration and its mirror image",
          "[patterns]") {
    // e3 is its own mirror image both ways: a piece on d4 or f4 or d2 or f2 is one weight.
    const int e3 = int(*parse_pattern_class("e3"));
    std::vector<std::uint32_t> seen;
    for (Square s : {make_square(3, 3), make_square(5, 3), make_square(3, 1), make_square(5, 1)}) {
        PatternIndices idx;
        pattern_indices(bit(s), 0, idx);
        for (int i = 0; i < kPatternWindows; ++i)
            if (pattern_windows()[std::size_t(i)].cls == e3) seen.push_back(idx[std::size_t(i)]);
    }
    REQUIRE(seen.size() == 4);
    CHECK(std::count(seen.begin(), seen.end(), seen[0]) == 4);
    CHECK(seen[0] != std::uint32_t(e3) * kPatternConfigs); // not the empty window
}

TEST_CASE("the canonical form of a configuration is the one pattern_indices gives", "[patterns]") {
    // e3's window is its own mirror image both ways: a lone piece in any corner reads as the
    // lower left one (the smallest form).
    const int lower_left = *parse_pattern_config(".../.../x..");
    const int e3 = *parse_pattern_class("e3");
    for (const char* corner : {"x../.../...", "..x/.../...", ".../.../..x", ".../.../x.."})
        CHECK(pattern_canonical_config(e3, *parse_pattern_config(corner)) == lower_left);
    for (int c = 0; c < kPatternClasses; ++c)
        for (int k = 0; k < kPatternConfigs; k += 37) {
            const int canonical = pattern_canonical_config(c, k);
            CHECK(canonical <= k);
            CHECK(pattern_config_canonical(c, canonical));
            CHECK(pattern_config_canonical(c, k) == (canonical == k));
        }
    // A class with no self-symmetry keeps every configuration.
    CHECK(pattern_canonical_config(*parse_pattern_class("d2"), 12345) == 12345);
}
