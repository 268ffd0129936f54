#pragma once
// A self-play run: N games of an engine against itself through the game driver, written to a
// folder (games.tsv, positions.bin, settings.json, summary.json), resumable and shardable.

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "selfplay/games/driver.h"

namespace fanorona {

// What a run did, for the summary and the caller.
struct SelfplaySummary {
    std::uint64_t games = 0;      // games in the folder at the end
    std::uint64_t played_now = 0; // games played by this invocation
    std::uint64_t white_wins = 0, draws = 0, black_wins = 0;
    std::uint64_t positions = 0;
    double seconds = 0;
    bool interrupted = false;
    nlohmann::json to_json(const RunConfig& config) const;
};

// Runs (or resumes) the games and writes the folder. Throws std::runtime_error (or a subclass)
// with a one-line message for bad settings, a mismatched resume, or an unwritable folder.
// `config` plays one engine against itself (pairing SelfPlay, one player), or a match whose
// games are logged the same way.
SelfplaySummary run_selfplay(const RunConfig& config);

// Joins shard folders into `out_dir`, producing exactly the files one unsharded run writes.
SelfplaySummary merge_shards(const std::vector<std::string>& shard_dirs,
                             const std::string& out_dir);

} // namespace fanorona
