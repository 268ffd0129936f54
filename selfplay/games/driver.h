#pragma once
// The one game driver: plays a schedule of games between engine specs on oneTBB workers and
// hands every finished game, in game order, to the run folder (games file, positions log) and to
// an observer (statistics, live stream, progress text, stopping rule). Self-play, tournaments,
// the loop and every later command run their games through run_games().

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/files.h"
#include "selfplay/engine/engine_log.h"
#include "selfplay/engine/engine_spec.h"
#include "selfplay/formats/formats.h"
#include "selfplay/games/game_runner.h"
#include "selfplay/games/rank_games.h"
#include "selfplay/games/run_config.h"
#include "selfplay/games/run_folder.h"
#include "selfplay/games/schedule.h"

namespace fanorona {

// Receives the games of a run in game order, from one thread at a time.
// In Vela series the slot of a Vela game carries its real colours (the beneficiary White), and a
// skipped Vela game (drawn normal game) comes as a record of kind Skipped: count it as no game.
class GameObserver {
public:
    virtual ~GameObserver() = default;
    // A game already in the folder when a run resumes (before any new game).
    virtual void replay(const GameRecord& game, const GameSlot& slot) = 0;
    // A game just played and written; `folder` takes the live stream's lines.
    virtual void add(const PlayedGame& game, const GameSlot& slot, RunFolder& folder) = 0;
    // The progress line's text after the count of games (e.g. "W 10 D 4 B 6").
    virtual std::string progress() const { return {}; }
    // True when no further game should start (e.g. an SPRT decided).
    virtual bool finished() const { return false; }
    // True when the games scheduled are only a cap (an SPRT stops when it decides).
    virtual bool open_ended() const { return false; }
    // Lines due on stdout after the last game added (e.g. the ratings every N pairs), once.
    virtual std::string take_block() { return {}; }
};

struct RunOutcome;
// What the caller writes once the games are in: the summary files, through folder.finish().
using RunFinisher = std::function<void(const RunOutcome&, RunFolder& folder)>;

// What a run did.
struct RunOutcome {
    std::uint64_t games = 0;      // games of this shard in the folder at the end
    std::uint64_t played_now = 0; // games played by this invocation
    std::uint64_t scheduled = 0;  // games of this shard in the schedule
    std::uint64_t positions = 0;  // positions in the log at the end
    std::uint64_t new_positions = 0;
    double seconds = 0;
    std::vector<std::string> engine_names; // each player's `id name` ("" for none; ScheduledGames)
    bool interrupted = false; // stopped by a signal before the schedule (or the observer) ended
    GamesByRank by_rank;      // this session's games by rank under MPI (empty: one process)
};

// Runs (or resumes) the games of `config` into config.out_dir (a RunFolder: locked, checked and
// repaired on resume): settings.json, games.tsv, with log_positions positions.bin, with corpus
// corpus.fcorpus, with a live_path the live stream; then `finish` writes the summary files. Throws
// std::runtime_error (or a subclass) with a one-line message for bad settings, a mismatched resume,
// a folder in use or a failed write.
RunOutcome run_games(const RunConfig& config, GameObserver& observer,
                     const RunFinisher& finish = {});

} // namespace fanorona
