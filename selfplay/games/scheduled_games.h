#pragma once
// Plays any game of a run by its index: what the driver's workers run, here and on the other
// ranks of an MPI job, so that a game is one pure function of (settings, seed, index) wherever it
// is played.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <tbb/enumerable_thread_specific.h>

#include "selfplay/games/game_runner.h"
#include "selfplay/games/run_config.h"
#include "selfplay/openings/openings.h"

namespace fanorona {

// Holds a run's settings, schedule and openings (and, for Vela series, the Vela games'
// openings), and each worker thread's own players: one per player and rule set, built from the
// specs on first use (so an external engine is told the rules once) and reset at every game.
class ScheduledGames {
public:
    ScheduledGames(RunConfig config, RunOpenings openings, RunOpenings vela_openings = {});
    // Plays game `index`; thread-safe (every thread has its own players).
    PlayedGame play(std::uint64_t index) { return play_slot(index, schedule_.slot(index)); }
    // Plays game `index` with the colours of `slot` (a Vela game's real colours).
    PlayedGame play_slot(std::uint64_t index, const GameSlot& slot);
    // Plays series `series` of a Vela series run: its normal game (game 2 * series), unless
    // `normal` gives that game's result (a resume that stopped between the two), then its Vela
    // game with the loser as White, or, after a drawn normal game, the skipped place (reason
    // `series-over`). Returns the games it played or skipped, in index order.
    std::vector<PlayedGame> play_series(std::uint64_t series,
                                        std::optional<GameResult> normal = std::nullopt);
    const std::vector<std::string>& descriptions() const { return descriptions_; }
    const RunOpenings& vela_openings() const { return vela_openings_; }
    // Replaces the players (same count) for the games played from now on (a stage of a staged
    // run); every worker builds its players afresh. Not while games are being played.
    void set_players(std::vector<EngineSpec> players);

    const RunConfig& config() const { return config_; }
    // Each player's `id name` as its external engine sent it on this rank ("" for the toolkit's
    // engines, and for an engine that sent none or played no game here). Not while games are
    // being played.
    std::vector<std::string> engine_names() const;
    const RunOpenings& openings() const { return openings_; }

private:
    RunConfig config_;
    Schedule schedule_;
    RunOpenings openings_, vela_openings_;
    std::vector<std::string> descriptions_;
    tbb::enumerable_thread_specific<std::vector<std::unique_ptr<Player>>> players_;
};

} // namespace fanorona
