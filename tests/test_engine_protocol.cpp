// The engine protocol: the EngineProtocol object driven through string streams, and once end to
// end as `fanorona engine` through a pipe; bad lines included.

#include <fstream>
#include <sstream>
#include <vector>

#include <catch2/catch.hpp>

#include "core/board/notation.h"
#include "selfplay/engine/protocol_server.h"
#include "selfplay/formats/weights_file.h"
#include "tests/cli_helpers.h"

using namespace fanorona;

namespace {

// Runs the engine with `input` on standard input; returns its output lines.
std::vector<std::string> run_engine(const std::string& name, const std::string& input) {
    const std::string dir = test_cli::fresh_dir("engine_" + name);
    std::filesystem::create_directories(dir);
    const std::string path = dir + "/input.txt";
    std::ofstream(path) << input;
    const test_cli::Run r = test_cli::run_cli("engine < " + path);
    INFO(r.output);
    REQUIRE(r.status == 0);
    return test_cli::lines_of(r.output);
}

// Runs an in-process engine on `input` (the end of input ends it); returns its output lines.
std::vector<std::string> run_protocol(const std::string& input, const EngineSpec& spec = {}) {
    std::istringstream in(input);
    std::ostringstream out;
    {
        EngineProtocol protocol(in, out, spec);
        protocol.run();
    }
    return test_cli::lines_of(out.str());
}

int count_prefix(const std::vector<std::string>& lines, const std::string& prefix) {
    int n = 0;
    for (const std::string& l : lines) n += l.rfind(prefix, 0) == 0;
    return n;
}

std::string last_with(const std::vector<std::string>& lines, const std::string& prefix) {
    std::string found;
    for (const std::string& l : lines)
        if (l.rfind(prefix, 0) == 0) found = l;
    return found;
}

} // namespace

TEST_CASE("The engine answers uci, isready and go through a pipe", "[protocol]") {
    // Hash 1 (MB): the search's writes fill a measurable part of so small a table (about 10%
    // at depth 4 from the start, against under 1% of the default 16 MB).
    const auto out = run_engine("basic", "uci\nsetoption name Hash value 1\nisready\nucinewgame\n"
                                         "position startpos\ngo depth 4\nisready\n");
    CHECK(out.front() == "id name Fanorona Lab");
    CHECK(count_prefix(out, "uciok") == 1);
    CHECK(count_prefix(out, "option name Hash type spin") == 1);
    CHECK(count_prefix(out, "option name Weights type string") == 1);
    CHECK(count_prefix(out, "option name AspWindow type spin default") == 1);
    CHECK(count_prefix(out, "readyok") == 2);
    CHECK(count_prefix(out, "info depth 4 ") == 1);
    const std::string best = last_with(out, "bestmove ");
    REQUIRE(!best.empty());
    const Rules rules;
    CHECK_NOTHROW(parse_move(Position::start(Variant::Tsivy), rules, best.substr(9)));
    const std::string info = last_with(out, "info depth 4 ");
    CHECK(info.find(" score cp ") != std::string::npos);
    CHECK(info.find(" nodes ") != std::string::npos);
    CHECK(info.find(" nps ") != std::string::npos);
    CHECK(info.find(" pv ") != std::string::npos);
    // hashfull: the permille of the transposition table this search wrote, in [1, 1000]
    const std::size_t at = info.find(" hashfull ");
    REQUIRE(at != std::string::npos);
    const int permille = std::stoi(info.substr(at + 10));
    CHECK(permille > 0);
    CHECK(permille <= 1000);
}

TEST_CASE("Bad lines get an info string error and the engine goes on", "[protocol]") {
    const auto out = run_protocol("hello\n"
                                  "position startpos moves e2e3\n"
                                  "position fen BBBB/xx w\n"
                                  "position sideways\n"
                                  "go depth x\n"
                                  "go sideways 3\n"
                                  "setoption name NoSuchOption value 3\n"
                                  "setoption name AspWindow value 0\n"
                                  "setoption name Hash value lots\n"
                                  "setoption name Weights value /no/such/weights.txt\n"
                                  "setoption name Variant value chess\n"
                                  "\n"
                                  "isready\n"
                                  "position startpos moves d3e3A\n"
                                  "go depth 2\n");
    CHECK(count_prefix(out, "info string error: ") == 11);
    CHECK(count_prefix(out, "info string error: unknown command 'hello'") == 1);
    CHECK(count_prefix(out, "info string error: position: move 1 'e2e3'") == 1);
    CHECK(count_prefix(out, "info string error: /no/such/weights.txt: cannot open") == 1);
    CHECK(count_prefix(out, "readyok") == 1);
    // The last good position (after d3e3A) is searched: Black answers.
    const std::string best = last_with(out, "bestmove ");
    REQUIRE(!best.empty());
    Position pos = Position::start(Variant::Tsivy);
    const Rules rules;
    pos.make_move(parse_move(pos, rules, "d3e3A"));
    CHECK_NOTHROW(parse_move(pos, rules, best.substr(9)));
}

TEST_CASE("stop ends go infinite, the end of input waits for a search to answer", "[protocol]") {
    auto out = run_protocol("position startpos\ngo infinite\nisready\nstop\nquit\n");
    CHECK(count_prefix(out, "bestmove ") == 1);
    CHECK(count_prefix(out, "readyok") == 1);
    // End of input right after `go`: the search still answers.
    out = run_protocol("position startpos\ngo nodes 20000\n");
    CHECK(count_prefix(out, "bestmove ") == 1);
    out = run_protocol("position startpos\ngo infinite\n");
    CHECK(count_prefix(out, "bestmove ") == 1);
}

TEST_CASE("The engine plays every limit, variant and rule set", "[protocol]") {
    const auto out = run_protocol("setoption name Variant value dimy\n"
                                  "setoption name Hash value 2\n"
                                  "setoption name QsMaxDepth value 4\n"
                                  "setoption name Weights value default\n"
                                  "position startpos moves b2c3A\n"
                                  "go movetime 50\n"
                                  "stop\n"
                                  "position fen BBBBB/BBBBB/BW1BW/WWWWW/WWWWW w 0 1\n"
                                  "go wtime 1000 btime 1000 winc 10 binc 10\n"
                                  "stop\n"
                                  "setoption name Rules value vela\n"
                                  "setoption name Variant value tsivy\n"
                                  "position startpos\n"
                                  "go nodes 3000\n");
    CHECK(count_prefix(out, "info string error") == 0);
    REQUIRE(count_prefix(out, "bestmove ") == 3);
    // The last answer is a legal Vela move from the tsivy start (a single capture).
    Rules vela;
    vela.ruleset = RuleSet::Vela;
    const std::string best = last_with(out, "bestmove ").substr(9);
    const Move m = parse_move(Position::start(Variant::Tsivy), vela, best);
    CHECK(popcount(m.captured) == 1);
}

TEST_CASE("A lost position answers bestmove (none)", "[protocol]") {
    const auto out = run_protocol("setoption name Variant value dimy\n"
                                  "position fen 5/5/5/5/W4 b\ngo depth 3\n");
    CHECK(last_with(out, "bestmove ") == "bestmove (none)");
}

TEST_CASE("setoption takes the engine spec's keys, ranges and errors, and keeps the engine whole",
          "[protocol]") {
    const auto out = run_protocol("setoption name Hash value 0\n"
                                  "setoption name Hash value 70000\n"
                                  "setoption name LmrBase value 100000\n"
                                  "setoption name lmrbase value 90\n"
                                  "setoption name Weights value /no/such/weights.txt\n"
                                  "uci\n"
                                  "position startpos\n"
                                  "go depth 3\n");
    CHECK(count_prefix(out, "info string error: hash=0: expected a whole number from 1 to") == 1);
    CHECK(count_prefix(out, "info string error: hash=70000: expected a whole number from 1") == 1);
    CHECK(count_prefix(out, "info string error: LmrBase=100000: expected a whole number") == 1);
    CHECK(count_prefix(out, "info string error: /no/such/weights.txt: cannot open") == 1);
    // The accepted value shows in the option list; the failed ones changed nothing.
    CHECK(count_prefix(out, "option name LmrBase type spin default 90 ") == 1);
    CHECK(count_prefix(out, "option name Hash type spin default 16 min 1 max 65536") == 1);
    CHECK(count_prefix(out, "option name Weights type string default tuned") == 1);
    CHECK(count_prefix(out, "bestmove ") == 1);
}

TEST_CASE("A bare go searches with the engine spec's limits", "[protocol]") {
    EngineSpec spec;
    spec.set("depth", "2");
    spec.set("hash", "4");
    const auto out = run_protocol("uci\nposition startpos\ngo\n", spec);
    CHECK(count_prefix(out, "option name Hash type spin default 4 ") == 1);
    CHECK(count_prefix(out, "info depth 2 ") == 1);
    CHECK(count_prefix(out, "info depth 3 ") == 0);
    CHECK(count_prefix(out, "bestmove ") == 1);
    // Without a limit, the one default depth of every engine.
    const auto plain = run_protocol("position startpos\ngo\n");
    CHECK(count_prefix(plain, "info depth " + std::to_string(EngineSpec::kDefaultDepth) + " ") ==
          1);
    CHECK(count_prefix(plain,
                       "info depth " + std::to_string(EngineSpec::kDefaultDepth + 1) + " ") == 0);
}

TEST_CASE("Vela games search with the Vela weights when the engine has them", "[protocol][spec]") {
    const std::string weak = std::string(FANORONA_TEST_DATA) + "/../../data/weights/weak.txt";
    // What decides a search: its info lines (scores, nodes, moves).
    auto infos = [](const std::vector<std::string>& out) {
        std::vector<std::string> keep;
        for (const std::string& l : out)
            if (l.rfind("bestmove", 0) == 0 || l.rfind("info depth", 0) == 0) {
                std::istringstream words(l);
                std::string kept;
                for (std::string w; words >> w;)
                    if (w == "nps" || w == "time")
                        words >> w; // the clock's, not the search's
                    else
                        kept += w + " ";
                keep.push_back(kept);
            }
        return keep;
    };
    const std::string vela_game =
        "setoption name Rules value vela\nposition startpos\ngo depth 4\n";
    const auto with_vela =
        run_protocol("setoption name VelaWeights value " + weak + "\n" + vela_game);
    const auto with_weak = run_protocol("setoption name Weights value " + weak + "\n" + vela_game);
    const auto with_default = run_protocol(vela_game);
    CHECK(infos(with_vela) == infos(with_weak));
    CHECK(infos(with_vela) != infos(with_default)); // the premise: the weights matter here
    // Its advertised default, <Weights>, takes Vela games back to the normal weights.
    const auto back = run_protocol("setoption name VelaWeights value <Weights>\n" + vela_game);
    CHECK(count_prefix(back, "info string error") == 0);
    CHECK(infos(back) == infos(with_default));
    CHECK(infos(run_protocol("setoption name VelaWeights value " + weak +
                             "\nsetoption name VelaWeights value <Weights>\n" + vela_game)) ==
          infos(run_protocol("setoption name Weights value tuned\n" + vela_game)));
    // A normal game keeps the normal weights (Vela weights, chosen weights, play without the
    // default network: the comparison is with the tuned weights chosen too).
    const std::string normal_game = "position startpos\ngo depth 4\n";
    const std::string tuned = "setoption name Weights value tuned\n";
    CHECK(infos(run_protocol(tuned + "setoption name VelaWeights value " + weak + "\n" +
                             normal_game)) == infos(run_protocol(tuned + normal_game)));
    // The spec: the key, its description and the weights per rule set.
    EngineSpec spec = EngineSpec::parse("name=V,vela_weights=" + weak);
    CHECK(spec.description() == "V(weights=tuned,params=tuned,vela_weights=weak.txt,depth=4)");
    Rules vela;
    vela.ruleset = RuleSet::Vela;
    CHECK(spec.weights_for(vela) == load_weights_file(weak));
    CHECK(spec.weights_for(Rules{}) == load_weights_file("default"));
}
