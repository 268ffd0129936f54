// Tests of the two-level proof-number searcher (core/solver/pn2.h): its values against endgame
// tables built here, df-pn and the alpha-beta solver on random positions of small boards, the small
// boards' start positions, its budgets (nodes and memory) and `fanorona solve --method pn2`.

#include <random>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "cli_helpers.h"
#include "core/board/rules.h"
#include "core/solver/pn2.h"
#include "core/solver/pns.h"
#include "core/solver/solve.h"
#include "table_helpers.h"

using namespace fanorona;

namespace {

using test_tables::build;
using test_tables::random_position_up_to;
using test_tables::table_value;

// Random positions of at most `pieces` pieces: PN2 alone (every draw proved through its
// repetitions), with the tables one piece smaller, and with small graphs solved whole, gives the
// tables' value whenever it finishes (and finishes on most), as df-pn and the alpha-beta solver.
void check_random(Variant v, int pieces, int count, std::uint64_t seed) {
    const auto tb = build("pn2_random_" + std::to_string(seed), v, pieces);
    const auto small = build("pn2_small_" + std::to_string(seed), v, pieces - 1);
    std::mt19937_64 rng(seed);
    int seen[3] = {0, 0, 0};
    int proven[3] = {0, 0, 0};
    int drawn_alone = 0; // draws PN2 proved without tables or graphs: through repetitions
    for (int n = 0; n < count; ++n) {
        const Position pos = random_position_up_to(v, pieces, rng);
        INFO(pos.to_string());
        const int expected = table_value(*tb, pos);
        ++seen[expected + 1];
        for (int mode = 0; mode < 3; ++mode) {
            INFO("mode " << mode);
            // 0: PN2 alone; 1: with the smaller tables; 2: with small graphs inside. A small
            // second level, so that the first level grows too.
            Pn2Params params;
            params.min_nodes = 50;
            params.a = 2000;
            params.b = 500;
            Pn2Searcher pn2(2, params);
            if (mode == 1) pn2.set_tables(small);
            pn2.set_graph_limit(mode == 2 ? 300 : 0);
            PnsLimits limits;
            limits.max_nodes = 200000;
            const ValueBounds b = pn2.value(pos, limits);
            CHECK(b.lo <= expected);
            CHECK(expected <= b.hi);
            proven[mode] += b.exact();
            drawn_alone += mode == 0 && b == ValueBounds{0, 0};
            if (!b.exact() || mode == 1) continue; // (with tables the root may be theirs)
            // The table keeps only path-independent bounds, each true.
            int checked = 0;
            pn2.for_each_proven([&](Key key, int lo, int hi) {
                if (key != pos.hash()) return;
                ++checked;
                CHECK(lo <= expected);
                CHECK(expected <= hi);
            });
            CHECK(checked == 1);
        }
        PnSearcher pns(2);
        PnsLimits limits;
        limits.max_nodes = 200000;
        const ValueBounds d = pns.value(pos, limits);
        if (d.exact()) CHECK(d.lo == expected);
        Solver solver(2);
        const SolveResult r = solver.solve(pos, {200000, 0});
        if (r.complete) CHECK(r.value.lo == expected);
    }
    CHECK(proven[0] > count / 2);
    CHECK(proven[1] > count * 3 / 4);
    CHECK(proven[2] >= proven[0]);
    CHECK(seen[0] > 0);
    CHECK(seen[1] > 0);
    CHECK(seen[2] > 0);
    CHECK(drawn_alone > 0);
}

} // namespace

TEST_CASE("PN2 agrees with the endgame tables on 5x5 endgames", "[pn2]") {
    check_random(Variant::Dimy, 4, 30, 36001);
}

TEST_CASE("PN2 agrees with the endgame tables on 3x3, 3x5 and 5x3", "[pn2]") {
    check_random(*parse_variant("3x3"), 5, 30, 35002);
    check_random(*parse_variant("3x5"), 4, 30, 35003);
    check_random(*parse_variant("5x3"), 4, 30, 35004);
}

TEST_CASE("PN2 solves the small boards' start positions as the alpha-beta solver", "[pn2][slow]") {
    // docs/solve.md: White wins 3x3, 3x5 and 5x3. Without graphs, and with a small second
    // level, so that both levels work; 3x5 with its 4-piece tables. [slow]: the sanitizer runs
    // leave it out (the endgame and CLI tests above and below run PN2 there).
    Pn2Params params;
    params.min_nodes = 20;
    params.a = 5000;
    params.b = 1000;
    const auto tables = build("pn2_start_3x5", *parse_variant("3x5"), 4);
    for (const char* name : {"3x3", "5x3", "3x5"}) {
        INFO(name);
        const Position pos = Position::start(*parse_variant(name));
        Solver solver(8);
        const SolveResult r = solver.solve(pos);
        REQUIRE(r.complete);
        CHECK(r.value == ValueBounds{1, 1});
        Pn2Searcher pn2(16, params);
        pn2.set_graph_limit(0);
        if (std::string(name) == "3x5") pn2.set_tables(tables);
        const ValueBounds b = pn2.value(pos);
        CHECK(b == r.value);
        CHECK(pn2.peak_tree() > 10);
        CHECK(!pn2.memory_full());
    }
}

TEST_CASE("PN2 proves a drawn ending with cycles a draw", "[pn2]") {
    // 1 against 1 far apart on 5x9: neither side can force a capture (by its graph).
    const Position pos = Position::from_string("B8/9/9/9/8W w", Variant::Tsivy);
    Pn2Searcher pn2(4);
    CHECK(pn2.test(pos, 1) == Pn2Searcher::Answer::No);
    CHECK(pn2.test(pos, 0) == Pn2Searcher::Answer::Yes);
    CHECK(pn2.value(pos) == ValueBounds{0, 0});
}

TEST_CASE("PN2 stops at its node budget and at its memory bound", "[pn2]") {
    const Position pos = Position::start(Variant::Dimy);
    Pn2Searcher pn2(4);
    pn2.set_graph_limit(0);
    PnsLimits limits;
    limits.max_nodes = 30000;
    CHECK(pn2.test(pos, 1, limits) == Pn2Searcher::Answer::Unknown);
    CHECK(pn2.nodes() >= 30000);
    CHECK(pn2.nodes() < 32000);
    CHECK(!pn2.memory_full());
    // 1 MB: the first-level tree holds a few thousand nodes, and fills.
    Pn2Params params;
    params.min_nodes = 10;
    params.a = 1e9; // (a second level of min_nodes: the first level grows fast)
    Pn2Searcher tiny(1, params);
    tiny.set_graph_limit(0);
    CHECK(tiny.test(pos, 1) == Pn2Searcher::Answer::Unknown);
    CHECK(tiny.memory_full());
    CHECK(tiny.peak_tree() <= tiny.tree_capacity());
    CHECK(tiny.peak_tree() > tiny.tree_capacity() / 2);
}

TEST_CASE("PN2's second level grows with the first", "[pn2]") {
    const Pn2Params p; // a = 20000, b = 5000, at least 1000
    CHECK(pn2_second_level_limit(0, p) == 1000);
    CHECK(pn2_second_level_limit(20000, p) == 10000); // f(a) = 1/2
    CHECK(pn2_second_level_limit(100000, p) > 99000); // f -> 1
    std::size_t last = 0;
    for (std::size_t x = 0; x < 200000; x += 1000) {
        CHECK(pn2_second_level_limit(x, p) >= last);
        last = pn2_second_level_limit(x, p);
    }
}

namespace {

nlohmann::json solve_json(const std::string& args, const std::string& json) {
    const auto r = test_cli::run_cli("solve " + args + " --quiet --json-out " + json);
    INFO(r.output);
    REQUIRE(r.status == 0);
    return nlohmann::json::parse(test_cli::slurp(json));
}

} // namespace

TEST_CASE("fanorona solve --method pn2: the values of the search and of df-pn", "[pn2][cli]") {
    const std::string dir = test_cli::fresh_dir("pn2_cli");
    std::filesystem::create_directories(dir);
    for (const char* board : {"3x3", "5x3"}) {
        INFO(board);
        const std::string base = std::string("--variant ") + board + " --table-pieces 0";
        const auto search = solve_json(base, dir + "/search.json");
        const auto pns =
            solve_json(base + " --method pns --threads 1 --all-moves", dir + "/pns.json");
        const auto pn2 =
            solve_json(base + " --method pn2 --threads 1 --all-moves", dir + "/pn2.json");
        CHECK(pn2["method"] == "pn2");
        CHECK(pn2["complete"] == true);
        CHECK(pn2["value"] == search["value"]);
        CHECK(pn2["memory_full"] == false);
        CHECK(pn2["peak_tree"].get<std::size_t>() > 0);
        REQUIRE(pn2["moves"].size() == pns["moves"].size());
        for (std::size_t i = 0; i < pn2["moves"].size(); ++i) {
            CHECK(pn2["moves"][i]["move"] == pns["moves"][i]["move"]);
            CHECK(pn2["moves"][i]["value"] == pns["moves"][i]["value"]);
        }
    }
    // A proof file: the second run answers from it.
    const std::string base =
        "--variant 3x3 --table-pieces 0 --method pn2 --threads 1 --proof " + dir + "/p.bin";
    const auto first = solve_json(base, dir + "/first.json");
    const auto again = solve_json(base, dir + "/again.json");
    CHECK(again["value"] == first["value"]);
    CHECK(again["proof_loaded"].get<std::size_t>() > 0);
    CHECK(again["nodes"].get<std::uint64_t>() < first["nodes"].get<std::uint64_t>());
    // --graph 0: PN2 alone (no graph solved whole), the same value; --graph as for pns.
    const auto alone =
        solve_json("--variant 5x3 --table-pieces 0 --method pn2 --graph 0", dir + "/alone.json");
    CHECK(alone["value"] == "win");
    CHECK(alone["peak_tree"].get<std::size_t>() > 1);
}
