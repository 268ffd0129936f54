#include "core/board/game.h"

#include <algorithm>

#include "core/board/notation.h"

namespace fanorona {

std::string_view result_name(GameResult r) {
    switch (r) {
    case GameResult::WhiteWins:
        return "1-0";
    case GameResult::BlackWins:
        return "0-1";
    case GameResult::Draw:
        return "1/2-1/2";
    case GameResult::Ongoing:
        break;
    }
    return "*";
}

std::string_view end_reason_name(EndReason r) {
    switch (r) {
    case EndReason::CaptureAll:
        return "capture-all";
    case EndReason::NoMoves:
        return "no-moves";
    case EndReason::Repetition:
        return "repetition";
    case EndReason::NoCaptureLimit:
        return "no-capture-limit";
    case EndReason::LengthCap:
        return "length-cap";
    case EndReason::Adjudication:
        return "adjudication";
    case EndReason::Tables:
        return "tables";
    case EndReason::ThreeInRow:
        return "three-in-a-row";
    case EndReason::DrawAdjudication:
        return "draw-adjudication";
    case EndReason::None:
        break;
    }
    return "none";
}

Game::Game(const Rules& rules, const Position& start)
    : rules_(rules), start_(start), pos_(start), hashes_{start.hash()} {}

void Game::play(const Move& m) {
    undos_.push_back(pos_.make_move(m));
    moves_.push_back(m);
    hashes_.push_back(pos_.hash());
}

Move Game::play(std::string_view move_text) {
    if (const Outcome o = outcome(); o.over())
        throw MoveError("the game is over (" + std::string(end_reason_name(o.reason)) + ", " +
                        std::string(result_name(o.result)) + "): no move may follow");
    const Move m = parse_move(pos_, rules_, move_text);
    play(m);
    return m;
}

void Game::undo() {
    if (moves_.empty()) return;
    pos_.unmake_move(moves_.back(), undos_.back());
    moves_.pop_back();
    undos_.pop_back();
    hashes_.pop_back();
}

int Game::occurrences() const {
    // Captures are irreversible, so only positions since the last capture can repeat.
    const int n = int(hashes_.size());
    const int reach = std::min(n - 1, pos_.turns_since_capture());
    int count = 0;
    for (int i = n - 1; i >= n - 1 - reach; --i)
        if (hashes_[i] == pos_.hash()) ++count;
    return count;
}

Outcome Game::outcome() const {
    const GameResult loss =
        pos_.side_to_move() == Color::White ? GameResult::BlackWins : GameResult::WhiteWins;
    if (wiped_out(pos_)) return {loss, EndReason::CaptureAll};
    if (telo_won(pos_)) return {loss, EndReason::ThreeInRow};
    if (count_moves(pos_, rules_) == 0) return {loss, EndReason::NoMoves};
    if (rules_.repetition_count > 0 && occurrences() >= rules_.repetition_count)
        return {GameResult::Draw, EndReason::Repetition};
    if (rules_.no_capture_limit > 0 && pos_.turns_since_capture() >= rules_.no_capture_limit)
        return {GameResult::Draw, EndReason::NoCaptureLimit};
    return {};
}

std::string Game::moves_string() const {
    std::string out;
    Position p = start_;
    for (const Move& m : moves_) {
        if (!out.empty()) out += ' ';
        out += move_to_string(p, rules_, m);
        p.make_move(m);
    }
    return out;
}

} // namespace fanorona
