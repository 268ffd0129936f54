#include "selfplay/tournament/stats/stats_json.h"

#include <cmath>
#include <string>

namespace fanorona::stats {

nlohmann::json json_number(double x) {
    return std::isfinite(x) ? nlohmann::json(x) : nullptr;
}

nlohmann::json to_json(const WDL& wdl) {
    return {{"wins", wdl.wins}, {"draws", wdl.draws}, {"losses", wdl.losses}};
}

nlohmann::json to_json(const Pentanomial& penta) {
    return penta.counts;
}

nlohmann::json to_json(const EloEstimate& e) {
    return {{"source", e.pentanomial ? "pentanomial" : "wdl"},
            {"games", e.games},
            {"pairs", e.pairs},
            {"score", json_number(e.score)},
            {"score_stderr", json_number(e.score_stderr)},
            {"elo", json_number(e.elo)},
            {"elo_error95", json_number(e.elo_error95)},
            {"elo_lower", json_number(e.elo_lower)},
            {"elo_upper", json_number(e.elo_upper)},
            {"nelo", json_number(e.nelo)},
            {"nelo_error95", json_number(e.nelo_error95)},
            {"los", json_number(e.los)},
            {"draw_ratio", json_number(e.draw_ratio)}};
}

nlohmann::json to_json(const SprtConfig& config, const SprtResult& result) {
    return {{"elo0", config.elo0},
            {"elo1", config.elo1},
            {"alpha", config.alpha},
            {"beta", config.beta},
            {"model", std::string(model_name(config.model))},
            {"llr", json_number(result.llr)},
            {"lower_bound", result.lower_bound},
            {"upper_bound", result.upper_bound},
            {"verdict", std::string(verdict_name(result.verdict))}};
}

} // namespace fanorona::stats
