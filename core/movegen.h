#pragma once
// Legal move generation for whole turns: compulsory capture, approach and withdrawal, chains with
// the no-revisit and no-same-direction rules, paika moves, and the firstturn and Vela settings.

#include <array>
#include <cassert>

#include "core/position.h"

namespace fanorona {

// Positions from games stay far below this (random games: at most 170 moves on 5x9), but a
// constructed position can have thousands of moves (chains branch a lot): MoveList::push then
// throws rather than drop moves. count_moves and find_path have no limit.
inline constexpr int kMaxMoves = 512;

// Throws std::length_error saying that a position has more than kMaxMoves legal moves.
[[noreturn]] void throw_move_list_full();

// A fixed-capacity list of moves; generation never allocates.
struct MoveList {
    std::array<Move, kMaxMoves> moves;
    int count = 0;

    void push(const Move& m) {
        if (count == kMaxMoves) [[unlikely]]
            throw_move_list_full();
        moves[count++] = m;
    }
    int size() const { return count; }
    bool empty() const { return count == 0; }
    const Move& operator[](int i) const { return moves[i]; }
    Move& operator[](int i) { return moves[i]; }
    Move* begin() { return moves.data(); }
    Move* end() { return moves.data() + count; }
    const Move* begin() const { return moves.data(); }
    const Move* end() const { return moves.data() + count; }
    bool contains(const Move& m) const {
        for (const Move& x : *this)
            if (x == m) return true;
        return false;
    }
};

// What the rules allow the side to move this turn.
struct TurnRights {
    bool may_capture = true;     // false for the Vela victim: paika moves only
    bool single_capture = false; // Vela beneficiary: only the first piece of a line
    bool may_chain = true;       // false on a first turn under `firstturn`, and in Vela
};

// What the rules allow `mover` in this position were it to move: the Vela restrictions (White the
// beneficiary, Black the victim, while Black has more than Rules::kVelaVictimFloor pieces) and
// firstturn's (judged by the position's turn number). The one place these rights are computed:
// move generation asks for the side to move, the evaluation's threat terms for the opponent.
TurnRights turn_rights(const Position& pos, const Rules& rules, Color mover);
// The rights of the side to move this turn.
inline TurnRights turn_rights(const Position& pos, const Rules& rules) {
    return turn_rights(pos, rules, pos.side_to_move());
}

// Pieces of the side to move that can make a capture (ignoring turn rights).
Bitboard capturing_pieces(const Position& pos);

// Fills `list` with every legal move, each (from, to, captured) once; throws std::length_error
// when there are more than kMaxMoves.
void generate_moves(const Position& pos, const Rules& rules, MoveList& list);

// The number of legal moves, faster than generating them; exact for any position.
int count_moves(const Position& pos, const Rules& rules);

// One step of a capturing turn, as written in notation.
enum class CaptureKind : std::uint8_t { None, Approach, Withdrawal };
struct Step {
    Square to = kNoSquare;
    CaptureKind kind = CaptureKind::None;
};
struct StepPath {
    std::array<Step, 64> steps{};
    int length = 0;
};

// A path of steps that plays `m` in `pos` (the first one found, in direction order), or an empty
// path when `m` is not legal.
StepPath find_path(const Position& pos, const Rules& rules, const Move& m);

} // namespace fanorona
