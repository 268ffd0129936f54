// Every command writes its outputs one way (core/common/files.h): a device stays a device, an
// output that is one of the command's inputs (or another output) is refused before anything is
// written, with the input unchanged.

#include <catch2/catch.hpp>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "core/common/files.h"
#include "tests/cli_helpers.h"

namespace {

namespace fs = std::filesystem;
using test_cli::run_cli;
using test_cli::slurp;

// A small self-play run (games.tsv and positions.bin), made once per test process.
const std::string& small_run() {
    static const std::string dir = [] {
        const std::string d = test_cli::fresh_dir("outputs_run");
        REQUIRE(run_cli("selfplay --games 4 --depth 1 --seed 3 --threads 1 --quiet --out " + d)
                    .status == 0);
        return d;
    }();
    return dir;
}

} // namespace

TEST_CASE("outputs named /dev/null stay the device", "[outputs][cli]") {
    auto r = run_cli("solve --variant 3x3 --table-pieces 0 --quiet --json-out /dev/null");
    CHECK(r.status == 0);
    CHECK(fs::is_character_file("/dev/null"));
    r = run_cli("net random --variant 3x3 --hidden 16 --out /dev/null");
    CHECK(r.status == 0);
    CHECK(fs::is_character_file("/dev/null"));
    r = run_cli("report --selfplay " + small_run() + " --out /dev/null");
    CHECK(r.status == 0);
    CHECK(fs::is_character_file("/dev/null"));
    r = run_cli("net random --out ''");
    CHECK(r.status == 1);
    CHECK_THAT(r.output, Catch::Contains("names no file"));
}

TEST_CASE("an output that is an input is refused and the input kept", "[outputs][cli]") {
    const std::string run = small_run();
    const std::string dir = test_cli::fresh_dir("outputs_same");
    fs::create_directories(dir);
    const std::string data = dir + "/ow.bin";
    fs::copy_file(run + "/positions.bin", data);
    const std::string before = slurp(data);

    // train: the data spelled another way.
    auto r = run_cli("train " + data + " --out " + dir + "/../" +
                     fs::path(dir).filename().string() + "/ow.bin --epochs 1 --hidden 16");
    CHECK(r.status == 1);
    CHECK_THAT(r.output, Catch::Contains("the same file as the input positions"));
    CHECK(slurp(data) == before);

    // report: a file of an input folder.
    const std::string games = slurp(run + "/games.tsv");
    r = run_cli("report --selfplay " + run + " --out " + run + "/games.tsv");
    CHECK(r.status == 1);
    CHECK_THAT(r.output, Catch::Contains("the same file as the input --selfplay"));
    CHECK(slurp(run + "/games.tsv") == games);

    // solve: the proof file as the JSON output.
    const std::string proof = dir + "/p.proof";
    REQUIRE(run_cli("solve --variant 3x3 --table-pieces 0 --method pns --quiet --proof " + proof)
                .status == 0);
    const std::string bounds = slurp(proof);
    r = run_cli("solve --variant 3x3 --table-pieces 0 --method pns --quiet --proof " + proof +
                " --json-out " + proof);
    CHECK(r.status == 1);
    CHECK_THAT(r.output, Catch::Contains("--json-out") && Catch::Contains("the same file as"));
    CHECK(slurp(proof) == bounds);

    // frontier: two outputs that are one file.
    r = run_cli("frontier --variant 3x3 --table-pieces 0 --solve-turns 1 --csv-out " + dir +
                "/f --json-out " + dir + "/./f");
    CHECK(r.status == 1);
    CHECK_THAT(r.output, Catch::Contains("the same file as the output --csv-out"));
    CHECK_FALSE(fs::exists(dir + "/f"));

    // tune: --out over the data's folder writes beside the data, never over it.
    r = run_cli("tune --data " + data + " --out " + dir + " --epochs 1 --quiet");
    CHECK(r.status == 0);
    CHECK(slurp(data) == before);
}

TEST_CASE("a second writer of a proof file is refused at once, naming the first",
          "[outputs][cli]") {
    const std::string dir = test_cli::fresh_dir("outputs_lock");
    fs::create_directories(dir);
    const std::string proof = dir + "/shared.proof";
    // A df-pn solve of 7x5 without tables runs until its budget: the first writer.
    const pid_t first = test_cli::spawn_cli("solve --variant 7x5 --method pns --table-pieces 0 "
                                            "--hash 16 --threads 1 --max-seconds 20 --quiet "
                                            "--proof " +
                                            proof);
    REQUIRE(first > 0);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (slurp(proof + ".lock") != std::to_string(first) + "\n" &&
           std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const auto second = run_cli("solve --variant 7x5 --method pns --table-pieces 0 --hash 16 "
                                "--max-seconds 1 --quiet --proof " +
                                proof);
    CHECK(second.status == 1);
    CHECK_THAT(second.output, Catch::Contains(proof + " is in use by another run (pid " +
                                              std::to_string(first) + ", see " + proof + ".lock)"));
    const auto frontier = run_cli("frontier --variant 7x5 --table-pieces 0 --solve-turns 1 "
                                  "--max-nodes 100 --proof " +
                                  proof);
    CHECK(frontier.status == 1);
    CHECK_THAT(frontier.output, Catch::Contains("is in use by another run"));
    ::kill(first, SIGKILL);
    test_cli::wait_exit(first);
}

TEST_CASE("endless inputs are refused within seconds, protocol lines are capped",
          "[outputs][cli]") {
    for (const std::string& args :
         {std::string("net info /dev/zero"), std::string("analyze --weights /dev/zero"),
          std::string("solve --variant 3x3 --method pns --proof /dev/zero"),
          std::string("eval --net /dev/zero")}) {
        INFO(args);
        const auto r = run_cli(args);
        CHECK(r.status == 1);
        // Told by its first bytes (a network, a proof file) or by its length (weights).
        CHECK_THAT(r.output, Catch::Contains("/dev/zero") &&
                                 (Catch::Contains("it starts with bytes 00 00") ||
                                  Catch::Contains("not a regular file, and longer than")));
    }
    // A folder is named as one (it once read as an empty file).
    CHECK_THAT(run_cli("net info /tmp").output, Catch::Contains("/tmp: is a folder, not a file"));
    // The engine reads a 3 MB line in bounded memory, says so, and goes on.
    const std::string dir = test_cli::fresh_dir("outputs_long_line");
    fs::create_directories(dir);
    fanorona::write_file_atomically(dir + "/in.txt", std::string(3 << 20, 'x') + "\nisready\n" +
                                                         std::string(5000, 'y') + "\nquit\n");
    const auto r = test_cli::run_shell(FANORONA_BINARY " engine < " + dir + "/in.txt");
    CHECK(r.status == 0);
    CHECK_THAT(r.output, Catch::Contains("info string error: a line of more than 1 MB, ignored\n"
                                         "readyok\n"));
    CHECK(r.output.size() < 1000); // the unknown command is not echoed whole
}

TEST_CASE("a large file of the wrong kind is refused by its first bytes or its size, at once",
          "[outputs][cli]") {
    const std::string dir = test_cli::fresh_dir("outputs_large_wrong");
    fs::create_directories(dir);
    const std::string zeros = dir + "/zeros";
    { std::ofstream(zeros, std::ios::binary); }
    fs::resize_file(zeros, std::uintmax_t(1) << 30); // sparse: 1 GB of zeros
    const auto start = std::chrono::steady_clock::now();
    const auto net = run_cli("net info " + zeros);
    CHECK(net.status == 1);
    CHECK_THAT(net.output,
               Catch::Contains(zeros + ": not a network file (it starts with bytes 00"));
    const auto weights = run_cli("analyze --depth 1 --weights " + zeros);
    CHECK(weights.status == 1);
    CHECK_THAT(weights.output,
               Catch::Contains("1073741824 bytes, more than a weights file's largest"));
    CHECK(std::chrono::steady_clock::now() - start <
          std::chrono::seconds(10 * test_cli::kSlowdown));
}
