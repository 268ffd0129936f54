#pragma once
// Opening suites chosen by search rather than by games: every distinct position after P turns
// from the start position, each scored by a short search, kept when the score is balanced.

#include <string>
#include <vector>

#include "core/evaluate.h"
#include "core/search.h"
#include "selfplay/openings/opening_book.h"

namespace fanorona {

// One position after P turns: the first move order found reaching it (in move generation
// order) and, once scored, the search's score from White's point of view.
struct ScoredOpening {
    std::vector<std::string> moves;
    Position position;
    int score = 0; // centi-pieces, White's point of view
    int depth = 0; // depth of the completed search
};

// Every distinct position (by hash) reached from the start position in exactly `plies` turns
// where the game is not over; each reached first by the returned move order. Deterministic.
std::vector<ScoredOpening> enumerate_openings(const Rules& rules, int plies);

// The defaults of a balanced suite by search, the same in `openings --by-search` and in the
// loop's `--match-openings balanced`: every position after 4 turns (17075 on the 5x9 board),
// scored at depth 2, kept when the score lies within 60 centi-pieces of 0. Depth 2 is a coarse
// filter (at depth 4, 1521 of the 2372 positions depth 2 keeps on 5x9 stay within the range and
// 217 are beyond 150) at a fifth of the time; matches play each opening with both colours.
inline constexpr int kBalancedTurns = 4;
inline constexpr int kBalancedDepth = 2;
inline constexpr ScoreRange kBalancedRange{-60, 60};

// How openings are scored: one search of `depth` plies per position, with a fresh table of
// `hash_mb` megabytes each time, so a score depends on nothing but the position and these.
struct OpeningScoring {
    Rules rules;
    Weights weights;
    int depth = kBalancedDepth;
    std::size_t hash_mb = 2;
    int threads = 0; // oneTBB workers of each process; 0 means all cores
};

// Scores one opening with `searcher` (whose weights must be scoring.weights).
void score_opening(Searcher& searcher, const OpeningScoring& scoring, ScoredOpening& opening);

// Scores every opening (in parallel over openings on oneTBB workers and, under MPI, on the other
// ranks too); the result does not depend on the number of threads or ranks.
void score_openings(std::vector<ScoredOpening>& openings, const OpeningScoring& scoring);

// The openings whose score lies in `range` (centi-pieces), most balanced (closest to 0) first,
// then in enumeration order, each with a comment giving its score.
std::vector<BookEntry> balanced_search_book(const std::vector<ScoredOpening>& openings,
                                            ScoreRange range);

} // namespace fanorona
