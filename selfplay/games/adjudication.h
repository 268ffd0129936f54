#pragma once
// Adjudication as small, separate rules, each watching a game turn by turn: a maximum length,
// a win when both sides' scores agree beyond a margin for some turns, a draw when both sides'
// scores stay near zero for some turns of a long enough game, and the endgame tables. The
// draw rules of docs/rules.md (repetition, no-capture limit) are the Game's own outcome().

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/board/game.h"
#include "core/endgame.h"

namespace fanorona {

struct AdjudicationConfig {
    int max_turns = 400;    // a game reaching this many turns is a draw (length-cap); 0: none
    int win_margin = 0;     // centi-pieces; 0 turns win adjudication off
    int win_turns = 4;      // consecutive turns of each side that must agree
    std::string tables_dir; // adjudicate by these endgame tables ("": off)
    std::shared_ptr<const EndgameProbe> tables; // opened from tables_dir
    int draw_margin = 0; // centi-pieces: scores below it in size agree on a draw; 0: off
    int draw_turns = 4;  // consecutive turns of each side that must agree
    int draw_after = 40; // the game must have at least this many turns (the opening's included)
};

// Sets the draw adjudication from `--draw-adjudicate` text: comma-separated KEY=VALUE of
// after=N (the game's turns; fastchess's and cutechess's movenumber=N counts full moves, 2N
// turns), turns=M (each side's consecutive turns; movecount=) and score=S (centi-pieces; 20 when
// not given); the keys not given keep their values. Throws std::invalid_argument naming the key
// and the value, or a setting given twice (after and movenumber are one).
void parse_draw_adjudication(std::string_view text, AdjudicationConfig& config);

// Opens the tables folder `dir` for adjudication ("": none); throws std::invalid_argument naming
// the folder when it holds no usable tables.
void open_adjudication_tables(AdjudicationConfig& config, const std::string& dir);

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

// Ends a game as soon as its position is in the endgame tables (standard rules, the tables'
// no-capture limit or none): the result is the tables' outcome with the game's no-capture counter
// (a win that the limit turns into a draw is a draw), reason `tables`.
class TableAdjudicator {
public:
    explicit TableAdjudicator(const EndgameProbe* tables) : tables_(tables) {}
    std::optional<Outcome> check(const Game& game) const {
        if (!tables_ || !tables_->serve(game.rules())) return std::nullopt;
        const Position& pos = game.position();
        if (popcount(pos.player() | pos.opponent()) > tables_->max_pieces(pos.variant()))
            return std::nullopt;
        const auto v = tables_->probe(pos);
        if (!v) return std::nullopt;
        const int o = table_outcome(*v, game.rules(), pos.turns_since_capture());
        const bool white = pos.side_to_move() == Color::White;
        const GameResult r = o == 0             ? GameResult::Draw
                             : (o > 0) == white ? GameResult::WhiteWins
                                                : GameResult::BlackWins;
        return Outcome{r, EndReason::Tables};
    }

private:
    const EndgameProbe* tables_;
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
        // In 64 bits: the negation of any int (INT_MIN included) does not overflow.
        const std::int64_t white_view =
            mover == Color::White ? std::int64_t(*score) : -std::int64_t(*score);
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

// Declares a draw (reason `draw-adjudication`) once the game has at least `after` turns and, for
// `turns` consecutive turns of each side, both sides' search scores were below the margin in size
// (|score| < margin). A turn without a score resets the count.
class DrawAdjudicator {
public:
    DrawAdjudicator(int after, int margin, int turns)
        : after_(after), margin_(margin), turns_(turns) {}
    // Feeds the score of the turn just chosen (from either side's point of view: only its size
    // counts).
    void record(std::optional<int> score) {
        if (margin_ <= 0) return;
        run_ = score && *score<margin_&& * score> - margin_ ? run_ + 1 : 0;
    }
    std::optional<Outcome> check(const Game& game) const {
        if (margin_ <= 0 || run_ < 2 * turns_ || int(game.moves().size()) < after_)
            return std::nullopt;
        return Outcome{GameResult::Draw, EndReason::DrawAdjudication};
    }

private:
    int after_;
    int margin_;
    int turns_;
    int run_ = 0;
};

} // namespace fanorona
