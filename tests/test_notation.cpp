// Move strings: writing, reading back (random games on both boards, all rule sets), and every kind
// of malformed or illegal move string, each rejected with a MoveError that says why.

#include <catch2/catch.hpp>

#include "tests/rules_helpers.h"

using namespace fanorona;
using namespace fanorona::test;

namespace {

const Rules kStandard = rules_for(RuleSet::Standard);

} // namespace

TEST_CASE("move strings of the start position", "[notation]") {
    const Position start = Position::start(Variant::Tsivy);
    // Five captures into the empty e3; d3 may approach f3 or withdraw from c3.
    CHECK(move_strings(start, kStandard) == sorted({"d2e3A", "d3e3A", "d3e3W", "e2e3A", "f2e3A"}));
    const Move m = parse_move(start, kStandard, "d3e3W");
    CHECK(m.from == parse_square("d3", Variant::Tsivy));
    CHECK(m.to == parse_square("e3", Variant::Tsivy));
    CHECK(m.captured == points("c3")); // b3 is White's, so the line stops at c3
    // Either case is accepted.
    CHECK(parse_move(start, kStandard, "D3E3w") == m);
    CHECK(parse_move(start, kStandard, "d3E3W") == m);
}

TEST_CASE("paika and chain move strings", "[notation]") {
    const Position quiet = tsivy("e2", "e5");
    CHECK(move_strings(quiet, kStandard) ==
          sorted({"e2e3", "e2d2", "e2f2", "e2e1"})); // e2 is weak: no diagonals
    const Move paika = parse_move(quiet, kStandard, "e2e3");
    CHECK(paika.captured == 0);
    CHECK(move_to_string(quiet, kStandard, paika) == "e2e3");

    const Position chain = tsivy("c3", "e3 d5 b2");
    const Move m = parse_move(chain, kStandard, "c3d4Wc5Wb5W");
    CHECK(m.captured == points("b2 e3 d5"));
    CHECK(m.to == parse_square("b5", Variant::Tsivy));
    CHECK(move_to_string(chain, kStandard, m) == "c3d4Wc5Wb5W");
}

TEST_CASE("random games: every move string reads back as the same move", "[notation]") {
    int moves = 0;
    random_games(777, 50, 200, [&](const Position& pos, const Rules& rules, MoveList& list) {
        for (const Move& m : list) {
            ++moves;
            const std::string text = move_to_string(pos, rules, m);
            REQUIRE(text.substr(0, 2) == square_name(m.from, pos.variant()));
            REQUIRE(parse_move(pos, rules, text) == m);
        }
    });
    CHECK(moves > 50000);
}

TEST_CASE("bad move strings are rejected with the reason", "[notation]") {
    struct Bad {
        Position pos;
        Rules rules;
        const char* text;
        const char* reason;
    };
    const Position start = Position::start(Variant::Tsivy);
    const Position chain = tsivy("c3", "e3 d5 b2");
    const Position straight = tsivy("b3", "a3 e3");
    const Position quiet = tsivy("a1", "i5");
    const Rules vela = rules_for(RuleSet::Vela);
    const Rules firstturn = rules_for(RuleSet::FirstTurn);
    const Position vela_six = tsivy("c3", "e3 f3 d5 i1 i5 h1");
    const Position vela_victim = tsivy("c3", "e3 f3 d5 i1 i5 h1", 'b');
    const Bad cases[] = {
        // Malformed.
        {start, kStandard, "", "empty move string"},
        {start, kStandard, "e", "malformed move string 'e' at character 1"},
        {start, kStandard, "3e", "malformed move string '3e' at character 1"},
        {start, kStandard, "d3e", "at character 3 (expected a point such as e3)"},
        {start, kStandard, "d3-e3", "at character 3"},
        {start, kStandard, "d3", "has no destination"},
        {start, kStandard, "d3Ae3", "a capture letter must follow a destination"},
        // Unknown points.
        {start, kStandard, "j3k3", "unknown point 'j3' on the tsivy board"},
        {start, kStandard, "e5e6", "unknown point 'e6' on the tsivy board"},
        {Position::start(Variant::Dimy), rules_for(RuleSet::Standard, Variant::Dimy), "f2f3",
         "unknown point 'f2' on the dimy board"},
        // Wrong piece.
        {start, kStandard, "e3e4", "no piece on e3"},
        {start, kStandard, "e4e3A", "e4 holds a piece of the side not to move"},
        // Impossible steps.
        {start, kStandard, "d3f3", "d3 to f3 is not a step along a line"},
        {start, kStandard, "e2d3", "e2 to d3 is not a step along a line"}, // e2 is weak
        {start, kStandard, "d2d3", "d2 to d3: d3 is not empty"},
        // Capture rules.
        {start, kStandard, "d2e3", "d2 to e3 is a paika move, but capture is compulsory"},
        {start, kStandard, "e2e3W", "e2 to e3: no withdrawal capture there"},
        {chain, kStandard, "c3c4A", "c3 to c4: no approach capture there"},
        {chain, kStandard, "c3d3Ad4", "every step after the first must capture"},
        {chain, kStandard, "c3d3Ad4Ac3A", "the piece was already on c3 this turn"},
        {straight, kStandard, "b3c3Wd3A", "may not continue in the direction it just moved"},
        {quiet, kStandard, "a1b1c1", "a paika move is a single step"},
        // Not legal under the rule set.
        {vela_six, vela, "c3d3Ad4A", "captures may not be chained on this turn (vela rules)"},
        {vela_victim, vela, "e3d3A", "the Vela victim may not capture"},
        {tsivy("c2", "e5 h5 e2 f2 c1 h1"), firstturn, "c2c3Wd4A",
         "captures may not be chained on this turn (firstturn rules)"},
    };
    for (const Bad& bad : cases) {
        INFO("move string '" << bad.text << "' in " << bad.pos.to_string());
        CHECK_THROWS_AS(parse_move(bad.pos, bad.rules, bad.text), MoveError);
        CHECK_THROWS_WITH(parse_move(bad.pos, bad.rules, bad.text), Catch::Contains(bad.reason));
    }
}

TEST_CASE("move_to_string rejects a move that is not legal", "[notation]") {
    const Position start = Position::start(Variant::Tsivy);
    const Move bogus{0, std::uint8_t(parse_square("e2", Variant::Tsivy)),
                     std::uint8_t(parse_square("e3", Variant::Tsivy))};
    CHECK_THROWS_AS(move_to_string(start, kStandard, bogus), MoveError);
}

TEST_CASE("a move string with control characters gets a one-line error", "[notation]") {
    // Found by the move fuzz target (tests/fuzz/corpus/move/regress_newline_in_move).
    const Position start = Position::start(Variant::Tsivy);
    for (const std::string& text : {std::string("d\x06\n"), std::string("d3e3A\n"),
                                    std::string("d3\te3A"), std::string("\n")}) {
        try {
            (void)parse_move(start, kStandard, text);
            FAIL("accepted: " << text);
        } catch (const MoveError& e) {
            const std::string what = e.what();
            CHECK(what.find_first_of("\n\t\x06") == std::string::npos);
        }
    }
}
