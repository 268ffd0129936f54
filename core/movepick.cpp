#include "core/movepick.h"

#include <algorithm>

#include "core/board/bitboard.h"

namespace fanorona {

bool lands_exposed(const Position& pos, const Move& m) {
    if (is_telo(pos.variant())) return false; // no captures in telo
    const Geometry& g = pos.geo();
    const Bitboard piece = bit(Square(m.to));
    const Bitboard opp = pos.opponent();
    const Bitboard empty = (pos.empty() | bit(Square(m.from))) & ~piece;
    for (int d = 0; d < kDirections; ++d) {
        const Bitboard next = g.shift(piece, Direction(d));
        if (!next) continue;
        const Bitboard beyond = g.shift(next, Direction(d));
        if (((next & empty) && (beyond & opp)) || ((next & opp) && (beyond & empty))) return true;
    }
    return false;
}

void MoveOrder::score(const MoveList& moves, const Move* tt_move, const Killers& killers,
                      const History& history, Color side, const Move* counter, const Position* pos,
                      int unsafe_penalty) {
    if (std::size_t(moves.count) > scores.size()) [[unlikely]]
        scores.resize(std::size_t(moves.count));
    for (int i = 0; i < moves.count; ++i) {
        const Move& m = moves[i];
        int s = history.at(side, m);
        if (tt_move && m == *tt_move)
            s = 1 << 30;
        else if (m.is_capture())
            s += popcount(m.captured) << 16;
        else if (unsafe_penalty > 0 && lands_exposed(*pos, m))
            s -= unsafe_penalty;
        if (m == killers.moves[0])
            s += 2 * kHistoryMax + 2;
        else if (m == killers.moves[1])
            s += 2 * kHistoryMax + 1;
        else if (counter && m == *counter)
            s += 2 * kHistoryMax;
        scores[i] = s;
    }
}

void update_on_cutoff(History& history, Killers& killers, Color side, const MoveList& moves,
                      std::span<const int> quiets_tried, const Move& best, int depth) {
    const int bonus = std::min(depth * depth, 400);
    history.update(side, best, bonus * 32);
    for (int q : quiets_tried) {
        const Move& other = moves[q];
        if (!(other == best)) history.update(side, other, -bonus * 32);
    }
    killers.add(best);
}

} // namespace fanorona
