// `fanorona rescore`: the same games with each searched position's score replaced by the rescoring
// search's (a Searcher cleared at the game's start searching its positions in order, as
// `fanorona analyze` searches the first), the same file at any --threads, a resume after an
// interruption or a cut giving the file of an uninterrupted run, and the refusals (an output that
// is an input, an output that holds games without --resume, other settings, other inputs).

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "core/board/notation.h"
#include "selfplay/engine/engine_spec.h"
#include "selfplay/formats/corpus_file.h"
#include "tests/cli_helpers.h"

using namespace fanorona;
using namespace test_cli;
namespace fs = std::filesystem;

namespace {

std::vector<CorpusGame> read_games(const std::string& path) {
    CorpusReader r(path);
    std::vector<CorpusGame> games;
    CorpusGame g;
    while (r.next(g)) games.push_back(g);
    return games;
}

// A self-play corpus of `games` games (depth 2; the 3 opening turns have no score).
std::string make_corpus(const std::string& name, int games, int seed) {
    const std::string dir = fresh_dir(name);
    const Run r = run_cli("selfplay --games " + std::to_string(games) +
                          " --depth 2 --openings random:3 --seed " + std::to_string(seed) +
                          " --corpus --no-positions --threads 1 --quiet --out " + dir);
    REQUIRE(r.status == 0);
    return dir + "/corpus.fcorpus";
}

// The scores a Searcher cleared at the game's start gives its positions (`all`: every position;
// else those with a score), in turn order with the game's history: what rescore promises.
std::vector<std::optional<int>> searched_scores(const CorpusGame& g, const EngineSpec& spec,
                                                bool all) {
    Rules rules;
    rules.ruleset = g.ruleset;
    Searcher searcher(spec.hash_mb);
    spec.configure(searcher, rules);
    searcher.clear();
    Game game(rules, g.start);
    std::vector<std::optional<int>> scores;
    for (std::size_t i = 0; i < g.moves.size(); ++i) {
        scores.push_back(all || g.scores[i]
                             ? std::optional<int>(searcher.search(game, spec.search_limits()).score)
                             : std::nullopt);
        game.play(g.moves[i]);
    }
    return scores;
}

// Everything but the scores.
void check_same_games(const std::vector<CorpusGame>& out, const std::vector<CorpusGame>& in) {
    REQUIRE(out.size() == in.size());
    for (std::size_t k = 0; k < in.size(); ++k) {
        INFO("game " << k);
        CHECK(out[k].index == in[k].index);
        CHECK(out[k].start == in[k].start);
        CHECK(out[k].moves == in[k].moves);
        CHECK(out[k].result == in[k].result);
        CHECK(out[k].reason == in[k].reason);
        CHECK(out[k].ruleset == in[k].ruleset);
        CHECK(out[k].opening_turns == in[k].opening_turns);
    }
}

} // namespace

TEST_CASE("rescore replaces each scored position's score by the search's, games unchanged",
          "[rescore]") {
    const std::string in = make_corpus("rescore_in", 6, 9);
    const std::vector<CorpusGame> before = read_games(in);
    const std::string dir = fresh_dir("rescore_out");
    fs::create_directories(dir);
    const std::string out = dir + "/deep.fcorpus";
    const Run r = run_cli("rescore " + in + " --out " + out + " --depth 4 --threads 1 --quiet");
    INFO(r.output);
    REQUIRE(r.status == 0);
    CHECK_THAT(r.output, Catch::Contains("6 games in " + out));
    const std::vector<CorpusGame> after = read_games(out);
    check_same_games(after, before);

    EngineSpec spec;
    spec.set("depth", "4");
    std::size_t scored = 0, changed = 0;
    for (std::size_t k = 0; k < before.size(); ++k) {
        INFO("game " << k);
        CHECK(after[k].scores == searched_scores(before[k], spec, false));
        for (std::size_t i = 0; i < before[k].scores.size(); ++i) {
            CHECK(after[k].scores[i].has_value() == before[k].scores[i].has_value());
            scored += before[k].scores[i].has_value();
            changed += after[k].scores[i] != before[k].scores[i];
        }
    }
    CHECK(scored > 100);
    CHECK(changed > scored / 10);                 // depth 4 is not the depth 2 that played
    CHECK_FALSE(before[0].scores[0].has_value()); // the opening's turns keep no score

    // The first position a game searches is searched as `fanorona analyze` searches it.
    const CorpusGame& g = before[1];
    const Rules rules;
    Position p = g.start;
    std::string moves;
    std::size_t i = 0;
    for (; !g.scores[i]; ++i) {
        moves += (moves.empty() ? "" : " ") + move_to_string(p, rules, g.moves[i]);
        p.make_move(g.moves[i]);
    }
    const Run a = run_cli("analyze --depth 4 --json --moves '" + moves + "'");
    REQUIRE(a.status == 0);
    const auto last = nlohmann::json::parse(a.output.substr(a.output.rfind('{')));
    CHECK(after[1].scores[i] == last["score"].get<int>());

    // The summary and the settings beside the output.
    const auto summary = nlohmann::json::parse(slurp(out + ".summary.json"));
    CHECK(summary["format"] == "fanorona-rescore-summary 1");
    CHECK(summary["games"] == 6);
    CHECK(summary["positions"] == scored);
    const auto settings = nlohmann::json::parse(slurp(out + ".settings.json"));
    CHECK(settings["format"] == "fanorona-rescore 1");
    CHECK_THAT(settings["engine"].get<std::string>(), Catch::Contains("depth=4"));

    SECTION("--all scores every position, the end of a game aside") {
        const std::string all = dir + "/all.fcorpus";
        REQUIRE(run_cli("rescore " + in + " --out " + all + " --depth 2 --all --quiet").status ==
                0);
        const std::vector<CorpusGame> every = read_games(all);
        check_same_games(every, before);
        EngineSpec d2;
        d2.set("depth", "2");
        for (std::size_t k = 0; k < before.size(); ++k) {
            CHECK(every[k].scores == searched_scores(before[k], d2, true));
            CHECK(every[k].end_score == before[k].end_score);
        }
    }
}

TEST_CASE("rescore writes the same file at any number of threads", "[rescore]") {
    const std::string in = make_corpus("rescore_threads_in", 8, 4);
    const std::string dir = fresh_dir("rescore_threads");
    fs::create_directories(dir);
    const std::string args = " --nodes 3000 --block-games 3 --quiet --out ";
    REQUIRE(run_cli("rescore " + in + args + dir + "/t1 --threads 1").status == 0);
    REQUIRE(run_cli("rescore " + in + args + dir + "/t2 --threads 2").status == 0);
    CHECK(slurp(dir + "/t1") == slurp(dir + "/t2"));
    CHECK(read_games(dir + "/t1").size() == 8);
    const auto settings = [&](const std::string& f) {
        return nlohmann::json::parse(slurp(dir + "/" + f + ".settings.json"));
    };
    CHECK(settings("t1") == settings("t2")); // --threads is not a setting of the output
}

TEST_CASE("a resumed rescore writes the file of an uninterrupted one", "[rescore]") {
    const std::string in = make_corpus("rescore_resume_in", 7, 5);
    const std::string dir = fresh_dir("rescore_resume");
    fs::create_directories(dir);
    const std::string args = " --depth 3 --block-games 2 --threads 2 --quiet";
    const std::string ref = dir + "/ref";
    REQUIRE(run_cli("rescore " + in + " --out " + ref + args).status == 0);
    const std::string want = slurp(ref);
    REQUIRE(read_games(ref).size() == 7);

    SECTION("stopped after 5 games (--max-games), then resumed to the end") {
        const std::string out = dir + "/part";
        REQUIRE(run_cli("rescore " + in + " --out " + out + args + " --max-games 5").status == 0);
        CHECK(read_games(out).size() == 5); // blocks of 2, 2 and 1 games
        const Run r = run_cli("rescore " + in + " --out " + out + args + " --resume");
        INFO(r.output);
        REQUIRE(r.status == 0);
        CHECK_THAT(r.output, Catch::Contains("blocks shorter than --block-games"));
        CHECK_THAT(r.output, Catch::Contains("4 kept"));
        CHECK(slurp(out) == want);
    }
    SECTION("a finished rescore resumed has nothing to do") {
        const Run r = run_cli("rescore " + in + " --out " + ref + args + " --resume");
        INFO(r.output);
        REQUIRE(r.status == 0);
        CHECK_THAT(r.output, Catch::Contains("7 games in " + ref + " (7 kept, 0 rescored now"));
        CHECK(slurp(ref) == want);
    }
    SECTION("a torn last block") {
        const std::string out = dir + "/torn";
        fs::copy_file(ref, out);
        fs::copy_file(ref + ".settings.json", out + ".settings.json");
        fs::resize_file(out, want.size() - 5);
        const Run r = run_cli("rescore " + in + " --out " + out + args + " --resume");
        INFO(r.output);
        REQUIRE(r.status == 0);
        CHECK_THAT(r.output, Catch::Contains("torn block"));
        CHECK(slurp(out) == want);
    }
    SECTION("cut to a block boundary") {
        const std::string out = dir + "/cut";
        const CorpusScan scan = scan_corpus(ref);
        REQUIRE(scan.ends.size() == 4);
        fs::copy_file(ref, out);
        fs::copy_file(ref + ".settings.json", out + ".settings.json");
        fs::resize_file(out, scan.ends[1]);
        const Run r = run_cli("rescore " + in + " --out " + out + args + " --resume");
        INFO(r.output);
        REQUIRE(r.status == 0);
        CHECK(slurp(out) == want);
    }
    SECTION("killed at random moments") {
        const std::string out = dir + "/killed";
        const KillRun k = run_with_kills("rescore " + in + " --out " + out + args, 3, 3, 30, 300);
        INFO(k.last.output);
        REQUIRE(k.last.status == 0);
        CHECK(slurp(out) == want);
    }
    SECTION("stopped by Ctrl-C, then resumed") {
        const std::string out = dir + "/interrupted";
        const pid_t pid = spawn_cli("rescore " + in + " --out " + out + args);
        REQUIRE(pid > 0);
        std::this_thread::sleep_for(std::chrono::milliseconds(150));
        ::kill(pid, SIGINT);
        const int status = wait_exit(pid);
        // Finished first, stopped with what it rescored, or stopped before it began.
        CHECK((status == 0 || status == 1 || status == 128 + SIGINT));
        const Run r = run_cli("rescore " + in + " --out " + out + args + " --resume");
        INFO(r.output);
        REQUIRE(r.status == 0);
        CHECK(slurp(out) == want);
    }
    SECTION("an output holding games without --resume is refused") {
        const Run r = run_cli("rescore " + in + " --out " + ref + args);
        CHECK(r.status == 1);
        CHECK_THAT(r.output, Catch::Contains(ref + ": already holds games; use --resume"));
        CHECK(slurp(ref) == want);
    }
    SECTION("a resume with another search is refused, naming the options") {
        const Run r = run_cli("rescore " + in + " --out " + ref +
                              " --depth 4 --block-games 2 --quiet --resume");
        CHECK(r.status == 1);
        CHECK_THAT(r.output, Catch::Contains("cannot resume with other settings: the engine "
                                             "options"));
        CHECK(slurp(ref) == want);
    }
    SECTION("a resume over other games is refused") {
        const std::string out = dir + "/other";
        REQUIRE(run_cli("rescore " + in + " --out " + out + args + " --max-games 4").status == 0);
        const std::string before = slurp(out);
        const std::string other = make_corpus("rescore_other_in", 7, 6);
        fs::copy_file(other, in, fs::copy_options::overwrite_existing);
        const Run r = run_cli("rescore " + in + " --out " + out + args + " --resume");
        CHECK(r.status == 1);
        CHECK_THAT(r.output, Catch::Contains("not a rescore of these inputs"));
        CHECK(slurp(out) == before);
    }
}

TEST_CASE("rescore refuses an output that is one of its inputs, and inputs of other rules",
          "[rescore]") {
    const std::string in = make_corpus("rescore_refuse_in", 2, 3);
    const std::string before = slurp(in);
    const Run r = run_cli("rescore " + in + " --out " + in + " --depth 1 --quiet");
    CHECK(r.status == 1);
    CHECK_THAT(r.output, Catch::Contains("--out"));
    CHECK(slurp(in) == before);

    const std::string dir = fresh_dir("rescore_refuse_dimy");
    REQUIRE(run_cli("selfplay --variant dimy --games 2 --depth 1 --corpus --no-positions --quiet "
                    "--out " +
                    dir)
                .status == 0);
    const Run mixed = run_cli("rescore " + in + " " + dir + "/corpus.fcorpus --out " + dir +
                              "/mixed --depth 1 --quiet");
    CHECK(mixed.status == 1);
    CHECK_THAT(mixed.output, Catch::Contains("a corpus holds one board and rules"));

    const Run games_file = run_cli("rescore " + dir + "/games.tsv --out " + dir + "/x --quiet");
    CHECK(games_file.status == 1);
    CHECK_THAT(games_file.output, Catch::Contains(dir + "/games.tsv: header: wrong magic"));
}
