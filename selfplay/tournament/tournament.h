#pragma once
// A tournament: engines meet in colour-swapped game pairs from shared openings (gauntlet or round
// robin) through the one game driver; results stream out live and end in a ratings table.
// Resumable and extendable; an SPRT can stop it as soon as the test decides.

#include <cstdint>
#include <optional>
#include <string>

#include "selfplay/games/driver.h"
#include "selfplay/tournament/stats/results_table.h"
#include "selfplay/tournament/stats/sprt.h"

namespace fanorona {

// A run of games (pairing Gauntlet or RoundRobin) plus what a tournament adds.
struct TournamentConfig {
    RunConfig run;
    std::optional<stats::SprtConfig> sprt; // two players only
    std::string live_path;                 // default: OUT/live.jsonl
    // Every this many game pairs (all pairings together), the ratings of all players go on the
    // progress line and into that pair's live line; 0: never.
    std::uint64_t rating_interval = 0;
    // How the ratings are fitted: --prior-draws and --anchor (stats::rating_options).
    stats::RatingOptions ratings;

    TournamentConfig();
};

struct TournamentResult {
    stats::PairwiseResults results;
    std::uint64_t games = 0;
    std::uint64_t pairs = 0;
    std::optional<stats::SprtResult> sprt;
    bool interrupted = false;
    stats::ResultsTable table;
    double seconds = 0;
    std::uint64_t played_now = 0;
};

// Runs or resumes the tournament, writing OUT/games.tsv, OUT/live.jsonl, OUT/results.json,
// OUT/results.txt, OUT/settings.json (and OUT/positions.bin with run.log_positions). Throws with
// a one-line message on bad settings.
TournamentResult run_tournament(const TournamentConfig& config);

} // namespace fanorona
