#pragma once
// A random playout: moves chosen by a seeded chooser, played on a game from its current
// position. The sample positions of the evaluation benchmark and tests, the random openings of
// matches and the tuner's synthetic games all play out through here.

#include <cstddef>

#include "core/board/game.h"

namespace fanorona {

// How far a playout goes. It stops before turn `max_turns` (counted in the game's moves, so a
// game already begun counts its moves), when the side to move has no legal move, and, with
// `stop_when_over`, when the game is over (a repetition or no-capture draw as well).
struct PlayoutLimits {
    int max_turns = 0;
    bool stop_when_over = true;
};

// Plays out `game`: before each move `visit(game)` sees the position, then `choose(game, moves)`
// returns the index (below moves.count) of the legal move to play. Returns the moves played.
// The same choices give the same game: a seeded chooser gives a fixed game.
template <class Choose, class Visit>
int random_playout(Game& game, const PlayoutLimits& limits, Choose&& choose, Visit&& visit) {
    MoveList moves;
    int played = 0;
    while (int(game.moves().size()) < limits.max_turns &&
           !(limits.stop_when_over && game.outcome().over())) {
        generate_moves(game.position(), game.rules(), moves);
        if (moves.empty()) break;
        visit(static_cast<const Game&>(game));
        game.play(moves[int(choose(static_cast<const Game&>(game), moves))]);
        ++played;
    }
    return played;
}

template <class Choose>
int random_playout(Game& game, const PlayoutLimits& limits, Choose&& choose) {
    return random_playout(game, limits, choose, [](const Game&) {});
}

} // namespace fanorona
