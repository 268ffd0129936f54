// Runs under MPI: the same commands launched by mpirun spread their games over the ranks and
// write exactly the files one process writes; a job that loses a rank resumes (with another
// number of ranks) without losing or repeating a game; a rescore over the ranks writes the corpus
// of one process. The encoding of what travels is checked without MPI.

#include <catch2/catch.hpp>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>
#include <tuple>

#include "core/tables/tablebase.h"
#include "core/weights.h"
#include "selfplay/formats/net_file.h"
#include "selfplay/formats/weights_file.h"
#include "selfplay/games/scheduled_games.h"
#include "selfplay/mpi/identity.h"
#include "selfplay/mpi/job.h"
#include "selfplay/mpi/pns_job.h"
#include "selfplay/mpi/rescore_job.h"
#include "tests/cli_helpers.h"

#include <nlohmann/json.hpp>

using namespace test_cli;
namespace fs = std::filesystem;

namespace {

// Whether the MPI tests can run: a build with MPI and mpirun on the PATH. Under CI (in_ci()), where
// both are installed, a missing one fails the test instead of skipping it.
bool mpi_ready() {
#if FANORONA_MPI_BUILD
    const bool ready = std::system("command -v mpirun > /dev/null 2>&1") == 0;
#else
    const bool ready = false;
#endif
    if (!ready && in_ci())
        FAIL("CI=true, but no mpirun or a build without MPI: the MPI test cannot run");
    return ready;
}

// `fanorona ARGS` under mpirun with `ranks` processes (as root, more ranks than cores).
Run run_mpi(int ranks, const std::string& args) {
    return run_shell("env OMPI_MCA_btl_vader_single_copy_mechanism=none mpirun "
                     "--allow-run-as-root --oversubscribe -np " +
                     std::to_string(ranks) + " " + std::string(FANORONA_BINARY) + " " + args);
}

// mpirun with several app contexts ("-np 1 PROG ARGS : -np 1 -wdir DIR PROG ARGS").
Run run_mpmd(const std::string& contexts) {
    return run_shell("env OMPI_MCA_btl_vader_single_copy_mechanism=none mpirun "
                     "--allow-run-as-root --oversubscribe " +
                     contexts);
}

// The number that follows `before` in `text` (0 when there is none).
std::uint64_t number_after(const std::string& text, const std::string& before) {
    const std::size_t at = text.find(before);
    return at == std::string::npos ? 0 : std::stoull(text.substr(at + before.size()));
}

void same_files(const std::string& a, const std::string& b,
                std::initializer_list<const char*> names) {
    for (const char* n : names) {
        INFO(n);
        CHECK(slurp_run_file(a + "/" + n) == slurp_run_file(b + "/" + n));
    }
}

// A weights file with pattern weights: the default weights and a pseudo-random weight (up to
// +-80 centi-pieces) for every canonical configuration of every class, strong enough that an
// engine without them plays other moves.
std::string pattern_weights_file(const std::string& dir) {
    using namespace fanorona;
    Weights w = handset_weights();
    auto p = std::make_shared<PatternWeights>();
    std::uint64_t x = 0x9E3779B97F4A7C15ULL;
    for (int c = 0; c < kPatternClasses; ++c)
        for (int k = 0; k < kPatternConfigs; ++k) {
            if (!pattern_config_canonical(c, k)) continue;
            const std::size_t n = std::size_t(c) * kPatternConfigs + std::size_t(k);
            for (int phase = 0; phase < 2; ++phase) {
                x = x * 6364136223846793005ULL + 1442695040888963407ULL;
                p->values[2 * n + std::size_t(phase)] = int((x >> 33) % 161) - 80;
            }
        }
    w.patterns = p;
    const std::string path = dir + "/patterns.txt";
    save_weights_file(path, w);
    return path;
}

} // namespace

TEST_CASE("a job travels between ranks and comes back the same", "[cluster]") {
    using namespace fanorona;
    RunConfig c;
    c.rules.ruleset = RuleSet::FirstTurn;
    c.players = {EngineSpec::parse(
                     "name=a,depth=3,LmrBase=80,hash=4,weights=" + std::string(FANORONA_TEST_DATA) +
                     "/../../data/weights/weak.txt"),
                 EngineSpec::parse("name=r,builtin=random")};
    c.pairing = Pairing::Gauntlet;
    c.games = 10;
    c.seed = 9;
    c.exploration = {0.25, 3};
    c.adjudication = {300, 500, 2, {}, {}, 30, 3, 50};
    c.threads = 3;
    const auto openings = load_openings(OpeningSpec::parse("random:3"), c.rules, 5, 9);
    Rules vela = c.rules;
    vela.ruleset = RuleSet::Vela;
    const auto vela_openings = load_openings(OpeningSpec::parse("random:3"), vela, 4, 10);
    const GamesJob back =
        decode_job(nlohmann::json::parse(encode_job(c, openings, vela_openings).dump()));
    CHECK(back.vela_openings.list().size() == vela_openings.size());
    CHECK(settings_json(back.config) == settings_json(c));
    CHECK(back.config.threads == 3);
    CHECK(back.config.players[0].weights == c.players[0].weights);
    REQUIRE(back.openings.list().size() == openings.size());
    for (std::size_t k = 0; k < openings.size(); ++k) {
        CHECK(back.openings.at(k).start.to_string() == openings[k].start.to_string());
        CHECK(back.openings.at(k).moves.size() == openings[k].moves.size());
    }
    // Lazy random openings travel as their plies and seed, and draw the same openings there.
    const RunOpenings lazy = run_openings(OpeningSpec::parse("random:3"), c.rules, 9);
    const GamesJob lazy_back = decode_job(nlohmann::json::parse(encode_job(c, lazy, {}).dump()));
    CHECK(lazy_back.openings.list().empty());
    for (std::uint64_t k = 0; k < 5; ++k)
        CHECK(lazy_back.openings.at(k).moves == openings[std::size_t(k)].moves);
    // Games as bytes: the same games-file line and position records.
    ScheduledGames games(c, openings);
    std::string bytes;
    const PlayedGame g0 = games.play(0), g3 = games.play(3);
    append_game_bytes(bytes, 7, g0);
    append_game_bytes(bytes, 8, g3);
    const auto decoded = decode_game_bytes(bytes);
    REQUIRE(decoded.size() == 2);
    CHECK(decoded[0].first == 7);
    CHECK(format_game_record(decoded[0].second.record) == format_game_record(g0.record));
    CHECK(format_game_record(decoded[1].second.record) == format_game_record(g3.record));
    CHECK(encode_chunk(decoded[1].second.positions) == encode_chunk(g3.positions));
    CHECK_THROWS(decode_game_bytes(bytes.substr(0, bytes.size() - 5)));
}

TEST_CASE("self-play and tournaments under mpirun write the files of one process",
          "[cluster][mpi]") {
    if (!mpi_ready()) {
        WARN("no mpirun or a build without MPI: skipped");
        return;
    }
    const std::string sp =
        " --games 30 --depth 2 --openings random:4 --seed 5 --threads 1 --quiet ";
    const std::string one = fresh_dir("mpi_sp_one"), two = fresh_dir("mpi_sp_two"),
                      three = fresh_dir("mpi_sp_three");
    REQUIRE(run_cli("selfplay" + sp + "--out " + one).status == 0);
    const Run r2 = run_mpi(2, "selfplay" + sp + "--out " + two);
    INFO(r2.output);
    REQUIRE(r2.status == 0);
    same_files(one, two, {"games.tsv", "positions.bin", "settings.json"});
    const Run r3 = run_mpi(3, "selfplay" + sp + "--out " + three);
    INFO(r3.output);
    REQUIRE(r3.status == 0);
    same_files(one, three, {"games.tsv", "positions.bin", "settings.json"});

    const std::string t = " --games 6 --format roundrobin --seed 2 --threads 1 --quiet "
                          "--player name=a,depth=2 --player name=b,depth=1 "
                          "--player name=g,builtin=greedy --log-positions ";
    const std::string t1 = fresh_dir("mpi_t_one"), t3 = fresh_dir("mpi_t_three");
    REQUIRE(run_cli("tournament" + t + "--out " + t1).status == 0);
    const Run rt = run_mpi(3, "tournament" + t + "--out " + t3);
    INFO(rt.output);
    REQUIRE(rt.status == 0);
    same_files(t1, t3,
               {"games.tsv", "positions.bin", "live.jsonl", "settings.json", "results.txt"});
}

TEST_CASE("Vela series and openings by search under mpirun give the files of one process",
          "[cluster][mpi]") {
    if (!mpi_ready()) {
        WARN("no mpirun or a build without MPI: skipped");
        return;
    }
    // A series is one unit of two games on whichever rank plays it.
    const std::string t = " --games 12 --series vela --seed 4 --threads 1 --quiet "
                          "--player name=a,depth=2 --player name=b,depth=1 --log-positions "
                          "--openings random:3 ";
    const std::string t1 = fresh_dir("mpi_vela_one"), t3 = fresh_dir("mpi_vela_three");
    REQUIRE(run_cli("tournament" + t + "--out " + t1).status == 0);
    const Run rt = run_mpi(3, "tournament" + t + "--out " + t3);
    INFO(rt.output);
    REQUIRE(rt.status == 0);
    same_files(t1, t3, {"games.tsv", "positions.bin", "live.jsonl", "results.txt"});

    // Openings scored on every rank: the same scores and the same suite.
    const std::string o = " --by-search --variant dimy --turns 3 --depth 3 --threads 1 ";
    const std::string o1 = fresh_dir("mpi_open_one"), o2 = fresh_dir("mpi_open_two");
    REQUIRE(run_cli("openings" + o + "--book " + o1 + "/book.txt --out " + o1).status == 0);
    const Run ro = run_mpi(2, "openings" + o + "--book " + o2 + "/book.txt --out " + o2);
    INFO(ro.output);
    REQUIRE(ro.status == 0);
    same_files(o1, o2, {"book.txt", "search_scores.csv"});
}

TEST_CASE("an SPSA run under mpirun writes the history of one process", "[cluster][mpi][spsa]") {
    if (!mpi_ready()) {
        WARN("no mpirun or a build without MPI: skipped");
        return;
    }
    // Every iteration's two engines (with a weight set by name) travel to the other ranks.
    const std::string s =
        " --spsa-param LmrBase,,,,20 --spsa-param mobility_mg,,,,3,0.05 --games 16 "
        "--iteration-pairs 2 --depth 2 --seed 3 --threads 1 --quiet ";
    const std::string one = fresh_dir("mpi_spsa_one"), two = fresh_dir("mpi_spsa_two");
    REQUIRE(run_cli("spsa" + s + "--out " + one).status == 0);
    const Run r = run_mpi(2, "spsa" + s + "--out " + two);
    INFO(r.output);
    REQUIRE(r.status == 0);
    same_files(one, two, {"games.tsv", "spsa.csv", "params.txt", "settings.json"});
}

TEST_CASE("an SPRT decided under mpirun stops every rank and records each game once",
          "[cluster][mpi]") {
    if (!mpi_ready()) {
        WARN("no mpirun or a build without MPI: skipped");
        return;
    }
    const std::string dir = fresh_dir("mpi_sprt");
    const Run r = run_mpi(3, "tournament --sprt elo0=0,elo1=60,alpha=0.1,beta=0.1 --threads 1 "
                             "--quiet --player name=a,depth=2 --player name=r,builtin=random "
                             "--out " +
                                 dir);
    INFO(r.output);
    REQUIRE(r.status == 0);
    CHECK_THAT(r.output, Catch::Contains("H1 accepted"));
    // The games are 0..n-1, each once, and a resume finds nothing to repair or play.
    std::ifstream in(dir + "/games.tsv");
    std::uint64_t expected = 0;
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#') continue;
        CHECK(std::stoull(line.substr(0, line.find('\t'))) == expected);
        ++expected;
    }
    CHECK(expected > 0);
    const std::string before = slurp(dir + "/games.tsv");
    const Run again = run_mpi(2, "tournament --sprt elo0=0,elo1=60,alpha=0.1,beta=0.1 --threads "
                                 "1 --quiet --player name=a,depth=2 --player name=r,builtin=random "
                                 "--resume --out " +
                                     dir);
    CHECK(again.status == 0);
    CHECK(slurp(dir + "/games.tsv") == before);
}

TEST_CASE("a job that loses a rank ends naming it and resumes with other ranks, losing no game",
          "[cluster][mpi]") {
    if (!mpi_ready()) {
        WARN("no mpirun or a build without MPI: skipped");
        return;
    }
    const std::string sp =
        " --games 120 --depth 3 --openings random:4 --seed 3 --threads 1 --quiet ";
    const std::string ref = fresh_dir("mpi_kill_ref"), dir = fresh_dir("mpi_kill");
    REQUIRE(run_cli("selfplay" + sp + "--out " + ref).status == 0);
    // Start under three ranks, then kill the process of rank 2 once some games are written.
    std::thread job([&] {
        const Run r = run_mpi(3, "selfplay" + sp + "--out " + dir);
        CHECK(r.status != 0);
        CHECK_THAT(r.output, Catch::Contains("rank 2"));
    });
    bool killed = false;
    for (int tries = 0; tries < 300 && !killed; ++tries) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        if (slurp(dir + "/games.tsv").size() < 2000) continue;
        // The rank's process: our binary with OMPI_COMM_WORLD_RANK=2 in its environment.
        for (const auto& e : fs::directory_iterator("/proc")) {
            const std::string env = slurp(e.path().string() + "/environ");
            const std::string cmd = slurp(e.path().string() + "/cmdline");
            if (cmd.find(dir) == std::string::npos) continue;
            if (env.find(std::string("OMPI_COMM_WORLD_RANK=2") + '\0') == std::string::npos)
                continue;
            killed = ::kill(std::stoi(e.path().filename().string()), SIGKILL) == 0;
            break;
        }
    }
    job.join();
    REQUIRE(killed);
    // Resume with two ranks: the files end as one uninterrupted process writes them.
    const Run resumed = run_mpi(2, "selfplay" + sp + "--resume --out " + dir);
    INFO(resumed.output);
    REQUIRE(resumed.status == 0);
    same_files(ref, dir, {"games.tsv", "positions.bin", "settings.json"});
}

TEST_CASE("a tournament with pattern weights under mpirun writes the files of one process",
          "[cluster][mpi][patterns]") {
    if (!mpi_ready()) {
        WARN("no mpirun or a build without MPI: skipped");
        return;
    }
    // The pattern weights (and Vela weights with patterns) travel with the engine spec: before
    // they did, the other ranks played these engines without their pattern weights.
    const std::string weights_dir = fresh_dir("mpi_pat_weights");
    fs::create_directories(weights_dir);
    const std::string weights = pattern_weights_file(weights_dir);
    const std::string t = " --games 16 --seed 9 --threads 1 --quiet --log-positions "
                          "--player name=pat,depth=3,weights=" +
                          weights + " --player name=def,depth=3 ";
    const std::string one = fresh_dir("mpi_pat_one"), two = fresh_dir("mpi_pat_two"),
                      three = fresh_dir("mpi_pat_three");
    REQUIRE(run_cli("tournament" + t + "--out " + one).status == 0);
    const Run r2 = run_mpi(2, "tournament" + t + "--out " + two);
    INFO(r2.output);
    REQUIRE(r2.status == 0);
    same_files(one, two, {"games.tsv", "positions.bin", "results.txt", "settings.json"});
    const Run r3 = run_mpi(3, "tournament" + t + "--out " + three);
    INFO(r3.output);
    REQUIRE(r3.status == 0);
    same_files(one, three, {"games.tsv", "positions.bin", "results.txt", "settings.json"});

    // A Vela series: the Vela games use the spec's vela_weights (here with patterns).
    const std::string v = " --games 8 --series vela --seed 4 --threads 1 --quiet "
                          "--player name=vp,depth=2,vela_weights=" +
                          weights + " --player name=d,depth=2 ";
    const std::string v1 = fresh_dir("mpi_pat_vela_one"), v2 = fresh_dir("mpi_pat_vela_two");
    REQUIRE(run_cli("tournament" + v + "--out " + v1).status == 0);
    const Run rv = run_mpi(2, "tournament" + v + "--out " + v2);
    INFO(rv.output);
    REQUIRE(rv.status == 0);
    same_files(v1, v2, {"games.tsv", "results.txt"});

    // Openings scored on every rank with the pattern weights (the openings job's weights).
    const std::string o = " --by-search --turns 2 --depth 3 --threads 1 --weights " + weights + " ";
    const std::string o1 = fresh_dir("mpi_pat_open_one"), o2 = fresh_dir("mpi_pat_open_two");
    REQUIRE(run_cli("openings" + o + "--book " + o1 + "/book.txt --out " + o1).status == 0);
    const Run ro = run_mpi(2, "openings" + o + "--book " + o2 + "/book.txt --out " + o2);
    INFO(ro.output);
    REQUIRE(ro.status == 0);
    same_files(o1, o2, {"book.txt", "search_scores.csv"});
}

TEST_CASE("a pns job and its units' results travel between ranks and come back the same",
          "[cluster][pns]") {
    using namespace fanorona;
    const Variant v = *parse_variant("3x5");
    const Position root = Position::start(v);
    PnsUnitJob job;
    MoveList moves;
    generate_moves(root, Rules{root.variant()}, moves);
    for (const Move& m : moves) {
        job.units.push_back(root);
        job.units.back().make_move(m);
    }
    const std::vector<ProvenBound> initial = {{5, 0, 1}, {9, -1, 0}, {0xFFFFFFFFFFFFFFFFULL, 1, 1}};
    job.settings.hash_mb = 3;
    job.settings.initial = &initial;
    job.tables_dir = "/shared/tables";
    job.threads = 2;
    std::uint64_t number = 0;
    std::vector<ProvenBound> back_initial;
    const std::string bytes = encode_pns_job(job, 17);
    const PnsUnitJob back = decode_pns_job(bytes, number, back_initial);
    CHECK(number == 17);
    REQUIRE(back.units.size() == job.units.size());
    for (std::size_t k = 0; k < job.units.size(); ++k) {
        CHECK(back.units[k].to_string() == job.units[k].to_string());
        CHECK(back.units[k].variant() == v);
    }
    CHECK(back.settings.hash_mb == 3);
    CHECK(back.settings.initial == &back_initial);
    CHECK(back_initial == initial);
    CHECK(back.tables_dir == "/shared/tables");
    CHECK(back.threads == 2);
    CHECK_THROWS(decode_pns_job(bytes.substr(0, bytes.size() - 3), number, back_initial));

    // Results: value, nodes, table hits, seconds and every bound, unit by unit.
    PnsUnitResult a{{0, 1}, 123456789, 42, 1.5, {{7, 1, 1}, {8, -1, 0}}}, b{{-1, -1}, 5, 0, 0, {}};
    std::string results;
    append_pns_result(results, 2, a);
    append_pns_result(results, 0, b);
    const auto decoded = decode_pns_results(results);
    REQUIRE(decoded.size() == 2);
    CHECK(decoded[0].first == 2);
    CHECK(decoded[0].second.value == a.value);
    CHECK(decoded[0].second.nodes == a.nodes);
    CHECK(decoded[0].second.table_hits == 42);
    CHECK(decoded[0].second.seconds == 1.5);
    CHECK(decoded[0].second.proven == a.proven);
    CHECK(decoded[1].first == 0);
    CHECK(decoded[1].second.value == b.value);
    CHECK(decoded[1].second.proven.empty());
    CHECK_THROWS(decode_pns_results(results.substr(0, results.size() - 1)));
    std::string bad;
    append_pns_result(bad, 0, {{0, 1}, 1, 0, 0, {{7, 1, -1}}}); // lo > hi
    CHECK_THROWS(decode_pns_results(bad));
}

TEST_CASE("solve --method pns under mpirun gives each first move the value and nodes of one "
          "process, and the same proof file",
          "[cluster][mpi][pns]") {
    if (!mpi_ready()) {
        WARN("no mpirun or a build without MPI: skipped");
        return;
    }
    const std::string dir = fresh_dir("mpi_pns");
    fs::create_directories(dir);
    // Small 3x5 tables: the other ranks open them from the folder's path.
    REQUIRE(run_cli("tables build --variant 3x5 --pieces 4 --threads 1 --tables " + dir + "/tables")
                .status == 0);
    const std::vector<std::string> boards = {"--variant 3x3 --table-pieces 0",
                                             "--variant 3x5 --table-pieces 0",
                                             "--variant 3x5 --tables " + dir + "/tables"};
    // Every first move proven (--all-moves): the same on any number of ranks. By default a win
    // stops the others and a draw leaves the later moves a test for a win, which depends on
    // which moves finished first: the same as one process with one searcher at a time (2 ranks,
    // --threads 1).
    // PN2 (--method pn2) travels the same way: its units are PN2 searches on the other ranks.
    const std::vector<std::tuple<int, std::string, std::string>> runs = {
        {2, "", "pns"},
        {2, "--all-moves ", "pns"},
        {3, "--all-moves ", "pns"},
        {2, "--all-moves ", "pn2"}};
    for (const std::string& board : boards)
        for (const auto& [ranks, mode, method] : runs) {
            INFO(board << " " << method << " " << mode << ranks << " ranks");
            const std::string base =
                "solve " + board + " --method " + method + " --hash 4 --threads 1 " + mode;
            const std::string name = dir + "/r" + std::to_string(ranks);
            fs::remove(dir + "/one.bin");
            fs::remove(name + ".bin");
            const Run one = run_cli(base + "--quiet --proof " + dir + "/one.bin --json-out " + dir +
                                    "/one.json");
            INFO(one.output);
            REQUIRE(one.status == 0);
            const auto j1 = nlohmann::json::parse(slurp(dir + "/one.json"));
            CHECK(j1["complete"] == true);
            const Run r =
                run_mpi(ranks, base + "--proof " + name + ".bin --json-out " + name + ".json");
            INFO(r.output);
            REQUIRE(r.status == 0);
            // Every unit was solved by another rank (rank 0 only hands them out).
            CHECK_THAT(r.output, Catch::Contains("solved by the other ranks"));
            const auto j = nlohmann::json::parse(slurp(name + ".json"));
            CHECK(j["method"] == method);
            if (method == "pn2") CHECK(j["peak_tree"] == j1["peak_tree"]);
            for (const char* field : {"value", "lower", "upper", "complete", "nodes", "best_moves",
                                      "table_hits", "proof_loaded", "proof_written"}) {
                INFO(field);
                CHECK(j[field] == j1[field]);
            }
            REQUIRE(j["moves"].size() == j1["moves"].size());
            for (std::size_t i = 0; i < j1["moves"].size(); ++i)
                for (const char* field : {"move", "value", "lower", "upper", "nodes"}) {
                    INFO(i << " " << field);
                    CHECK(j["moves"][i][field] == j1["moves"][i][field]);
                }
            // The proof file holds the same bounds (each unit's travelled back to rank 0).
            CHECK(slurp(name + ".bin") == slurp(dir + "/one.bin"));
        }
    // From a partial proof file (a run stopped by its budget): the bounds every unit starts from
    // travel too, and change the work (3x5's c1c2A: 99,014 nodes instead of 140,135).
    const std::string base =
        "solve --variant 3x5 --table-pieces 0 --method pns --all-moves --hash 4 --threads 1 "
        "--quiet ";
    REQUIRE(run_cli(base + "--max-nodes 100000 --proof " + dir + "/part.bin").status == 0);
    fs::copy_file(dir + "/part.bin", dir + "/part2.bin");
    REQUIRE(run_cli(base + "--proof " + dir + "/part.bin --json-out " + dir + "/p1.json").status ==
            0);
    const Run r = run_mpi(2, base + "--proof " + dir + "/part2.bin --json-out " + dir + "/p2.json");
    INFO(r.output);
    REQUIRE(r.status == 0);
    const auto p1 = nlohmann::json::parse(slurp(dir + "/p1.json"));
    const auto p2 = nlohmann::json::parse(slurp(dir + "/p2.json"));
    CHECK(p1["proof_loaded"].get<std::size_t>() > 0);
    CHECK(p2["proof_loaded"] == p1["proof_loaded"]);
    CHECK(p2["nodes"] == p1["nodes"]);
    for (std::size_t i = 0; i < p1["moves"].size(); ++i) {
        CHECK(p2["moves"][i]["value"] == p1["moves"][i]["value"]);
        CHECK(p2["moves"][i]["nodes"] == p1["moves"][i]["nodes"]);
    }
    CHECK(slurp(dir + "/part2.bin") == slurp(dir + "/part.bin"));
}

TEST_CASE("a job carries rank 0's fingerprints and is refused where a file read differs",
          "[cluster]") {
    using namespace fanorona;
    const std::string dir = fresh_dir("fingerprint_job");
    fs::create_directories(dir);
    const std::string net = dir + "/x.net";
    REQUIRE(run_cli("net random --seed 1 --out " + net).status == 0);
    RunConfig c;
    c.players = {EngineSpec::parse("name=a,depth=2,net=" + net),
                 EngineSpec::parse("name=b,depth=1,LmrBase=80"),
                 EngineSpec::parse("name=r,builtin=random")};
    c.pairing = Pairing::Gauntlet;
    c.games = 4;
    const nlohmann::json job = encode_job(c, {}, {});
    // What each rank compares: every engine's weights, search parameters and network, in order.
    const Fingerprints sent = job.at("fingerprints").get<Fingerprints>();
    REQUIRE(sent.size() == 6);
    CHECK(sent[0].first == "player a's weights " + c.players[0].weights_name);
    CHECK(sent[2] == Fingerprints::value_type("player a's net " + net,
                                              net_fingerprint(read_net_file(net).net)));
    CHECK(sent[4].first == "player b's search parameters " + c.players[1].params_name);
    CHECK(sent[4].second != sent[1].second); // LmrBase=80 is other parameters
    CHECK_NOTHROW(decode_job(job));

    // The same path, another network (as on a machine with another copy of the file).
    const std::string before = sent[2].second;
    REQUIRE(run_cli("net random --seed 2 --out " + net).status == 0);
    const std::string after = net_fingerprint(read_net_file(net).net);
    REQUIRE(after != before);
    CHECK_THROWS_WITH(decode_job(job), "player a's net " + net + " fingerprint " + after +
                                           " differs from rank 0's " + before);

    // The comparison names the first difference, or what only one side read.
    const Fingerprints mine = {{"w", "1"}, {"n", "2"}};
    CHECK(fingerprint_difference(mine, mine).empty());
    CHECK(fingerprint_difference(mine, {{"w", "1"}, {"n", "3"}}) ==
          "n fingerprint 2 differs from rank 0's 3");
    CHECK(fingerprint_difference(mine, {{"w", "1"}}) == "n: read here, not by rank 0");
    CHECK(fingerprint_difference({{"w", "1"}}, mine) == "n: read by rank 0, not here");
    CHECK(fingerprint_difference(mine, {{"w", "1"}, {"m", "2"}}) == "n: rank 0 read m instead");
}

TEST_CASE("a tables folder's fingerprint follows its files", "[cluster]") {
    using namespace fanorona;
    const std::string dir = fresh_dir("fingerprint_tables");
    fs::create_directories(dir);
    REQUIRE(run_cli("tables build --variant 3x5 --pieces 3 --threads 1 --tables " + dir + "/t3")
                .status == 0);
    fs::copy(dir + "/t3", dir + "/copy");
    REQUIRE(run_cli("tables build --variant 3x5 --pieces 4 --threads 1 --tables " + dir + "/t4")
                .status == 0);
    const std::string t3 = tables_fingerprint(*tables::open_tables(dir + "/t3"));
    CHECK(t3.size() == 16);
    CHECK(tables_fingerprint(*tables::open_tables(dir + "/copy")) == t3);
    CHECK(tables_fingerprint(*tables::open_tables(dir + "/t4")) != t3);
}

TEST_CASE("games and forfeits are counted by rank", "[cluster]") {
    using namespace fanorona;
    GamesByRank ranks(3);
    PlayedGame g;
    g.record.reason = "capture-all";
    count_game(ranks, g);
    g.rank = 2;
    count_game(ranks, g);
    g.record.reason = "crash";
    g.fault = "ext forfeits (crash): engine exited during start-up";
    count_game(ranks, g);
    g.record.reason = "timeout";
    count_game(ranks, g);
    g.record.kind = GameKind::Skipped; // a skipped Vela place is no game
    count_game(ranks, g);
    CHECK(ranks[0].games == 1);
    CHECK(ranks[1].games == 0);
    CHECK(ranks[2].games == 3);
    CHECK(ranks[2].forfeit_count() == 2);
    CHECK(by_rank_text(ranks) == "forfeits by rank (this session): rank 0: 0 of 1 games; rank 1: "
                                 "0 of 0 games; rank 2: 2 of 3 games (crash 1, timeout 1)\n");
    const nlohmann::json j = by_rank_json(ranks);
    REQUIRE(j.size() == 3);
    CHECK(j[2] == nlohmann::json::parse(R"({"rank": 2, "games": 3, "forfeits": 2,
                                            "forfeit_reasons": {"crash": 1, "timeout": 1}})"));
    CHECK(j[0]["forfeit_reasons"] == nlohmann::json::object());
    CHECK(by_rank_text(GamesByRank(2)).empty());
    g.rank = 3;
    CHECK_THROWS(count_game(ranks, g));
}

TEST_CASE("a rank with another bench signature or another network file is refused and named",
          "[cluster][mpi]") {
    if (!mpi_ready()) {
        WARN("no mpirun or a build without MPI: skipped");
        return;
    }
    const std::string bin = FANORONA_BINARY;
    const std::string dir = fresh_dir("mpi_refuse");
    fs::create_directories(dir + "/A");
    fs::create_directories(dir + "/B");
    // Another build on rank 2 (the tests have one: the hook adds 4 to its signature).
    const std::string t = " tournament --games 8 --threads 1 --quiet --player name=a,depth=2 "
                          "--player name=b,depth=1 --out " +
                          dir + "/bench";
    const Run r =
        run_mpmd("-np 2 " + bin + t + " : -np 1 env FANORONA_TEST_BENCH_OFFSET=4 " + bin + t);
    INFO(r.output);
    CHECK(r.status != 0);
    CHECK_THAT(r.output, Catch::Contains("fanorona: rank 2: bench signature "));
    CHECK(number_after(r.output, "rank 2: bench signature ") ==
          number_after(r.output, "differs from rank 0's ") + 4);
    CHECK(number_after(r.output, "differs from rank 0's ") > 0);
    CHECK_THAT(r.output, !Catch::Contains("rank 1:"));
    CHECK(!fs::exists(dir + "/bench")); // no command ran

    // The same relative network path, another file on rank 1 (its own working folder).
    REQUIRE(run_cli("net random --seed 1 --out " + dir + "/A/x.net").status == 0);
    REQUIRE(run_cli("net random --seed 2 --out " + dir + "/B/x.net").status == 0);
    const std::string a = fanorona::net_fingerprint(fanorona::read_net_file(dir + "/A/x.net").net);
    const std::string b = fanorona::net_fingerprint(fanorona::read_net_file(dir + "/B/x.net").net);
    const std::string n = " tournament --games 8 --threads 1 --quiet --player name=a,depth=2,"
                          "net=x.net --player name=b,depth=1 --out " +
                          dir + "/net";
    const Run rn = run_mpmd("-np 1 -wdir " + dir + "/A " + bin + n + " : -np 1 -wdir " + dir +
                            "/B " + bin + n);
    INFO(rn.output);
    CHECK(rn.status != 0);
    CHECK_THAT(rn.output, Catch::Contains("fanorona: rank 1: player a's net x.net fingerprint " +
                                          b + " differs from rank 0's " + a));
    // Nothing is damaged: with the same file on both ranks the run resumes and completes.
    const Run again = run_mpmd("-np 1 -wdir " + dir + "/A " + bin + n + " --resume : -np 1 -wdir " +
                               dir + "/A " + bin + n + " --resume");
    INFO(again.output);
    REQUIRE(again.status == 0);
    const auto results = nlohmann::json::parse(slurp(dir + "/net/results.json"));
    CHECK(results["games"] == 8);
    CHECK(results["complete"] == true);
}

TEST_CASE("forfeits are counted per rank in the results under mpirun", "[cluster][mpi]") {
    if (!mpi_ready()) {
        WARN("no mpirun or a build without MPI: skipped");
        return;
    }
    // An engine that cannot start on rank 1 only (a machine without it); on rank 0 it is this
    // program's engine, which, started by a rank, runs as one process.
    const std::string dir = fresh_dir("mpi_forfeits");
    fs::create_directories(dir);
    const std::string script = dir + "/engine.sh";
    std::ofstream(script) << "#!/bin/sh\n[ \"$OMPI_COMM_WORLD_RANK\" = 1 ] && exit 3\nexec "
                          << FANORONA_BINARY << " engine \"$@\"\n";
    fs::permissions(script, fs::perms::owner_all);
    const std::string t =
        "tournament --games 24 --threads 1 --quiet --player name=ext,cmd=" + script +
        ",depth=2 --player name=b,depth=1 --out ";
    const Run r = run_mpi(2, t + dir + "/t");
    INFO(r.output);
    REQUIRE(r.status == 0);
    const auto results = nlohmann::json::parse(slurp(dir + "/t/results.json"));
    const auto& ranks = results["by_rank"];
    REQUIRE(ranks.size() == 2);
    const std::uint64_t games0 = ranks[0]["games"], games1 = ranks[1]["games"];
    CHECK(games0 + games1 == 24);
    CHECK(ranks[0]["forfeits"] == 0);
    REQUIRE(games1 > 0);
    CHECK(ranks[1]["forfeits"] == games1);
    CHECK(ranks[1]["forfeit_reasons"] == nlohmann::json{{"crash", games1}});
    std::uint64_t crashes = 0;
    std::istringstream games(slurp(dir + "/t/games.tsv"));
    for (std::string line; std::getline(games, line);)
        if (line.find("\tcrash\t") != std::string::npos) ++crashes;
    CHECK(crashes == games1);
    CHECK_THAT(slurp(dir + "/t/results.txt"),
               Catch::Contains(
                   "forfeits by rank (this session): rank 0: 0 of " + std::to_string(games0) +
                   " games; rank 1: " + std::to_string(games1) + " of " + std::to_string(games1) +
                   " games (crash " + std::to_string(games1) + ")\n"));
    CHECK_THAT(r.output, Catch::Contains("(rank 1): ext forfeits (crash)"));
    // One process: no forfeit, no count by rank.
    REQUIRE(run_cli(t + dir + "/one").status == 0);
    CHECK(!nlohmann::json::parse(slurp(dir + "/one/results.json")).contains("by_rank"));
    CHECK_THAT(slurp(dir + "/one/results.txt"), !Catch::Contains("forfeits by rank"));

    // Self-play: summary.json's cluster counts each rank's games.
    const Run sp =
        run_mpi(2, "selfplay --games 6 --depth 1 --threads 1 --quiet --out " + dir + "/sp");
    INFO(sp.output);
    REQUIRE(sp.status == 0);
    const auto summary = nlohmann::json::parse(slurp(dir + "/sp/summary.json"));
    const auto& sp_ranks = summary["cluster"]["by_rank"];
    REQUIRE(sp_ranks.size() == 2);
    CHECK(sp_ranks[0]["games"].get<int>() + sp_ranks[1]["games"].get<int>() == 6);
    CHECK(sp_ranks[1]["forfeits"] == 0);
}

TEST_CASE("a rescore job, its games and their new scores travel between ranks and come back the "
          "same",
          "[cluster][rescore]") {
    using namespace fanorona;
    Rules rules;
    rules.variant = *parse_variant("dimy");
    RescoreSettings settings;
    settings.engine = EngineSpec::parse("name=r,depth=3,hash=4,LmrBase=80");
    settings.all = true;
    const nlohmann::json j = nlohmann::json::parse(encode_rescore_job(rules, settings, 3).dump());
    CHECK(j["kind"] == "rescore");
    const RescoreJob back = decode_rescore_job(j);
    CHECK(back.rules == rules);
    CHECK(back.threads == 3);
    CHECK(back.settings.all);
    CHECK(back.settings.engine.description() == settings.engine.description());

    // A Vela game from a position of its own with scores here and there and an end score.
    CorpusGame g;
    g.index = 41;
    g.ruleset = RuleSet::Vela;
    g.start = Position::from_string("BBBBB/BBBBB/BW1WB/WWWWW/WWWWW b", rules.variant);
    Position p = g.start;
    Rules vela = rules;
    vela.ruleset = RuleSet::Vela;
    MoveList list;
    for (int i = 0; i < 6; ++i) {
        generate_moves(p, vela, list);
        REQUIRE(list.size() > 0);
        g.moves.push_back(list[i % list.size()]);
        g.scores.push_back(i % 3 ? std::optional<int>(10 * i) : std::nullopt);
        p.make_move(g.moves.back());
    }
    g.end_score = 5;
    for (const bool all : {false, true}) {
        INFO("all " << all);
        std::vector<std::uint64_t> words = {99};
        append_game_words(words, g, all);
        append_game_words(words, g, all);
        std::size_t at = 1;
        const CorpusGame a = take_game_words(words, at, rules);
        const CorpusGame b = take_game_words(words, at, rules);
        CHECK(at == words.size());
        CHECK(a == b);
        CHECK(a.index == 41);
        CHECK(a.ruleset == RuleSet::Vela);
        CHECK(a.start == g.start);
        CHECK(a.moves == g.moves);
        for (std::size_t i = 0; i < g.moves.size(); ++i)
            CHECK(a.scores[i].has_value() == rescored(g, i, all));
        CHECK(a.end_score.has_value());
        std::vector<std::uint64_t> cut(words.begin(), words.end() - 1);
        at = 1 + (words.size() - 1) / 2;
        CHECK_THROWS(take_game_words(cut, at, rules));
        std::vector<std::uint64_t> illegal = words;
        illegal[1 + 8] ^= 0xFF; // the first turn's start point: off the board
        at = 1;
        CHECK_THROWS(take_game_words(illegal, at, rules));

        // The scores back: at the searched positions only, in order.
        CorpusGame searched = a;
        int next = 100;
        for (auto& s : searched.scores)
            if (s) s = next++;
        searched.end_score = next++;
        std::string bytes;
        append_rescore_result(bytes, 7, searched, {5, 1234});
        const auto results = decode_rescore_results(bytes);
        REQUIRE(results.size() == 1);
        CHECK(results[0].k == 7);
        CHECK(results[0].count.positions == 5);
        CHECK(results[0].count.nodes == 1234);
        const CorpusGame applied = apply_rescore_result(g, results[0], all);
        CHECK(applied.scores == searched.scores);
        CHECK(applied.end_score == searched.end_score);
        CHECK(applied.moves == g.moves);
        CHECK_THROWS(decode_rescore_results(bytes.substr(0, bytes.size() - 1)));
        RescoreResult fewer = results[0];
        fewer.scores.pop_back();
        CHECK_THROWS(apply_rescore_result(g, fewer, all));
    }
}

TEST_CASE("a rescore under mpirun writes the corpus of one process", "[cluster][mpi][rescore]") {
    if (!mpi_ready()) {
        WARN("no mpirun or a build without MPI: skipped");
        return;
    }
    const std::string dir = fresh_dir("mpi_rescore");
    REQUIRE(run_cli("selfplay --games 8 --depth 2 --openings random:3 --seed 7 --corpus "
                    "--no-positions --threads 1 --quiet --out " +
                    dir)
                .status == 0);
    const std::string args = "rescore " + dir +
                             "/corpus.fcorpus --nodes 2000 --all "
                             "--block-games 3 --threads 1 --quiet --out " +
                             dir;
    REQUIRE(run_cli(args + "/one.fc").status == 0);
    const Run r3 = run_mpi(3, args + "/three.fc");
    INFO(r3.output);
    REQUIRE(r3.status == 0);
    CHECK(slurp(dir + "/one.fc") == slurp(dir + "/three.fc"));
    const auto summary = nlohmann::json::parse(slurp(dir + "/three.fc.summary.json"));
    CHECK(summary["cluster"]["ranks"] == 3);
    CHECK(summary["cluster"]["remote_games"].get<int>() > 0);
    // A resume under mpirun with 2 ranks of a run cut after its first block.
    const fanorona::CorpusScan scan = fanorona::scan_corpus(dir + "/three.fc");
    REQUIRE(scan.ends.size() == 3);
    fs::resize_file(dir + "/three.fc", scan.ends[0] + 9);
    const Run r2 = run_mpi(2, args + "/three.fc --resume");
    INFO(r2.output);
    REQUIRE(r2.status == 0);
    CHECK(slurp(dir + "/one.fc") == slurp(dir + "/three.fc"));
}

TEST_CASE("every job kind carries rank 0's fingerprints and checks them in one place",
          "[cluster][rescore]") {
    using namespace fanorona;
    const std::string dir = fresh_dir("fingerprint_kinds");
    fs::create_directories(dir);
    const std::string net = dir + "/x.net";
    REQUIRE(run_cli("net random --seed 1 --out " + net).status == 0);
    RescoreSettings settings;
    settings.engine = EngineSpec::parse("name=r,nodes=100,net=" + net);
    const nlohmann::json job = encode_rescore_job(Rules{}, settings, 1);
    const Fingerprints sent = job.at("fingerprints").get<Fingerprints>();
    CHECK(sent == rescore_fingerprints(settings));
    CHECK(std::find(sent.begin(), sent.end(),
                    Fingerprints::value_type("player r's net " + net,
                                             net_fingerprint(read_net_file(net).net))) !=
          sent.end());
    CHECK_NOTHROW(decode_rescore_job(job));
    // Another network under the same path (another machine's copy): the rescore job is refused.
    const std::string before = net_fingerprint(read_net_file(net).net);
    REQUIRE(run_cli("net random --seed 2 --out " + net).status == 0);
    const std::string after = net_fingerprint(read_net_file(net).net);
    CHECK_THROWS_WITH(decode_rescore_job(job), "player r's net " + net + " fingerprint " + after +
                                                   " differs from rank 0's " + before);
    // A job without fingerprints is refused, whatever its kind.
    nlohmann::json bare = job;
    bare.erase("fingerprints");
    CHECK_THROWS_WITH(check_job_fingerprints(bare, {}),
                      "a job without rank 0's fingerprints (of the files it reads)");
    CHECK_THROWS_WITH(decode_rescore_job(bare), Catch::Contains("without rank 0's fingerprints"));
}

TEST_CASE("a rescore under mpirun refuses a rank with another network file",
          "[cluster][mpi][rescore]") {
    if (!mpi_ready()) {
        WARN("no mpirun or a build without MPI: skipped");
        return;
    }
    const std::string bin = FANORONA_BINARY;
    const std::string dir = fresh_dir("mpi_rescore_refuse");
    fs::create_directories(dir + "/A");
    fs::create_directories(dir + "/B");
    REQUIRE(run_cli("selfplay --games 4 --depth 1 --openings random:3 --seed 7 --corpus "
                    "--no-positions --threads 1 --quiet --out " +
                    dir + "/run")
                .status == 0);
    REQUIRE(run_cli("net random --seed 1 --out " + dir + "/A/x.net").status == 0);
    REQUIRE(run_cli("net random --seed 2 --out " + dir + "/B/x.net").status == 0);
    const std::string a = fanorona::net_fingerprint(fanorona::read_net_file(dir + "/A/x.net").net);
    const std::string b = fanorona::net_fingerprint(fanorona::read_net_file(dir + "/B/x.net").net);
    const std::string args = " rescore " + dir +
                             "/run/corpus.fcorpus --net x.net --nodes 500 "
                             "--all --threads 1 --quiet --out " +
                             dir + "/out.fc";
    const Run r = run_mpmd("-np 1 -wdir " + dir + "/A " + bin + args + " : -np 1 -wdir " + dir +
                           "/B " + bin + args);
    INFO(r.output);
    CHECK(r.status != 0);
    CHECK_THAT(r.output,
               Catch::Contains("rank 1: player ") &&
                   Catch::Contains("net x.net fingerprint " + b + " differs from rank 0's " + a));
}
