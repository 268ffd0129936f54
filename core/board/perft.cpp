#include "core/board/perft.h"

namespace fanorona {

std::uint64_t perft(Position& pos, const Rules& rules, int depth) {
    if (depth <= 0) return 1;
    if (depth == 1) return std::uint64_t(count_moves(pos, rules));
    MoveList list;
    generate_moves(pos, rules, list);
    std::uint64_t nodes = 0;
    for (const Move& m : list) {
        const UndoInfo undo = pos.make_move(m);
        nodes += perft(pos, rules, depth - 1);
        pos.unmake_move(m, undo);
    }
    return nodes;
}

} // namespace fanorona
