#pragma once
// Legal move generation for whole turns: compulsory capture, approach and withdrawal, chains with
// the no-revisit and no-same-direction rules, paika moves, and the firstturn and Vela settings.

#include <algorithm>
#include <array>
#include <cassert>
#include <memory>

#include "core/board/position.h"

namespace fanorona {

// The number of moves a MoveList holds without allocating. Positions from games stay far below
// it (random games: at most 170 moves on 5x9), but a few reachable positions have more (a Vela
// victim down to five pieces among the beneficiary's army: chains branch into hundreds of moves)
// and a constructed position can have thousands: the list then moves to the heap, once per list
// (a searcher keeps its lists, so a search allocates at most once per ply for such positions).
inline constexpr int kInlineMoves = 512;

// A list of moves: inline storage for kInlineMoves, on the heap beyond (never in games).
// Invariant: data_ points at inline_ or at heap_, which holds capacity_ moves.
class MoveList {
public:
    int count = 0;

    MoveList() = default;
    MoveList(const MoveList& other) { copy_from(other); }
    MoveList& operator=(const MoveList& other) {
        if (this != &other) copy_from(other);
        return *this;
    }

    void push(const Move& m) {
        if (count == capacity_) [[unlikely]]
            grow();
        data_[count++] = m;
    }
    void clear() { count = 0; }
    int size() const { return count; }
    bool empty() const { return count == 0; }
    const Move& operator[](int i) const { return data_[i]; }
    Move& operator[](int i) { return data_[i]; }
    Move* begin() { return data_; }
    Move* end() { return data_ + count; }
    const Move* begin() const { return data_; }
    const Move* end() const { return data_ + count; }
    bool contains(const Move& m) const {
        for (const Move& x : *this)
            if (x == m) return true;
        return false;
    }

private:
    void grow(); // doubles the capacity, moving the moves to the heap
    void copy_from(const MoveList& other);

    std::array<Move, kInlineMoves> inline_; // declared first: data_ is initialised from it
    Move* data_ = inline_.data();
    int capacity_ = kInlineMoves;
    std::unique_ptr<Move[]> heap_;
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
TurnRights restricted_turn_rights(const Position& pos, const Rules& rules, Color mover);
inline TurnRights turn_rights(const Position& pos, const Rules& rules, Color mover) {
    if (rules.ruleset == RuleSet::Standard) return {}; // the search's hot path: no restriction
    return restricted_turn_rights(pos, rules, mover);
}
// The rights of the side to move this turn.
inline TurnRights turn_rights(const Position& pos, const Rules& rules) {
    return turn_rights(pos, rules, pos.side_to_move());
}

// Fanoron-telo: each side places this many pieces, then moves them.
inline constexpr int kTeloPieces = 3;

// Fanoron-telo: the side not to move has three in a row on a line, so the side to move has lost
// (it has no legal move). False on every other variant.
bool telo_won(const Position& pos);

// The side to move has lost all its pieces (a capture-all loss; never in Fanoron-telo, which has
// no captures and starts on an empty board).
inline bool wiped_out(const Position& pos) {
    return !pos.player() && !is_telo(pos.variant());
}

// Pieces of the side to move that can make a capture (ignoring turn rights; none in telo).
Bitboard capturing_pieces(const Position& pos);

// Fills `list` (emptied first) with every legal move, each (from, to, captured) once. In telo:
// nothing once the opponent has three in a row, placements {0, s, s} on every empty point while
// the side to move has fewer than kTeloPieces pieces, then one-step moves along lines.
void generate_moves(const Position& pos, const Rules& rules, MoveList& list);
// The same, when the caller already has the side to move's turn_rights() and, when they allow
// captures, its capturing_pieces() (0 otherwise): the search computes both before generating.
void generate_moves(const Position& pos, const TurnRights& rights, Bitboard capturers,
                    MoveList& list);

// The most pieces one of `moves` captures (0 when none captures).
inline int largest_capture(const MoveList& moves) {
    int largest = 0;
    for (const Move& m : moves) largest = std::max(largest, popcount(m.captured));
    return largest;
}

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
