// The closed loop's mechanics on a tiny run: its files, accept and reject, resume.

#include <catch2/catch.hpp>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "core/evaluate.h"
#include "core/features.h"
#include "core/terms.h"
#include "core/weights.h"
#include "selfplay/formats/net_file.h"
#include "selfplay/formats/weights_file.h"
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
        " --spsa-param material_mg --spsa-games 16 --spsa-iteration-pairs 2 --spsa-nodes 300" +
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
    CHECK_FALSE(weights == fanorona::handset_weights()); // tuned, not a copy of the defaults
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
        CHECK(slurp_run_file(full + "/" + f) == slurp_run_file(part + "/" + f));
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
        CHECK(slurp_run_file(ref + "/" + f) == slurp_run_file(dir + "/" + f));
    // (tune/loss.csv has a seconds column, and weights files name their folder in a comment.)
    CHECK(fanorona::load_weights_file(ref + "/iter-1/tune/weights.txt") ==
          fanorona::load_weights_file(dir + "/iter-1/tune/weights.txt"));
    CHECK(fanorona::load_weights_file(ref + "/final_weights.txt") ==
          fanorona::load_weights_file(dir + "/final_weights.txt"));
}

namespace {

// A tiny network loop: a random start network (--net none: `loop --net` alone would start from
// the default network on 5x9), depth-1 games, a few training epochs (with these settings both
// iterations' trainings beat their start, so both play a match: the target is the search scores
// alone, as the results of 20 games are too few for that whatever the validation split).
const std::string kTinyNetGames = " --net none --games 20 --depth 1 --verify-games 4 "
                                  "--final-games 4 --match-openings random:3 --batch 128 "
                                  "--accept-los 0";
const std::string kTinyNet = kTinyNetGames + " --epochs 3 --lambda 1";

std::string first_player(const std::string& run_dir, int i = 0) {
    return nlohmann::json::parse(slurp(run_dir + "/settings.json"))["players"][i];
}

} // namespace

TEST_CASE("loop --net trains networks, keeps the winners and plays the kept one next",
          "[loop][net]") {
    const std::string dir = fresh_dir("loop_net");
    const std::string cmd = "loop" + kTinyNet + " --quiet --threads 2 --out " + dir;
    const Run one = run_cli(cmd + " --iterations 1");
    INFO(one.output);
    REQUIRE(one.status == 0);
    CHECK_THAT(one.output, Catch::Contains("final network: " + dir + "/final.net"));
    // Grown by a resume to two iterations: the final match is replayed with the new candidate.
    const Run two = run_cli(cmd + " --iterations 2 --resume");
    INFO(two.output);
    REQUIRE(two.status == 0);
    for (const char* f :
         {"settings.json", "start.net", "current.net", "final.net", "history.json", "history.txt",
          "report.html", "iter-1/selfplay/positions.bin", "iter-1/train/iter-1.net",
          "iter-1/train/iter-1.net.csv", "iter-1/train/train.json", "iter-1/match/results.json",
          "iter-2/train/iter-2.net", "final/results.json"})
        CHECK(fs::exists(dir + "/" + f));
    CHECK_FALSE(fs::exists(dir + "/start.txt")); // no weights are tuned
    CHECK_FALSE(fs::exists(dir + "/iter-1/tune"));
    CHECK_FALSE(fs::exists(dir + "/iter-1/train.partial"));

    const auto h = nlohmann::json::parse(slurp(dir + "/history.json"));
    CHECK(h["settings"]["net"]["start"] == "random");
    CHECK(h["settings"]["net"]["epochs"] == 3);
    REQUIRE(h["iterations"].size() == 2);
    for (int i = 0; i < 2; ++i) {
        const auto& it = h["iterations"][i];
        const std::string n = std::to_string(i + 1);
        CHECK(it["candidate"] == dir + "/iter-" + n + "/train/iter-" + n + ".net");
        CHECK(it["train"]["epochs"] == 3);
        CHECK(it["train"]["positions"].get<int>() > 100);
        // The kept epoch is the best by validation loss, the start network's counted.
        CHECK(it["train"]["final_validation_loss"].get<double>() <=
              it["train"]["start_validation_loss"].get<double>());
        CHECK(it["match"]["games"] == 4);
        CHECK(it["accepted"] == true); // --accept-los 0 keeps every candidate that played
    }
    CHECK(h["iterations"][0]["current_before"] == dir + "/start.net");
    CHECK(h["iterations"][1]["current_before"] == h["iterations"][0]["candidate"]);
    CHECK(h["final"]["net"] == h["iterations"][1]["candidate"]);
    CHECK(h["final"]["games"] == 4);

    // Each iteration's games play the network kept before it; its match, the candidate against it.
    CHECK_THAT(first_player(dir + "/iter-1/selfplay"), Catch::Contains("net=start.net"));
    CHECK_THAT(first_player(dir + "/iter-2/selfplay"), Catch::Contains("net=iter-1.net"));
    CHECK_THAT(first_player(dir + "/iter-2/match", 0), Catch::Contains("net=iter-2.net"));
    CHECK_THAT(first_player(dir + "/iter-2/match", 1), Catch::Contains("net=iter-1.net"));
    CHECK_THAT(first_player(dir + "/final", 0), Catch::Contains("net=iter-2.net"));
    CHECK_THAT(first_player(dir + "/final", 1), Catch::Contains("net=start.net"));

    // The written networks: the final one is the last kept, trained from the one before.
    const auto net_of = [](const std::string& path) { return fanorona::read_net_file(path).net; };
    CHECK(net_of(dir + "/final.net") == net_of(dir + "/iter-2/train/iter-2.net"));
    CHECK(slurp(dir + "/current.net") == slurp(dir + "/final.net"));
    CHECK_FALSE(net_of(dir + "/iter-1/train/iter-1.net") == net_of(dir + "/start.net"));
    const Run info = run_cli("net info " + dir + "/final.net");
    INFO(info.output);
    CHECK(info.status == 0);
    CHECK_THAT(info.output,
               Catch::Contains("loop --net, iteration 2") &&
                   Catch::Contains("trained from " + dir + "/iter-1/train/iter-1.net"));
    // The history and the report show the training steps.
    CHECK_THAT(slurp(dir + "/history.txt"), Catch::Contains("   2 "));
    CHECK_THAT(slurp(dir + "/report.html"),
               Catch::Contains("id=\"iter-2-train\"") && Catch::Contains("trained network"));
    // The engine plays the final network.
    CHECK(run_cli("analyze --depth 2 --net " + dir + "/final.net").status == 0);
}

TEST_CASE("loop --net trains a network of the start network's architecture", "[loop][net]") {
    // A second layer and SCReLU are the start network's, not train's defaults (the default
    // network has a second layer).
    const std::string dir = fresh_dir("loop_net_arch");
    fs::create_directories(dir);
    for (const std::string shape : {"--layer2 8", "--activation screlu"}) {
        const std::string start = dir + "/start-" + shape.substr(2, 6) + ".net";
        REQUIRE(run_cli("net random --hidden 16 --buckets 2 " + shape + " --out " + start).status ==
                0);
        const std::string out = dir + "/run-" + shape.substr(2, 6);
        const std::string args = kTinyNetGames.substr(std::string(" --net none").size());
        const Run r = run_cli("loop --net " + start + args + " --epochs 2 --iterations 1 --quiet " +
                              "--threads 2 --out " + out);
        INFO(r.output);
        REQUIRE(r.status == 0);
        const fanorona::nnue::Architecture a =
            fanorona::read_net_file(out + "/iter-1/train/iter-1.net").net.arch;
        CHECK(a == fanorona::read_net_file(start).net.arch);
    }
}

TEST_CASE("loop --net refuses options of the other loop and networks of another board",
          "[loop][net]") {
    const std::string out = " --out " + fresh_dir("loop_net_refused");
    Run r = run_cli("loop --epochs 3" + out);
    CHECK(r.status == 1);
    CHECK_THAT(r.output, Catch::StartsWith("fanorona: ") && Catch::Contains("--epochs") &&
                             Catch::Contains("loop --net"));
    r = run_cli("loop --net --optimizer adam" + out);
    CHECK(r.status == 1);
    CHECK_THAT(r.output, Catch::Contains("--optimizer") && Catch::Contains("not with --net"));
    r = run_cli("loop --net " FANORONA_DATA_DIR "/nets/tsivy-points-h128.net --variant dimy" + out);
    CHECK(r.status == 1);
    CHECK_THAT(r.output, Catch::Contains("tsivy board") && Catch::Contains("dimy"));
    // A resume with another start network is refused.
    const std::string dir = fresh_dir("loop_net_start");
    REQUIRE(
        run_cli("loop --iterations 1" + kTinyNet + " --quiet --threads 2 --out " + dir).status ==
        0);
    r = run_cli("loop --iterations 1" + kTinyNet + " --seed 2 --quiet --resume --out " + dir);
    CHECK(r.status != 0);
    CHECK_THAT(r.output, Catch::Contains("settings.json"));
}

TEST_CASE("a network loop killed at random moments resumes to the networks of an uninterrupted "
          "run",
          "[loop][net]") {
    const std::string args =
        "loop --iterations 1" + kTinyNetGames + " --epochs 8 --quiet --threads 1 --out ";
    const std::string ref = fresh_dir("loop_net_kill_reference");
    int ms = 0;
    REQUIRE(run_cli_timed(args + ref, ms).status == 0);
    REQUIRE(fs::exists(ref + "/final.net"));
    const std::string dir = fresh_dir("loop_net_killed");
    const KillRun r = run_with_kills(args + dir, 11, 5, ms / 10, ms);
    INFO("killed " << r.kills << " of 5 starts; " << r.last.output);
    REQUIRE(r.last.status == 0);
    CHECK(r.kills >= 1);
    for (const char* f : {"iter-1/selfplay/games.tsv", "iter-1/selfplay/positions.bin",
                          "iter-1/match/games.tsv", "final/games.tsv", "history.txt"})
        CHECK(slurp_run_file(ref + "/" + f) == slurp_run_file(dir + "/" + f));
    // (A network file records when it was written; its parameters are the same.)
    const auto net_of = [](const std::string& path) { return fanorona::read_net_file(path).net; };
    CHECK(net_of(ref + "/start.net") == net_of(dir + "/start.net"));
    CHECK(net_of(ref + "/iter-1/train/iter-1.net") == net_of(dir + "/iter-1/train/iter-1.net"));
    CHECK(net_of(ref + "/final.net") == net_of(dir + "/final.net"));
}

TEST_CASE("loop --net honours SOURCE_DATE_EPOCH in every network it writes", "[loop][cli]") {
    const std::string dir = fresh_dir("loop_net_epoch");
    const Run r = run_shell("SOURCE_DATE_EPOCH=1 " FANORONA_BINARY " loop --iterations 1" +
                            kTinyNet + " --quiet --threads 2 --out " + dir);
    REQUIRE(r.status == 0);
    int nets = 0;
    for (const auto& f : std::filesystem::recursive_directory_iterator(dir))
        if (f.path().extension() == ".net") {
            INFO(f.path());
            ++nets;
            CHECK_THAT(slurp(f.path().string()),
                       Catch::Contains("\ncreated 1970-01-01T00:00:01Z\n"));
        }
    CHECK(nets >= 3); // start.net, the iteration's network, final.net
}
