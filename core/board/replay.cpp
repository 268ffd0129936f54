#include "core/board/replay.h"

namespace fanorona {

ReplayError::ReplayError(int number_, std::string_view move_, std::string_view why_)
    : MoveError("move " + std::to_string(number_) + " '" + std::string(move_) +
                "': " + std::string(why_)),
      number(number_), move(move_), why(why_) {}

Move play_listed_move(Game& game, std::string_view text, int number) {
    try {
        return game.play(text);
    } catch (const MoveError& e) {
        throw ReplayError(number, text, e.what());
    }
}

void play_moves(Game& game, std::span<const std::string> moves) {
    for (std::size_t i = 0; i < moves.size(); ++i) play_listed_move(game, moves[i], int(i) + 1);
}

Game replay(const Rules& rules, std::string_view start, std::span<const std::string> moves) {
    Game game(rules, Position::from_string(start, rules.variant));
    play_moves(game, moves);
    return game;
}

} // namespace fanorona
