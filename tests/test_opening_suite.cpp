// Opening suites and random openings for self-play.

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "selfplay/openings/openings.h"

using namespace fanorona;

TEST_CASE("an opening suite reads position strings and move lists, with comments", "[openings]") {
    const Rules rules;
    const std::string text = "# a suite\n"
                             "\n"
                             "d3e3W   # one capture\n"
                             "BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w\n"
                             "d3e3W b4c3Ad3Wd2A\n";
    const auto suite = parse_opening_suite(text, rules, "suite.txt");
    REQUIRE(suite.size() == 3);
    CHECK(suite[0].moves.size() == 1);
    CHECK(suite[1].moves.empty());
    CHECK(suite[2].moves.size() == 2);
}

TEST_CASE("opening suite errors name the file and line", "[openings]") {
    const Rules rules;
    CHECK_THROWS_WITH(parse_opening_suite("d3e3W\nd3e4A\n", rules, "s.txt"),
                      Catch::StartsWith("s.txt:2: move 1 'd3e4A'"));
    CHECK_THROWS_WITH(parse_opening_suite("# c\nBBB/x w\n", rules, "s.txt"),
                      Catch::StartsWith("s.txt:2: position:"));
    CHECK_THROWS_WITH(parse_opening_suite("d3e3W z9\n", rules, "s.txt"),
                      Catch::StartsWith("s.txt:1: move 2 'z9'"));
    CHECK_THROWS_WITH(parse_opening_suite("# nothing\n", rules, "s.txt"),
                      Catch::Contains("no openings"));
}

TEST_CASE("random openings are deterministic and distinct", "[openings]") {
    const Rules rules;
    const auto a = random_openings(rules, 4, 50, 7);
    const auto b = random_openings(rules, 4, 50, 7);
    const auto c = random_openings(rules, 4, 50, 8);
    REQUIRE(a.size() == 50);
    std::set<Key> finals;
    bool differs = false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        CHECK(a[i].moves == b[i].moves);
        differs |= a[i].moves != c[i].moves;
        CHECK(a[i].moves.size() == 4);
        Game g(rules, a[i].start);
        for (const Move& m : a[i].moves) g.play(m);
        finals.insert(g.position().hash());
    }
    CHECK(differs);
    CHECK(finals.size() == 50);
}

TEST_CASE("opening specs parse", "[openings]") {
    CHECK(OpeningSpec::parse("random:8").kind == OpeningSpec::Kind::Random);
    CHECK(OpeningSpec::parse("random:8").plies == 8);
    CHECK(OpeningSpec::parse("book.txt").kind == OpeningSpec::Kind::File);
    CHECK_THROWS_WITH(OpeningSpec::parse("random:x"), Catch::Contains("random:TURNS"));
}

TEST_CASE("a shuffled suite is a permutation drawn from the seed, file order ignores the seed",
          "[openings]") {
    const Rules rules;
    // A suite of 40 distinct positions (random openings written as position strings).
    const std::string path =
        (std::filesystem::temp_directory_path() / "fanorona_shuffled_suite.txt").string();
    std::vector<std::string> lines;
    {
        std::ofstream out(path);
        for (const Opening& o : random_openings(rules, 3, 40, 5)) {
            Game g(rules, o.start);
            for (const Move& m : o.moves) g.play(m);
            lines.push_back(g.position().to_string());
            out << lines.back() << "\n";
        }
    }
    auto order = [&](bool shuffled, std::uint64_t seed) {
        OpeningSpec spec = OpeningSpec::parse(path);
        spec.shuffled = shuffled;
        std::vector<std::string> got;
        for (const Opening& o : load_openings(spec, rules, 40, seed))
            got.push_back(o.start.to_string());
        return got;
    };
    CHECK(order(false, 1) == lines);
    CHECK(order(false, 2) == lines);
    const auto a = order(true, 1), b = order(true, 2);
    CHECK(a == order(true, 1));
    CHECK(a != lines);
    CHECK(a != b);
    CHECK(std::multiset<std::string>(a.begin(), a.end()) ==
          std::multiset<std::string>(lines.begin(), lines.end()));
    std::filesystem::remove(path);
}

TEST_CASE("lazy random openings are the eager ones, in any order of asking and across threads",
          "[openings]") {
    const Rules rules;
    const auto eager = random_openings(rules, 4, 300, 17);
    const RunOpenings lazy = run_openings(OpeningSpec::parse("random:4"), rules, 17);
    REQUIRE(lazy.random_plies() == 4);
    CHECK(lazy.list().empty());    // nothing drawn up front
    const RunOpenings copy = lazy; // copies share the draw
    CHECK(copy.at(250).moves == eager[250].moves);
    std::vector<std::thread> threads;
    std::vector<int> wrong(4, 0);
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&, t] {
            for (std::uint64_t p = std::uint64_t(t); p < 300; p += 4)
                wrong[std::size_t(t)] += lazy.at(p).moves != eager[p].moves;
        });
    for (std::thread& t : threads) t.join();
    CHECK(wrong == std::vector<int>(4, 0));
    // A suite file or the start position stays a list, pair p playing list[p % size].
    const RunOpenings start = run_openings(OpeningSpec::parse("start"), rules, 17);
    CHECK(start.random_plies() == -1);
    CHECK(start.list().size() == 1);
    CHECK(start.at(12345).moves.empty());
}
