#pragma once
// Move ordering for the search: the table move first, then captures by the number of pieces
// taken, the killer moves, and the history of quiet cut-offs. The Searcher owns the history and
// the per-ply killers and order scores; nothing here allocates per node.

#include <algorithm>
#include <array>
#include <cstdlib>
#include <span>
#include <utility>
#include <vector>

#include "core/board/movegen.h"

namespace fanorona {

inline constexpr int kHistoryMax = 16384; // history scores stay within +-kHistoryMax

// How often each (side, from, to) move caused a cut-off, decayed. Invariant: every entry stays
// within +-kHistoryMax (the update's gravity keeps it there).
class History {
public:
    int& at(Color side, const Move& m) { return table_[(int(side) * 64 + m.from) * 64 + m.to]; }
    int at(Color side, const Move& m) const {
        return table_[(int(side) * 64 + m.from) * 64 + m.to];
    }
    // Moves an entry towards +-kHistoryMax by `bonus` (negative: a penalty).
    void update(Color side, const Move& m, int bonus) {
        int& h = at(side, m);
        h += bonus - h * std::abs(bonus) / kHistoryMax;
    }
    void clear() { std::fill(table_.begin(), table_.end(), 0); }

private:
    std::vector<int> table_ = std::vector<int>(2 * 64 * 64, 0);
};

// The two latest moves that caused a cut-off at one ply, newest first.
struct Killers {
    Move moves[2] = {{0, 0, 0}, {0, 0, 0}};

    bool contains(const Move& m) const { return m == moves[0] || m == moves[1]; }
    void add(const Move& m) {
        if (m == moves[0]) return;
        moves[1] = moves[0];
        moves[0] = m;
    }
    void clear() { moves[0] = moves[1] = Move{0, 0, 0}; }
};

// For each move of one side, (from, to), the quiet move that last refuted it: the countermove
// heuristic. Invariant: an entry is a null move {0, 0, 0} or a move played at some node.
class CounterMoveTable {
public:
    const Move& at(Color side, const Move& previous) const {
        return table_[(int(side) * 64 + previous.from) * 64 + previous.to];
    }
    void set(Color side, const Move& previous, const Move& reply) {
        table_[(int(side) * 64 + previous.from) * 64 + previous.to] = reply;
    }
    void clear() { std::fill(table_.begin(), table_.end(), Move{0, 0, 0}); }

private:
    std::vector<Move> table_ = std::vector<Move>(2 * 64 * 64, Move{0, 0, 0});
};

// The ordering scores of one node's moves; score i belongs to moves[i] (pick() swaps both).
// Holds kInlineMoves scores without allocating; grows (once) for a longer list.
struct MoveOrder {
    std::vector<int> scores = std::vector<int>(kInlineMoves);

    // Scores every move: the table move (when `tt_move` is not null) above all, then captures by
    // size, then killers, then the countermove (when `counter` is not null), then the history of
    // `side`.
    // With `unsafe_penalty` > 0, a quiet move that leaves its piece where the opponent could
    // capture it with one step (by approach or withdrawal, in `pos`) loses that many points.
    void score(const MoveList& moves, const Move* tt_move, const Killers& killers,
               const History& history, Color side, const Move* counter = nullptr,
               const Position* pos = nullptr, int unsafe_penalty = 0);
    // Moves the best-scored of moves[i..] to index i (moves before i keep their places).
    // The first of equal best scores wins. Two passes: the highest score (a loop the compiler
    // vectorises), then its first index; one pass comparing each score with the best so far
    // mispredicted a branch per new best (8% of a game's search time).
    void pick(MoveList& moves, int i) {
        const int* s = scores.data();
        int top = s[i];
        for (int j = i + 1; j < moves.count; ++j) top = std::max(top, s[j]);
        if (s[i] == top) return;
        int best = i + 1;
        while (s[best] != top) ++best;
        std::swap(moves[i], moves[best]);
        std::swap(scores[i], scores[best]);
    }
};

// True when the quiet move `m` of the side to move in `pos` leaves its piece where the opponent,
// were it to move next, could capture it with one step: by approach (an opponent piece two points
// away on a line, the point between empty) or by withdrawal (an opponent piece next to it on a
// line, the point beyond it empty).
bool lands_exposed(const Position& pos, const Move& m);

// After a beta cut-off by `best` at `depth`: rewards it in the history, punishes the quiet moves
// tried before it (their indices in `moves`), and makes it the ply's first killer.
void update_on_cutoff(History& history, Killers& killers, Color side, const MoveList& moves,
                      std::span<const int> quiets_tried, const Move& best, int depth);

} // namespace fanorona
