// Fuzz target: the solver's inputs (a position string and the solve options) with a tiny budget.
// A position the parser accepts is solved without a crash; the budget holds in every phase (the
// graph enumeration included); the result is consistent: bounds in order, an exact value when
// complete, every legal root move listed, the root's bounds those of its best move, and the line
// legal from the root.

#include "core/board/movegen.h"
#include "core/board/position.h"
#include "core/solver/solve.h"
#include "tests/fuzz/fuzz_target.h"

FUZZ_TARGET(solve) {
    using namespace fanorona;
    if (size < 2) return 0;
    // Byte 0: the board, as fuzz_position. Byte 1: the node budget (bits 0-3: 2^k nodes, from 1
    // up to 32768) and the graph limit (bits 4-5: the default, search only, 100, 5000
    // positions). The rest: the position string.
    const Variant v = Variant(data[0] % kVariantCount);
    const std::uint64_t max_nodes = std::uint64_t(1) << (data[1] & 15);
    const int graph = (data[1] >> 4) & 3;
    const std::string_view text = fuzz::as_text(data + 2, size - 2);
    Position root;
    try {
        root = Position::from_string(text, v);
    } catch (const std::invalid_argument& e) {
        fuzz::check_one_line(e);
        return 0;
    }
    if (is_telo(v)) return 0; // the solver plays the standard rules of the 5x9 family
    const Rules rules{v};
    MoveList moves;
    try {
        generate_moves(root, rules, moves);
    } catch (const std::length_error& e) { // documented: more than kMaxMoves moves
        fuzz::check_one_line(e);
        return 0;
    }
    Solver solver(1);
    if (graph == 1) solver.set_graph_limit(0);
    if (graph == 2) solver.set_graph_limit(100);
    if (graph == 3) solver.set_graph_limit(5000);
    SolveResult r;
    try {
        r = solver.solve(root, {max_nodes, 0});
    } catch (const std::length_error& e) { // a position deeper in the game with too many moves
        fuzz::check_one_line(e);
        return 0;
    }
    const auto ordered = [](const ValueBounds& b) {
        return -1 <= b.lo && b.lo <= b.hi && b.hi <= 1;
    };
    fuzz::check(ordered(r.value), "root bounds out of order");
    fuzz::check(!r.complete || r.value.exact(), "a complete solve without an exact value");
    // The budget: checked every 256 graph positions and every 1024 search nodes.
    fuzz::check(r.nodes <= max_nodes + 1024,
                "the proof overran its node budget: " + std::to_string(r.nodes) + " for " +
                    std::to_string(max_nodes));
    fuzz::check(r.nodes + r.line_nodes <= max_nodes + 2048, "the line overran the node budget");
    fuzz::check(r.moves.size() == std::size_t(moves.count), "not every root move listed");
    ValueBounds best{-1, -1};
    for (std::size_t i = 0; i < r.moves.size(); ++i) {
        fuzz::check(r.moves[i].move == moves[int(i)], "root moves not in generation order");
        fuzz::check(ordered(r.moves[i].value), "move bounds out of order");
        best.lo = std::max(best.lo, r.moves[i].value.lo);
        best.hi = std::max(best.hi, r.moves[i].value.hi);
    }
    if (!r.moves.empty() && !r.graph)
        fuzz::check(best == r.value, "the root's bounds are not its best move's");
    Position p = root;
    for (const Move& m : r.line) {
        MoveList legal;
        generate_moves(p, Rules{v}, legal);
        bool found = false;
        for (const Move& l : legal) found = found || l == m;
        fuzz::check(found, "an illegal move in the line");
        p.make_move(m);
    }
    return 0;
}
