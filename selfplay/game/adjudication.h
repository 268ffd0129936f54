#pragma once
// Adjudication as small, separate rules, each watching a game turn by turn: a maximum length,
// and a win when both sides' scores agree beyond a margin for some turns. The draw rules of
// RULES.md (repetition, no-capture limit) are the Game's own outcome().

#include <optional>

#include "core/game.h"

namespace fanorona {

struct AdjudicationConfig {
    int max_turns = 400; // a game reaching this many turns is a draw (length-cap); 0: none
    int win_margin = 0;  // centi-pieces; 0 turns win adjudication off
    int win_turns = 4;   // consecutive turns of each side that must agree
};

// Ends a game that reaches max_turns turns as a draw.
class LengthCap {
public:
    explicit LengthCap(int max_turns) : max_turns_(max_turns) {}
    std::optional<Outcome> check(const Game& game) const {
        if (max_turns_ > 0 && int(game.moves().size()) >= max_turns_)
            return Outcome{GameResult::Draw, EndReason::LengthCap};
        return std::nullopt;
    }

private:
    int max_turns_;
};

// Declares a winner when, for win_turns consecutive turns of each side, both sides' search
// scores (seen from White) are beyond the margin in the same direction. A turn without a score
// resets the count.
class WinAdjudicator {
public:
    WinAdjudicator(int margin, int turns) : margin_(margin), turns_(turns) {}
    // Feeds the score of the turn just chosen, from the mover's point of view.
    void record(Color mover, std::optional<int> score) {
        if (margin_ <= 0) return;
        if (!score) {
            run_ = 0;
            return;
        }
        const int white_view = mover == Color::White ? *score : -*score;
        const int sign = white_view >= margin_ ? 1 : white_view <= -margin_ ? -1 : 0;
        run_ = (sign != 0 && sign == sign_) ? run_ + 1 : (sign != 0 ? 1 : 0);
        sign_ = sign;
    }
    std::optional<Outcome> check() const {
        if (margin_ <= 0 || run_ < 2 * turns_) return std::nullopt;
        return Outcome{sign_ > 0 ? GameResult::WhiteWins : GameResult::BlackWins,
                       EndReason::Adjudication};
    }

private:
    int margin_;
    int turns_;
    int run_ = 0;
    int sign_ = 0;
};

} // namespace fanorona
