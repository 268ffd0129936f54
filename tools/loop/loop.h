#pragma once
// The closed loop: self-play with the current weights, tune on the recent data, verify the new
// weights against the current ones in a match, keep them if they win; repeat; finally measure
// the last weights against the start weights. Every step is resumable.

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/search.h"
#include "stats/sprt.h"
#include "tuner/tune.h"

namespace fanorona {

struct LoopConfig {
    Rules rules;
    int iterations = 3;
    std::uint64_t games = 400; // self-play games per iteration
    SearchLimits limits;       // for self-play and the matches
    std::string start_weights = "default";
    std::string out_dir = "loop";
    std::uint64_t verify_games = 200;      // the largest verification match
    std::uint64_t final_games = 400;       // the final match, last weights against the start
    std::optional<stats::SprtConfig> sprt; // verification by SPRT instead of a fixed match
    double accept_los = 0.95;              // fixed match: accept when LOS reaches this
    int window = 2;                        // tune on the data of this many latest iterations
    std::string selfplay_openings = "random:6";
    std::string match_openings = "balanced";
    double epsilon = 0.1; // self-play exploration
    int explore_turns = 12;
    std::string optimizer = "newton";
    // The tuner's own default: the point tables sum to the material term, so without a pull
    // Newton's steps run off along that direction (weights like -331 that play badly).
    double l2 = TuneConfig{}.l2;
    std::uint64_t seed = 1;
    int threads = 0;
    bool resume = false;
    bool quiet = false;
};

// One iteration's record in history.json.
struct IterationRecord {
    int iteration = 0;
    std::string current_before, candidate, current_after;
    bool accepted = false;
    nlohmann::json selfplay, tune, match;
};

// Runs or resumes the loop; returns history.json's content.
nlohmann::json run_loop(const LoopConfig& config);

} // namespace fanorona
