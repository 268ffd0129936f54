// Run folders that cannot be corrupted: one writer per folder (a lock), every write checked (a
// full disk or a file-size limit ends the run with an error naming the file), and --resume that
// repairs a damaged folder to the files of an uninterrupted run or refuses, naming the problem.

#include <catch2/catch.hpp>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <spawn.h>
#include <thread>

#include <nlohmann/json.hpp>

#include "core/common/append_file.h"
#include "selfplay/formats/games_file.h"
#include "selfplay/formats/position_log.h"
#include "selfplay/games/run_folder.h"
#include "tests/cli_helpers.h"

using namespace test_cli;
namespace fs = std::filesystem;

namespace {

const std::string kSettings = "--games 12 --depth 2 --openings random:3 --seed 7 --quiet";
const std::string kPart = "--games 7 --depth 2 --openings random:3 --seed 7 --quiet";
const std::string kPlayers = " --player name=a,depth=2 --player name=b,depth=1 "
                             "--player name=c,builtin=greedy --format roundrobin "
                             "--openings random:4 --seed 3 --quiet";

void write_bytes(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// Every file of a folder but the lock, by name.
std::map<std::string, std::string> contents(const std::string& dir) {
    std::map<std::string, std::string> files;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().filename() != ".lock")
            files[e.path().filename().string()] = slurp(e.path().string());
    return files;
}

void expect_same_selfplay(const std::string& a, const std::string& b) {
    CHECK(slurp_run_file(a + "/games.tsv") == slurp_run_file(b + "/games.tsv"));
    CHECK(slurp(a + "/positions.bin") == slurp(b + "/positions.bin"));
    CHECK(slurp(a + "/settings.json") == slurp(b + "/settings.json"));
    const auto sa = nlohmann::json::parse(slurp(a + "/summary.json"));
    const auto sb = nlohmann::json::parse(slurp(b + "/summary.json"));
    CHECK(sa["games"] == sb["games"]);
    CHECK(sa["results"] == sb["results"]);
    CHECK(sa["positions"] == sb["positions"]);
}

void expect_same_tournament(const std::string& a, const std::string& b) {
    CHECK(slurp_run_file(a + "/games.tsv") == slurp_run_file(b + "/games.tsv"));
    CHECK(slurp(a + "/live.jsonl") == slurp(b + "/live.jsonl"));
    CHECK(slurp(a + "/settings.json") == slurp(b + "/settings.json"));
    CHECK(slurp(a + "/results.txt") == slurp(b + "/results.txt"));
}

std::string selfplay_reference() {
    static const std::string dir = [] {
        const std::string d = fresh_dir("rf_reference");
        REQUIRE(run_cli("selfplay " + kSettings + " --threads 1 --out " + d).status == 0);
        return d;
    }();
    return dir;
}

std::string tournament_reference() {
    static const std::string dir = [] {
        const std::string d = fresh_dir("rf_t_reference");
        REQUIRE(run_cli("tournament --games 4" + kPlayers + " --out " + d).status == 0);
        return d;
    }();
    return dir;
}

// A self-play folder stopped after 7 of the reference's 12 games.
std::string partial_selfplay(const std::string& name) {
    const std::string dir = fresh_dir(name);
    REQUIRE(run_cli("selfplay " + kPart + " --out " + dir).status == 0);
    return dir;
}

// A tournament folder after 2 of the reference's 4 games per pairing (6 games, 3 pairs).
std::string partial_tournament(const std::string& name) {
    const std::string dir = fresh_dir(name);
    REQUIRE(run_cli("tournament --games 2" + kPlayers + " --out " + dir).status == 0);
    return dir;
}

// `fanorona ARGS` under a file-size limit of `blocks` (ulimit -f), both output streams captured.
Run run_limited(int blocks, const std::string& args) {
    return run_shell("sh -c 'ulimit -f " + std::to_string(blocks) + "; exec " +
                     std::string(FANORONA_BINARY) + " " + args + "'");
}

// Looks at `done()` every few milliseconds until it holds (true) or `limit` has passed (false).
template <class Done> bool wait_until(std::chrono::milliseconds limit, Done done) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (!done()) {
        if (std::chrono::steady_clock::now() >= deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return true;
}

// Waits until DIR/.lock names `pid` (the run has taken the folder).
bool wait_for_lock(const std::string& dir, pid_t pid) {
    return wait_until(std::chrono::seconds(10),
                      [&] { return slurp(dir + "/.lock") == std::to_string(pid) + "\n"; });
}

// Waits until DIR/games.tsv holds `games` games (after its two header lines).
bool wait_for_games(const std::string& dir, int games) {
    return wait_until(std::chrono::seconds(20), [&] {
        const std::string text = slurp(dir + "/games.tsv");
        return std::count(text.begin(), text.end(), '\n') >= 2 + games;
    });
}

std::string cut_last_line(const std::string& text) {
    const auto end = text.rfind('\n', text.size() - 2);
    return text.substr(0, end + 1);
}

// The run refuses to resume with a message holding every one of `parts`, and changes nothing.
void expect_refused(const std::string& command, const std::string& dir,
                    const std::vector<std::string>& parts) {
    const auto before = contents(dir);
    const Run r = run_cli(command + " --resume --out " + dir);
    INFO(r.output);
    CHECK(r.status == 1);
    CHECK_THAT(r.output, Catch::StartsWith("fanorona: "));
    CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
    for (const auto& p : parts) CHECK_THAT(r.output, Catch::Contains(p));
    CHECK(contents(dir) == before);
}

} // namespace

TEST_CASE("a second run into a folder in use is refused at once and the first ends intact",
          "[runfolder]") {
    const std::string dir = fresh_dir("rf_race");
    const pid_t first =
        spawn_cli("selfplay --games 60 --depth 3 --threads 1 --quiet --seed 2 --out " + dir);
    REQUIRE(wait_for_lock(dir, first));
    for (const std::string extra : {"", " --resume"}) {
        const auto start = std::chrono::steady_clock::now();
        const Run second = run_cli(
            "selfplay --games 60 --depth 3 --threads 1 --quiet --seed 2 --out " + dir + extra);
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        INFO(second.output);
        CHECK(second.status == 1);
        CHECK_THAT(second.output, Catch::Contains(dir + ": the folder is in use") &&
                                      Catch::Contains("pid " + std::to_string(first)));
        CHECK(seconds < 5.0);
        int st = 0;
        CHECK(::waitpid(first, &st, WNOHANG) == 0); // it did not wait for the first to end
    }
    // So is a tournament into the same folder.
    const Run t = run_cli("tournament --games 1" + kPlayers + " --out " + dir);
    CHECK(t.status == 1);
    CHECK_THAT(t.output, Catch::Contains("in use"));
    REQUIRE(wait_exit(first) == 0);
    const auto games = fanorona::read_games_file(dir + "/games.tsv").games;
    REQUIRE(games.size() == 60);
    for (std::size_t i = 0; i < games.size(); ++i) CHECK(games[i].index == i);
    CHECK(fanorona::read_position_log(dir + "/positions.bin").chunks == 60);
    const auto summary = nlohmann::json::parse(slurp(dir + "/summary.json"));
    CHECK(summary["games"] == 60);
    CHECK(summary["interrupted"] == false);
}

TEST_CASE("a SIGKILLed run leaves no stale lock: the folder resumes at once", "[runfolder]") {
    // The kill lands once three of the 30 games are written: mid-run, whatever the build's speed.
    const std::string settings = "--games 30 --depth 4 --threads 1 --quiet --seed 4";
    const std::string ref = fresh_dir("rf_killed_reference");
    REQUIRE(run_cli("selfplay " + settings + " --out " + ref).status == 0);
    const std::string dir = fresh_dir("rf_killed");
    const pid_t pid = spawn_cli("selfplay " + settings + " --out " + dir);
    REQUIRE(wait_for_lock(dir, pid));
    REQUIRE(wait_for_games(dir, 3));
    ::kill(pid, SIGKILL);
    CHECK(wait_exit(pid) == 128 + SIGKILL);
    CHECK_FALSE(fs::exists(dir + "/summary.json"));
    const Run r = run_cli("selfplay " + settings + " --resume --out " + dir);
    INFO(r.output);
    REQUIRE(r.status == 0);
    expect_same_selfplay(ref, dir);
}

TEST_CASE("the folder lock and the appender, in process", "[runfolder]") {
    const std::string dir = fresh_dir("rf_api");
    fanorona::RunFolderSpec spec;
    spec.dir = dir;
    spec.settings = {{"format", "test-settings 1"}};
    const fanorona::RunFolder first(spec);
    CHECK_THROWS_WITH(fanorona::RunFolder(spec),
                      Catch::Contains(dir + ": the folder is in use") &&
                          Catch::Contains("pid " + std::to_string(::getpid())));
    // A full disk: /dev/full fails every write with ENOSPC.
    fanorona::AppendFile full("/dev/full", false);
    CHECK_THROWS_WITH(full.append("some bytes"), Catch::StartsWith("/dev/full: write failed") &&
                                                     Catch::Contains("No space left on device"));
    CHECK_THROWS_WITH(fanorona::AppendFile(dir + "/no/such/dir/file", false),
                      Catch::Contains(dir + "/no/such/dir/file: cannot open"));
}

TEST_CASE("a write failing on a file-size limit ends self-play with an error naming the file",
          "[runfolder]") {
    const std::string dir = fresh_dir("rf_full");
    const auto [status, output] =
        run_limited(12, "selfplay " + kSettings + " --threads 2 --out " + dir);
    INFO(output);
    CHECK(status == 1);
    CHECK_THAT(output, Catch::StartsWith("fanorona: " + dir + "/positions.bin: write failed") &&
                           Catch::Contains("File too large"));
    CHECK(std::count(output.begin(), output.end(), '\n') == 1);
    CHECK_FALSE(fs::exists(dir + "/summary.json")); // nothing claims the run ended
    // Without the limit the folder resumes to the files of an uninterrupted run.
    const Run again = run_cli("selfplay " + kSettings + " --resume --out " + dir);
    INFO(again.output);
    REQUIRE(again.status == 0);
    expect_same_selfplay(selfplay_reference(), dir);
}

TEST_CASE("a write failing on a file-size limit ends a tournament with an error naming the file",
          "[runfolder]") {
    const std::string dir = fresh_dir("rf_t_full");
    const auto [status, output] =
        run_limited(4, "tournament --games 4" + kPlayers + " --out " + dir);
    INFO(output);
    CHECK(status == 1);
    CHECK_THAT(output, Catch::StartsWith("fanorona: " + dir + "/") &&
                           Catch::Contains("write failed") && Catch::Contains("File too large"));
    CHECK_FALSE(fs::exists(dir + "/results.json"));
    const Run again = run_cli("tournament --games 4" + kPlayers + " --resume --out " + dir);
    INFO(again.output);
    REQUIRE(again.status == 0);
    expect_same_tournament(tournament_reference(), dir);
}

TEST_CASE("a live stream that cannot be written ends the tournament with its name", "[runfolder]") {
    const std::string dir = fresh_dir("rf_live_full");
    const Run r = run_cli("tournament --games 2" + kPlayers + " --live /dev/full --out " + dir);
    INFO(r.output);
    CHECK(r.status == 1);
    CHECK_THAT(r.output, Catch::StartsWith("fanorona: /dev/full: write failed") &&
                             Catch::Contains("No space left on device"));
    CHECK_FALSE(fs::exists(dir + "/results.json"));
}

TEST_CASE("a resume repairs torn and mismatched tails to the files of an uninterrupted run",
          "[runfolder]") {
    const std::string ref = selfplay_reference();
    const std::string resume = "selfplay " + kSettings + " --resume --out ";
    SECTION("a torn last line of games.tsv") {
        const std::string dir = partial_selfplay("rf_torn_games");
        std::ofstream(dir + "/games.tsv", std::ios::app) << "7\tfanorona(depth=2";
        REQUIRE(run_cli(resume + dir).status == 0);
        expect_same_selfplay(ref, dir);
    }
    SECTION("settings.json of a version that did not record the networks") {
        const std::string dir = partial_selfplay("rf_no_net_fingerprints");
        auto settings = nlohmann::json::parse(slurp(dir + "/settings.json"));
        REQUIRE(settings.erase("net_fingerprints") == 1);
        write_bytes(dir + "/settings.json", settings.dump(2) + "\n");
        REQUIRE(run_cli(resume + dir).status == 0);
        expect_same_selfplay(ref, dir);
    }
    SECTION("positions.bin truncated inside its chunks") {
        const std::string dir = partial_selfplay("rf_cut_positions");
        const std::string bin = slurp(dir + "/positions.bin");
        write_bytes(dir + "/positions.bin", bin.substr(0, bin.size() * 2 / 3));
        const Run r = run_cli(resume + dir);
        REQUIRE(r.status == 0);
        expect_same_selfplay(ref, dir);
    }
    SECTION("positions.bin truncated inside its header") {
        const std::string dir = partial_selfplay("rf_cut_header");
        write_bytes(dir + "/positions.bin", slurp(dir + "/positions.bin").substr(0, 9));
        REQUIRE(run_cli(resume + dir).status == 0);
        expect_same_selfplay(ref, dir);
    }
    SECTION("a chunk whose games line was never written, and a stale summary") {
        const std::string dir = partial_selfplay("rf_chunk_without_line");
        write_bytes(dir + "/games.tsv", cut_last_line(slurp(dir + "/games.tsv")));
        REQUIRE(run_cli(resume + dir).status == 0);
        expect_same_selfplay(ref, dir);
    }
    SECTION("the notes say what was cut") {
        const std::string dir = partial_selfplay("rf_notes");
        std::ofstream(dir + "/games.tsv", std::ios::app) << "7\tfanorona(depth=2";
        const Run r = run_cli("selfplay --games 12 --depth 2 --openings random:3 --seed 7 "
                              "--resume --out " +
                              dir);
        CHECK(r.status == 0);
        CHECK_THAT(r.output, Catch::Contains("resume: " + dir +
                                             "/games.tsv: cut 18 bytes (a torn last line)"));
    }
}

TEST_CASE("a resume refuses a folder whose files disagree: it names the file and changes nothing",
          "[runfolder]") {
    const std::string resume = "selfplay " + kSettings;
    SECTION("settings.json missing beside games") {
        const std::string dir = partial_selfplay("rf_no_settings");
        fs::remove(dir + "/settings.json");
        expect_refused(resume, dir, {dir + "/settings.json: missing", "7 in games.tsv"});
    }
    SECTION("settings.json of another run") {
        const std::string dir = partial_selfplay("rf_other_settings");
        const std::string other = fresh_dir("rf_other_settings_src");
        REQUIRE(run_cli("selfplay --games 2 --depth 2 --openings random:3 --seed 8 --quiet --out " +
                        other)
                    .status == 0);
        fs::copy_file(other + "/settings.json", dir + "/settings.json",
                      fs::copy_options::overwrite_existing);
        expect_refused(resume, dir,
                       {dir + "/settings.json: cannot resume with other settings: --seed was 8"});
    }
    SECTION("another network under the same file name") {
        const std::string net = fresh_dir("rf_net_file.net");
        REQUIRE(run_cli("net random --seed 1 --out " + net).status == 0);
        const std::string dir = fresh_dir("rf_net_changed");
        REQUIRE(run_cli("selfplay " + kPart + " --net " + net + " --out " + dir).status == 0);
        REQUIRE(run_cli("net random --seed 2 --out " + net).status == 0);
        expect_refused(resume + " --net " + net, dir,
                       {dir + "/settings.json: cannot resume with other settings: the networks "
                              "(--net, or a network file changed since) was"});
    }
    SECTION("settings.json of a tournament") {
        const std::string dir = partial_selfplay("rf_tournament_settings");
        fs::copy_file(tournament_reference() + "/settings.json", dir + "/settings.json",
                      fs::copy_options::overwrite_existing);
        // (no exploration, as in the tournament: 'kind' is then the first setting to differ)
        expect_refused(resume + " --epsilon 0 --explore-turns 0", dir,
                       {dir + "/settings.json: cannot resume with other settings: setting 'kind' "
                              "was \"tournament\", now \"selfplay\""});
    }
    SECTION("a duplicated game") {
        const std::string dir = partial_selfplay("rf_duplicate");
        const std::string text = slurp(dir + "/games.tsv");
        const std::string last = text.substr(cut_last_line(text).size());
        write_bytes(dir + "/games.tsv", text + last);
        expect_refused(resume, dir,
                       {dir + "/games.tsv:10: index: game 6 where game 7 was expected",
                        "missing or written twice"});
    }
    SECTION("a skipped game") {
        const std::string dir = partial_selfplay("rf_skipped");
        std::string text = slurp(dir + "/games.tsv");
        const auto third = text.find("\n2\t");
        const auto end = text.find('\n', third + 1);
        text.erase(third, end - third);
        write_bytes(dir + "/games.tsv", text);
        expect_refused(resume, dir, {dir + "/games.tsv:5: index: game 3 where game 2"});
    }
    SECTION("a games file of another format version") {
        // Versions 1, 2 (Vela series), 3 (per-move columns) and 4 (times in microseconds,
        // clocks and latencies) are read; a later one is not.
        const std::string dir = partial_selfplay("rf_games_version");
        std::string text = slurp(dir + "/games.tsv");
        REQUIRE(text.substr(0, 18) == "# fanorona-games 4");
        text.replace(0, 18, "# fanorona-games 5");
        write_bytes(dir + "/games.tsv", text);
        expect_refused(resume, dir, {dir + "/games.tsv:1: header: games file format version 5"});
        CHECK_THROWS_WITH(fanorona::read_games_file(dir + "/games.tsv"),
                          Catch::Contains(dir + "/games.tsv:1: header") &&
                              Catch::Contains("version 5"));
    }
    SECTION("a run without series does not resume a folder of Vela series") {
        const std::string dir = partial_selfplay("rf_games_series");
        std::string text = slurp(dir + "/games.tsv");
        text.replace(0, 18, "# fanorona-games 2");
        write_bytes(dir + "/games.tsv", text);
        expect_refused(resume, dir, {dir + "/games.tsv:1: header: '# fanorona-games 2"});
    }
    SECTION("a games file of another board") {
        const std::string dir = partial_selfplay("rf_games_board");
        std::string text = slurp(dir + "/games.tsv");
        text.replace(text.find("variant=tsivy"), 13, "variant=dimy");
        write_bytes(dir + "/games.tsv", text);
        expect_refused(resume, dir, {dir + "/games.tsv:1: header:", "variant=dimy"});
    }
    SECTION("a positions log of another format version") {
        const std::string dir = partial_selfplay("rf_positions_version");
        std::string bin = slurp(dir + "/positions.bin");
        bin[8] = 2;
        write_bytes(dir + "/positions.bin", bin);
        expect_refused(resume, dir, {dir + "/positions.bin: header: format version 2"});
    }
    SECTION("positions.bin missing beside games") {
        const std::string dir = partial_selfplay("rf_no_positions");
        fs::remove(dir + "/positions.bin");
        expect_refused(resume, dir, {dir + "/positions.bin: missing", "holds 7 games"});
    }
    SECTION("a summary of another kind of run") {
        const std::string dir = partial_selfplay("rf_summary_format");
        write_bytes(dir + "/summary.json", "{\"format\": \"fanorona-tournament-results 1\"}\n");
        expect_refused(resume, dir, {dir + "/summary.json: format"});
    }
}

TEST_CASE("a resume reconciles the live stream with the games", "[runfolder]") {
    const std::string ref = tournament_reference();
    const std::string command = "tournament --games 4" + kPlayers;
    SECTION("an extra live line, for a pair whose games are not there") {
        const std::string dir = partial_tournament("rf_live_extra");
        const std::string live = slurp(dir + "/live.jsonl");
        const std::string last = live.substr(cut_last_line(live).size());
        write_bytes(dir + "/live.jsonl", live + last);
        REQUIRE(run_cli(command + " --resume --out " + dir).status == 0);
        expect_same_tournament(ref, dir);
    }
    SECTION("a missing last live line: that pair is played again") {
        const std::string dir = partial_tournament("rf_live_missing");
        write_bytes(dir + "/live.jsonl", cut_last_line(slurp(dir + "/live.jsonl")));
        REQUIRE(run_cli(command + " --resume --out " + dir).status == 0);
        expect_same_tournament(ref, dir);
    }
    SECTION("a torn live line") {
        const std::string dir = partial_tournament("rf_live_torn");
        std::ofstream(dir + "/live.jsonl", std::ios::app) << "{\"pair\":3,\"ga";
        REQUIRE(run_cli(command + " --resume --out " + dir).status == 0);
        expect_same_tournament(ref, dir);
    }
    SECTION("a wrong line among the pairs played is refused") {
        const std::string dir = partial_tournament("rf_live_wrong");
        std::string live = slurp(dir + "/live.jsonl");
        live.replace(0, live.find('\n'), "{\"pair\": 3}");
        write_bytes(dir + "/live.jsonl", live);
        expect_refused(command, dir, {dir + "/live.jsonl:1: expected the line of pair 0"});
    }
    SECTION("live.jsonl missing beside games is refused") {
        const std::string dir = partial_tournament("rf_live_gone");
        fs::remove(dir + "/live.jsonl");
        expect_refused(command, dir, {dir + "/live.jsonl: missing", "holds 6 games"});
    }
}
