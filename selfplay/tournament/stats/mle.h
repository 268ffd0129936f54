#pragma once
// Constrained maximum-likelihood estimates of a discrete distribution (the multinomial behind
// W/D/L or pentanomial counts), as used by the generalised SPRT.
//
// Given observed frequencies phat_i of outcomes a_i, we look for the distribution p that
// maximises the log-likelihood sum_i phat_i log p_i subject to sum_i p_i = 1 and one more
// constraint C(p) = 0. Lagrange's conditions give p_i = phat_i / (1 + x g_i) where g_i is the
// gradient of C (shifted by a constant so that sum_i p_i g_i = C(p) = 0 at the solution) and the
// multiplier x solves the "secular equation" sum_i phat_i g_i / (1 + x g_i) = 0 (then the p_i
// sum to 1 automatically). See M. Van den Bergh's notes for fishtest ("support_MLE_multinomial",
// "normalized_elo_practical").

#include <vector>

namespace fanorona::stats {

// A discrete distribution: outcome values (ascending) and their probabilities (summing to 1).
struct Distribution {
    std::vector<double> values;
    std::vector<double> probs;

    double mean() const;
    double variance() const;
};

// Solves sum_i p_i a_i / (1 + x a_i) = 0 for x in (-1/max a, -1/min a), where the left side
// decreases strictly from +inf to -inf, by Newton's method safeguarded by bisection. Needs
// min a < 0 < max a and p_i > 0; throws std::domain_error otherwise.
double solve_secular(const std::vector<double>& a, const std::vector<double>& p);

// The maximum-likelihood distribution on observed.values with expectation `mean`
// (C(p) = sum p_i a_i - mean, g_i = a_i - mean: one secular equation).
Distribution mle_with_mean(const Distribution& observed, double mean);

// The maximum-likelihood distribution on observed.values with t-value (mu - ref) / sigma = t.
// C(p) = mu - ref - t sigma has gradient g_i = a_i - ref - t (sigma^2 + (a_i - mu)^2) / (2 sigma)
// (up to a constant), which depends on p itself, so we iterate: freeze mu and sigma at the
// current estimate (starting from the uniform distribution), solve the secular equation, and
// repeat until the probabilities stop moving (fixed point = constrained maximum).
Distribution mle_with_t_value(const Distribution& observed, double ref, double t);

} // namespace fanorona::stats
