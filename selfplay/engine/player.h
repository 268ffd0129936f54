#pragma once
// A player of one side of a game: the toolkit's engine, a baseline mover, or an external program.

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

#include "core/board/game.h"
#include "core/timeman.h"

namespace fanorona {

// A player's decision for one turn. `score` is for the side to move, in centi-pieces, when the
// player searched; `logged` says whether the position is worth logging for the tuner. What the
// player told of its search, for the games file's per-move columns: `depth`, `time_us` (the
// search's own time, or for an external engine the referee's `go` to `bestmove`) and `nodes`,
// each -1 when not told; for an external engine that gave `info time`, `latency_us` is the
// referee's time less the engine's own (at least 0), else -1.
struct MoveChoice {
    Move move{0, 0, 0};
    std::optional<int> score;
    int depth = -1;
    bool logged = false;
    std::int64_t time_us = -1; // microseconds
    std::int64_t nodes = -1;
    std::int64_t latency_us = -1; // microseconds
};

// Thrown by a player that cannot go on (an external engine that crashed, hung or sent an illegal
// move); `reason` is one of the forfeit reasons in docs/formats.md.
struct PlayerFault : std::runtime_error {
    PlayerFault(std::string reason_, const std::string& detail)
        : std::runtime_error(detail), reason(std::move(reason_)) {}
    std::string reason;
};

// A clock for each side: `base_ms` at the start, `inc_ms` added after each turn and, with
// moves-in-time (`moves` > 0), `base_ms` added again after every `moves` turns of that side. A
// player whose time runs out by more than `margin_ms` loses ("timeout").
struct TimeControl {
    int base_ms = 0; // 0: no clock
    int inc_ms = 0;
    int margin_ms = TimeMargins::kClockGraceMs;
    int moves = 0; // turns per period; 0: the whole game is one period
};

// The clocks of a game with a time control: milliseconds left, the increment per turn and the
// turns left to the next time control (0: no moves-in-time control), by colour. Without a time
// control `enabled` is false and players use their own limits.
struct Clock {
    bool enabled = false;
    int time_ms[2] = {0, 0};
    int inc_ms[2] = {0, 0};
    int moves_to_go[2] = {0, 0};
};

class Player {
public:
    virtual ~Player() = default;
    // Called before each game (`game`: its index in the run, which the engine log shows);
    // players that keep state between moves reset it here.
    virtual void new_game(std::uint64_t game) { (void)game; }
    // The move to play in game.position(); the game is not over.
    virtual MoveChoice choose(const Game& game, const Clock& clock) = 0;
};

} // namespace fanorona
