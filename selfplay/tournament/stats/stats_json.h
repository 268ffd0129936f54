#pragma once
// JSON forms of the statistics (nlohmann-json). Values that do not exist (NaN, infinite Elo)
// are written as null.

#include <nlohmann/json.hpp>

#include "selfplay/tournament/stats/bradley_terry.h"
#include "selfplay/tournament/stats/counts.h"
#include "selfplay/tournament/stats/elo.h"
#include "selfplay/tournament/stats/sprt.h"

namespace fanorona::stats {

// A number as JSON, or null when it is not finite (JSON has no NaN or infinity).
nlohmann::json json_number(double x);
nlohmann::json to_json(const WDL& wdl);           // {"wins", "draws", "losses"}
nlohmann::json to_json(const Pentanomial& penta); // [P0, P1, P2, P3, P4]
nlohmann::json to_json(const EloEstimate& e);     // every field of EloEstimate
// The settings and the state: {"elo0", "elo1", "alpha", "beta", "model", "llr", "lower_bound",
// "upper_bound", "verdict"}.
nlohmann::json to_json(const SprtConfig& config, const SprtResult& result);

} // namespace fanorona::stats
