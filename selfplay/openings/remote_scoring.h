#pragma once
// The seam (core/common/seam.h) through which `openings --by-search` has other machines score
// openings: the program installs a scorer at start-up (cluster::install, from main()); without one
// every opening is scored here. Nothing in selfplay/openings knows MPI.

#include <cstddef>
#include <functional>
#include <utility>
#include <vector>

#include "core/common/seam.h"
#include "selfplay/openings/search_book.h"

namespace fanorona {

// Hands out the next n openings to score as positions [first, last) (an empty range when none
// are left); safe to call from several threads.
using OpeningClaim = std::function<std::pair<std::size_t, std::size_t>(std::size_t)>;

// Scores claimed openings elsewhere; both functions are set or both empty.
struct RemoteScorer {
    std::function<bool()> available; // true when there are other machines to score on
    // Has them score what `claim` hands out and writes their scores into `openings`; returns when
    // every machine is done.
    std::function<void(std::vector<ScoredOpening>&, const OpeningScoring&, const OpeningClaim&)>
        score;
};

// The installed scorer (Seam<RemoteScorer>::install); empty until then.
inline const RemoteScorer& remote_scorer() {
    return Seam<RemoteScorer>::get();
}

} // namespace fanorona
