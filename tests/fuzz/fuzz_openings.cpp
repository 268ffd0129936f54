// Fuzz target: opening suites (parse_opening_suite), and OpeningSpec::parse on the first line.
// Every opening's moves are legal from its start; every error is one line (OpeningError naming
// the suite, or std::invalid_argument for the spec).

#include "core/board/notation.h"
#include "selfplay/openings/openings.h"
#include "tests/fuzz/fuzz_target.h"

FUZZ_TARGET(openings) {
    using namespace fanorona;
    if (size == 0) return 0;
    Rules rules;
    rules.variant = (data[0] & 1) ? Variant::Dimy : Variant::Tsivy;
    rules.ruleset = RuleSet((data[0] >> 1) % 3);
    const std::string text(fuzz::as_text(data + 1, size - 1));
    try {
        const OpeningSpec spec = OpeningSpec::parse(text.substr(0, text.find('\n')));
        (void)spec.describe();
    } catch (const std::invalid_argument& e) {
        fuzz::check_one_line(e);
    }
    std::vector<Opening> openings;
    try {
        openings = parse_opening_suite(text, rules, "suite.txt");
    } catch (const OpeningError& e) {
        fuzz::check_one_line(e);
        fuzz::check(std::string_view(e.what()).starts_with("suite.txt"), "error without the name");
        return 0;
    }
    fuzz::check(!openings.empty(), "an empty suite was accepted");
    for (const Opening& o : openings) {
        Game game(rules, o.start);
        for (const Move& m : o.moves) {
            MoveList legal;
            generate_moves(game.position(), rules, legal);
            fuzz::check(legal.contains(m), "an opening holds an illegal move");
            game.play(m);
        }
    }
    return 0;
}
