#pragma once
// The standard normal law and the Elo <-> expected score conversions used throughout stats/.

#include <cmath>
#include <limits>
#include <numbers>

namespace fanorona::stats {

// Two-sided 95% quantile of the standard normal law, Phi^-1(0.975).
inline constexpr double kZ95 = 1.959963984540054;

// Normalized Elo per unit of t-value: nElo = t * 800 / ln 10 (about 347.4), where
// t = (score - 1/2) / (standard deviation of one game's score).
inline constexpr double kNeloPerT = 800.0 / std::numbers::ln10;

// Standard normal cumulative distribution function.
inline double normal_cdf(double z) {
    return 0.5 * std::erfc(-z / std::numbers::sqrt2);
}

// Logistic Elo difference for an expected score in [0, 1]; +-infinity at 1 and 0.
inline double elo_from_score(double score) {
    if (score <= 0) return -std::numeric_limits<double>::infinity();
    if (score >= 1) return std::numeric_limits<double>::infinity();
    return -400.0 * std::log10(1.0 / score - 1.0) + 0.0; // + 0.0: no -0 at score 1/2
}

// Expected score for a logistic Elo difference.
inline double score_from_elo(double elo) {
    return 1.0 / (1.0 + std::pow(10.0, -elo / 400.0));
}

} // namespace fanorona::stats
