#pragma once
// The one game driver: plays a schedule of games between engine specs on oneTBB workers and
// hands every finished game, in game order, to the run folder (games file, positions log) and to
// an observer (statistics, live stream, progress text, stopping rule). Self-play, tournaments,
// the loop and every later command run their games through run_games().

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "selfplay/driver/schedule.h"
#include "selfplay/engine/engine_spec.h"
#include "selfplay/game/game_runner.h"

namespace fanorona {

// Everything about a run of games. The games depend only on the fields settings_json() writes
// (threads, the folder and display options never change a byte of them).
struct RunConfig {
    std::string kind = "selfplay"; // what the run is, as settings.json records it
    Rules rules;
    std::vector<EngineSpec> players;
    Pairing pairing = Pairing::SelfPlay;
    std::uint64_t games = 100; // scheduled games (all shards together)
    OpeningSpec openings = OpeningSpec::parse("random:4");
    std::uint64_t seed = 1;
    AdjudicationConfig adjudication;
    ExplorationConfig exploration;
    bool log_positions = true;
    int shard_index = 0; // play only the games whose index % shard_count == shard_index
    int shard_count = 1;
    nlohmann::json extra_settings = nlohmann::json::object(); // e.g. the SPRT of a tournament

    int threads = 0; // 0: all cores
    std::string out_dir = "run";
    bool resume = false;
    bool quiet = false;

    Schedule schedule() const { return Schedule::make(pairing, int(players.size())); }
    // Throws std::invalid_argument with a one-line message naming the bad setting.
    void validate() const;
};

// settings.json of a run: the format, the kind, and every field that decides the games.
nlohmann::json settings_json(const RunConfig& config);

// Receives the games of a run in game order, from one thread at a time.
class GameObserver {
public:
    virtual ~GameObserver() = default;
    // A game already in the folder when a run resumes (before any new game).
    virtual void replay(const GameRecord& game, const GameSlot& slot) = 0;
    // A game just played and written.
    virtual void add(const PlayedGame& game, const GameSlot& slot) = 0;
    // The progress line's text after the count of games (e.g. "W 10 D 4 B 6").
    virtual std::string progress() const { return {}; }
    // True when no further game should start (e.g. an SPRT decided).
    virtual bool finished() const { return false; }
};

// What a run did.
struct RunOutcome {
    std::uint64_t games = 0;      // games of this shard in the folder at the end
    std::uint64_t played_now = 0; // games played by this invocation
    std::uint64_t scheduled = 0;  // games of this shard in the schedule
    std::uint64_t positions = 0;  // positions in the log at the end
    std::uint64_t new_positions = 0;
    double seconds = 0;
    bool interrupted = false; // stopped by a signal before the schedule (or the observer) ended
};

// Runs (or resumes) the games of `config` into config.out_dir: settings.json, games.tsv and,
// with log_positions, positions.bin. Throws std::runtime_error (or a subclass) with a one-line
// message for bad settings, a mismatched resume, or an unwritable folder.
RunOutcome run_games(const RunConfig& config, GameObserver& observer);

} // namespace fanorona
