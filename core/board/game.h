#pragma once
// A game in progress: the rules, the start position, the moves played, and how it ended.

#include <string>
#include <string_view>
#include <vector>

#include "core/board/movegen.h"

namespace fanorona {

enum class GameResult : std::uint8_t { Ongoing, WhiteWins, BlackWins, Draw };
enum class EndReason : std::uint8_t {
    None,
    CaptureAll,       // the loser has no pieces left
    NoMoves,          // the loser has pieces but no legal move
    Repetition,       // the same position, same side to move, for the repetition_count-th time
    NoCaptureLimit,   // no_capture_limit consecutive turns without capture
    LengthCap,        // a driver's maximum game length
    Adjudication,     // a driver decided the result from the engines' scores
    Tables,           // a driver decided the result from endgame tables
    ThreeInRow,       // Fanoron-telo: the winner has three in a row on a line
    DrawAdjudication, // a driver declared a draw from the engines' scores
};

struct Outcome {
    GameResult result = GameResult::Ongoing;
    EndReason reason = EndReason::None;
    bool over() const { return result != GameResult::Ongoing; }
    friend bool operator==(const Outcome&, const Outcome&) = default;
};

std::string_view result_name(GameResult r);    // "1-0", "0-1", "1/2-1/2", "*"
std::string_view end_reason_name(EndReason r); // "capture-all", "no-moves", ...

// The history of one game. hashes()[i] is the hash before move i; the last entry is the
// current position. The outcome is derived from the position and history on demand.
class Game {
public:
    explicit Game(const Rules& rules = {}, const Position& start = Position::start(Variant::Tsivy));

    const Rules& rules() const { return rules_; }
    const Position& start() const { return start_; }
    const Position& position() const { return pos_; }
    const std::vector<Move>& moves() const { return moves_; }
    const std::vector<Key>& hashes() const { return hashes_; }

    void play(const Move& m); // m must be legal
    // Parses, checks and plays; throws MoveError, also when the game is over (outcome()).
    Move play(std::string_view move_text);
    void undo();

    // How many times the current position has occurred (1 the first time).
    int occurrences() const;
    Outcome outcome() const;
    // The move list in notation, separated by spaces.
    std::string moves_string() const;

private:
    Rules rules_;
    Position start_;
    Position pos_;
    std::vector<Move> moves_;
    std::vector<UndoInfo> undos_;
    std::vector<Key> hashes_;
};

} // namespace fanorona
