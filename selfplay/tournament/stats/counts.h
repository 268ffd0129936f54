#pragma once
// Match outcome counts from player A's point of view: single games (WDL) and game pairs
// (pentanomial). Both are plain value types that add up with `+=`.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace fanorona::stats {

// The largest count parse_wdl and parse_pentanomial accept (2^40, about 1.1e12): sums of all
// counts, doubled for games, stay far below 2^64 and exact in a double (below 2^53).
inline constexpr std::uint64_t kMaxCount = std::uint64_t(1) << 40;

// Wins, draws and losses of player A. Any counts are valid (all zero means "no games yet").
struct WDL {
    std::uint64_t wins = 0;
    std::uint64_t draws = 0;
    std::uint64_t losses = 0;

    std::uint64_t games() const { return wins + draws + losses; }
    double points() const { return double(wins) + 0.5 * double(draws); }
    WDL flipped() const { return {losses, draws, wins}; } // the same games from B's side
    WDL& operator+=(const WDL& o) {
        wins += o.wins;
        draws += o.draws;
        losses += o.losses;
        return *this;
    }
    friend WDL operator+(WDL a, const WDL& b) { return a += b; }
    friend bool operator==(const WDL&, const WDL&) = default;
};

// Game pairs (the same opening played once with each colour) counted by A's score in the pair:
// counts[k] is the number of pairs where A scored k/2 points out of 2, i.e.
// [LL, LD+DL, LW+WL+DD, WD+DW, WW]. Any counts are valid.
struct Pentanomial {
    std::array<std::uint64_t, 5> counts{};

    std::uint64_t pairs() const;
    std::uint64_t games() const { return 2 * pairs(); }
    double points() const; // A's points over all pairs
    Pentanomial flipped() const;
    void add_pair(const WDL& pair); // one pair's two games (pair.games() must be 2)
    Pentanomial& operator+=(const Pentanomial& o) {
        for (std::size_t k = 0; k < counts.size(); ++k) counts[k] += o.counts[k];
        return *this;
    }
    friend Pentanomial operator+(Pentanomial a, const Pentanomial& b) { return a += b; }
    friend bool operator==(const Pentanomial&, const Pentanomial&) = default;
};

// Parse "W,D,L" and "P0,P1,P2,P3,P4" (non-negative integers, commas, optional spaces); throw
// std::invalid_argument saying which field is wrong.
WDL parse_wdl(std::string_view text);
Pentanomial parse_pentanomial(std::string_view text);

std::string to_string(const WDL& wdl);       // "W,D,L"
std::string to_string(const Pentanomial& p); // "P0,P1,P2,P3,P4"

} // namespace fanorona::stats
