#pragma once
// Results between N named players: for every pairing the W/D/L counts and, for games played in
// colour-swapped pairs, the pentanomial counts. The input of multi-player ratings and tables.

#include <cstddef>
#include <string>
#include <vector>

#include "selfplay/tournament/stats/counts.h"

namespace fanorona::stats {

// Holds one WDL and one Pentanomial per unordered pair of distinct players, stored from the
// lower index's point of view; the accessors flip them for the other side. A pair's two games
// are counted in both wdl() and pentanomial(); wdl() may also hold unpaired games.
class PairwiseResults {
public:
    PairwiseResults() = default;
    explicit PairwiseResults(std::vector<std::string> names);

    std::size_t size() const { return names_.size(); }
    const std::vector<std::string>& names() const { return names_; }

    // Add games of a against b, counted from a's point of view (a != b).
    void add(std::size_t a, std::size_t b, const WDL& from_a);
    // Add game pairs of a against b from a's point of view. Does not touch the WDL counts: add
    // the pairs' games with add(a, b, WDL) too (add_pair() does both for one pair).
    void add(std::size_t a, std::size_t b, const Pentanomial& from_a);
    void add_pair(std::size_t a, std::size_t b, const WDL& pair_from_a);

    WDL wdl(std::size_t a, std::size_t b) const;                 // from a's point of view
    Pentanomial pentanomial(std::size_t a, std::size_t b) const; // from a's point of view
    WDL total(std::size_t a) const;                              // a's games against everyone

    // Adds another result set over the same players (same names, same order).
    PairwiseResults& operator+=(const PairwiseResults& other);

private:
    std::size_t slot(std::size_t a, std::size_t b) const; // index of the unordered pair
    std::vector<std::string> names_;
    std::vector<WDL> wdl_;           // per unordered pair, from the lower index's side
    std::vector<Pentanomial> penta_; // likewise
};

} // namespace fanorona::stats
