// Positions: position strings (round trips and every kind of bad input), make/unmake and the
// incremental hash over random games on both boards with all three rule sets.

#include <array>
#include <cstdio>
#include <string>
#include <sys/wait.h>

#include <catch2/catch.hpp>

#include "tests/rules_helpers.h"

using namespace fanorona;
using namespace fanorona::test;

TEST_CASE("position strings of the start positions", "[position]") {
    const Position tsivy_start = Position::start(Variant::Tsivy);
    CHECK(tsivy_start.to_string() == "BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w");
    CHECK(popcount(tsivy_start.pieces(Color::White)) == 22);
    CHECK(popcount(tsivy_start.pieces(Color::Black)) == 22);
    CHECK(tsivy_start.empty() == points("e3"));
    CHECK(tsivy_start.side_to_move() == Color::White);
    CHECK(tsivy_start.player() == tsivy_start.pieces(Color::White));
    CHECK(tsivy_start.turn() == 1);
    CHECK(tsivy_start.turns_since_capture() == 0);

    const Position dimy_start = Position::start(Variant::Dimy);
    CHECK(dimy_start.to_string() == "BBBBB/BBBBB/BW1BW/WWWWW/WWWWW w");
    CHECK(dimy_start.empty() == points("c3", Variant::Dimy));
    CHECK(popcount(dimy_start.pieces(Color::Black)) == 12);
}

TEST_CASE("position strings: sides, counters and case", "[position]") {
    const Position p = Position::from_string("9/9/2W1BB1B1/9/9 b 7 42", Variant::Tsivy);
    CHECK(p.side_to_move() == Color::Black);
    CHECK(p.player() == points("e3 f3 h3"));
    CHECK(p.opponent() == points("c3"));
    CHECK(p.turns_since_capture() == 7);
    CHECK(p.turn() == 42);
    CHECK(p.to_string() == "9/9/2W1BB1B1/9/9 b 7 42");
    CHECK(p.hash() == p.compute_hash());
    // Lower-case pieces and side, surrounding spaces, and runs of empty points written in parts.
    const Position q = Position::from_string("  9/9/2w1bb1b1/9/45 B 7 42 ", Variant::Tsivy);
    CHECK(q == p);
    // The helper used by the rules tests writes the same strings.
    CHECK(board(Variant::Tsivy, "c3", "e3 f3 h3", 'b', "7 42") == "9/9/2W1BB1B1/9/9 b 7 42");
    // Side to move changes the hash; the counters do not.
    CHECK(Position::from_string("9/9/2W1BB1B1/9/9 w", Variant::Tsivy).hash() != p.hash());
    CHECK(Position::from_string("9/9/2W1BB1B1/9/9 b", Variant::Tsivy).hash() == p.hash());
}

TEST_CASE("bad position strings are rejected with the reason", "[position]") {
    struct Bad {
        const char* text;
        Variant variant;
        const char* reason;
    };
    const Bad cases[] = {
        {"", Variant::Tsivy, "empty position string"},
        {"   ", Variant::Tsivy, "empty position string"},
        {"BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW", Variant::Tsivy, "no side to move"},
        {"BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW x", Variant::Tsivy,
         "bad side to move 'x'"},
        {"BBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w", Variant::Tsivy,
         "rank 5 has fewer than 9 points"},
        {"BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWWW/WWWWWWWWW w", Variant::Tsivy,
         "rank 2 has more than 9 points"},
        {"9/9/9/9/9B w", Variant::Tsivy, "rank 1 has more than 9 points"},
        {"9/9/9/9/55 w", Variant::Tsivy, "rank 1 has more than 9 points"},
        {"BBBBXBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w", Variant::Tsivy,
         "bad character 'X' in rank 5"},
        {"9/9/4.4/9/9 w", Variant::Tsivy, "bad character '.' in rank 3"},
        {"9/9/0/9/9 w", Variant::Tsivy, "bad character '0' in rank 3"},
        {"9/9/9/9 w", Variant::Tsivy, "expected 5 ranks for tsivy, found 4"},
        {"9/9/9/9/9/9 w", Variant::Tsivy, "expected 5 ranks for tsivy, found 6"},
        {"5/5/5/5/5 w", Variant::Tsivy, "rank 5 has fewer than 9 points"}, // a dimy board
        {"9/9/9/9/9 w", Variant::Dimy, "rank 5 has more than 5 points"},   // a tsivy board
        {"9/9/9/9/9 w x 3", Variant::Tsivy, "bad turns since capture 'x': not a number"},
        {"9/9/9/9/9 w -1 3", Variant::Tsivy, "bad turns since capture '-1': not a number"},
        {"9/9/9/9/9 w 0 3x", Variant::Tsivy, "bad turn number '3x': not a number"},
        {"9/9/9/9/9 w 0 0", Variant::Tsivy, "bad turn number '0': turns count from 1"},
        {"9/9/9/9/9 w 0 12345678901", Variant::Tsivy, "bad turn number '12345678901': too large"},
        {"9/9/9/9/9 w 0 1 extra", Variant::Tsivy, "too many fields"},
    };
    for (const Bad& bad : cases) {
        INFO("position string '" << bad.text << "'");
        CHECK_THROWS_AS(Position::from_string(bad.text, bad.variant), std::invalid_argument);
        CHECK_THROWS_WITH(Position::from_string(bad.text, bad.variant),
                          Catch::Contains(bad.reason));
    }
}

TEST_CASE("random games: make/unmake, hash and position strings", "[position]") {
    int positions = 0;
    random_games(20240601, 50, 200, [&](const Position& pos, const Rules& rules, MoveList& list) {
        ++positions;
        REQUIRE(pos.hash() == pos.compute_hash());
        const std::string text = pos.to_string();
        REQUIRE(Position::from_string(text, pos.variant()) == pos);
        REQUIRE(count_moves(pos, rules) == list.size());
        Position copy = pos;
        for (const Move& m : list) {
            const UndoInfo undo = copy.make_move(m);
            REQUIRE(copy.hash() == copy.compute_hash());
            REQUIRE(copy.side_to_move() == ~pos.side_to_move());
            REQUIRE(copy.turn() == pos.turn() + 1);
            REQUIRE(copy.turns_since_capture() == (m.captured ? 0 : pos.turns_since_capture() + 1));
            REQUIRE(popcount(copy.player()) == popcount(pos.opponent()) - popcount(m.captured));
            copy.unmake_move(m, undo);
            REQUIRE(copy == pos);
        }
    });
    CHECK(positions > 5000);
}

namespace {

// Runs the command with the shell, stderr joined to stdout; returns the output and exit code.
std::pair<std::string, int> run(const std::string& command) {
    std::string out;
    FILE* pipe = popen((command + " 2>&1").c_str(), "r");
    REQUIRE(pipe != nullptr);
    std::array<char, 256> buffer{};
    while (std::fgets(buffer.data(), int(buffer.size()), pipe)) out += buffer.data();
    const int status = pclose(pipe);
    return {out, WIFEXITED(status) ? WEXITSTATUS(status) : -1};
}

} // namespace

TEST_CASE("fanorona perft rejects a bad --fen with one line", "[position][cli]") {
    const std::string bin = FANORONA_BINARY;
    for (const char* fen : {"BBBB w", "9/9/9/9/9", "9/9/4X4/9/9 w", "9/9/9/9/9 w 0 0"}) {
        const auto [out, code] = run(bin + " perft --depth 1 --fen '" + fen + "'");
        INFO("fen '" << fen << "' gave: " << out);
        CHECK(code == 1);
        CHECK(out.rfind("fanorona: --fen: ", 0) == 0);
        CHECK(std::count(out.begin(), out.end(), '\n') == 1);
    }
    const auto [out, code] = run(bin + " perft --depth 2 --fen '9/9/2W1BB1B1/9/9 w'");
    CHECK(code == 0);
    CHECK(out.find("depth 1 nodes 1\n") != std::string::npos);
}

TEST_CASE("a position string with control characters gets a one-line error", "[position]") {
    // Found by the position fuzz target (tests/fuzz/corpus/position/regress_newline_in_rank):
    // the message quoted the bad character, a line break, and so broke the one-line error.
    for (const std::string& text : {std::string("9/9/4W4/9/4\nB4 b"), std::string("9/9/9/9/9 \x01"),
                                    std::string("9/9/9/9/9 w 1\t2 3")}) {
        try {
            (void)Position::from_string(text, Variant::Tsivy);
            FAIL("accepted: " << text);
        } catch (const std::invalid_argument& e) {
            const std::string what = e.what();
            CHECK(what.find_first_of("\n\r\t\x01") == std::string::npos);
            CHECK(what.find("\\x") != std::string::npos);
        }
    }
}
