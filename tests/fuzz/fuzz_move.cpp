// Fuzz target: move strings (parse_move), played one after another from a start position. A
// parsed move is legal and its notation parses back to the same move; a rejected one is a
// one-line MoveError.

#include "core/board/game.h"
#include "core/board/notation.h"
#include "tests/fuzz/fuzz_target.h"

FUZZ_TARGET(move) {
    using namespace fanorona;
    if (size == 0) return 0;
    // The first byte picks the board (bit 0 and bits 3-7: variant code (bit0 + 2 * bits 3-7) mod
    // kVariantCount, so 0 tsivy, 1 dimy, 5 telo) and the rules (bits 1-2); the rest is moves
    // separated by spaces.
    Rules rules;
    rules.variant = Variant(((data[0] & 1) + 2 * (data[0] >> 3)) % kVariantCount);
    rules.ruleset = RuleSet((data[0] >> 1) % 3);
    const std::string_view text = fuzz::as_text(data + 1, size - 1);
    Game game(rules, Position::start(rules.variant));
    std::size_t pos = 0;
    while (pos < text.size() && !game.outcome().over()) {
        const std::size_t end = std::min(text.find(' ', pos), text.size());
        const std::string_view word = text.substr(pos, end - pos);
        pos = end + 1;
        Move m{0, 0, 0};
        try {
            m = parse_move(game.position(), rules, word);
        } catch (const MoveError& e) {
            fuzz::check_one_line(e);
            return 0;
        }
        MoveList legal;
        generate_moves(game.position(), rules, legal);
        fuzz::check(legal.contains(m),
                    "parse_move accepted '" + std::string(word) + "', not a legal move");
        const std::string written = move_to_string(game.position(), rules, m);
        fuzz::check(parse_move(game.position(), rules, written) == m,
                    "move round trip: '" + std::string(word) + "' -> '" + written + "'");
        game.play(m);
    }
    return 0;
}
