#pragma once
// Replaying a move list: move strings played in order on a game, a bad one reported as
// "move N 'X': why". Every reader of move lists (games files, opening suites and trees, the
// engine protocol's `position`, `analyze --moves`, the report's boards) replays through here.

#include <span>
#include <string>
#include <string_view>

#include "core/board/game.h"
#include "core/board/notation.h"

namespace fanorona {

// A move of a move list that is malformed or not legal where it stands. what() is
// "move N 'X': why": N counts the list's moves from 1, X is the move string as given, why is
// the MoveError's text. A MoveError, so callers that catch those catch this too.
struct ReplayError : MoveError {
    ReplayError(int number, std::string_view move, std::string_view why);
    int number;       // from 1
    std::string move; // as given
    std::string why;  // the move parser's reason
};

// Plays `text`, the `number`-th move of a list (from 1), on `game`; returns the move played.
// Throws ReplayError (the game unchanged) when it is malformed or not legal there.
Move play_listed_move(Game& game, std::string_view text, int number);

// Plays `moves` in order on `game`. Throws ReplayError for the first bad one; the moves before
// it stay played (a caller may show the game up to there).
void play_moves(Game& game, std::span<const std::string> moves);

// The game from the position string `start` (of `rules.variant`) after `moves`. A bad start
// throws the position parser's std::invalid_argument (callers name the field), a bad move a
// ReplayError.
Game replay(const Rules& rules, std::string_view start, std::span<const std::string> moves);

} // namespace fanorona
