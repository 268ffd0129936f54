#pragma once
// The generalised sequential probability ratio test (GSPRT) as fishtest runs it: H0 "elo = elo0"
// against H1 "elo = elo1", where elo is normalized Elo (default) or logistic Elo.
//
// The log-likelihood ratio is LLR = N * sum_i phat_i log(p1_i / p0_i), where phat is the
// observed distribution of outcomes (pentanomial pair scores, or W/D/L) and p0, p1 are the
// maximum-likelihood distributions under each hypothesis (see mle.h):
//  - logistic: the expected score per game equals score_from_elo(elo);
//  - normalized: the t-value (mu - 1/2) / sigma equals elo / (800 / ln 10) for single games and
//    sqrt(2) times that for pairs (a pair's mean score has half the per-game variance).
// Empty cells are replaced by 1e-3 so that the estimates exist (fishtest's regularisation).
// The test stops when LLR leaves (log(beta / (1 - alpha)), log((1 - beta) / alpha)).

#include <string>
#include <string_view>

#include "selfplay/tournament/stats/counts.h"

namespace fanorona::stats {

enum class EloModel { Normalized, Logistic };

// The test's hypotheses and error rates. Valid after parse(): elo0 < elo1, 0 < alpha, beta and
// alpha + beta < 1.
struct SprtConfig {
    double elo0 = 0;
    double elo1 = 5;
    double alpha = 0.05;
    double beta = 0.05;
    EloModel model = EloModel::Normalized;

    // "elo0=0,elo1=5[,alpha=0.05][,beta=0.05][,model=normalized|logistic]" (elo0 and elo1 are
    // required); throws std::invalid_argument naming the bad field.
    static SprtConfig parse(std::string_view text);
    void validate() const;      // throws std::invalid_argument
    double lower_bound() const; // log(beta / (1 - alpha)): accept H0 below
    double upper_bound() const; // log((1 - beta) / alpha): accept H1 above
    std::string to_string() const;
};

enum class SprtVerdict { Continue, AcceptH0, AcceptH1 };

std::string_view verdict_name(SprtVerdict v); // "continue", "H0 accepted", "H1 accepted"
std::string_view model_name(EloModel m);      // "normalized", "logistic"

// The state of a test after some results.
struct SprtResult {
    double llr = 0;
    double lower_bound = 0;
    double upper_bound = 0;
    SprtVerdict verdict = SprtVerdict::Continue;
};

// LLR of H1 against H0; 0 when there are no results. Throws std::domain_error if a hypothesis is
// impossible for these outcomes (e.g. a normalized Elo too large for any distribution).
double sprt_llr(const Pentanomial& penta, const SprtConfig& config);
double sprt_llr(const WDL& wdl, const SprtConfig& config);

SprtResult sprt_test(const Pentanomial& penta, const SprtConfig& config);
SprtResult sprt_test(const WDL& wdl, const SprtConfig& config);

} // namespace fanorona::stats
