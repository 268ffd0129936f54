#pragma once
// The games and positions the compliance checker (selfplay/engine/compliance.h) sends: random
// games played by the move generator from a seed, and the `position` lines that set them up.

#include <functional>
#include <optional>
#include <string>

#include "core/board/game.h"
#include "core/common/rng.h"

namespace fanorona {

// A game from the variant's start position with at most `max_plies` random legal moves (fewer
// when it ends first).
Game random_game(const Rules& rules, int max_plies, Rng& rng);
// A random game cut at a random ply where it is not over (the side to move has a legal move).
Game random_position(const Rules& rules, Rng& rng);
// The same game as `game`, started from the position after its first `ply` moves (the rest of
// its moves still to play).
Game rebased(const Game& game, std::size_t ply);
// The game's current position alone, as a start with no moves.
inline Game position_only(const Game& game) {
    return Game(game.rules(), game.position());
}
// A random position (random_position) where `wanted` holds, trying at most `tries` games.
std::optional<Game> find_position(const Rules& rules, Rng& rng, int tries,
                                  const std::function<bool(const Game&)>& wanted);

// The `position` line that sets up `game`: `position startpos` when it starts at its variant's
// start, else `position fen <position string>`, then ` moves ...` when it has moves.
std::string position_command(const Game& game);

// True when a legal move of the side to move is a capture chain (two steps or more).
bool chain_to_play(const Position& pos, const Rules& rules);
// True when one of the game's moves is a capture chain.
bool chain_played(const Game& game);
// True when the side to move has a capture (so it may not make a paika move).
bool capture_compulsory(const Position& pos, const Rules& rules);
// True when the rules' legal moves here are not the standard rules' (firstturn, Vela).
bool rules_change_moves(const Position& pos, const Rules& rules);

} // namespace fanorona
