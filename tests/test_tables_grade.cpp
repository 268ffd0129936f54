// `fanorona tables grade`: the engine graded against endgame tables, through the program as a
// user runs it: the counts' invariants, searching with the tables keeps every value, the sample
// is a function of the seed (not of the thread count), text and JSON agree, and bad input fails
// with one line.

#include <catch2/catch.hpp>

#include <set>

#include <nlohmann/json.hpp>

#include "tests/cli_helpers.h"

using namespace test_cli;
using nlohmann::json;

namespace {

// 5x5 tables up to 3 pieces (1v1, 2v1, 1v2), built once per test process.
const std::string& tables_dir() {
    static const std::string dir = [] {
        const std::string d = fresh_dir("grade_tables");
        const Run r = run_cli("tables build --variant dimy --pieces 3 --quiet --tables " + d);
        INFO(r.output);
        REQUIRE(r.status == 0);
        return d;
    }();
    return dir;
}

json grade_json(const std::string& args) {
    const Run r = run_cli("tables grade --json --tables " + tables_dir() + " " + args);
    INFO(r.output);
    REQUIRE(r.status == 0);
    return json::parse(r.output);
}

} // namespace

TEST_CASE("tables grade: per-material counts add up and keep their order", "[tables][cli]") {
    const json g = grade_json("--depth 2 --samples 40 --seed 3 --threads 2");
    INFO(g.dump(1));
    CHECK(g.at("engine").get<std::string>().find("depth=2") != std::string::npos);
    const json& materials = g.at("materials");
    REQUIRE(materials.size() == 3);
    std::set<std::string> names;
    std::uint64_t sampled = 0, kept = 0, critical = 0, critical_kept = 0, optimal = 0;
    for (const json& m : materials) {
        CHECK(m.at("variant") == "dimy");
        names.insert(m.at("material").get<std::string>());
        const auto s = m.at("sampled").get<std::uint64_t>(), k = m.at("kept").get<std::uint64_t>(),
                   c = m.at("critical").get<std::uint64_t>(),
                   ck = m.at("critical_kept").get<std::uint64_t>(),
                   o = m.at("optimal").get<std::uint64_t>();
        // Only positions the side to move does not lose are graded, at most --samples of them.
        CHECK(s <= 40);
        CHECK(k <= s);
        CHECK(c <= s);
        CHECK(ck <= c);
        CHECK(ck <= k);
        CHECK(o <= k); // the exact value implies the class
        sampled += s, kept += k, critical += c, critical_kept += ck, optimal += o;
    }
    CHECK(names == std::set<std::string>{"1v1", "2v1", "1v2"});
    CHECK(sampled > 0);
    CHECK(g.at("sampled") == sampled);
    CHECK(g.at("kept") == kept);
    CHECK(g.at("critical") == critical);
    CHECK(g.at("critical_kept") == critical_kept);
    CHECK(g.at("optimal") == optimal);
    CHECK(g.at("kept_share").get<double>() == Approx(double(kept) / double(sampled)));
    CHECK(g.at("critical_kept_share").get<double>() ==
          Approx(critical ? double(critical_kept) / double(critical) : 0.0));
    // Two pieces against one: some positions are lost for the lone piece, so it is sampled less.
    for (const json& m : materials)
        if (m.at("material") == "1v2") CHECK(m.at("sampled").get<int>() < 40);
}

TEST_CASE("tables grade: searching with the tables keeps every value", "[tables][cli]") {
    const json g = grade_json("--depth 1 --samples 30 --with-tables");
    INFO(g.dump(1));
    CHECK(g.at("engine").get<std::string>().find("tables=") != std::string::npos);
    REQUIRE(g.at("sampled").get<int>() > 0);
    CHECK(g.at("kept") == g.at("sampled"));
    CHECK(g.at("critical_kept") == g.at("critical"));
    CHECK(g.at("optimal") == g.at("sampled"));
    CHECK(g.at("kept_share").get<double>() == 1.0);
}

TEST_CASE("tables grade: the sample depends on the seed, not on the threads", "[tables][cli]") {
    const json one = grade_json("--depth 1 --samples 60 --seed 9 --threads 1");
    const json two = grade_json("--depth 1 --samples 60 --seed 9 --threads 2");
    CHECK(one == two);
    // Another seed draws other positions: over three materials, some count differs.
    const json other = grade_json("--depth 1 --samples 60 --seed 10 --threads 2");
    CHECK(other.at("materials") != one.at("materials"));
}

TEST_CASE("tables grade: the text report says what the JSON says", "[tables][cli]") {
    const json g = grade_json("--depth 2 --samples 25 --seed 4");
    const Run r =
        run_cli("tables grade --tables " + tables_dir() + " --depth 2 --samples 25 --seed 4");
    INFO(r.output);
    REQUIRE(r.status == 0);
    CHECK(r.output.rfind("board  mat    sampled     kept critical crit-kept  optimal\n", 0) == 0);
    for (const json& m : g.at("materials")) {
        char line[128];
        std::snprintf(
            line, sizeof line, "dimy   %-5s %8llu %8llu %8llu %8llu %8llu\n",
            m.at("material").get<std::string>().c_str(), m.at("sampled").get<unsigned long long>(),
            m.at("kept").get<unsigned long long>(), m.at("critical").get<unsigned long long>(),
            m.at("critical_kept").get<unsigned long long>(),
            m.at("optimal").get<unsigned long long>());
        CHECK(r.output.find(line) != std::string::npos);
    }
    CHECK(r.output.find(": value kept in ") != std::string::npos);
    CHECK(r.output.find(" of " + std::to_string(g.at("sampled").get<int>()) + " positions") !=
          std::string::npos);
}

TEST_CASE("tables grade: bad input fails with one line", "[tables][cli]") {
    const std::string dir = fresh_dir("grade_bad");
    Run r = run_cli("tables grade --tables " + dir + "/none --samples 5");
    CHECK(r.status == 1);
    CHECK(r.output.rfind("fanorona: ", 0) == 0);
    CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
    r = run_cli("tables grade --tables " + tables_dir() + " --samples 0");
    CHECK(r.status != 0);
    CHECK(r.output.find("--samples") != std::string::npos);
    r = run_cli("tables grade --tables " + tables_dir() + " --depth 0");
    CHECK(r.status != 0);
    CHECK(r.output.find("--depth") != std::string::npos);
    r = run_cli("tables grade --tables " + tables_dir() + " --samples 5 --weights " + dir +
                "/no_weights.txt");
    CHECK(r.status == 1);
    CHECK(r.output.find("no_weights.txt") != std::string::npos);
    CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
}
