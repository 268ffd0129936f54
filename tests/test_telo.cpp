// Fanoron-telo (--variant telo): placements and steps through the one move generator, perft
// against a brute force written here from the rules alone, won positions, the search finding
// forced wins, and a protocol session.

#include <array>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "core/board/game.h"
#include "core/board/notation.h"
#include "core/board/perft.h"
#include "core/evaluate.h"
#include "core/search.h"
#include "core/weights.h"
#include "selfplay/engine/protocol_server.h"

using namespace fanorona;

namespace {

// An independent model of the 3x3 board: cell x + 3y, 0 empty, 1 White, 2 Black.
struct Board {
    std::array<int, 9> cell{};
    int side = 1; // to move
};

bool adjacent(int a, int b) {
    const int ax = a % 3, ay = a / 3, bx = b % 3, by = b / 3;
    const int dx = ax > bx ? ax - bx : bx - ax, dy = ay > by ? ay - by : by - ay;
    if (dx + dy == 1) return true;
    return dx == 1 && dy == 1 && (ax + ay) % 2 == 0; // diagonal lines join strong points
}

bool three(const Board& b, int who) {
    static const int lines[8][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6},
                                    {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}};
    for (const auto& l : lines)
        if (b.cell[l[0]] == who && b.cell[l[1]] == who && b.cell[l[2]] == who) return true;
    return false;
}

// Moves as (from, to); from == to places.
std::vector<std::pair<int, int>> moves_of(const Board& b) {
    std::vector<std::pair<int, int>> out;
    if (three(b, 3 - b.side)) return out;
    int mine = 0;
    for (int c : b.cell) mine += c == b.side;
    for (int from = 0; from < 9; ++from) {
        if (mine < 3) {
            if (b.cell[from] == 0) out.push_back({from, from});
            continue;
        }
        if (b.cell[from] != b.side) continue;
        for (int to = 0; to < 9; ++to)
            if (b.cell[to] == 0 && adjacent(from, to)) out.push_back({from, to});
    }
    return out;
}

Board play(Board b, std::pair<int, int> m) {
    b.cell[m.first] = 0;
    b.cell[m.second] = b.side;
    b.side = 3 - b.side;
    return b;
}

std::uint64_t brute_perft(const Board& b, int depth) {
    if (depth == 0) return 1;
    std::uint64_t n = 0;
    for (const auto& m : moves_of(b)) n += brute_perft(play(b, m), depth - 1);
    return n;
}

// True when the side to move wins within `plies` plies against any defence.
bool brute_wins(const Board& b, int plies) {
    if (plies <= 0) return false;
    for (const auto& m : moves_of(b)) {
        const Board next = play(b, m);
        const auto replies = moves_of(next);
        if (replies.empty()) return true;
        if (plies < 3) continue;
        bool all = true;
        for (const auto& r : replies) all = all && brute_wins(play(next, r), plies - 2);
        if (all) return true;
    }
    return false;
}

Position to_position(const Board& b) {
    Bitboard white = 0, black = 0;
    const Geometry& g = geometry(Variant::Telo);
    for (int c = 0; c < 9; ++c) {
        if (b.cell[c] == 1) white |= bit(g.square(c % 3, c / 3));
        if (b.cell[c] == 2) black |= bit(g.square(c % 3, c / 3));
    }
    return Position::from_pieces(Variant::Telo, white, black,
                                 b.side == 1 ? Color::White : Color::Black);
}

const Rules kTelo{Variant::Telo};

} // namespace

TEST_CASE("telo: start, placements and steps", "[telo]") {
    const Position start = Position::start(Variant::Telo);
    CHECK(start.to_string() == "3/3/3 w");
    CHECK(count_moves(start, kTelo) == 9);
    Game game(kTelo, start);
    CHECK(!game.outcome().over());
    for (const char* m : {"b2", "a1", "c3", "c1", "b1"}) game.play(m);
    CHECK(game.position().to_string() == "2W/1W1/BWB b 5 6");
    CHECK_THROWS_WITH(game.play("a1a2"), "a1 to a2: pieces are still being placed, or the game "
                                         "is over");
    CHECK_THROWS_AS(game.play("b2"), MoveError);
    game.play("a3");
    // Placing is over: steps along lines to an empty neighbour only.
    const Position& p = game.position();
    CHECK(count_moves(p, kTelo) == 5); // b2: a2 c2 b3; c3: b3 c2; b1 (weak) is blocked
    MoveList list;
    generate_moves(p, kTelo, list);
    for (const Move& m : list) {
        CHECK(m.from != m.to);
        CHECK(parse_move(p, kTelo, move_to_string(p, kTelo, m)) == m);
    }
    CHECK_THROWS_AS(game.play("c2"), MoveError);
    game.play("b2a2");
    CHECK(game.position().to_string() == "B1W/W2/BWB b 7 8");
}

TEST_CASE("telo: perft equals a brute force from the rules", "[telo][perft]") {
    Position start = Position::start(Variant::Telo);
    for (int d = 1; d <= 8; ++d) {
        INFO("depth " << d);
        CHECK(perft(start, kTelo, d) == brute_perft(Board{}, d));
    }
}

TEST_CASE("telo: three in a row wins", "[telo]") {
    // White has a1 b1 c1: Black, to move, has lost.
    const Position won = Position::from_string("BB1/1B1/WWW b 0 7", Variant::Telo);
    CHECK(count_moves(won, kTelo) == 0);
    const Game game(kTelo, won);
    CHECK(game.outcome() == Outcome{GameResult::WhiteWins, EndReason::ThreeInRow});
    CHECK(end_reason_name(EndReason::ThreeInRow) == "three-in-a-row");
    // The diagonals are lines too (corners and centre are strong).
    const Position diag = Position::from_string("W1B/BWB/2W b 0 7", Variant::Telo);
    CHECK(count_moves(diag, kTelo) == 0);
    // The evaluation of telo is 0.
    CHECK(evaluate(Position::from_string("2W/1W1/BWB b 5 6", Variant::Telo), kTelo,
                   handset_weights()) == 0);
}

TEST_CASE("telo: the search finds forced wins the brute force finds", "[telo][search]") {
    // Random positions from random games: where the brute force sees a forced win in 1 or 3
    // plies (and none in 1 for the second kind), the search must score exactly that win.
    std::uint32_t state = 12345;
    auto next = [&state] { return state = state * 1664525u + 1013904223u; };
    Searcher searcher(1);
    int in_one = 0, in_three = 0;
    for (int game = 0; game < 200 && (in_one < 5 || in_three < 5); ++game) {
        Board b;
        for (int ply = 0; ply < 12; ++ply) {
            const auto ms = moves_of(b);
            if (ms.empty()) break;
            const int win = brute_wins(b, 1) ? 1 : brute_wins(b, 3) ? 3 : 0;
            if (win && ((win == 1 && in_one < 5) || (win == 3 && in_three < 5))) {
                (win == 1 ? in_one : in_three)++;
                searcher.clear();
                SearchLimits limits;
                limits.depth = 5;
                const SearchResult r = searcher.search(Game(kTelo, to_position(b)), limits);
                INFO(to_position(b).to_string());
                CHECK(r.score == kWinScore - win);
            }
            b = play(b, ms[next() % ms.size()]);
        }
    }
    CHECK(in_one == 5);
    CHECK(in_three == 5);
}

TEST_CASE("telo: an engine protocol session", "[telo][protocol]") {
    std::istringstream in("uci\nsetoption name Variant value telo\nisready\n"
                          "position startpos moves b2 a1 c3\ngo depth 6\n");
    std::ostringstream out;
    {
        EngineProtocol protocol(in, out, EngineSpec{});
        protocol.run();
    }
    const std::string text = out.str();
    INFO(text);
    REQUIRE(text.find("var telo") != std::string::npos);
    const auto at = text.rfind("bestmove ");
    REQUIRE(at != std::string::npos);
    std::string best = text.substr(at + 9);
    best = best.substr(0, best.find_first_of(" \n"));
    // Black must block c3-b2-a1's twin: White threatens nothing yet, but the answer is a legal
    // placement (a point alone).
    Game game(kTelo, Position::start(Variant::Telo));
    for (const char* m : {"b2", "a1", "c3"}) game.play(m);
    CHECK(best.size() == 2);
    CHECK_NOTHROW(game.play(best));
}

TEST_CASE("telo: White wins from the start in 9 plies, as the brute force finds",
          "[telo][search]") {
    CHECK(brute_wins(Board{}, 9));
    CHECK(!brute_wins(Board{}, 7));
    Searcher searcher(4);
    SearchLimits limits;
    limits.depth = 11;
    const SearchResult r = searcher.search(Game(kTelo, Position::start(Variant::Telo)), limits);
    CHECK(r.score == kWinScore - 9);
}
