// Tests of the endgame tables: the combinatorial index, the files (checksums, corruption), and
// the values of a whole small build checked against a brute-force solution of the game with the
// no-capture counter (and without the limit), computed here independently of the builder.

#include <array>
#include <filesystem>
#include <fstream>
#include <map>
#include <unordered_map>

#include <catch2/catch.hpp>

#include "cli_helpers.h"
#include "core/board/movegen.h"
#include "core/common/files.h"
#include "core/endgame.h"
#include "core/search.h"
#include "core/tables/builder.h"
#include "core/tables/material_index.h"
#include "core/tables/tablebase.h"
#include "core/tables/verify.h"
#include "selfplay/engine/engine_spec.h"
#include "selfplay/games/adjudication.h"
#include "tuner/dataset.h"
#include "tuner/texel/synthetic.h"

using namespace fanorona;

namespace {

struct PosKey {
    Bitboard mover, other;
    bool operator==(const PosKey&) const = default;
};
struct PosKeyHash {
    std::size_t operator()(const PosKey& k) const {
        return k.mover * 0x9E3779B97F4A7C15ULL ^ k.other;
    }
};

// Every placement of `a` mover pieces and `b` opponent pieces on the board, by plain recursion.
void placements(Variant v, int a, int b, std::vector<PosKey>& out) {
    std::vector<Square> points;
    for (Bitboard bb = geometry(v).board; bb;) points.push_back(pop_lsb(bb));
    std::function<void(std::size_t, int, int, Bitboard, Bitboard)> rec =
        [&](std::size_t i, int ra, int rb, Bitboard m, Bitboard o) {
            if (ra == 0 && rb == 0) {
                out.push_back({m, o});
                return;
            }
            if (i == points.size()) return;
            rec(i + 1, ra, rb, m, o);
            if (ra > 0) rec(i + 1, ra - 1, rb, m | bit(points[i]), o);
            if (rb > 0) rec(i + 1, ra, rb - 1, m, o | bit(points[i]));
        };
    rec(0, a, b, 0, 0);
}

// The game with the no-capture counter, solved directly: value[c] for c = 0..100 turns since the
// last capture (+1 win, 0 draw, -1 loss for the side to move), and the value without the limit
// (endless play a draw) by iteration to a fixpoint.
struct BruteForce {
    Variant v;
    int limit = kTableTurnLimit;
    std::unordered_map<PosKey, std::array<std::int8_t, kTableTurnLimit + 1>, PosKeyHash> limited;
    std::unordered_map<PosKey, std::int8_t, PosKeyHash> unlimited;

    Position position(const PosKey& k) const {
        return Position::from_pieces(v, k.mover, k.other, Color::White);
    }
    static PosKey key_of(const Position& p) { return {p.player(), p.opponent()}; }

    void solve(int pieces) {
        const Rules rules{v};
        for (int total = 2; total <= pieces; ++total) {
            std::vector<PosKey> all;
            for (int a = 1; a < total; ++a) placements(v, a, total - a, all);
            for (const PosKey& k : all) limited[k];
            for (int c = limit; c >= 0; --c)
                for (const PosKey& k : all) {
                    const Position pos = position(k);
                    MoveList list;
                    generate_moves(pos, rules, list);
                    int best = -1;
                    if (!list.empty() && c >= limit) best = 0;
                    if (!list.empty() && c < limit)
                        for (const Move& m : list) {
                            Position next = pos;
                            next.make_move(m);
                            const int r = !next.player() ? 1
                                          : m.is_capture()
                                              ? -limited.at(key_of(next))[0]
                                              : -limited.at(key_of(next))[std::size_t(c + 1)];
                            best = std::max(best, r);
                        }
                    limited[k][std::size_t(c)] = std::int8_t(best);
                }
            for (const PosKey& k : all) unlimited[k] = 0;
            for (bool changed = true; changed;) {
                changed = false;
                for (const PosKey& k : all) {
                    if (unlimited[k] != 0) continue;
                    const Position pos = position(k);
                    MoveList list;
                    generate_moves(pos, rules, list);
                    bool win = false, all_lose = true;
                    for (const Move& m : list) {
                        Position next = pos;
                        next.make_move(m);
                        const int r = !next.player() ? 1 : -unlimited.at(key_of(next));
                        win = win || r == 1;
                        all_lose = all_lose && r == -1;
                    }
                    const int value = win ? 1 : all_lose ? -1 : 0;
                    if (value != 0) {
                        unlimited[k] = std::int8_t(value);
                        changed = true;
                    }
                }
            }
        }
    }
};

std::string build_dir(const std::string& name, Variant v, int pieces, int limit = kTableTurnLimit) {
    const std::string dir = test_cli::fresh_dir(name);
    tables::build_tables({v, pieces, dir, limit}, {});
    return dir;
}

// Builds tables and checks every position's value, at every counter, against the brute force;
// returns the number of positions per TableClass.
std::array<int, 5> check_against_brute_force(Variant variant, int pieces, int limit) {
    const std::string dir = build_dir("tables_brute", variant, pieces, limit);
    const tables::Tablebase tb(dir);
    REQUIRE(tb.max_pieces(variant) == pieces);
    REQUIRE(tb.turn_limit() == limit);
    BruteForce bf{variant, limit, {}, {}};
    bf.solve(pieces);
    Rules limited{variant};
    limited.no_capture_limit = limit;
    Rules unlimited{variant};
    unlimited.no_capture_limit = 0;
    std::array<int, 5> classes{};
    for (const auto& [k, values] : bf.limited) {
        const Position pos = bf.position(k);
        const auto v = tb.probe(pos);
        REQUIRE(v);
        ++classes[std::size_t(v->cls)];
        for (int c = 0; c <= limit; ++c) {
            INFO(pos.to_string() << " counter " << c << " class " << int(v->cls) << " distance "
                                 << v->distance);
            REQUIRE(table_outcome(*v, limited, c) == values[std::size_t(c)]);
        }
        INFO(pos.to_string() << " class " << int(v->cls) << " distance " << v->distance);
        REQUIRE(table_outcome(*v, unlimited, 0) == bf.unlimited.at(k));
    }
    for (const auto& r : tables::verify_tables(tb, {})) REQUIRE(r.errors == 0);
    return classes;
}

} // namespace

TEST_CASE("The combinatorial index is a bijection onto 0..size-1", "[tables]") {
    for (Variant v : {Variant::Dimy, Variant::Tsivy}) {
        const tables::MaterialIndex mi(v, 2, 1);
        std::vector<PosKey> all;
        placements(v, 2, 1, all);
        REQUIRE(all.size() == mi.size());
        std::vector<bool> seen(mi.size());
        for (const PosKey& k : all) {
            const std::uint64_t i = mi.index(k.mover, k.other);
            REQUIRE(i < mi.size());
            REQUIRE_FALSE(seen[i]);
            seen[i] = true;
            Bitboard m, o;
            mi.decode(i, m, o);
            REQUIRE(m == k.mover);
            REQUIRE(o == k.other);
        }
    }
    CHECK(tables::MaterialIndex(Variant::Tsivy, 3, 3).size() == 14190ULL * 11480ULL);
}

TEST_CASE("Tables agree with a brute-force solution with the no-capture counter", "[tables]") {
    const auto classes = check_against_brute_force(Variant::Dimy, 3, kTableTurnLimit);
    // The material is varied enough for the check to mean something.
    CHECK(classes[int(TableClass::Win)] > 1000);
    CHECK(classes[int(TableClass::Loss)] > 100);
    CHECK(classes[int(TableClass::Draw)] > 100);
}

// 9x3 does not fit the 9-wide layout (stride 3): the move generator's table-driven path.
TEST_CASE("Tables of other board sizes agree with the brute force", "[tables][boards]") {
    const auto classes = check_against_brute_force(*parse_variant("9x3"), 2, kTableTurnLimit);
    CHECK(classes[int(TableClass::Win)] > 100);
    CHECK(classes[int(TableClass::Loss)] > 10);
}

TEST_CASE("Tables of other board sizes agree with the brute force, 3 pieces",
          "[tables][boards][slow]") {
    const auto classes = check_against_brute_force(*parse_variant("9x3"), 3, kTableTurnLimit);
    CHECK(classes[int(TableClass::Win)] > 100);
    CHECK(classes[int(TableClass::Loss)] > 10);
}

TEST_CASE("Cursed wins and blessed losses agree with the brute force under a short limit",
          "[tables]") {
    // With a 5-turn limit many wins of 5x5 2v1 take too long: cursed wins and blessed losses.
    const auto classes = check_against_brute_force(Variant::Dimy, 3, 5);
    CHECK(classes[int(TableClass::CursedWin)] > 10);
    CHECK(classes[int(TableClass::BlessedLoss)] > 10);
    CHECK(classes[int(TableClass::Win)] > 100);
}

TEST_CASE("Verify finds no error in a fresh build and finds a changed value", "[tables]") {
    const std::string dir = build_dir("tables_verify", Variant::Dimy, 3);
    {
        const tables::Tablebase tb(dir);
        for (const auto& r : tables::verify_tables(tb, {})) CHECK(r.errors == 0);
        // The best moves of a position lead to its own value.
        const Position pos = Position::from_string("5/5/1W3/5/B3W w", Variant::Dimy);
        const auto moves = rank_table_moves(tb, pos);
        REQUIRE(moves);
        CHECK(moves->front().value == *tb.probe(pos));
    }
    // A flipped byte in a file is found: at opening (header) or by the checksum.
    const std::string path = dir + "/dimy-2v1.fntb";
    std::string bytes = test_cli::slurp(path);
    bytes[bytes.size() / 2] ^= 0x40;
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
    bool found = false;
    try {
        const tables::Tablebase tb(dir);
        for (const auto& r : tables::verify_tables(tb, {}))
            found = found || (r.mover == 2 && r.other == 1 &&
                              r.status == tables::VerifyStatus::Corrupt && !r.reason.empty());
    } catch (const FileError& e) {
        found = std::string(e.what()).rfind(path, 0) == 0;
    }
    CHECK(found);
}

TEST_CASE("A build resumes: finished materials are kept", "[tables]") {
    const std::string dir = test_cli::fresh_dir("tables_resume");
    tables::build_tables({Variant::Dimy, 2, dir, kTableTurnLimit}, {});
    const auto before = std::filesystem::last_write_time(dir + "/dimy-1v1.fntb");
    const auto reports = tables::build_tables({Variant::Dimy, 3, dir, kTableTurnLimit}, {});
    CHECK(std::filesystem::last_write_time(dir + "/dimy-1v1.fntb") == before);
    int reused = 0;
    for (const auto& r : reports) reused += r.reused;
    CHECK(reused == 1);
    CHECK(tables::Tablebase(dir).max_pieces(Variant::Dimy) == 3);
}

TEST_CASE("The search probes the tables: exact scores and the best-ranked root moves", "[tables]") {
    const std::string dir = build_dir("tables_search", Variant::Dimy, 3);
    const auto tb = tables::open_tables(dir);
    const Position pos = Position::from_string("5/5/1W3/5/B3W w", Variant::Dimy);
    const auto ranked = rank_table_moves(*tb, pos);
    REQUIRE(ranked);
    REQUIRE(ranked->front().value.cls == TableClass::Win);
    const Game game(Rules{Variant::Dimy}, pos);
    Searcher searcher(1);
    searcher.set_tables(tb);
    SearchLimits limits;
    limits.depth = 3;
    const SearchResult r = searcher.search(game, limits);
    REQUIRE(r.has_move);
    bool best = false;
    for (const TableMove& m : *ranked)
        best = best || (m.move == r.best && m.value == ranked->front().value);
    CHECK(best);
    CHECK(r.score > kTableWinScore - kTableBand);
    CHECK(r.table_hits > 0);
    // Under other rules the tables are not used.
    Rules vela{Variant::Dimy};
    vela.ruleset = RuleSet::Vela;
    CHECK_FALSE(tb->serve(vela));
    const SearchResult v = searcher.search(Game(vela, pos), limits);
    CHECK(v.table_hits == 0);
}

TEST_CASE("Table adjudication ends a game with the tables' result", "[tables]") {
    const std::string dir = build_dir("tables_adjudicate", Variant::Dimy, 3);
    const auto tb = tables::open_tables(dir);
    const TableAdjudicator by_tables(tb.get());
    // Black to move with one piece against two: the tables' value decides.
    const Position pos = Position::from_string("5/5/1W3/5/B3W b", Variant::Dimy);
    const auto v = tb->probe(pos);
    REQUIRE(v);
    const auto outcome = by_tables.check(Game(Rules{Variant::Dimy}, pos));
    REQUIRE(outcome);
    CHECK(outcome->reason == EndReason::Tables);
    const int o = table_outcome(*v, Rules{Variant::Dimy}, 0);
    CHECK(outcome->result == (o == 0  ? GameResult::Draw
                              : o > 0 ? GameResult::BlackWins
                                      : GameResult::WhiteWins));
    // Four pieces are not in 3-piece tables; the start position neither.
    CHECK_FALSE(by_tables.check(Game(Rules{Variant::Dimy}, Position::start(Variant::Dimy))));
}

TEST_CASE("Engine specs take tables=DIR once, and refuse other rules", "[tables]") {
    const std::string dir = build_dir("tables_spec", Variant::Dimy, 2);
    EngineSpec spec = EngineSpec::parse("name=T,depth=2,tables=" + dir);
    CHECK(spec.tables);
    CHECK(spec.description().find("tables=" + dir) != std::string::npos);
    CHECK(EngineSpec::parse("name=U,depth=2,tables=" + dir).tables == spec.tables);
    Rules vela{Variant::Dimy};
    vela.ruleset = RuleSet::Vela;
    CHECK_THROWS_WITH(spec.check_rules(vela), Catch::Contains("standard rules"));
    CHECK_NOTHROW(spec.check_rules(Rules{Variant::Dimy}));
    CHECK_THROWS_WITH(EngineSpec::parse("name=T,tables=" + dir + "/missing"),
                      Catch::Contains("missing"));
}

TEST_CASE("fanorona tables: build, stats, probe, verify and errors", "[tables][cli]") {
    const std::string dir = test_cli::fresh_dir("tables_cli");
    auto r = test_cli::run_cli("tables build --variant dimy --pieces 3 --tables " + dir);
    REQUIRE(r.status == 0);
    CHECK(r.output.find("dimy 2v1") != std::string::npos);
    r = test_cli::run_cli("tables stats --json --tables " + dir);
    REQUIRE(r.status == 0);
    CHECK(r.output.find("\"material\": \"2v1\"") != std::string::npos);
    r = test_cli::run_cli("tables probe --variant dimy --tables " + dir +
                          " --fen '5/5/1W3/5/B3W w'");
    REQUIRE(r.status == 0);
    CHECK(r.output.rfind("value win", 0) == 0);
    r = test_cli::run_cli("tables verify --tables " + dir);
    CHECK(r.status == 0);
    r = test_cli::run_cli("tables probe --variant dimy --rules vela --tables " + dir +
                          " --fen '5/5/1W3/5/B3W w'");
    CHECK(r.status == 1);
    CHECK(r.output.find("standard rules") != std::string::npos);
    r = test_cli::run_cli("analyze --variant dimy --rules vela --depth 1 --tables " + dir);
    CHECK(r.status == 1);
    r = test_cli::run_cli("tables stats --tables " + dir + "/none");
    CHECK(r.status == 1);
    CHECK(r.output.rfind("fanorona: ", 0) == 0);
}

TEST_CASE("The tuner skips or relabels table positions", "[tables]") {
    const std::string dir = build_dir("tables_tuner", Variant::Dimy, 3);
    const std::string log = dir + "/positions.bin";
    const Position in_tables = Position::from_string("5/5/1W3/5/B3W w", Variant::Dimy);
    const Position start = Position::start(Variant::Dimy);
    auto record = [](const Position& p) {
        PositionRecord r;
        r.white = p.pieces(Color::White);
        r.black = p.pieces(Color::Black);
        r.side_to_move = p.side_to_move();
        r.result = GameResult::BlackWins; // the tables say White wins the first one
        return r;
    };
    write_position_log(log, {Variant::Dimy, RuleSet::Standard},
                       {{record(start), record(in_tables)}});
    DataFilter filter;
    filter.tables = tables::open_tables(dir);
    filter.table_positions = DataFilter::TablePositions::Skip;
    const Dataset skipped = load_dataset({log}, filter);
    CHECK(skipped.records.size() == 1);
    CHECK(skipped.table_positions == 1);
    filter.table_positions = DataFilter::TablePositions::Relabel;
    const Dataset relabelled = load_dataset({log}, filter);
    REQUIRE(relabelled.records.size() == 2);
    CHECK(relabelled.relabelled == 1);
    CHECK(relabelled.records[1].result == GameResult::WhiteWins);
    CHECK(relabelled.records[0].result == GameResult::BlackWins);
    filter.table_positions = DataFilter::TablePositions::Keep;
    CHECK(load_dataset({log}, filter).records[1].result == GameResult::BlackWins);
}
