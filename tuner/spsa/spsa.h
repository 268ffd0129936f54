#pragma once
// `fanorona spsa`: tunes search parameters and evaluation weights by SPSA (tuner/spsa/params.h)
// from games between theta+ and theta-, played through the one game driver as a staged run
// (RunConfig::stage_players: every iteration's two engines are built once the previous
// iteration's games are in), so the history is a pure function of (settings, seed) on any number
// of threads or MPI ranks. Writes OUT/settings.json, games.tsv (the run folder, locked and
// resumable), spsa.csv (one row per iteration), params.txt (the tuned values as a parameters
// file) and spsa.json (the summary, with the verification match when asked); see docs/formats.md.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "selfplay/games/driver.h"
#include "selfplay/tournament/stats/elo.h"
#include "tuner/spsa/params.h"

namespace fanorona {

// Every setting of an SPSA run. `run` gives the rules, openings, seed, adjudication, threads,
// folder, resume and quiet (its players, pairing and stages are set by run_spsa); `base` is the
// engine whose values are tuned and whose limits every game uses.
struct SpsaConfig {
    RunConfig run;
    EngineSpec base;
    std::vector<SpsaParam> params;
    std::uint64_t pairs = 1000;        // game pairs in all (a whole number of iterations)
    std::uint64_t iteration_pairs = 4; // game pairs per iteration (one perturbation, one update)
    double alpha = 0.602;
    double gamma = 0.101;
    double a_ratio = 0.1; // A = a_ratio * schedule pairs
    // The pairs the gains are planned for (0: `pairs`). A resumed run keeps its first run's
    // (settings.json's spsa.pairs), so --resume with more --games goes on past the planned end
    // with the same gains instead of changing those of the games already played.
    std::uint64_t schedule_pairs = 0;
    std::uint64_t verify_games = 0; // afterwards: tuned against start, this many games (0: none)

    SpsaConfig();
    SpsaShape shape() const;
    // Throws std::invalid_argument naming the bad setting.
    void validate() const;
};

// What a run did.
struct SpsaResult {
    std::vector<double> theta;    // the final values, unrounded
    std::vector<int> values;      // ... as played (rounded, clipped)
    std::uint64_t iterations = 0; // done
    std::uint64_t games = 0;      // in the folder
    std::uint64_t played_now = 0;
    double seconds = 0; // this invocation's games
    bool interrupted = false;
    std::optional<stats::EloEstimate> verification; // tuned against start
    nlohmann::json summary;                         // spsa.json
};

// Runs or resumes the run; throws with a one-line message on bad settings or a failed write.
SpsaResult run_spsa(const SpsaConfig& config);

// The tuned engine: `base` with each parameter set to its value.
EngineSpec spsa_engine(const EngineSpec& base, const std::vector<SpsaParam>& params,
                       const std::vector<int>& values, const std::string& name);

} // namespace fanorona
