#pragma once
// Plays any game of a run by its index: what the driver's workers run, here and on the other
// ranks of an MPI job, so that a game is one pure function of (settings, seed, index) wherever it
// is played.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <tbb/enumerable_thread_specific.h>

#include "selfplay/driver/driver.h"

namespace fanorona {

// Holds a run's settings, schedule and openings, and each worker thread's own players (built from
// the specs on first use; a player is reset at the start of every game).
class ScheduledGames {
public:
    ScheduledGames(RunConfig config, std::vector<Opening> openings);
    // Plays game `index`; thread-safe (every thread has its own players).
    PlayedGame play(std::uint64_t index);

    const RunConfig& config() const { return config_; }
    const std::vector<Opening>& openings() const { return openings_; }

private:
    RunConfig config_;
    Schedule schedule_;
    std::vector<Opening> openings_;
    std::vector<std::string> descriptions_;
    tbb::enumerable_thread_specific<std::vector<std::unique_ptr<Player>>> players_;
};

} // namespace fanorona
