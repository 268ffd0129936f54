#pragma once
// A results table for N players from their pairwise results: ratings with 95% intervals (see
// bradley_terry.h), games, score and draws per player, and every pairing's match statistics.
// Rendered as text for people and as JSON for machines.

#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "selfplay/tournament/stats/bradley_terry.h"
#include "selfplay/tournament/stats/elo.h"
#include "selfplay/tournament/stats/pairwise.h"

namespace fanorona::stats {

// One player's line: its rating (the fitted rating on the Elo scale, not a match Elo; a
// difference of two is an Elo); elo and error95 are NaN when the ratings do not exist.
struct PlayerRow {
    std::size_t player = 0;
    std::string name;
    double elo = NAN;
    double error95 = NAN;
    WDL total;          // against everyone
    double score = NAN; // points / games
};

// One pairing with games, from the lower-indexed player's side; statistics from the pentanomial
// counts when the pairing has pairs, else from W/D/L.
struct PairingRow {
    std::size_t a = 0, b = 0;
    WDL wdl;
    Pentanomial penta;
    EloEstimate estimate;
};

// The computed table. rows are sorted by rating (best first; by score if there are no ratings).
// Invariant: either ratings is set, or ratings_error says why not.
struct ResultsTable {
    std::vector<std::string> names;
    RatingOptions options;
    std::optional<Ratings> ratings;
    std::string ratings_error;
    std::vector<PlayerRow> rows;
    std::vector<PairingRow> pairings;
};

// The rating options of --prior-draws N (none: the default) and --anchor NAME[=ELO] ("": mean
// 0; ELO defaults to 0) over the players `names`. Throws std::invalid_argument "--anchor ...:
// why" for a name not among them or a rating that is not a number, "--prior-draws ..." for a
// negative count.
RatingOptions rating_options(const std::vector<std::string>& names,
                             std::optional<double> prior_draws, const std::string& anchor);

// Never throws for missing ratings (a player who won everything, players who never met): the
// table then shows no ratings and the reason.
ResultsTable make_results_table(const PairwiseResults& results, const RatingOptions& options = {});

std::string render_text(const ResultsTable& table);
nlohmann::json render_json(const ResultsTable& table);

} // namespace fanorona::stats
