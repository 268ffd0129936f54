#pragma once
// Opening suites chosen by search rather than by games: every distinct position after P turns
// from the start position, each scored by a short search, kept when the score is balanced.

#include <string>
#include <vector>

#include "core/evaluate.h"
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

// Scores every opening with a search of `depth` plies (in parallel over openings, on up to
// `threads` threads, 0 meaning all cores); the result does not depend on the thread count.
void score_openings(std::vector<ScoredOpening>& openings, const Rules& rules,
                    const Weights& weights, int depth, int threads, std::size_t hash_mb = 2);

// The openings whose score lies in `range` (centi-pieces), most balanced (closest to 0) first,
// then in enumeration order, each with a comment giving its score.
std::vector<BookEntry> balanced_search_book(const std::vector<ScoredOpening>& openings,
                                            ScoreRange range);

} // namespace fanorona
