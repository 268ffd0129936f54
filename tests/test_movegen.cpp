// Move generation, one hand-made position per rule of docs/rules.md. Every expected move set below
// was worked out by hand from the rules (the comments give the reasoning), and is checked exactly:
// the move strings, the captured points of each move, and count_moves.

#include <catch2/catch.hpp>

#include "tests/rules_helpers.h"

using namespace fanorona;
using namespace fanorona::test;

namespace {

// Checks that the legal moves of `pos` are exactly `expected`: the same move strings, each move
// capturing exactly the listed points, no move twice, and count_moves agreeing.
void check_moves(const Position& pos, const Rules& rules, const std::vector<Expected>& expected) {
    INFO("position " << pos.to_string());
    std::vector<std::string> texts;
    for (const Expected& e : expected) texts.push_back(e.text);
    CHECK(move_strings(pos, rules) == sorted(texts));
    MoveList list;
    generate_moves(pos, rules, list);
    CHECK(list.size() == int(expected.size()));
    CHECK(count_moves(pos, rules) == int(expected.size()));
    for (int i = 0; i < list.size(); ++i)
        for (int j = i + 1; j < list.size(); ++j) CHECK_FALSE(list[i] == list[j]);
    for (const Expected& e : expected) {
        INFO("move " << e.text);
        const Move m = parse_move(pos, rules, e.text);
        CHECK(m.captured == points(e.captured, pos.variant()));
        CHECK(square_name(m.from, pos.variant()) == e.text.substr(0, 2));
        CHECK(list.contains(m));
    }
}

const Rules kStandard = rules_for(RuleSet::Standard);

} // namespace

TEST_CASE("approach captures the line up to an empty point", "[movegen]") {
    // c3 -> d3 approaches e3; the line e3 f3 stops at the empty g3, so h3 stays. From d3 (a weak
    // point) nothing more can be captured.
    check_moves(tsivy("c3", "e3 f3 h3"), kStandard, {{"c3d3A", "e3 f3"}});
}

TEST_CASE("withdrawal captures the line up to a friendly piece", "[movegen]") {
    // d3 -> e3 withdraws from c3; the line c3 b3 stops at White's a3. a3 has no capture of its
    // own and capture is compulsory, so its paika moves are not legal.
    check_moves(tsivy("d3 a3", "c3 b3"), kStandard, {{"d3e3W", "c3 b3"}});
}

TEST_CASE("a step that can approach and withdraw gives two moves", "[movegen]") {
    // d3 -> e3 approaches f3 or withdraws from c3, never both.
    check_moves(tsivy("d3", "c3 f3"), kStandard, {{"d3e3A", "f3"}, {"d3e3W", "c3"}});
}

TEST_CASE("a chain may not return to a point it visited", "[movegen]") {
    // c3 -> d3 takes e3, d3 -> d4 takes d5; d4 -> c3 would approach b2 but c3 was the start.
    // c3 -> d4 withdraws from b2; then d4 -> d3 withdraws from d5 (and d3 -> c3 would withdraw
    // from e3, but c3 was visited), or d4 -> c5 withdraws from e3 and c5 -> b5 from d5.
    const Position pos = tsivy("c3", "e3 d5 b2");
    check_moves(pos, kStandard,
                {{"c3d3A", "e3"},
                 {"c3d3Ad4A", "e3 d5"},
                 {"c3d4W", "b2"},
                 {"c3d4Wd3W", "b2 d5"},
                 {"c3d4Wc5W", "b2 e3"},
                 {"c3d4Wc5Wb5W", "b2 e3 d5"}});
    CHECK_THROWS_WITH(parse_move(pos, kStandard, "c3d3Ad4Ac3A"),
                      Catch::Contains("already on c3 this turn"));
    CHECK_THROWS_WITH(parse_move(pos, kStandard, "c3d4Wd3Wc3W"),
                      Catch::Contains("already on c3 this turn"));
}

TEST_CASE("a chain may not continue in the direction it just moved", "[movegen]") {
    // b3 -> c3 withdraws from a3; c3 -> d3 would approach e3, but it is the same direction.
    const Position pos = tsivy("b3", "a3 e3");
    check_moves(pos, kStandard, {{"b3c3W", "a3"}});
    CHECK_THROWS_WITH(parse_move(pos, kStandard, "b3c3Wd3A"),
                      Catch::Contains("may not continue in the direction it just moved"));
}

TEST_CASE("weak points have no diagonal lines", "[movegen]") {
    // d3 is weak (x + y odd): the black pieces on its would-be diagonals f5 and b1 cannot be
    // reached, so only the four orthogonal paika moves remain.
    const Position weak = tsivy("d3", "f5 b1");
    check_moves(weak, kStandard, {{"d3d4", ""}, {"d3e3", ""}, {"d3d2", ""}, {"d3c3", ""}});
    CHECK_THROWS_WITH(parse_move(weak, kStandard, "d3e4"),
                      Catch::Contains("not a step along a line"));
    // e3 is strong: it approaches g5 along the diagonal, and c1 along the other one.
    check_moves(tsivy("e3", "g5 c1"), kStandard, {{"e3f4A", "g5"}, {"e3d2A", "c1"}});
}

TEST_CASE("a player whose pieces cannot move has no legal move", "[movegen]") {
    const Position pos = tsivy("a1", "b1 a2 b2");
    check_moves(pos, kStandard, {});
    CHECK(capturing_pieces(pos) == 0);
    // No pieces at all: no moves either.
    check_moves(tsivy("", "e3"), kStandard, {});
}

TEST_CASE("capture is compulsory", "[movegen]") {
    // a5 could make paika moves, but c3 can capture, so only the capture is legal.
    const Position pos = tsivy("c3 a5", "e3");
    check_moves(pos, kStandard, {{"c3d3A", "e3"}});
    CHECK(capturing_pieces(pos) == points("c3"));
    CHECK_THROWS_WITH(parse_move(pos, kStandard, "a5b5"),
                      Catch::Contains("paika move, but capture is compulsory"));
}

TEST_CASE("chains are optional: every stopping point is a move", "[movegen]") {
    const Position pos = tsivy("c3", "e3 d5 b2");
    const std::vector<std::string> moves = move_strings(pos, kStandard);
    // Every prefix of the longest chain is a move of its own.
    for (const char* prefix : {"c3d4W", "c3d4Wc5W", "c3d4Wc5Wb5W"})
        CHECK(std::count(moves.begin(), moves.end(), prefix) == 1);
}

namespace {

// Two chain paths from c2 reach e4 with the same captures {c1, e5, f2, e2}:
// c2 -> c3 (withdraw from c1), d4 (approach e5), e3 (approach f2), e4 (withdraw from e2), and
// c2 -> d2 (approach e2 f2), e3 (withdraw from c1), e4 (approach e5).
// All the moves: c2 -> c3 withdraws from c1, then d4 approaches e5, then e3 approaches f2, then
// e4 withdraws from e2. c2 -> d2 approaches the line e2 f2, then e3 withdraws from c1, then e4
// approaches e5 (the same move as the first chain's end). c2 is weak, so no diagonal start.
Position twin_paths(char side = 'w', const std::string& counters = "") {
    return side == 'w' ? tsivy("c2", "e5 h5 e2 f2 c1 h1", 'w', counters)
                       : tsivy("e5 h5 e2 f2 c1 h1", "c2", 'b', counters);
}

const std::vector<Expected> kTwinPathMoves = {{"c2c3W", "c1"},
                                              {"c2c3Wd4A", "c1 e5"},
                                              {"c2c3Wd4Ae3A", "c1 e5 f2"},
                                              {"c2c3Wd4Ae3Ae4W", "c1 e5 f2 e2"},
                                              {"c2d2A", "e2 f2"},
                                              {"c2d2Ae3W", "e2 f2 c1"}};

} // namespace

TEST_CASE("one move per piece, end point and captured set", "[movegen]") {
    const Position pos = twin_paths();
    check_moves(pos, kStandard, kTwinPathMoves);
    const Move a = parse_move(pos, kStandard, "c2c3Wd4Ae3Ae4W");
    const Move b = parse_move(pos, kStandard, "c2d2Ae3We4A");
    CHECK(a == b);
    CHECK(a.captured == points("c1 e5 f2 e2"));
    // The move is written with the first path in direction order (north before east).
    CHECK(move_to_string(pos, kStandard, b) == "c2c3Wd4Ae3Ae4W");
}

TEST_CASE("firstturn: no chains on each side's first turn", "[movegen]") {
    const Rules rules = rules_for(RuleSet::FirstTurn);
    const std::vector<Expected> first_steps = {{"c2c3W", "c1"}, {"c2d2A", "e2 f2"}};
    check_moves(twin_paths('w', "0 1"), rules, first_steps);        // White's first turn
    check_moves(twin_paths('b', "0 2"), rules, first_steps);        // Black's first turn
    check_moves(twin_paths('w', "0 3"), rules, kTwinPathMoves);     // White's second turn
    check_moves(twin_paths('b', "0 4"), rules, kTwinPathMoves);     // Black's second turn
    check_moves(twin_paths('w', "0 1"), kStandard, kTwinPathMoves); // standard rules: no limit
    CHECK_THROWS_WITH(parse_move(twin_paths('w', "0 1"), rules, "c2c3Wd4A"),
                      Catch::Contains("may not be chained on this turn (firstturn rules)"));
}

TEST_CASE("vela: restrictions until the victim is down to 5 pieces", "[movegen]") {
    const Rules vela = rules_for(RuleSet::Vela);
    // Black has 6 pieces: White (the beneficiary) takes only the first piece of a line and never
    // chains; under standard rules c3 -> d3 takes e3 f3 and may go on to d4, taking d5.
    const Position six = tsivy("c3", "e3 f3 d5 i1 i5 h1");
    check_moves(six, kStandard, {{"c3d3A", "e3 f3"}, {"c3d3Ad4A", "e3 f3 d5"}});
    check_moves(six, vela, {{"c3d3A", "e3"}});
    CHECK_THROWS_WITH(parse_move(six, vela, "c3d3Ad4A"),
                      Catch::Contains("may not be chained on this turn (vela rules)"));
    // With 5 black pieces the restrictions are off.
    const Position five = tsivy("c3", "e3 f3 d5 i1 i5");
    check_moves(five, vela, {{"c3d3A", "e3 f3"}, {"c3d3Ad4A", "e3 f3 d5"}});

    // The victim with 6 pieces may not capture (e3 -> d3 would approach c3): paika moves only.
    const Position victim = tsivy("c3", "e3 f3 d5 i1 i5 h1", 'b');
    check_moves(victim, vela,
                {{"e3e4", ""}, {"e3f4", ""}, {"e3f2", ""}, {"e3e2", ""}, {"e3d2", ""},
                 {"e3d3", ""}, {"e3d4", ""}, {"f3f4", ""}, {"f3g3", ""}, {"f3f2", ""},
                 {"d5d4", ""}, {"d5c5", ""}, {"d5e5", ""}, {"i1i2", ""}, {"i1h2", ""},
                 {"i5h5", ""}, {"i5i4", ""}, {"i5h4", ""}, {"h1g1", ""}, {"h1h2", ""}});
    CHECK_THROWS_WITH(parse_move(victim, vela, "e3d3A"),
                      Catch::Contains("the Vela victim may not capture"));
    // With 5 pieces the victim captures, and must.
    check_moves(tsivy("c3", "e3 f3 d5 i1 i5", 'b'), vela, {{"e3d3A", "c3"}});
}

TEST_CASE("vela: the rights of either side, whoever is to move", "[movegen]") {
    const Rules vela = rules_for(RuleSet::Vela);
    for (char side : {'w', 'b'}) {
        const Position six = tsivy("c3", "e3 f3 d5 i1 i5 h1", side);
        const TurnRights white = turn_rights(six, vela, Color::White);
        const TurnRights black = turn_rights(six, vela, Color::Black);
        CHECK(white.may_capture);
        CHECK(white.single_capture);
        CHECK(!white.may_chain);
        CHECK(!black.may_capture);
        const TurnRights mover = turn_rights(six, vela);
        const TurnRights expected = side == 'w' ? white : black;
        CHECK(mover.may_capture == expected.may_capture);
        CHECK(mover.single_capture == expected.single_capture);
        CHECK(mover.may_chain == expected.may_chain);
        // With 5 black pieces neither side is restricted.
        const Position five = tsivy("c3", "e3 f3 d5 i1 i5", side);
        for (Color c : {Color::White, Color::Black}) {
            CHECK(turn_rights(five, vela, c).may_capture);
            CHECK(!turn_rights(five, vela, c).single_capture);
            CHECK(turn_rights(five, vela, c).may_chain);
        }
    }
}

TEST_CASE("vela: the 17th capture lifts the restrictions", "[movegen]") {
    const Rules vela = rules_for(RuleSet::Vela);
    Position pos = tsivy("c3", "e3 f3 d5 i1 i5 h1");
    const Move m = parse_move(pos, vela, "c3d3A");
    CHECK(m.captured == points("e3"));
    pos.make_move(m);
    // Black is down to 5 (f3 d5 i1 i5 h1): it may capture d3 by approach from f3 or d5.
    check_moves(pos, vela, {{"f3e3A", "d3"}, {"d5d4A", "d3"}});
}

TEST_CASE("dimy uses the same rules on the 5x5 board", "[movegen]") {
    const Rules dimy = rules_for(RuleSet::Standard, Variant::Dimy);
    const Position start = Position::start(Variant::Dimy);
    // Into the empty centre c3: b2, c2 and d2 approach the lines beyond c3 (up to the board's
    // edge); b3 approaches d3 (the line stops at White's e3) or withdraws from a3.
    check_moves(start, dimy,
                {{"b2c3A", "d4 e5"},
                 {"c2c3A", "c4 c5"},
                 {"d2c3A", "b4 a5"},
                 {"b3c3A", "d3"},
                 {"b3c3W", "a3"}});
    // e3 is on the east edge of the 5x5 board; b3 is too far for a capture: paika moves only.
    const Position edge = Position::from_string("5/5/1W2B/5/5 b", Variant::Dimy);
    check_moves(edge, dimy, {{"e3e4", ""}, {"e3d3", ""}, {"e3e2", ""}, {"e3d4", ""}, {"e3d2", ""}});
}

TEST_CASE("a position with more moves than a MoveList holds inline", "[movegen]") {
    // 4 white pieces against 22 black: 868 moves, more than kInlineMoves (512): the list moves to
    // the heap and keeps every move, each once, the same set count_moves counts.
    const Position pos =
        Position::from_string("WBB2B2B/B3WBW2/W1BBB1B1B/1BB2BB2/B1BBB1BBB w", Variant::Tsivy);
    CHECK(count_moves(pos, kStandard) == 868);
    MoveList list;
    generate_moves(pos, kStandard, list);
    REQUIRE(list.size() == 868);
    for (int i = 0; i < list.size(); ++i)
        for (int j = i + 1; j < list.size(); ++j) REQUIRE_FALSE(list[i] == list[j]);
    for (const Move& m : list)
        CHECK(parse_move(pos, kStandard, move_to_string(pos, kStandard, m)) == m);
    // A copy is a deep copy, and a list reused for a small position holds just its moves.
    const MoveList copy = list;
    CHECK(copy.size() == 868);
    CHECK(copy[867] == list[867]);
    generate_moves(Position::start(Variant::Tsivy), kStandard, list);
    CHECK(list.size() == count_moves(Position::start(Variant::Tsivy), kStandard));
    // a5 -> b4 approaches c3, b4 -> b3 approaches b2, b3 -> c3 approaches d3 e3, c3 -> b2
    // approaches a1, b2 -> a2 withdraws from c2.
    const Move m = parse_move(pos, kStandard, "a5b4Ab3Ac3Ab2Aa2W");
    CHECK(m.captured == points("c3 b2 d3 e3 a1 c2"));
    CHECK(parse_move(pos, kStandard, move_to_string(pos, kStandard, m)) == m);
    CHECK_THROWS_WITH(parse_move(pos, kStandard, "a5b4"), Catch::Contains("capture is compulsory"));
}
