// tools/corpus.sh (`make corpus`): the corpus self-play's one command picks a seed no committed
// chunk used, starts the run in the background, stops it, and resumes it.

#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "tests/cli_helpers.h"

namespace fs = std::filesystem;
using namespace test_cli;

namespace {

// A folder laid out as the repository's top for the script: tools/corpus.sh and data/corpus
// holding empty chunk files of the given names.
std::string script_tree(const std::string& name, const std::vector<std::string>& chunks) {
    const std::string root = fresh_dir(name);
    fs::create_directories(root + "/tools");
    fs::create_directories(root + "/data/corpus");
    fs::copy_file(std::string(FANORONA_TEST_DATA) + "/../../tools/corpus.sh",
                  root + "/tools/corpus.sh");
    for (const std::string& chunk : chunks) std::ofstream(root + "/data/corpus/" + chunk) << "";
    return root;
}

Run corpus_script(const std::string& root, const std::string& action) {
    return run_shell("FANORONA=" FANORONA_BINARY " bash " + root + "/tools/corpus.sh " + action);
}

// The default network's generation ("gen6", from its file's name), as corpus.sh reads it from
// `fanorona --version`: the run folders' and the chunks' names say it.
std::string default_generation() {
    const std::string name = fs::path(FANORONA_DEFAULT_NET_FILE).stem().string();
    return name.substr(name.rfind('-') + 1);
}

} // namespace

TEST_CASE("corpus.sh plays the seed after every used one and keeps its generation's run folder",
          "[corpus_script]") {
    const std::string gen = default_generation(), other = gen == "gen4" ? "gen3" : "gen4";
    REQUIRE(gen.rfind("gen", 0) == 0);
    const std::string root =
        script_tree("corpus_seed",
                    {"tsivy-gen4-n20000-s7-000.fcorpus", "tsivy-" + gen + "-n20000-s11-000.fcorpus",
                     "tsivy-" + gen + "-n20000-s11-001.fcorpus"});
    Run r = corpus_script(root, "status");
    REQUIRE(r.status == 0);
    CHECK(r.output.find("runs/corpus-" + gen + "-s12, stopped, 0 games played") !=
          std::string::npos);
    CHECK(r.output.find("data/corpus: 3 chunks") != std::string::npos);
    // A run folder of this machine keeps its seed even once a chunk of it is committed.
    fs::create_directories(root + "/runs/corpus-" + gen + "-s12");
    std::ofstream(root + "/data/corpus/tsivy-" + gen + "-n20000-s12-000.fcorpus") << "";
    r = corpus_script(root, "status");
    CHECK(r.output.find("runs/corpus-" + gen + "-s12, stopped") != std::string::npos);
    CHECK(r.output.find("chunks of this run in data/corpus: 1") != std::string::npos);
    CHECK(r.output.find("data/corpus: unreadable: fanorona: data/corpus/") !=
          std::string::npos); // the empty chunks: too short for a header
    // A run folder of another network's generation (or of the names before generations) is
    // not resumed: the default network's run takes the seed after every seed used.
    fs::rename(root + "/runs/corpus-" + gen + "-s12", root + "/runs/corpus-" + other + "-s13");
    fs::create_directories(root + "/runs/corpus-s14");
    r = corpus_script(root, "status");
    CHECK(r.output.find("runs/corpus-" + gen + "-s15, stopped, 0 games played") !=
          std::string::npos);
    // A self-play that has not ended STOP_SECONDS after it was told to is left running, and the
    // stop fails saying so (no chunk is cut from a run still writing).
    fs::create_directories(root + "/runs/corpus-" + gen + "-s15");
    const Run sleeper = run_shell("(trap '' TERM; exec sleep 60) >/dev/null 2>&1 & echo $!");
    REQUIRE(!lines_of(sleeper.output).empty());
    const std::string pid = lines_of(sleeper.output).front();
    std::ofstream(root + "/runs/corpus-" + gen + "-s15/corpus.pid") << pid << "\n";
    r = run_shell("STOP_SECONDS=1 FANORONA=" FANORONA_BINARY " bash " + root +
                  "/tools/corpus.sh stop");
    CHECK(r.status == 1);
    CHECK(r.output.find("corpus: still running after 1 s (pid " + pid + ")") != std::string::npos);
    CHECK(corpus_script(root, "status").output.find("running (pid " + pid + ")") !=
          std::string::npos);
    run_shell("kill -KILL " + pid);
    fs::remove(root + "/runs/corpus-" + gen + "-s15/corpus.pid");

    // Readable chunks: what they hold, in all.
    const std::string real = script_tree("corpus_totals", {});
    REQUIRE(run_cli("selfplay --games 3 --depth 1 --seed 2 --corpus --no-positions --quiet --out " +
                    real + "/run")
                .status == 0);
    fs::copy_file(real + "/run/corpus.fcorpus",
                  real + "/data/corpus/tsivy-" + gen + "-n20000-s3-000.fcorpus");
    const Run info = run_cli("corpus info --json " + real + "/run/corpus.fcorpus");
    REQUIRE(info.status == 0);
    const auto j = nlohmann::json::parse(info.output);
    r = corpus_script(real, "status");
    CHECK(r.output.find("data/corpus holds 3 games, " + std::to_string(j["positions"].get<int>()) +
                        " positions, " + std::to_string(j["scored_positions"].get<int>()) +
                        " with a search score") != std::string::npos);

    // This run's games past its chunks: 5 played, the first 3 in its chunk.
    const std::string run = real + "/runs/corpus-" + gen + "-s4";
    REQUIRE(run_cli("selfplay --games 5 --depth 1 --seed 4 --quiet --out " + run).status == 0);
    REQUIRE(run_shell("cd " + real + " && " FANORONA_BINARY " corpus next-chunk runs/corpus-" +
                      gen + "-s4 " + "--name tsivy-" + gen +
                      "-n20000-s4 --min-games 1 --max-games 3")
                .status == 0);
    r = corpus_script(real, "status");
    CHECK(r.output.find("runs/corpus-" + gen + "-s4, stopped, 5 games played") !=
          std::string::npos);
    CHECK(r.output.find("chunks of this run in data/corpus: 1") != std::string::npos);
    CHECK(r.output.find("games of this run not yet in a chunk: 2 ") != std::string::npos);
    // One chunk command writes chunks until too few games are left: here a game a chunk.
    r = run_shell("MIN_GAMES=1 MAX_GAMES=1 FANORONA=" FANORONA_BINARY " bash " + real +
                  "/tools/corpus.sh chunk");
    INFO(r.output);
    CHECK(r.status == 0);
    CHECK(fs::exists(real + "/data/corpus/tsivy-" + gen + "-n20000-s4-002.fcorpus"));
    CHECK(!fs::exists(real + "/data/corpus/tsivy-" + gen + "-n20000-s4-003.fcorpus"));
    r = corpus_script(real, "status");
    CHECK(r.output.find("chunks of this run in data/corpus: 3") != std::string::npos);
    CHECK(r.output.find("games of this run not yet in a chunk: 0 ") != std::string::npos);

    r = corpus_script(root, "frobnicate");
    CHECK(r.status == 2);
    CHECK(r.output.find("usage: tools/corpus.sh start|status|stop|chunk") != std::string::npos);
    // Without the program there is no generation to tell: a clear error, nothing started.
    r = run_shell("FANORONA=" + root + "/none bash " + root + "/tools/corpus.sh status");
    CHECK(r.status == 1);
    CHECK(r.output.find("corpus: " + root + "/none is missing (run: make program)") !=
          std::string::npos);
}

TEST_CASE("corpus.sh starts the self-play in the background, stops it and resumes it",
          "[corpus_script]") {
    const std::string gen = default_generation();
    const std::string root = script_tree("corpus_run", {"tsivy-" + gen + "-n20000-s3-000.fcorpus"});
    Run r = corpus_script(root, "start");
    REQUIRE(r.status == 0);
    CHECK(r.output.find("corpus: started afresh") != std::string::npos);
    CHECK(r.output.find("runs/corpus-" + gen + "-s4, running") != std::string::npos);
    // Games land in the run folder while the command has long returned.
    const std::string games = root + "/runs/corpus-" + gen + "-s4/games.tsv";
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60 * kSlowdown);
    while (lines_of(fs::exists(games) ? slurp(games) : "").size() < 3 &&
           std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    CHECK(lines_of(slurp(games)).size() >= 3); // the two header lines and a game
    r = corpus_script(root, "stop");
    CHECK(r.status == 0);
    CHECK(r.output.find("corpus: stopped") != std::string::npos);
    r = corpus_script(root, "status");
    CHECK(r.output.find("runs/corpus-" + gen + "-s4, stopped") != std::string::npos);
    r = corpus_script(root, "start");
    CHECK(r.output.find("corpus: started --resume") != std::string::npos);
    // Resumed too, the self-play's own scheduling group is at the lowest priority (where the
    // kernel has such groups), not the caller's.
    const std::string pid =
        lines_of(slurp(root + "/runs/corpus-" + gen + "-s4/corpus.pid")).front();
    if (fs::exists("/proc/" + pid + "/autogroup")) {
        // "/autogroup-540 nice 19": the group and its nice.
        const auto group = [](const std::string& proc) {
            const std::string line = slurp("/proc/" + proc + "/autogroup");
            return std::pair{line.substr(0, line.find(' ')), line.find(" nice 19") != line.npos};
        };
        const auto [run_group, lowest] = group(pid);
        CHECK(lowest);
        CHECK(run_group != group("self").first); // its own group, not the caller's
    }
    r = corpus_script(root, "stop");
    CHECK(r.output.find("corpus: stopped") != std::string::npos);
    fs::remove_all(root);
}
