#pragma once
// Maximum-likelihood ratings of N players from their pairwise results, on the Elo scale, with
// 95% intervals from the covariance of the estimate.
//
// Models (r_i are ratings, d = (r_i - r_j) ln 10 / 400):
//  - BradleyTerry: a draw counts as half a win; P(i scores) = 1 / (1 + exp(-d)). With two
//    players the rating difference is exactly the logistic Elo of the score.
//  - Davidson: P(win) : P(draw) : P(loss) = exp(d/2) : nu : exp(-d/2), with one draw parameter
//    nu fitted too; then P(win) / P(loss) = 10^((r_i - r_j) / 400). Needs draws and decisive
//    games (otherwise Bradley-Terry is used and reported).
// The log-likelihood is maximised by Newton's method (Eigen, with step halving) with one player
// fixed at 0; ratings are then shifted so that the anchor has its given rating (0 unless told) or
// the mean is 0.
//
// Prior draws: N virtual draws added to every pairing that played pull the ratings together and
// make them exist when a player (or a group) won or lost every game. With none asked for, the
// ratings are the exact maximum-likelihood ones whenever those exist (with two players, the
// rating difference is then the pairing's Elo); only when a player won or lost every game are
// kDefaultPriorDraws used (2, BayesElo's default prior), and the ratings say so.
//
// Intervals (ErrorModel):
//  - Fisher: inverse of the observed information (the model's own variance). Treating draws as
//    half wins overstates the variance when there are draws: intervals too wide.
//  - Trinomial: sandwich estimator A^-1 B A^-1, A the information, B the measured variance of
//    each pairing's score: sum over games of (score - expected score)^2 (independent games).
//  - Pentanomial (default): the same sandwich with the game pair as the unit: B uses
//    sum over pairs of (pair score - 2 * expected score)^2, so the correlation between the two
//    games of a pair (same opening, colours swapped) widens or narrows each pairing's share of
//    the error exactly as the pentanomial variance does for a two-player match. Pairings (or
//    games) without pair counts fall back to the trinomial term.
// Under Davidson the sandwich treats nu as known (its uncertainty barely moves the ratings).

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "selfplay/tournament/stats/pairwise.h"

namespace fanorona::stats {

enum class RatingModel { BradleyTerry, Davidson };
enum class ErrorModel { Fisher, Trinomial, Pentanomial };

std::string_view rating_model_name(RatingModel m); // "bradley-terry", "davidson"
std::string_view error_model_name(ErrorModel m);   // "fisher", "trinomial", "pentanomial"

inline constexpr double kDefaultPriorDraws = 2;

// How to fit. Valid: anchor < number of players, prior_draws >= 0, anchor_elo finite.
struct RatingOptions {
    RatingModel model = RatingModel::BradleyTerry;
    ErrorModel errors = ErrorModel::Pentanomial;
    std::optional<std::size_t> anchor; // this player is rated anchor_elo; otherwise the mean is 0
    double anchor_elo = 0;
    // Virtual draws added to every pairing that played (a prior pulling ratings together): makes
    // the ratings exist when a player won or lost every game. None given: 0, or
    // kDefaultPriorDraws when the ratings would not exist without (see above).
    std::optional<double> prior_draws;
};

// Fitted ratings. elo, error95 and the covariance are in Elo (Elo^2); the anchor (if any) has
// zero variance. covariance is n x n, row-major (no Eigen type in this header, so that users
// need not be compiled with the same vectorisation flags).
struct Ratings {
    RatingModel model = RatingModel::BradleyTerry; // the model actually fitted
    ErrorModel errors = ErrorModel::Pentanomial;
    std::vector<double> elo;
    std::vector<double> error95; // half-width of each rating's 95% interval
    std::vector<double> covariance;
    double draw_nu = 0;     // Davidson's nu (0 for Bradley-Terry)
    double prior_draws = 0; // the prior draws per pairing of the fit (given or default)
    // Why the default prior was used (none given): "ace won every game" ... ("": it was not).
    std::string default_prior_reason;
    double log_likelihood = 0;
    int iterations = 0;

    double cov(std::size_t i, std::size_t j) const { return covariance[i * elo.size() + j]; }
    // Half-width of the 95% interval of elo[i] - elo[j] (uses the covariance).
    double difference_error95(std::size_t i, std::size_t j) const;
};

// Throws std::invalid_argument when the ratings do not exist (a player without games, groups of
// players that never met, or, with prior_draws given as 0, a group that scored every point or
// no point against the rest) naming the players concerned.
Ratings fit_ratings(const PairwiseResults& results, const RatingOptions& options = {});

} // namespace fanorona::stats
