// The closed loop's mechanics on a tiny run: its files, accept and reject, resume.

#include <catch2/catch.hpp>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "core/evaluate.h"
#include "core/features.h"
#include "core/terms.h"
#include "records/weights_file.h"
#include "tests/cli_helpers.h"
#include "tools/loop/loop.h"

using namespace test_cli;
namespace fs = std::filesystem;

namespace {

const std::string kTiny = " --games 40 --depth 1 --verify-games 8 --final-games 8 "
                          "--match-openings random:3 --quiet --threads 2";

std::string weak_weights() {
    return FANORONA_TEST_DATA "/../../data/weights/weak.txt";
}

} // namespace

TEST_CASE("a loop iteration writes its data, tuned weights, match and history", "[loop]") {
    const std::string dir = fresh_dir("loop_files");
    const Run r = run_cli("loop --iterations 2" + kTiny + " --weights " + weak_weights() +
                          " --accept-los 0 --out " + dir);
    INFO(r.output);
    REQUIRE(r.status == 0);
    for (const char* f :
         {"settings.json", "start.txt", "history.json", "history.txt", "final_weights.txt",
          "iter-1/selfplay/games.tsv", "iter-1/selfplay/positions.bin", "iter-1/tune/weights.txt",
          "iter-1/tune/loss.csv", "iter-1/tune/tune.json", "iter-1/match/results.json",
          "iter-2/match/games.tsv", "final/results.json"})
        CHECK(fs::exists(dir + "/" + f));
    const auto h = nlohmann::json::parse(slurp(dir + "/history.json"));
    REQUIRE(h["iterations"].size() == 2);
    // --accept-los 0 accepts every candidate: the second iteration starts from the first's.
    CHECK(h["iterations"][0]["accepted"] == true);
    CHECK(h["iterations"][1]["current_before"] == h["iterations"][0]["candidate"]);
    CHECK(h["final"]["weights"] == h["iterations"][1]["candidate"]);
    CHECK(h["final"]["games"] == 8);
    CHECK_THAT(r.output, Catch::Contains("Elo gained"));
    CHECK(fs::exists(dir + "/report.html"));
    // The tuned weights are a weights file the engine reads.
    CHECK(run_cli("selfplay --games 2 --depth 1 --quiet --weights " + dir +
                  "/final_weights.txt --out " + fresh_dir("loop_reuse"))
              .status == 0);
}

TEST_CASE("a loop rejects candidates that do not win and keeps the current weights", "[loop]") {
    const std::string dir = fresh_dir("loop_reject");
    const Run r = run_cli("loop --iterations 1" + kTiny + " --weights " + weak_weights() +
                          " --accept-los 1.0 --out " + dir);
    INFO(r.output);
    REQUIRE(r.status == 0);
    const auto h = nlohmann::json::parse(slurp(dir + "/history.json"));
    CHECK(h["iterations"][0]["match"]["games"] == 8); // a match was played, and lost or drawn
    CHECK(h["iterations"][0]["accepted"] == false);
    CHECK(h["final"]["weights"] == dir + "/start.txt");
    CHECK_FALSE(fs::exists(dir + "/final/results.json"));
}

TEST_CASE("a loop with --patterns fits pattern weights in its tuning step", "[loop]") {
    const std::string dir = fresh_dir("loop_patterns");
    const Run r =
        run_cli("loop --iterations 1" + kTiny + " --patterns --accept-los 1.0 --out " + dir);
    INFO(r.output);
    REQUIRE(r.status == 0);
    const auto t = nlohmann::json::parse(slurp(dir + "/iter-1/tune/tune.json"));
    CHECK(t["settings"]["patterns"] == true);
    CHECK(t["patterns"]["rounds"].size() == 3);
    CHECK(nlohmann::json::parse(slurp(dir + "/settings.json"))["patterns"] == true);
    // Not on other boards.
    const Run dimy = run_cli("loop --variant dimy --patterns --out " + fresh_dir("loop_dimy"));
    CHECK(dimy.status == 1);
    CHECK_THAT(dimy.output, Catch::StartsWith("fanorona: ") && Catch::Contains("--patterns"));
}

TEST_CASE("a loop with --spsa-param tunes search parameters and plays them in a final match",
          "[loop]") {
    const std::string dir = fresh_dir("loop_spsa");
    const std::string cmd =
        "loop --iterations 1" + kTiny + " --weights " + weak_weights() +
        " --accept-los 0 --spsa-param LmrBase,50,0,200,20,0.01" +
        " --spsa-param material_mg --spsa-games 16 --spsa-batch 2 --spsa-nodes 300" +
        " --final-movetime 5 --out " + dir;
    const Run r = run_cli(cmd);
    INFO(r.output);
    REQUIRE(r.status == 0);
    for (const char* f : {"spsa/spsa.csv", "spsa/params.txt", "spsa/spsa.json", "final_params.txt",
                          "final-spsa/results.json", "final/results.json"})
        CHECK(fs::exists(dir + "/" + f));
    const auto h = nlohmann::json::parse(slurp(dir + "/history.json"));
    CHECK(h["spsa"]["games"] == 16);
    REQUIRE(h["spsa"]["params"].size() == 2);
    CHECK(h["spsa"]["params"][0]["name"] == "LmrBase");
    // The SPSA step tunes with the accepted weights: material_mg starts at the tuned value.
    const auto tuned = fanorona::load_weights_file(h["iterations"][0]["candidate"]);
    CHECK(h["spsa"]["params"][1]["start"] ==
          double(tuned.values[fanorona::feature_of(fanorona::term_id("material"), false)]));
    CHECK(h["final_spsa"]["games"] == 8);
    CHECK(slurp(dir + "/final_params.txt") == slurp(dir + "/spsa/params.txt"));
    // The SPSA games play at the given nodes, not at the loop's depth.
    CHECK_THAT(
        nlohmann::json::parse(slurp(dir + "/spsa/settings.json"))["players"][0].get<std::string>(),
        Catch::Contains("nodes=300") && !Catch::Contains("depth="));
    CHECK_THAT(r.output, Catch::Contains("SPSA values against the start"));
    // Both final matches play at the given time, the SPSA one with the tuned values.
    const auto players = nlohmann::json::parse(slurp(dir + "/final-spsa/settings.json"))["players"];
    CHECK_THAT(players[0].get<std::string>(),
               Catch::Contains("movetime=5") && Catch::Contains("LmrBase="));
    CHECK_THAT(players[1].get<std::string>(), Catch::Contains("movetime=5"));
    CHECK_THAT(
        nlohmann::json::parse(slurp(dir + "/final/settings.json"))["players"][0].get<std::string>(),
        Catch::Contains("movetime=5"));
    // The parameters file is what every engine reads.
    CHECK(run_cli("analyze --depth 2 --params " + dir + "/final_params.txt").status == 0);
    // A finished loop resumes to the same result without playing again.
    const Run again = run_cli(cmd + " --resume");
    CHECK(again.status == 0);
    CHECK(nlohmann::json::parse(slurp(dir + "/history.json"))["final_spsa"] == h["final_spsa"]);
    // A bad SPSA spec is refused before any game.
    const std::string bad = fresh_dir("loop_spsa_bad");
    const Run refused = run_cli("loop" + kTiny + " --spsa-param NoSuchThing --out " + bad);
    CHECK(refused.status == 1);
    CHECK_THAT(refused.output, Catch::StartsWith("fanorona: ") && Catch::Contains("NoSuchThing"));
    CHECK_FALSE(fs::exists(bad + "/iter-1"));
    const Run twice = run_cli("loop" + kTiny + " --spsa-param LmrBase --spsa-param lmrbase --out " +
                              fresh_dir("loop_spsa_twice"));
    CHECK(twice.status == 1);
    CHECK_THAT(twice.output, Catch::Contains("LmrBase") && Catch::Contains("given twice"));
}

TEST_CASE("the long main job's results ship as files every engine reads", "[loop]") {
    const std::string data = FANORONA_DATA_DIR;
    const auto weights = fanorona::load_weights_file(data + "/weights/tuned.txt");
    CHECK_FALSE(weights == fanorona::default_weights()); // tuned, not a copy of the defaults
    const Run r = run_cli("analyze --depth 3 --json --weights " + data +
                          "/weights/tuned.txt --params " + data + "/params/tuned.txt");
    INFO(r.output);
    REQUIRE(r.status == 0);
    // The parameters file switches on the pruning the hand-set table keeps off.
    const std::string dir = fresh_dir("loop_tuned_files");
    const Run spec = run_cli(
        "tournament --games 2 --quiet --out " + dir + " --player name=t,weights=" + data +
        "/weights/tuned.txt,params=" + data + "/params/tuned.txt,depth=1 --player name=d,depth=1");
    INFO(spec.output);
    REQUIRE(spec.status == 0);
    CHECK_THAT(slurp(dir + "/settings.json"), Catch::Contains("FutMaxDepth=2"));
}

TEST_CASE("a loop resumes where it stopped and refuses to overwrite", "[loop]") {
    const std::string full = fresh_dir("loop_full");
    REQUIRE(run_cli("loop --iterations 2" + kTiny + " --accept-los 0 --out " + full).status == 0);
    const std::string part = fresh_dir("loop_part");
    REQUIRE(run_cli("loop --iterations 1" + kTiny + " --accept-los 0 --out " + part).status == 0);
    // Lose the end of the first iteration's match, as a crash would.
    fs::remove(part + "/iter-1/match/results.json");
    CHECK(run_cli("loop --iterations 2" + kTiny + " --accept-los 0 --out " + part).status != 0);
    REQUIRE(
        run_cli("loop --iterations 2" + kTiny + " --accept-los 0 --resume --out " + part).status ==
        0);
    for (const char* f : {"iter-1/selfplay/games.tsv", "iter-2/selfplay/positions.bin",
                          "iter-2/match/games.tsv", "final/games.tsv"})
        CHECK(slurp(full + "/" + f) == slurp(part + "/" + f));
    // The tuned files name their folder in a comment; the weights themselves are the same.
    auto weights_only = [](std::string text) {
        std::string out, line;
        std::istringstream in(text);
        while (std::getline(in, line))
            if (line.rfind("#", 0) != 0) out += line + "\n";
        return out;
    };
    CHECK(weights_only(slurp(full + "/final_weights.txt")) ==
          weights_only(slurp(part + "/final_weights.txt")));
    const Run changed = run_cli(
        "loop --iterations 2 --games 14 --depth 1 --accept-los 0 --quiet --resume --out " + part);
    CHECK(changed.status != 0);
    CHECK_THAT(changed.output, Catch::Contains("settings.json") && Catch::Contains("games"));
}

TEST_CASE("a loop plays no match when the tuner changed no weight", "[loop]") {
    const std::string dir = fresh_dir("loop_unchanged");
    // An overwhelming L2 pull keeps every weight where it starts.
    const Run r = run_cli("loop --iterations 1" + kTiny + " --l2 1e9 --out " + dir);
    INFO(r.output);
    REQUIRE(r.status == 0);
    const auto h = nlohmann::json::parse(slurp(dir + "/history.json"));
    CHECK(h["iterations"][0]["accepted"] == false);
    CHECK(h["iterations"][0]["match"]["games"] == 0);
    CHECK_FALSE(fs::exists(dir + "/iter-1/match"));
    CHECK(h["final"]["games"] == 0);
    CHECK(fs::exists(dir + "/report.html"));
}

TEST_CASE("the loop runs in-process, passing weights in memory", "[loop]") {
    fanorona::LoopConfig c;
    c.iterations = 1;
    c.games = 40;
    c.engine.set("weights", weak_weights());
    c.engine.set("depth", "1");
    c.verify_games = 4;
    c.final_games = 4;
    c.match_openings = "random:3";
    c.accept_los = 0;
    c.threads = 1;
    c.out_dir = fresh_dir("loop_in_process");
    std::vector<std::string> lines;
    const nlohmann::json h =
        fanorona::run_loop(c, [&](const std::string& line) { lines.push_back(line); });
    REQUIRE(h["iterations"].size() == 1);
    CHECK(h["iterations"][0]["accepted"] == true);
    CHECK(h["final"]["games"] == 4);
    CHECK(!lines.empty());
    // The kept weights are the tuner's, as written in the iteration's folder and at the end.
    const fanorona::Weights tuned =
        fanorona::load_weights_file(c.out_dir + "/iter-1/tune/weights.txt");
    CHECK(fanorona::load_weights_file(c.out_dir + "/final_weights.txt") == tuned);
    CHECK(tuned != c.engine.weights);
    CHECK(fanorona::loop_history_table(h).find("   1 ") != std::string::npos);
    // A second run into the folder without resume is refused.
    CHECK_THROWS_WITH(fanorona::run_loop(c), Catch::Contains("already holds a loop"));
}

TEST_CASE("a loop killed at random moments, also while resuming, resumes to the files of an "
          "uninterrupted run",
          "[loop]") {
    // Self-play, tuning, a verification match and the final match: about 0.5 s in Release.
    const std::string args = "loop --iterations 1 --games 40 --depth 1 --verify-games 4 "
                             "--final-games 4 --match-openings random:3 --accept-los 0 --quiet "
                             "--threads 1 --weights " +
                             weak_weights() + " --out ";
    const std::string ref = fresh_dir("loop_kill_reference");
    int ms = 0;
    REQUIRE(run_cli_timed(args + ref, ms).status == 0);
    REQUIRE(fs::exists(ref + "/final/games.tsv"));
    // Kills at seeded moments in the first third of the uninterrupted run's time (whatever the
    // build's speed).
    const std::string dir = fresh_dir("loop_killed");
    const KillRun r = run_with_kills(args + dir, 7, 5, ms / 20, ms / 3);
    INFO("killed " << r.kills << " of 5 starts; " << r.last.output);
    REQUIRE(r.last.status == 0);
    CHECK(r.kills >= 1);
    for (const char* f :
         {"settings.json", "start.txt", "iter-1/selfplay/games.tsv",
          "iter-1/selfplay/positions.bin", "iter-1/match/games.tsv", "iter-1/match/live.jsonl",
          "final/games.tsv", "final/live.jsonl", "history.txt"})
        CHECK(slurp(ref + "/" + f) == slurp(dir + "/" + f));
    // (tune/loss.csv has a seconds column, and weights files name their folder in a comment.)
    CHECK(fanorona::load_weights_file(ref + "/iter-1/tune/weights.txt") ==
          fanorona::load_weights_file(dir + "/iter-1/tune/weights.txt"));
    CHECK(fanorona::load_weights_file(ref + "/final_weights.txt") ==
          fanorona::load_weights_file(dir + "/final_weights.txt"));
}
