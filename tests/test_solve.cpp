// Tests of the solver (core/solver/solve.h) against endgame tables built here, its optimal lines,
// its cycles, its budget, and `fanorona solve`.

#include <algorithm>
#include <random>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "cli_helpers.h"
#include "core/endgame.h"
#include "core/solver/solve.h"
#include "core/tables/builder.h"
#include "core/tables/tablebase.h"
#include "table_helpers.h"

using namespace fanorona;

namespace {

using test_tables::build;
using test_tables::random_position_up_to;
using test_tables::table_value;

// Solves random positions up to `pieces` without tables (and with tables one piece smaller),
// checking the root's and every first move's value against the tables.
void check_random(Variant v, int pieces, int count, std::uint64_t seed) {
    const auto tb = build("solve_random_" + std::to_string(seed), v, pieces);
    const std::string small_dir = test_cli::fresh_dir("solve_small");
    tables::build_tables({v, pieces - 1, small_dir, kTableTurnLimit}, {});
    const auto small = std::make_shared<const tables::Tablebase>(small_dir);
    std::mt19937_64 rng(seed);
    int seen[3] = {0, 0, 0};
    int searched = 0, inner = 0;
    for (int n = 0; n < count; ++n) {
        const Position pos = random_position_up_to(v, pieces, rng);
        INFO(pos.to_string());
        const int expected = table_value(*tb, pos);
        ++seen[expected + 1];
        for (int mode = 0; mode < 4; ++mode) {
            // 0: the graph; 1: the graph with the smaller tables; 2: search only, with them;
            // 3: the search with small graphs inside, no tables.
            Solver solver(4);
            if (mode == 1 || mode == 2) solver.set_tables(small);
            solver.set_graph_limit(mode == 2 ? 0 : mode == 3 ? 300 : 1000000);
            const SolveResult r = solver.solve(pos, {mode == 2 ? 20000u : 200000u, 0});
            if (mode < 2) CHECK(r.graph);
            if (mode < 2) REQUIRE(r.complete);
            if (mode == 2) searched += r.complete;
            if (mode == 3) inner += r.graphs > 0;
            if (r.complete) CHECK(r.value.lo == expected);
            // Every first move's bounds hold its true value.
            for (const SolvedMove& m : r.moves) {
                Position next = pos;
                next.make_move(m.move);
                const int value = next.player() ? -table_value(*tb, next) : 1;
                CHECK(m.value.lo <= value);
                CHECK(value <= m.value.hi);
            }
        }
    }
    // The search alone proves most of them (every one it proves is checked above).
    CHECK(searched > count / 2);
    CHECK(inner > 0);
    // The sample holds every kind of value.
    CHECK(seen[0] > 0);
    CHECK(seen[1] > 0);
    CHECK(seen[2] > 0);
}

// Plays `line` from `pos`, checking each move is legal; returns the final position.
Position replay(Position pos, const std::vector<Move>& line) {
    MoveList moves;
    for (const Move& m : line) {
        generate_moves(pos, Rules{pos.variant()}, moves);
        REQUIRE(moves.contains(m));
        pos.make_move(m);
    }
    return pos;
}

} // namespace

TEST_CASE("The solver agrees with the endgame tables on 5x5 positions", "[solve]") {
    check_random(Variant::Dimy, 4, 40, 20261202);
}

TEST_CASE("The solver agrees with the endgame tables on 5x9 positions", "[solve]") {
    check_random(Variant::Tsivy, 3, 10, 20261201);
}

TEST_CASE("A forced win is solved with a legal line that ends in the win", "[solve]") {
    // 5x5 2v1 with the longest win of its material (11 turns to the next capture).
    const Position pos = Position::from_string("5/5/W4/1B3/3W1 w", Variant::Dimy);
    Solver solver(4);
    const SolveResult r = solver.solve(pos);
    REQUIRE(r.complete);
    CHECK(r.value == ValueBounds{1, 1});
    CHECK(r.line_end == LineEnd::NoMoves);
    REQUIRE(r.line.size() % 2 == 1); // the winner moved last
    const Position end = replay(pos, r.line);
    MoveList moves;
    generate_moves(end, Rules{Variant::Dimy}, moves);
    CHECK(moves.empty());
    CHECK(end.side_to_move() == Color::Black);
    // The same by the search alone: its line follows the shortest proofs.
    Solver search(4);
    search.set_graph_limit(0);
    const SolveResult s = search.solve(pos);
    REQUIRE(s.complete);
    CHECK_FALSE(s.graph);
    CHECK(s.value == ValueBounds{1, 1});
    CHECK(s.line_end == LineEnd::NoMoves);
    CHECK(s.line.size() % 2 == 1);
    generate_moves(replay(pos, s.line), Rules{Variant::Dimy}, moves);
    CHECK(moves.empty());
    // The same with tables: the line goes on through them by their best moves.
    Solver with_tables(4);
    with_tables.set_tables(build("solve_win", Variant::Dimy, 2));
    const SolveResult t = with_tables.solve(pos);
    REQUIRE(t.complete);
    CHECK(t.value == ValueBounds{1, 1});
    CHECK(t.line_end == LineEnd::NoMoves);
    replay(pos, t.line);
}

TEST_CASE("A drawn position with cycles is a draw whose line ends in a repetition", "[solve]") {
    // 1 against 1 far apart on 5x9: neither side can force a capture.
    const Position pos = Position::from_string("B8/9/9/9/8W w", Variant::Tsivy);
    const auto tb = build("solve_draw", Variant::Tsivy, 2);
    REQUIRE(table_value(*tb, pos) == 0);
    Solver solver(4);
    const SolveResult r = solver.solve(pos);
    REQUIRE(r.complete);
    CHECK(r.value == ValueBounds{0, 0});
    CHECK(r.line_end == LineEnd::Repetition);
    replay(pos, r.line);
    for (const SolvedMove& m : r.moves) CHECK(m.value.hi <= 0);
}

TEST_CASE("A budget stops the solver with what it proved", "[solve]") {
    const Position pos = Position::start(Variant::Dimy);
    Solver solver(4);
    solver.set_graph_limit(0);
    int reports = 0;
    const SolveResult r = solver.solve(
        pos, {30000, 0}, [&](const SolveProgress&) { ++reports; }, 0);
    CHECK_FALSE(r.complete);
    CHECK(r.line.empty());
    CHECK(r.nodes >= 30000);
    CHECK(r.nodes < 40000);
    CHECK(reports > 0);
    REQUIRE_FALSE(r.moves.empty());
    ValueBounds root{-1, -1};
    for (const SolvedMove& m : r.moves) {
        root.lo = std::max(root.lo, m.value.lo);
        root.hi = std::max(root.hi, m.value.hi);
    }
    CHECK(root == r.value);
    CHECK(value_text(r.value) != "win");
}

TEST_CASE("fanorona solve: values, JSON and errors", "[solve][cli]") {
    const std::string dir = test_cli::fresh_dir("solve_cli");
    std::filesystem::create_directories(dir);
    const std::string json = dir + "/solve.json";
    auto r = test_cli::run_cli(
        "solve --variant dimy --fen '5/5/W4/1B3/3W1 w' --table-pieces 0 --json-out " + json);
    REQUIRE(r.status == 0);
    CHECK(r.output.find("value win for White") != std::string::npos);
    CHECK(r.output.find("solve: value=win") != std::string::npos);
    const auto j = nlohmann::json::parse(test_cli::slurp(json));
    CHECK(j["value"] == "win");
    CHECK(j["complete"] == true);
    CHECK(j["line_end"] == "no-moves");
    CHECK(j["line"].size() % 2 == 1);
    CHECK(j["moves"].size() > 0);

    r = test_cli::run_cli(
        "solve --variant dimy --table-pieces 0 --max-nodes 5000 --quiet --json-out " + json);
    REQUIRE(r.status == 0);
    CHECK(r.output.find("complete=0") != std::string::npos); // --quiet: the summary line only
    const auto partial = nlohmann::json::parse(test_cli::slurp(json));
    CHECK(partial["value"] == "unknown");
    CHECK(partial["complete"] == false);

    for (const std::string& bad :
         std::vector<std::string>{"--variant dimy --fen 'W5/5/5/5/5 w'", "--variant nine",
                                  "--rules vela", "--variant dimy --tables " + dir + "/none"}) {
        r = test_cli::run_cli("solve " + bad);
        INFO(bad);
        CHECK(r.status == 1);
        CHECK(r.output.rfind("fanorona: ", 0) == 0);
        CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
    }
}

TEST_CASE("fanorona solve finds or builds its tables in the cache folder", "[solve][cli]") {
    const std::string dir = test_cli::fresh_dir("solve_cache");
    const std::string cache = dir + "/cache";
    std::filesystem::create_directories(dir);
    const std::string args =
        "solve --variant 3x3 --tables-cache " + cache + " --json-out " + dir + "/s.json";
    auto r = test_cli::run_cli(args);
    INFO(r.output);
    REQUIRE(r.status == 0);
    // 3x3 start (8 pieces): tables up to 7 pieces, built now.
    CHECK(r.output.find("tables " + cache + "/3x3 (built now in") != std::string::npos);
    CHECK(r.output.find("(3x3 up to 7 pieces)") != std::string::npos);
    CHECK(r.output.find("value win for White") != std::string::npos);
    CHECK(std::filesystem::exists(cache + "/3x3/3x3-4v3.fntb"));
    // Found the second time, and used by the proof-number search too.
    r = test_cli::run_cli(args + " --method pns");
    REQUIRE(r.status == 0);
    CHECK(r.output.find("tables " + cache + "/3x3 (cached)") != std::string::npos);
    CHECK(r.output.find("value win for White") != std::string::npos);
    CHECK(nlohmann::json::parse(test_cli::slurp(dir + "/s.json"))["table_hits"] > 0);
    // --table-pieces 0: none.
    r = test_cli::run_cli(args + " --table-pieces 0");
    CHECK(r.output.find("tables none") != std::string::npos);
}
