// Fuzz target: position strings (Position::from_string). Accepted strings round-trip through
// to_string and can be searched for moves and evaluated; rejected ones are a one-line
// std::invalid_argument.

#include "core/board/movegen.h"
#include "core/board/position.h"
#include "core/evaluate.h"
#include "core/weights.h"
#include "tests/fuzz/fuzz_target.h"

FUZZ_TARGET(position) {
    using namespace fanorona;
    if (size == 0) return 0;
    // The first byte picks the board (0 tsivy, 1 dimy, ... every variant code); the rest is the
    // string.
    const Variant v = Variant(data[0] % kVariantCount);
    const std::string_view text = fuzz::as_text(data + 1, size - 1);
    Position p;
    try {
        p = Position::from_string(text, v);
    } catch (const std::invalid_argument& e) {
        fuzz::check_one_line(e);
        return 0;
    }
    fuzz::check(p.hash() == p.compute_hash(), "hash of a parsed position");
    fuzz::check((p.player() & p.opponent()) == 0, "a point holds two pieces");
    fuzz::check(((p.player() | p.opponent()) & ~p.geo().board) == 0, "a piece off the board");
    const std::string again = p.to_string();
    Position q;
    try {
        q = Position::from_string(again, v);
    } catch (const std::exception& e) {
        fuzz::fail("to_string gave '" + again + "', which does not parse: " + e.what());
    }
    fuzz::check(q == p, "position round trip: '" + again + "'");
    // Whatever a position string can say, move generation and the evaluation cope with it.
    MoveList moves;
    try {
        generate_moves(p, Rules{v}, moves);
    } catch (const std::length_error& e) { // documented: more than kMaxMoves moves
        fuzz::check_one_line(e);
        return 0;
    }
    if (!moves.empty() && p.opponent() != 0) (void)evaluate(p, Rules{v}, handset_weights());
    return 0;
}
