// Tests of the proof-number searcher (core/solver/pns.h): its values against endgame tables built
// here and the alpha-beta solver on random positions of small boards, its repetitions, its budget
// and its proven entries.

#include <fstream>
#include <random>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "cli_helpers.h"
#include "core/board/rules.h"
#include "core/solver/pns.h"
#include "core/solver/solve.h"
#include "core/tables/builder.h"
#include "core/tables/tablebase.h"
#include "table_helpers.h"

using namespace fanorona;

namespace {

using test_tables::build;
using test_tables::random_position_up_to;
using test_tables::table_value;

// Random positions of at most `pieces` pieces: df-pn without tables, and with the tables one
// piece smaller, gives the tables' value whenever it finishes (and finishes on most), and the
// alpha-beta solver's value.
void check_random(Variant v, int pieces, int count, std::uint64_t seed) {
    const auto tb = build("pns_random_" + std::to_string(seed), v, pieces);
    const auto small = build("pns_small_" + std::to_string(seed), v, pieces - 1);
    std::mt19937_64 rng(seed);
    int seen[3] = {0, 0, 0};
    int proven[3] = {0, 0, 0};
    for (int n = 0; n < count; ++n) {
        const Position pos = random_position_up_to(v, pieces, rng);
        INFO(pos.to_string());
        const int expected = table_value(*tb, pos);
        ++seen[expected + 1];
        for (int mode = 0; mode < 3; ++mode) {
            // 0: df-pn alone; 1: df-pn with the smaller tables; 2: with small graphs inside.
            PnSearcher pns(2);
            if (mode == 1) pns.set_tables(small);
            pns.set_graph_limit(mode == 2 ? 300 : 0);
            PnsLimits limits;
            limits.max_nodes = 200000;
            const ValueBounds b = pns.value(pos, limits);
            CHECK(b.lo <= expected);
            CHECK(expected <= b.hi);
            proven[mode] += b.exact();
            if (!b.exact() || mode == 1) continue; // (with tables the root may be theirs)
            // The table keeps only path-independent bounds, each true.
            int checked = 0;
            pns.for_each_proven([&](Key key, int lo, int hi) {
                if (key != pos.hash()) return;
                ++checked;
                CHECK(lo <= expected);
                CHECK(expected <= hi);
            });
            CHECK(checked == 1);
        }
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
}

} // namespace

TEST_CASE("df-pn agrees with the endgame tables on 5x5 endgames", "[pns]") {
    check_random(Variant::Dimy, 4, 30, 35001);
}

TEST_CASE("df-pn agrees with the endgame tables on 3x3, 3x5 and 5x3", "[pns]") {
    check_random(*parse_variant("3x3"), 5, 30, 35002);
    check_random(*parse_variant("3x5"), 4, 30, 35003);
    check_random(*parse_variant("5x3"), 4, 30, 35004);
}

TEST_CASE("df-pn solves the small boards' start positions as the alpha-beta solver", "[pns]") {
    for (const char* name : {"3x3", "5x3"}) {
        INFO(name);
        const Position pos = Position::start(*parse_variant(name));
        Solver solver(8);
        const SolveResult r = solver.solve(pos);
        REQUIRE(r.complete);
        PnSearcher pns(8);
        const ValueBounds b = pns.value(pos);
        CHECK(b == r.value);
    }
}

TEST_CASE("df-pn proves a drawn ending with cycles a draw", "[pns]") {
    // 1 against 1 far apart on 5x9: neither side can force a capture.
    const Position pos = Position::from_string("B8/9/9/9/8W w", Variant::Tsivy);
    PnSearcher pns(4); // by its graph, solved whole (df-pn alone proves draws path by path)
    CHECK(pns.test(pos, 1) == PnSearcher::Answer::No);
    CHECK(pns.test(pos, 0) == PnSearcher::Answer::Yes);
    CHECK(pns.value(pos) == ValueBounds{0, 0});
}

TEST_CASE("df-pn stops at its budget, and proven entries carry over", "[pns]") {
    const Position pos = Position::start(Variant::Dimy);
    PnSearcher pns(4);
    pns.set_graph_limit(0);
    int polls = 0;
    PnsLimits limits;
    limits.max_nodes = 30000;
    limits.poll_seconds = 0;
    limits.poll = [&] { return ++polls > 1000000; };
    CHECK(pns.test(pos, 1, limits) == PnSearcher::Answer::Unknown);
    CHECK(pns.nodes() >= 30000);
    CHECK(pns.nodes() < 32000);
    CHECK(polls > 0);
    // A won 5x5 position: its proof, handed to a fresh searcher, answers at once.
    const Position won = Position::from_string("5/5/W4/1B3/3W1 w", Variant::Dimy);
    PnSearcher first(2);
    REQUIRE(first.value(won) == ValueBounds{1, 1});
    PnSearcher second(2);
    first.for_each_proven([&](Key k, int lo, int hi) { second.add_proven(k, lo, hi); });
    CHECK(second.value(won) == ValueBounds{1, 1});
    CHECK(second.nodes() == 0);
}

namespace {

nlohmann::json solve_json(const std::string& args, const std::string& json) {
    const auto r = test_cli::run_cli("solve " + args + " --quiet --json-out " + json);
    INFO(r.output);
    REQUIRE(r.status == 0);
    return nlohmann::json::parse(test_cli::slurp(json));
}

} // namespace

TEST_CASE("fanorona solve --method pns: the values of the search, on any thread count",
          "[pns][cli]") {
    const std::string dir = test_cli::fresh_dir("pns_cli");
    std::filesystem::create_directories(dir);
    for (const char* board : {"3x3", "5x3"}) {
        INFO(board);
        const std::string base = std::string("--variant ") + board + " --table-pieces 0";
        const auto search = solve_json(base, dir + "/search.json");
        const auto one =
            solve_json(base + " --method pns --all-moves --threads 1", dir + "/one.json");
        const auto two =
            solve_json(base + " --method pns --all-moves --threads 2", dir + "/two.json");
        // By default only what the root's value needs: the same value, and every move proven
        // exact has the value --all-moves gives it; a move left out is one the value did not
        // need (another move won), a bound one that cannot beat the value.
        const auto need = solve_json(base + " --method pns --threads 2", dir + "/need.json");
        CHECK(need["value"] == search["value"]);
        CHECK(need["best_moves"].get<std::string>().size() > 0);
        for (std::size_t i = 0; i < need["moves"].size(); ++i) {
            const auto& m = need["moves"][i];
            INFO(m.dump());
            if (m["value"] == "not needed")
                CHECK(need["value"] == "win");
            else if (m["lower"] == m["upper"])
                CHECK(m["value"] == search["moves"][i]["value"]);
            else { // bounds: they hold the true value, and it cannot beat the root's
                const int truth = search["moves"][i]["lower"].get<int>();
                CHECK(m["lower"].get<int>() <= truth);
                CHECK(truth <= m["upper"].get<int>());
                CHECK(m["upper"].get<int>() <= need["lower"].get<int>());
            }
        }
        CHECK(one["method"] == "pns");
        CHECK(one["value"] == search["value"]);
        REQUIRE(one["moves"].size() == search["moves"].size());
        for (std::size_t i = 0; i < one["moves"].size(); ++i) {
            CHECK(one["moves"][i]["move"] == search["moves"][i]["move"]);
            CHECK(one["moves"][i]["value"] == search["moves"][i]["value"]);
            // Each first move has its own searcher: the same work on any number of threads.
            CHECK(two["moves"][i]["value"] == one["moves"][i]["value"]);
            CHECK(two["moves"][i]["nodes"] == one["moves"][i]["nodes"]);
        }
        CHECK(two["nodes"] == one["nodes"]);
    }
    // 3x3: White wins, by c1b2A (docs/solve.md).
    const auto j = solve_json("--variant 3x3 --table-pieces 0 --method pns", dir + "/w.json");
    CHECK(j["value"] == "win");
    CHECK(j["best_moves"].get<std::string>().find("c1b2A") != std::string::npos);
    // --proof is refused with the search.
    auto r = test_cli::run_cli("solve --variant 3x3 --proof " + dir + "/p.bin");
    CHECK(r.status == 1);
    CHECK(r.output == "fanorona: --proof: only with --method pns or pn2\n");
    r = test_cli::run_cli("solve --variant 3x3 --all-moves");
    CHECK(r.status == 1);
    CHECK(r.output == "fanorona: --all-moves: only with --method pns or pn2\n");
    // --graph 0: df-pn alone (no graph solved whole), the same values.
    const auto alone =
        solve_json("--variant 3x3 --table-pieces 0 --method pns --graph 0", dir + "/g.json");
    CHECK(alone["value"] == "win");
    CHECK(alone["nodes"] != j["nodes"]);
}

TEST_CASE("A proof file killed mid-run resumes to the same result", "[pns][cli]") {
    const std::string dir = test_cli::fresh_dir("pns_proof");
    std::filesystem::create_directories(dir);
    const std::string proof = dir + "/proof.bin";
    const std::string base =
        "--variant 3x5 --table-pieces 0 --method pns --threads 1 --hash 16 --proof-interval 0.05";
    int whole_ms = 0;
    const auto w = test_cli::run_cli_timed(
        "solve " + base + " --quiet --json-out " + dir + "/whole.json", whole_ms);
    REQUIRE(w.status == 0);
    const auto whole = nlohmann::json::parse(test_cli::slurp(dir + "/whole.json"));
    REQUIRE(whole["complete"] == true);
    // Killed by SIGKILL part way (snapshots every 0.05 s), twice, then run again to the end.
    for (int percent : {40, 60}) {
        const int st = test_cli::run_cli_killed_after("solve " + base + " --quiet --proof " + proof,
                                                      whole_ms * percent / 100);
        CHECK((st == 0 || st == 128 + 9));
    }
    // The bounds the killed runs left (header and checksum alone: 32 bytes) are read.
    const bool left = std::filesystem::exists(proof) && std::filesystem::file_size(proof) > 32;
    const auto resumed = solve_json(base + " --proof " + proof, dir + "/resumed.json");
    CHECK(resumed["value"] == whole["value"]);
    CHECK(resumed["best_moves"] == whole["best_moves"]);
    for (std::size_t i = 0; i < whole["moves"].size(); ++i)
        CHECK(resumed["moves"][i]["value"] == whole["moves"][i]["value"]);
    if (left) CHECK(resumed["proof_loaded"].get<std::size_t>() > 0);
    CHECK(resumed["proof_written"].get<std::size_t>() >=
          resumed["proof_loaded"].get<std::size_t>());
    // A finished proof answers again at once, from the file.
    const auto again = solve_json(base + " --proof " + proof, dir + "/again.json");
    CHECK(again["value"] == whole["value"]);
    CHECK(again["nodes"].get<std::uint64_t>() < whole["nodes"].get<std::uint64_t>());
    // A damaged proof file: one line naming it.
    {
        std::ofstream f(proof, std::ios::binary | std::ios::in | std::ios::out);
        f.seekp(30);
        f.put('\x7f');
    }
    const auto r = test_cli::run_cli("solve " + base + " --proof " + proof);
    CHECK(r.status == 1);
    CHECK_THAT(r.output, Catch::StartsWith("fanorona: --proof: " + proof + ": "));
    CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
}
