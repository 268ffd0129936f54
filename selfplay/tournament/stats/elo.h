#pragma once
// Elo, normalized Elo (nElo), likelihood of superiority and score from W/D/L or pentanomial
// counts, with 95% intervals, computed as fishtest and fastchess do.

#include <cmath>

#include "selfplay/tournament/stats/counts.h"

namespace fanorona::stats {

// Everything reported about one match from A's point of view. Elo values are logistic Elo;
// intervals are 95%. Values that do not exist are NaN (no games; nElo when every game has the
// same score) or +-infinity (Elo of a 0% or 100% score).
struct EloEstimate {
    bool pentanomial = false;   // computed from game pairs (pentanomial variance)
    std::uint64_t games = 0;    // games (2 per pair for pentanomial counts)
    std::uint64_t pairs = 0;    // game pairs (0 for W/D/L counts)
    double score = NAN;         // mean points per game, in [0, 1]
    double score_stderr = NAN;  // standard error of `score`
    double game_variance = NAN; // variance of one game's score (per-game equivalent for pairs)
    double elo = NAN;
    double elo_lower = NAN;    // elo_from_score(score - z*stderr)
    double elo_upper = NAN;    // elo_from_score(score + z*stderr)
    double elo_error95 = NAN;  // (elo_upper - elo_lower) / 2, as fishtest prints it
    double nelo = NAN;         // (score - 1/2) / sqrt(game_variance) * 800 / ln 10
    double nelo_error95 = NAN; // z * 800 / ln 10 / sqrt(games)
    double los = NAN;          // Phi((score - 1/2) / stderr): probability that A is stronger
    // Drawn games / games for W/D/L counts; drawn pairs (A scored 1 of 2) / pairs for
    // pentanomial counts, which cannot tell a drawn pair DD from a split pair WL.
    double draw_ratio = NAN;
};

// From single games: the variance is that of the trinomial (W/D/L) distribution.
EloEstimate estimate_elo(const WDL& wdl);

// From game pairs: the variance is that of the pair score (pentanomial distribution), which
// accounts for the correlation between the two games of a pair.
EloEstimate estimate_elo(const Pentanomial& penta);

} // namespace fanorona::stats
