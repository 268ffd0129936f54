// Inputs a hostile user would try (issue 33): impossible positions, moves after the end of a
// game, resumes with other settings, budgets and memory requests out of reach, byte-order marks,
// unwritable outputs. Each case failed before its fix.

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "core/board/game.h"
#include "core/board/notation.h"
#include "core/board/position.h"
#include "selfplay/engine/protocol_server.h"
#include "selfplay/formats/params_file.h"
#include "selfplay/formats/weights_file.h"
#include "selfplay/openings/openings.h"
#include "tests/cli_helpers.h"

using namespace fanorona;
using test_cli::fresh_dir;
using test_cli::Run;
using test_cli::run_cli;
using test_cli::slurp;
namespace fs = std::filesystem;

using test_cli::kAddressSanitizer;

namespace {

const std::string kTsivyStart = "BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w";
// One piece each in opposite corners: paika moves only (i1h1, a5b5, back again...).
const std::string kCorners = "B8/9/9/9/8W w";

std::string made_dir(const std::string& name) {
    const std::string dir = fresh_dir(name);
    fs::create_directories(dir);
    return dir;
}

void write(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
}

int lines(const std::string& text) {
    return int(std::count(text.begin(), text.end(), '\n'));
}

// The in-process engine's output lines for `input`.
std::vector<std::string> protocol_lines(const std::string& input) {
    std::istringstream in(input);
    std::ostringstream out;
    {
        EngineProtocol protocol(in, out);
        protocol.run();
    }
    std::vector<std::string> result;
    std::istringstream text(out.str());
    for (std::string line; std::getline(text, line);) result.push_back(line);
    return result;
}

bool has_line_with(const std::vector<std::string>& lines, const std::string& part) {
    return std::any_of(lines.begin(), lines.end(),
                       [&](const std::string& l) { return l.find(part) != std::string::npos; });
}

const char* const kBom = "\xEF\xBB\xBF";

} // namespace

TEST_CASE("impossible positions are refused by the one position validation", "[hardening]") {
    // A board full of White: more pieces than the start gives, and Black has none.
    CHECK_THROWS_WITH(Position::from_string("WWWWW/WWWWW/WWWWW/WWWWW/WWWWW w", Variant::Dimy),
                      Catch::Contains("White has 25 pieces, more than the 12"));
    // Black has no piece although White is to move: the game ended before.
    CHECK_THROWS_WITH(Position::from_string("9/9/4W4/9/9 w", Variant::Tsivy),
                      Catch::Contains("Black has no pieces, but White is to move"));
    CHECK_THROWS_WITH(Position::from_string("9/9/9/9/9 b", Variant::Tsivy),
                      Catch::Contains("neither side"));
    // The side to move has lost its last piece: a finished game, which is a position.
    CHECK_NOTHROW(Position::from_string("9/9/4W4/9/9 b", Variant::Tsivy));
    CHECK_NOTHROW(Position::from_string(kTsivyStart, Variant::Tsivy));
    // Telo: three pieces each, placed in turn from White.
    CHECK_THROWS_WITH(Position::from_string("WWW/WWW/3 b", Variant::Telo),
                      Catch::Contains("White has 6 pieces"));
    CHECK_THROWS_WITH(Position::from_string("W2/3/3 w", Variant::Telo),
                      Catch::Contains("White places first"));
    CHECK_NOTHROW(Position::from_string("3/3/3 w", Variant::Telo));
    CHECK_NOTHROW(Position::from_string("W2/3/3 b", Variant::Telo));
    CHECK_NOTHROW(Position::from_string("WB1/BW1/WB1 w", Variant::Telo));
    CHECK_NOTHROW(Position::from_string("WB1/BW1/WB1 b", Variant::Telo));
    CHECK_THROWS_WITH(Position::from_string("", Variant::Tsivy), Catch::Contains("empty"));
    // Bitboards from files (positions logs, tables): two pieces on one point, a piece off the
    // board.
    const Position start = Position::start(Variant::Tsivy);
    const Bitboard white = start.pieces(Color::White), black = start.pieces(Color::Black);
    CHECK(position_problem(
              Position::from_pieces(Variant::Tsivy, white, black | bit(0), Color::White)) ==
          "White and Black both have a piece on a1");
    CHECK_THAT(position_problem(Position::from_pieces(Variant::Dimy, white, 0, Color::Black)),
               Catch::StartsWith("a piece on bit 5, outside the"));
    // The piece limit is the start's: every point but the centre, half each, on every board.
    for (int v = 0; v < kVariantCount; ++v) {
        if (is_telo(Variant(v))) continue;
        const Position s = Position::start(Variant(v));
        CHECK(position_problem(s).empty());
        CHECK(popcount(s.pieces(Color::White)) == (geometry(Variant(v)).points - 1) / 2);
        CHECK(popcount(s.pieces(Color::Black)) == (geometry(Variant(v)).points - 1) / 2);
    }
}

TEST_CASE("every entry point refuses an impossible position", "[hardening][cli]") {
    // solve: a board full of White was "a loss for White".
    Run r = run_cli("solve --variant dimy --fen 'WWWWW/WWWWW/WWWWW/WWWWW/WWWWW w'");
    CHECK(r.status == 1);
    CHECK_THAT(r.output, Catch::StartsWith("fanorona: --fen: White has 25 pieces"));
    CHECK(lines(r.output) == 1);
    // perft: --fen "" was the start position.
    r = run_cli("perft --depth 1 --fen ''");
    CHECK(r.status == 1);
    CHECK(r.output == "fanorona: --fen: empty position string\n");
    // tables probe
    r = run_cli("tables probe --variant dimy --tables " + made_dir("hard_no_tables") +
                " --fen '5/5/2W2/5/5 w'");
    CHECK(r.status == 1);
    CHECK_THAT(r.output, Catch::Contains("--fen: Black has no pieces"));
    // An opening suite whose line gives Black no piece: self-play played it.
    const std::string dir = made_dir("hard_suite");
    write(dir + "/suite.txt", "# two lines\n" + kCorners + "\n9/9/4W4/9/9 w\n");
    r = run_cli("selfplay --games 2 --depth 1 --quiet --openings " + dir + "/suite.txt --out " +
                dir + "/run");
    CHECK(r.status == 1);
    CHECK_THAT(r.output, Catch::Contains(dir + "/suite.txt:3: position: Black has no pieces"));
    CHECK(slurp(dir + "/run/games.tsv").find("\n0\t") == std::string::npos); // no game
    // The protocol.
    const auto out = protocol_lines("position fen 9/9/4W4/9/9 w\nposition fen WWW/WWW/3 b\n");
    CHECK(has_line_with(out, "info string error: position fen: Black has no pieces"));
}

TEST_CASE("a game that has ended takes no move", "[hardening]") {
    // The no-capture limit: turn 100 without capture ends the game.
    Game limit(Rules{}, Position::from_string(kCorners + " 99 120", Variant::Tsivy));
    limit.play("i1h1");
    REQUIRE(limit.outcome().reason == EndReason::NoCaptureLimit);
    CHECK_THROWS_AS(limit.play("a5b5"), MoveError);
    CHECK_THROWS_WITH(limit.play("a5b5"), Catch::Contains("the game is over (no-capture-limit"));
    // Repetition: the start position for the third time after eight turns.
    Game rep(Rules{}, Position::from_string(kCorners, Variant::Tsivy));
    for (const char* m : {"i1h1", "a5b5", "h1i1", "b5a5", "i1h1", "a5b5", "h1i1", "b5a5"})
        rep.play(m);
    REQUIRE(rep.outcome().reason == EndReason::Repetition);
    CHECK_THROWS_WITH(rep.play("i1h1"), Catch::Contains("the game is over (repetition"));
}

TEST_CASE("the protocol and analyze refuse moves after the end", "[hardening][cli]") {
    const auto out = protocol_lines("position fen " + kCorners +
                                    " moves i1h1 a5b5 h1i1 b5a5 i1h1 a5b5 h1i1 b5a5 i1h1\n"
                                    "position fen " +
                                    kCorners + " 99 120 moves i1h1 a5b5\n");
    CHECK(has_line_with(out, "info string error: position: move 9 'i1h1': the game is over "
                             "(repetition"));
    CHECK(has_line_with(out, "info string error: position: move 2 'a5b5': the game is over "
                             "(no-capture-limit"));
    // analyze: the counter went to 102 and the position was analysed.
    Run r = run_cli("analyze --depth 1 --fen '" + kCorners + " 100 120' --moves 'i1h1 a5b5'");
    CHECK(r.status == 1);
    CHECK_THAT(r.output, Catch::Contains("--moves: move 1 'i1h1': the game is over"));
    r = run_cli("analyze --depth 1 --fen '" + kCorners + " 101 120'");
    CHECK(r.status == 1);
    CHECK(r.output == "fanorona: --fen: the game is over there (no-capture-limit, 1/2-1/2): "
                      "nothing to analyse\n");
    r = run_cli("analyze --depth 1 --fen '" + kCorners + " 98 120' --moves 'i1h1'");
    CHECK(r.status == 0);
}

TEST_CASE("solve keeps its budget while it enumerates the graph", "[hardening][solve][cli]") {
    const std::string dir = made_dir("hard_solve_budget");
    // --max-nodes 1 used 159,745 nodes (the enumeration of the start's graph).
    Run r = run_cli("solve --max-nodes 1 --json-out " + dir + "/n.json");
    REQUIRE(r.status == 0);
    auto j = nlohmann::json::parse(slurp(dir + "/n.json"));
    CHECK(j["complete"] == false);
    CHECK(j["nodes"].get<std::uint64_t>() <= 1024);
    // --max-seconds held only after the enumeration (51 s with --hash 1024); with room for 5
    // million positions the enumeration alone takes many seconds.
    r = run_cli("solve --max-seconds 0.2 --graph 5000000 --json-out " + dir + "/s.json");
    REQUIRE(r.status == 0);
    j = nlohmann::json::parse(slurp(dir + "/s.json"));
    CHECK(j["complete"] == false);
    CHECK(j["seconds"].get<double>() < 2.0);
    // A graph beyond the machine's memory is refused at once, not enumerated until it runs out.
    r = run_cli("solve --graph 1099511627776");
    CHECK(r.status == 1);
    CHECK_THAT(r.output, Catch::StartsWith("fanorona: --graph 1099511627776: cannot allocate"));
    CHECK(lines(r.output) == 1);
}

TEST_CASE("memory requests name their option", "[hardening][cli]") {
    // More than the machine has: checked before allocating.
    for (const std::string cmd : {"analyze --depth 1", "solve", "engine"}) {
        const Run r = run_cli(cmd + " --hash 65536 < /dev/null");
        INFO(cmd);
        CHECK(r.status == 1);
        CHECK_THAT(r.output, Catch::StartsWith("fanorona: --hash 65536: cannot allocate 64 GB"));
        CHECK(lines(r.output) == 1);
    }
    // A failed allocation (a 1.5 GB address space limit) reads the same, not "std::bad_alloc".
    // Not under AddressSanitizer, whose shadow memory alone is over such a limit.
    if (kAddressSanitizer) return;
    for (const std::string cmd : {"analyze --depth 1", "solve"}) {
        const Run r = test_cli::run_shell("ulimit -v 1500000 && " + std::string(FANORONA_BINARY) +
                                          " " + cmd + " --hash 2048");
        INFO(cmd);
        CHECK(r.status == 1);
        CHECK_THAT(r.output, Catch::StartsWith("fanorona: --hash 2048: cannot allocate 2 GB"));
    }
}

TEST_CASE("an engine option error does not repeat the program's name", "[hardening][cli]") {
    const std::string dir = fresh_dir("hard_tables");
    REQUIRE(run_cli("tables build --variant dimy --pieces 2 --quiet --tables " + dir).status == 0);
    for (const std::string& cmd :
         {"analyze --variant dimy --rules vela --depth 1 --tables " + dir,
          "selfplay --variant dimy --rules vela --games 2 --depth 1 --quiet --tables " + dir +
              " --out " + dir + "/sp"}) {
        const Run r = run_cli(cmd);
        INFO(cmd);
        CHECK(r.status == 1);
        CHECK(r.output.find("fanorona: fanorona") == std::string::npos);
        CHECK_THAT(r.output, Catch::StartsWith("fanorona: --tables " + dir +
                                               ": endgame tables "
                                               "serve the standard"));
    }
}

TEST_CASE("weights, params and openings files may start with a byte-order mark", "[hardening]") {
    const std::string dir = made_dir("hard_bom");
    const std::string weights =
        slurp(std::string(FANORONA_TEST_DATA) + "/../../data/weights/handset.txt");
    REQUIRE_FALSE(weights.empty());
    write(dir + "/w.txt", kBom + weights);
    CHECK(load_weights_file(dir + "/w.txt") == load_weights_file("handset"));
    write(dir + "/p.txt", std::string(kBom) + "fanorona-params 1\nLmrBase 90\n");
    const auto params = read_params_file(dir + "/p.txt");
    REQUIRE(params.size() == 1);
    CHECK(params[0].name == "LmrBase");
    write(dir + "/o.txt", std::string(kBom) + kTsivyStart + "\n");
    const auto suite = read_opening_file(dir + "/o.txt", Rules{});
    REQUIRE(suite.size() == 1);
    CHECK(suite[0].start == Position::start(Variant::Tsivy));
    // The commands that read them.
    CHECK(run_cli("analyze --depth 1 --weights " + dir + "/w.txt --params " + dir + "/p.txt")
              .status == 0);
    // A mark anywhere else is still an error.
    write(dir + "/late.txt", "fanorona-params 1\n" + std::string(kBom) + "LmrBase 90\n");
    CHECK(run_cli("analyze --depth 1 --params " + dir + "/late.txt").status == 1);
}

TEST_CASE("solve checks its --json-out output first, and --quiet prints the summary only",
          "[hardening][solve][cli]") {
    const std::string dir = made_dir("hard_solve_out");
    const std::string folder = dir + "/a_folder";
    fs::create_directories(folder);
    // A folder: refused before the solve (which printed everything, then left a_folder.tmp).
    Run r = run_cli("solve --variant dimy --json-out " + folder);
    CHECK(r.status == 1);
    CHECK(r.output == "fanorona: --json-out: " + folder +
                          ": is a folder, not a file that can be "
                          "written\n");
    CHECK_FALSE(fs::exists(folder + ".tmp"));
    r = run_cli("solve --variant dimy --json-out " + dir + "/missing/out.json");
    CHECK(r.status == 1);
    CHECK_THAT(r.output, Catch::StartsWith("fanorona: --json-out: " + dir +
                                           "/missing/out.json: cannot create: the folder"));
    CHECK(lines(r.output) == 1);
    // --quiet: one line.
    r = run_cli("solve --variant dimy --fen '5/5/W4/1B3/3W1 w' --table-pieces 0 --quiet");
    CHECK(r.status == 0);
    CHECK_THAT(r.output, Catch::StartsWith("solve: value=win lower=1 upper=1 complete=1"));
    CHECK(lines(r.output) == 1);
    r = run_cli(
        "solve --variant dimy --fen '5/5/W4/1B3/3W1 w' --table-pieces 0 --quiet --json-out " + dir +
        "/q.json");
    CHECK(r.status == 0);
    CHECK(lines(r.output) == 1);
    CHECK_THAT(r.output, Catch::EndsWith("json=" + dir + "/q.json\n"));
    CHECK(nlohmann::json::parse(slurp(dir + "/q.json"))["value"] == "win");
}

TEST_CASE("a loop resumed with fewer iterations is refused by its option", "[hardening][loop]") {
    const std::string dir = fresh_dir("hard_loop");
    const std::string tiny = " --games 20 --depth 1 --verify-games 2 --final-games 2 "
                             "--match-openings random:2 --accept-los 0 --quiet --threads 2 --out " +
                             dir;
    REQUIRE(run_cli("loop --iterations 2" + tiny).status == 0);
    const std::string settings = slurp(dir + "/settings.json"),
                      history = slurp(dir + "/history.json"), table = slurp(dir + "/history.txt");
    Run r = run_cli("loop --iterations 1 --resume" + tiny);
    CHECK(r.status == 1);
    CHECK(r.output == "fanorona: --iterations 1: " + dir +
                          " holds a loop of 2 iterations; a resume may add iterations, never "
                          "remove them (give --iterations 2 or more)\n");
    CHECK(slurp(dir + "/settings.json") == settings);
    CHECK(slurp(dir + "/history.json") == history);
    CHECK(slurp(dir + "/history.txt") == table);
    // Another setting: named by the user's option.
    r = run_cli("loop --iterations 2 --resume --window 3" + tiny);
    CHECK(r.status == 1);
    CHECK_THAT(r.output, Catch::Contains("cannot resume with other settings: --window was 2, "
                                         "now 3"));
}

TEST_CASE("an SPSA run resumed with more games goes on", "[hardening][spsa]") {
    const std::string dir = fresh_dir("hard_spsa");
    const std::string args =
        "spsa --spsa-param LmrBase --iteration-pairs 1 --depth 1 --threads 2 --quiet --out " + dir;
    REQUIRE(run_cli(args + " --games 4").status == 0);
    const std::string first = slurp(dir + "/games.tsv");
    const Run more = run_cli(args + " --games 8 --resume");
    INFO(more.output);
    REQUIRE(more.status == 0);
    const auto j = nlohmann::json::parse(slurp(dir + "/spsa.json"));
    CHECK(j["games"] == 8);
    CHECK(j["iterations"] == 4);
    CHECK(j["complete"] == true);
    CHECK(slurp(dir + "/games.tsv").rfind(first, 0) == 0); // the first games kept as they were
    // Another setting is named by its option, not by an internal key.
    const Run other = run_cli(args + " --games 8 --resume --alpha 0.5");
    CHECK(other.status == 1);
    CHECK_THAT(other.output, Catch::Contains("cannot resume with other settings: --alpha was"));
}
