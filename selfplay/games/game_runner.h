#pragma once
// Plays one game between two players from an opening, with adjudication and optional
// exploration, and returns its record and the positions worth logging.

#include <string>
#include <vector>

#include "selfplay/engine/player.h"
#include "selfplay/formats/games_file.h"
#include "selfplay/formats/position_log.h"
#include "selfplay/games/adjudication.h"
#include "selfplay/openings/openings.h"

namespace fanorona {

// Random moves early in the game for data diversity: in each of the first `turns` turns after
// the opening, a uniformly random legal move with probability `epsilon` (seeded per game).
struct ExplorationConfig {
    double epsilon = 0.0;
    int turns = 0;
};

// Everything that decides one game besides the players.
struct GameSetup {
    Rules rules;
    Opening opening;
    std::uint64_t index = 0;
    std::uint64_t seed = 0;
    AdjudicationConfig adjudication;
    ExplorationConfig exploration;
    TimeControl time_control; // per colour: [White, Black]
    TimeControl black_time_control;
    std::string white_name;
    std::string black_name;
};

// A finished game, the positions it logged, and when a player forfeited it, why ("" otherwise):
// "<player> forfeits (<reason>): <the fault's detail>", for a warning (the record keeps only the
// short reason); and the rank of an MPI job that played it (0: this process).
struct PlayedGame {
    GameRecord record;
    std::vector<PositionRecord> positions;
    std::string fault;
    int rank = 0;
};

// Plays the game to its end. A PlayerFault from a player ends the game as a loss for that player,
// with the fault's reason.
PlayedGame play_game(const GameSetup& setup, Player& white, Player& black);

} // namespace fanorona
