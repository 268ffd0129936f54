#pragma once
// A self-play run: N games of the engine against itself on oneTBB workers, written to a folder
// (games.tsv, positions.bin, settings.json, summary.json), resumable and shardable.

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "core/search.h"
#include "selfplay/game/game_runner.h"

namespace fanorona {

// Every setting of a self-play run. The games depend only on the fields written by
// settings_json() (threads, output and display options do not change a single byte).
struct SelfplayConfig {
    Rules rules;
    std::uint64_t games = 100;
    SearchLimits limits;
    Weights weights;
    std::string weights_name = "default";
    // Self-play searches are short: 2 MB holds their trees, and two workers' tables stay in the
    // shared cache (8 MB each cost 10% of the 2-thread speed at depth 4).
    std::size_t hash_mb = 2;
    OpeningSpec openings = OpeningSpec::parse("random:4");
    std::uint64_t seed = 1;
    AdjudicationConfig adjudication;
    ExplorationConfig exploration;
    bool log_positions = true;
    int shard_index = 0; // play only the games whose index % shard_count == shard_index
    int shard_count = 1;

    int threads = 0; // 0: all cores
    std::string out_dir = "selfplay";
    bool resume = false;
    bool quiet = false;
};

inline constexpr const char* kSelfplaySummaryFormat = "fanorona-selfplay-summary 1";

nlohmann::json settings_json(const SelfplayConfig& config);
std::string player_description(const SelfplayConfig& config); // "fanorona(depth=4,weights=...)"

// What a run did, for the summary and the caller.
struct SelfplaySummary {
    std::uint64_t games = 0;      // games in the folder at the end
    std::uint64_t played_now = 0; // games played by this invocation
    std::uint64_t white_wins = 0, draws = 0, black_wins = 0;
    std::uint64_t positions = 0;
    double seconds = 0;
    bool interrupted = false;
    nlohmann::json to_json(const SelfplayConfig& config) const;
};

// Runs (or resumes) the games and writes the folder. Throws std::runtime_error (or a subclass)
// with a one-line message for bad settings, a mismatched resume, or an unwritable folder.
SelfplaySummary run_selfplay(const SelfplayConfig& config);

// Joins shard folders into `out_dir`, producing exactly the files one unsharded run writes.
SelfplaySummary merge_shards(const std::vector<std::string>& shard_dirs,
                             const std::string& out_dir);

} // namespace fanorona
