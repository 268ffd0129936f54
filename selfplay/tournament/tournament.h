#pragma once
// A tournament: players meet in colour-swapped game pairs from shared openings (gauntlet or round
// robin), on oneTBB workers; results stream out live and end in a ratings table. Resumable and
// extendable; an SPRT can stop it as soon as the test decides.

#include <optional>
#include <string>
#include <vector>

#include "selfplay/tournament/player_spec.h"
#include "stats/results_table.h"
#include "stats/sprt.h"

namespace fanorona {

struct TournamentConfig {
    Rules rules;
    std::vector<PlayerSpec> players;
    enum class Format { Gauntlet, RoundRobin } format = Format::Gauntlet;
    std::uint64_t rounds = 10; // game pairs per pairing
    OpeningSpec openings = OpeningSpec::parse("random:4");
    std::uint64_t seed = 1;
    std::optional<stats::SprtConfig> sprt; // two players only
    AdjudicationConfig adjudication;

    int concurrency = 0; // 0: all cores
    std::string out_dir = "tournament";
    std::string live_path; // default: OUT/live.jsonl
    bool resume = false;
    bool quiet = false;
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

// The pairings in schedule order: gauntlet (first player against each other), round robin (all).
std::vector<std::pair<int, int>> tournament_pairings(const TournamentConfig& config);

// Runs or resumes the tournament, writing OUT/games.tsv, OUT/live.jsonl, OUT/results.json,
// OUT/results.txt and OUT/settings.json. Throws with a one-line message on bad settings.
TournamentResult run_tournament(const TournamentConfig& config);

} // namespace fanorona
