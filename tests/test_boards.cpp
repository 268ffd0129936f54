// Board sizes beyond tsivy and dimy (docs/rules.md "Other board sizes"): the variant names, the
// geometry of tall, wide and off-centre boards, start positions, position and move strings with
// ranks and runs past 9, the table-driven capture scan against the windowed one, and perft.

#include <random>
#include <string>

#include <catch2/catch.hpp>

#include "core/board/perft.h"
#include "core/board/walk_tables.h"
#include "tests/rules_helpers.h"

using namespace fanorona;

namespace {

Variant variant(const char* name) {
    const auto v = parse_variant(name);
    REQUIRE(v);
    return *v;
}

std::uint64_t perft_start(const char* name, int depth) {
    Rules rules;
    rules.variant = variant(name);
    Position pos = Position::start(rules.variant);
    return perft(pos, rules, depth);
}

// Plays `games` random games of up to `turns` turns; checks on every move that the move string
// reads back as the move, and on every position that its string reads back as the position.
void check_round_trips(Variant v, std::uint32_t seed, int games, int turns) {
    std::mt19937 rng(seed);
    Rules rules;
    rules.variant = v;
    MoveList list;
    for (int g = 0; g < games; ++g) {
        Position pos = Position::start(v);
        for (int t = 0; t < turns; ++t) {
            REQUIRE(Position::from_string(pos.to_string(), v) == pos);
            generate_moves(pos, rules, list);
            if (list.empty()) break;
            for (const Move& m : list) {
                const std::string text = move_to_string(pos, rules, m);
                REQUIRE(parse_move(pos, rules, text) == m);
            }
            const Move m = list[int(rng() % std::uint32_t(list.count))];
            const Position before = pos;
            const UndoInfo undo = pos.make_move(m);
            REQUIRE(pos.hash() == pos.compute_hash());
            Position back = pos;
            back.unmake_move(m, undo);
            REQUIRE(back == before);
        }
    }
}

} // namespace

TEST_CASE("variant names: every size, tsivy and dimy printed as before", "[boards]") {
    CHECK(parse_variant("5x9") == Variant::Tsivy);
    CHECK(parse_variant("5x5") == Variant::Dimy);
    CHECK(variant_name(Variant::Tsivy) == "tsivy");
    CHECK(variant_name(Variant::Dimy) == "dimy");
    CHECK(variant_name(Variant::Telo) == "telo");
    CHECK(variant_name(variant("7x9")) == "7x9");
    CHECK(variant_name(variant("21x3")) == "21x3");
    int sizes = 0;
    for (int r = 1; r <= 70; ++r)
        for (int c = 1; c <= 70; ++c) {
            const std::string name = std::to_string(r) + "x" + std::to_string(c);
            const bool legal = r % 2 && c % 2 && r >= 3 && c >= 3 && r * c <= 64;
            INFO(name);
            REQUIRE(parse_variant(name).has_value() == legal);
            if (!legal) continue;
            ++sizes;
            const Geometry& g = geometry(*parse_variant(name));
            CHECK(g.height == r);
            CHECK(g.width == c);
            CHECK(popcount(g.board) == r * c);
            CHECK(!(g.board >> 63));
        }
    CHECK(sizes == kVariantCount - 1); // and telo
    for (const char* bad : {"", "3x", "x3", "4x5", "5x13", "3x23", "03x3", "TSIVY", "5X9", "tel"})
        CHECK(!parse_variant(bad));
}

TEST_CASE("tsivy and dimy keep the 9-wide point layout", "[boards]") {
    CHECK(geometry(Variant::Tsivy).stride == 9);
    CHECK(geometry(Variant::Dimy).stride == 9);
    CHECK(parse_square("i5", Variant::Tsivy) == 44);
    CHECK(parse_square("e5", Variant::Dimy) == 40);
    CHECK(geometry(variant("7x9")).stride == 9);
    CHECK(geometry(variant("9x5")).stride == 5);
    CHECK(geometry(variant("3x21")).stride == 21);
    CHECK(geometry(variant("5x11")).stride == 11);
}

TEST_CASE("geometry of 7x9: the centre is not strong", "[boards]") {
    const Variant v = variant("7x9");
    const Geometry& g = geometry(v);
    const Square centre = parse_square("e4", v);
    CHECK(!(g.strong & bit(centre)));
    CHECK((g.strong & bit(parse_square("a1", v))));
    CHECK((g.strong & bit(parse_square("d4", v))));
    CHECK(popcount(g.strong) == 32); // 63 points, corners strong
    // e4 (weak) has its four orthogonal neighbours only; d4 (strong) has eight.
    int e4 = 0, d4 = 0;
    for (int d = 0; d < kDirections; ++d) {
        e4 += g.neighbor[d][centre] != kNoSquare;
        d4 += g.neighbor[d][parse_square("d4", v)] != kNoSquare;
    }
    CHECK(e4 == 4);
    CHECK(d4 == 8);
    CHECK(g.neighbor[North][parse_square("i7", v)] == kNoSquare);
    CHECK(g.neighbor[NorthEast][parse_square("h6", v)] == parse_square("i7", v));
    CHECK(Position::start(v).to_string() ==
          "BBBBBBBBB/BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW/WWWWWWWWW w");
}

TEST_CASE("geometry of 9x5 and 3x21: rows do not wrap", "[boards]") {
    const Variant tall = variant("9x5");
    const Geometry& g = geometry(tall);
    const Square e1 = parse_square("e1", tall), a2 = parse_square("a2", tall);
    CHECK(a2 == e1 + 1); // stride 5: a2 follows e1 in the index
    CHECK(g.neighbor[East][e1] == kNoSquare);
    CHECK(g.neighbor[West][a2] == kNoSquare);
    CHECK(g.neighbor[NorthEast][e1] == kNoSquare);
    CHECK(g.neighbor[North][parse_square("c9", tall)] == kNoSquare);
    CHECK(g.neighbor[South][parse_square("c9", tall)] == parse_square("c8", tall));
    CHECK(g.shift(bit(e1), East) == 0);
    CHECK(Position::start(tall).to_string() ==
          "BBBBB/BBBBB/BBBBB/BBBBB/BW1BW/WWWWW/WWWWW/WWWWW/WWWWW w");

    const Variant wide = variant("3x21");
    const Geometry& w = geometry(wide);
    const Square u1 = parse_square("u1", wide);
    CHECK(u1 == 20);
    CHECK(w.neighbor[East][u1] == kNoSquare);
    CHECK(w.neighbor[NorthWest][u1] == parse_square("t2", wide));
    CHECK(w.neighbor[North][parse_square("u3", wide)] == kNoSquare);
    CHECK(Position::start(wide).to_string() ==
          "BBBBBBBBBBBBBBBBBBBBB/BWBWBWBWBW1BWBWBWBWBW/WWWWWWWWWWWWWWWWWWWWW w");
}

TEST_CASE("point names and position strings past 9", "[boards]") {
    const Variant tall = variant("21x3");
    CHECK(parse_square("a10", tall) == geometry(tall).square(0, 9));
    CHECK(parse_square("C21", tall) == geometry(tall).square(2, 20));
    CHECK(square_name(geometry(tall).square(1, 13), tall) == "b14");
    for (const char* bad : {"a22", "a0", "a01", "d1", "a", "a1x", "a100"})
        CHECK(parse_square(bad, tall) == kNoSquare);

    const Variant wide = variant("3x21");
    const Position p = Position::from_string("B20/10W10/21 b 3 9", wide);
    CHECK(p.to_string() == "B20/10W10/21 b 3 9");
    CHECK(p.pieces(Color::White) == bit(parse_square("k2", wide)));
    CHECK(p.pieces(Color::Black) == bit(parse_square("a3", wide)));
    CHECK_THROWS_WITH(Position::from_string("B21/21/21 w", wide), "rank 3 has more than 21 points");
    CHECK_THROWS_WITH(Position::from_string("B19/21/21 w", wide),
                      "rank 3 has fewer than 21 points");
    CHECK_THROWS_WITH(Position::from_string("B02/21/21 w", wide), "bad character '0' in rank 3");
    // On boards up to 9 files every digit is its own run, as always.
    CHECK(Position::from_string("9/9/2W1BB1B1/9/45 w", Variant::Tsivy).to_string() ==
          "9/9/2W1BB1B1/9/9 w");
}

TEST_CASE("moves and positions read back on tall and wide boards", "[boards]") {
    check_round_trips(variant("21x3"), 1, 20, 80);
    check_round_trips(variant("3x21"), 2, 20, 80);
    check_round_trips(variant("9x5"), 3, 20, 80);
    check_round_trips(variant("7x9"), 4, 10, 80);
    const Variant tall = variant("21x3");
    const Rules rules{tall};
    const Position pos =
        Position::from_string("3/3/3/3/3/3/3/3/1B1/1W1/3/3/3/3/3/3/3/3/3/3/3 w", tall);
    CHECK_THROWS_WITH(parse_move(pos, rules, "b12a12"),
                      "b12 to a12 is a paika move, but capture is compulsory");
    const Move m = parse_move(pos, rules, "b12b11W");
    CHECK(m.captured == bit(parse_square("b13", tall)));
    CHECK(move_to_string(pos, rules, m) == "b12b11W");
}

TEST_CASE("the table-driven capture scan agrees with the windowed one", "[boards]") {
    // Every board with a stride up to 14 has the windowed scan: the 9-wide layout (tsivy, 5x7,
    // 7x5, 3x9, ...) and the tall and wide ones with their own stride (9x3, 9x5, 9x7, 3x11, 5x11).
    std::mt19937_64 rng(5);
    int windowed = 0;
    for (int index = 0; index < kVariantCount; ++index) {
        const Variant v = Variant(index);
        const walk::WalkTables& t = walk::walk_tables(v);
        INFO(variant_name(v) << ", stride " << geometry(v).stride);
        REQUIRE(t.windowed == (geometry(v).stride <= walk::kMaxWindowStride));
        if (!t.windowed) continue;
        ++windowed;
        const Bitboard board = geometry(v).board;
        int differ = 0, approaches = 0, withdrawals = 0;
        for (int i = 0; i < 1000; ++i) {
            const Bitboard a = rng() & board, b = rng() & rng() & board & ~a;
            for (Bitboard s = board; s;) {
                const Square sq = pop_lsb(s);
                const walk::NodeCaptures w = walk::node_captures(t, sq, a, b);
                const walk::NodeCaptures tb = walk::node_captures_by_table(t, sq, a, b);
                differ += w.approach != tb.approach || w.withdraw != tb.withdraw;
                approaches += w.approach != 0;
                withdrawals += w.withdraw != 0;
            }
        }
        CHECK(differ == 0);
        CHECK(approaches > 100);
        CHECK(withdrawals > 100);
    }
    CHECK(windowed == kVariantCount - 4); // all but 3x15, 3x17, 3x19 and 3x21
    CHECK(walk::walk_tables(variant("9x3")).windowed);
    CHECK(!walk::walk_tables(variant("3x15")).windowed);
}

TEST_CASE("perft on the boards of other strides is unchanged by the windowed scan",
          "[boards][perft]") {
    // Counted by the table-driven scan before these boards had the windowed one (docs/rules.md has
    // no reference values for them); 3x15 still takes the table-driven scan.
    struct Row {
        const char* size;
        int depth;
        std::uint64_t nodes;
    };
    const Row rows[] = {
        {"9x3", 9, 1021028}, {"9x5", 5, 154483},  {"9x7", 4, 27941},   {"11x3", 7, 344229},
        {"11x5", 4, 12541},  {"13x3", 7, 68358},  {"21x3", 6, 22339},  {"3x11", 6, 117019},
        {"5x11", 4, 18392},  {"3x13", 6, 145629}, {"3x15", 6, 133884}, {"3x9", 7, 898787},
    };
    for (const Row& r : rows) {
        INFO(r.size << " depth " << r.depth);
        CHECK(perft_start(r.size, r.depth) == r.nodes);
    }
}

TEST_CASE("perft of the other board sizes matches docs/rules.md", "[boards][perft]") {
    struct Row {
        const char* size;
        std::vector<std::uint64_t> counts; // from depth 1
    };
    const Row rows[] = {
        {"3x3", {4, 7, 14, 67, 137, 280, 744, 1497}},
        {"3x5", {3, 16, 89, 496, 2529, 11378, 41155, 131198}},
        {"5x3", {2, 5, 20, 87, 320, 987, 3331, 9467}},
        {"3x7", {5, 20, 112, 882, 6656, 49087, 330697}},
        {"7x3", {4, 15, 51, 406, 2545, 12970, 63572}},
        {"5x7", {3, 31, 544, 11288, 227060}},
        {"7x5", {3, 21, 381, 7072, 92228, 955726}},
        {"7x7", {5, 37, 592, 20137, 502419}},
        {"7x9", {3, 31, 809, 26794, 895901}},
    };
    for (const Row& r : rows)
        for (std::size_t d = 1; d <= r.counts.size(); ++d) {
            INFO(r.size << " depth " << d);
            CHECK(perft_start(r.size, int(d)) == r.counts[d - 1]);
        }
}

TEST_CASE("perft of the other board sizes matches docs/rules.md, deep", "[boards][perft][slow]") {
    CHECK(perft_start("3x7", 8) == 2022279);
    CHECK(perft_start("7x3", 8) == 290665);
    CHECK(perft_start("5x7", 6) == 3444830);
    CHECK(perft_start("7x5", 7) == 7354062);
    CHECK(perft_start("7x7", 6) == 10299189);
    CHECK(perft_start("7x9", 6) == 22859408);
}
