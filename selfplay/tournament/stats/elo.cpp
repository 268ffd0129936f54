#include "selfplay/tournament/stats/elo.h"

#include <cmath>

#include "selfplay/tournament/stats/normal.h"

namespace fanorona::stats {

namespace {

// Fills the estimate from the mean and variance of the per-game score. `stderr_` is the
// standard error of the mean score, `games` the number of games behind it.
void fill(EloEstimate& e, double score, double game_variance, double stderr_) {
    e.score = score;
    e.game_variance = game_variance;
    e.score_stderr = stderr_;
    e.elo = elo_from_score(score);
    e.elo_lower = elo_from_score(score - kZ95 * stderr_);
    e.elo_upper = elo_from_score(score + kZ95 * stderr_);
    e.elo_error95 = (e.elo_upper - e.elo_lower) / 2.0;
    if (game_variance > 0) {
        e.nelo = (score - 0.5) / std::sqrt(game_variance) * kNeloPerT;
        e.nelo_error95 = kZ95 * kNeloPerT / std::sqrt(double(e.games));
    }
    if (stderr_ > 0)
        e.los = normal_cdf((score - 0.5) / stderr_);
    else
        e.los = score > 0.5 ? 1.0 : score < 0.5 ? 0.0 : 0.5;
}

} // namespace

EloEstimate estimate_elo(const WDL& wdl) {
    EloEstimate e;
    e.games = wdl.games();
    if (e.games == 0) return e;
    const double n = double(e.games);
    const double w = double(wdl.wins) / n, d = double(wdl.draws) / n, l = double(wdl.losses) / n;
    const double mu = w + 0.5 * d;
    const double var = w * (1 - mu) * (1 - mu) + d * (0.5 - mu) * (0.5 - mu) + l * mu * mu;
    e.draw_ratio = d;
    fill(e, mu, var, std::sqrt(var / n));
    return e;
}

EloEstimate estimate_elo(const Pentanomial& penta) {
    EloEstimate e;
    e.pentanomial = true;
    e.pairs = penta.pairs();
    e.games = 2 * e.pairs;
    if (e.pairs == 0) return e;
    const double n = double(e.pairs);
    // The pair's mean score per game is k/4 for the k-th count.
    double mu = 0;
    for (std::size_t k = 0; k < 5; ++k) mu += double(penta.counts[k]) / n * (double(k) / 4.0);
    double pair_var = 0;
    for (std::size_t k = 0; k < 5; ++k) {
        const double dev = double(k) / 4.0 - mu;
        pair_var += double(penta.counts[k]) / n * dev * dev;
    }
    e.draw_ratio = double(penta.counts[2]) / n;
    // A pair's mean of two independent games would have variance game_variance / 2, so the
    // per-game equivalent variance is twice the pair variance.
    fill(e, mu, 2.0 * pair_var, std::sqrt(pair_var / n));
    return e;
}

} // namespace fanorona::stats
