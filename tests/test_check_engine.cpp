// `fanorona check-engine` (selfplay/engine/compliance.h): this program's own engine and a correct
// random mover (tests/engines/random_engine.cpp) pass every check; engines with known faults
// (tests/engines/*.sh, and the random mover told a fault) fail the right check, with exit 1.

#include <catch2/catch.hpp>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "tests/cli_helpers.h"

using namespace test_cli;

namespace {

std::string fake_engine(const std::string& name) {
    return std::string(FANORONA_TEST_DATA) + "/../engines/" + name + ".sh";
}

struct Checked {
    Run run;
    nlohmann::json json;
};

// Runs check-engine on `player` (a --player spec) with few positions and short waits (an
// answer that should come at once within timeout_ms).
Checked check_engine(const std::string& player, int positions = 30, int timeout_ms = 1000) {
    static int calls = 0;
    const std::string dir = fresh_dir("check_engine_" + std::to_string(++calls));
    std::filesystem::create_directories(dir);
    const std::string json = dir + "/check.json";
    Checked c;
    c.run = run_cli("check-engine --player '" + player + "' --random-positions " +
                    std::to_string(positions) + " --timeout " + std::to_string(timeout_ms) +
                    " --json-out " + json);
    if (std::filesystem::exists(json)) c.json = nlohmann::json::parse(slurp(json));
    return c;
}

// "group/check" of every check with `status`.
std::vector<std::string> with_status(const nlohmann::json& j, const std::string& status) {
    std::vector<std::string> out;
    for (const auto& c : j["checks"])
        if (c["status"] == status)
            out.push_back(c["group"].get<std::string>() + "/" + c["check"].get<std::string>());
    return out;
}

const nlohmann::json& find_check(const nlohmann::json& j, const std::string& group,
                                 const std::string& check) {
    for (const auto& c : j["checks"])
        if (c["group"] == group && c["check"] == check) return c;
    static const nlohmann::json none;
    FAIL("no check " << group << "/" << check);
    return none;
}

std::string random_engine(const std::string& args) {
    return std::string("name=r,cmd=") + FANORONA_RANDOM_ENGINE +
           (args.empty() ? "" : ",args=" + args);
}

} // namespace

TEST_CASE("check-engine: this program's engine passes every check", "[check-engine]") {
    // A depth 1 search on a narrow board (3x13) visits 144,000 nodes in quiescence: 56 ms in
    // Release, seconds under a sanitizer.
    const Checked c = check_engine(std::string("name=self,cmd=") + FANORONA_BINARY + ",args=engine",
                                   60, 1000 * kSlowdown);
    INFO(c.run.output);
    CHECK(c.run.status == 0);
    REQUIRE(c.json["format"] == "fanorona-check-engine 1");
    CHECK(c.json["passed"] == true);
    CHECK(c.json["name"] == "Fanorona Lab");
    CHECK(with_status(c.json, "fail").empty());
    CHECK(with_status(c.json, "skip").empty());
    // Only time may warn (a loaded machine); everything else passes.
    for (const auto& check : c.json["checks"])
        if (check["group"] != "time") CHECK(check["status"] == "pass");
    for (const std::string group : {"start-up", "options", "new game", "positions", "variants",
                                    "go", "random positions", "time", "info", "quit"}) {
        bool seen = false;
        for (const auto& check : c.json["checks"]) seen = seen || check["group"] == group;
        CHECK(seen);
    }
    // Every advertised option is set, every claimed board and rule set searched.
    for (const char* option : {"setoption Hash", "setoption Clear Hash", "setoption VelaWeights",
                               "setoption Tables", "setoption Variant", "setoption AspWindow"})
        CHECK(find_check(c.json, "options", option)["status"] == "pass");
    for (const char* board :
         {"Variant dimy", "Variant telo", "Variant 21x3", "Rules firstturn", "Rules vela"})
        CHECK(find_check(c.json, "variants", board)["status"] == "pass");
    CHECK(c.json["time"]["movetime"]["searches"] >= 6);
    CHECK(c.json["time"]["clock"]["searches"] >= 5);
    CHECK(c.run.output.find("group") != std::string::npos);
    CHECK(c.run.output.find("late past the movetime: min") != std::string::npos);
}

TEST_CASE("check-engine: a correct random mover without info lines or options only warns",
          "[check-engine]") {
    SECTION("no options") {
        const Checked c = check_engine(random_engine(""));
        INFO(c.run.output);
        CHECK(c.run.status == 0);
        CHECK(with_status(c.json, "fail").empty());
        CHECK(find_check(c.json, "info", "info lines")["status"] == "warn");
        CHECK(find_check(c.json, "variants", "other boards")["status"] == "pass");
        CHECK(find_check(c.json, "go", "infinite then stop")["status"] == "pass");
        CHECK(find_check(c.json, "go", "isready during infinite")["status"] == "pass");
        CHECK(find_check(c.json, "random positions", "legal moves in 30 positions")["status"] ==
              "pass");
        CHECK(c.run.output.find("0 fail") != std::string::npos);
    }
    SECTION("with options, Variant and Rules") {
        const Checked c = check_engine(random_engine("--options"));
        INFO(c.run.output);
        CHECK(c.run.status == 0);
        CHECK(with_status(c.json, "fail").empty());
        for (const char* board : {"Variant dimy", "Variant 3x5", "Rules vela"})
            CHECK(find_check(c.json, "variants", board)["status"] == "pass");
        for (const char* option : {"setoption Noise", "setoption Forget", "setoption Book"})
            CHECK(find_check(c.json, "options", option)["status"] == "pass");
    }
}

namespace {

// A fault: the engine, a check that must fail ("group/check") and what its detail says; with
// `only`, no other check fails.
struct Fault {
    std::string player, failed, says;
    bool only = false;
};

void expect_fault(const Fault& k) {
    const Checked c = check_engine(k.player);
    INFO(k.player << "\n" << c.run.output);
    CHECK(c.run.status == 1);
    CHECK(c.run.output.find("checks failed") != std::string::npos);
    const auto failed = with_status(c.json, "fail");
    CHECK(std::find(failed.begin(), failed.end(), k.failed) != failed.end());
    if (k.only) CHECK(failed.size() == 1);
    const std::size_t slash = k.failed.find('/');
    const auto& check = find_check(c.json, k.failed.substr(0, slash), k.failed.substr(slash + 1));
    CHECK(check["detail"].get<std::string>().find(k.says) != std::string::npos);
    CHECK_FALSE(check["lines"].empty()); // the lines exchanged come with the failure
}

} // namespace

TEST_CASE("check-engine: engines that crash, hang, answer an illegal or malformed move, or never "
          "start fail at once",
          "[check-engine]") {
    for (const Fault& k : std::vector<Fault>{
             {"name=x,cmd=" + fake_engine("crash"), "positions/startpos", "exited with status 3"},
             {"name=x,cmd=" + fake_engine("hang"), "positions/startpos",
              "hang: no bestmove within 1000 ms after 'go depth 1'"},
             {"name=x,cmd=" + fake_engine("illegal"), "positions/startpos",
              "bestmove 'a1a2' is not legal"},
             {"name=x,cmd=" + fake_engine("malformed"), "positions/startpos",
              "malformed answer 'bestmove'"},
             {"name=x,startup=500,cmd=" + fake_engine("slowstart"), "start-up/uci to uciok",
              "hang: no 'uciok' within 500 ms", true}})
        expect_fault(k);
}

TEST_CASE("check-engine: an engine that ignores stop, or answers isready only after its search, "
          "fails that check alone",
          "[check-engine]") {
    for (const Fault& k : std::vector<Fault>{
             {random_engine("--fault ignore-stop"), "go/infinite then stop",
              "no bestmove within 1000 ms after 'stop'", true},
             {random_engine("--fault busy"), "go/isready during infinite",
              "no readyok within 1000 ms of 'isready' while searching (it came after the bestmove)",
              true},
             {random_engine("--fault blocking"), "go/isready during movetime",
              "readyok only after the bestmove", true}})
        expect_fault(k);
}

TEST_CASE("check-engine: an engine that overruns its movetime by seconds fails on time",
          "[check-engine]") {
    // It sleeps through its searches, so it also answers isready only after them.
    expect_fault({random_engine("--fault overrun"), "time/movetime", "fail past 1000"});
}

TEST_CASE("check-engine: an engine that claims Vela but plays the standard rules fails Rules vela",
          "[check-engine]") {
    expect_fault({random_engine("--options --fault vela-unaware"), "variants/Rules vela", ""});
}

TEST_CASE("check-engine: a malformed option line and a second bestmove fail", "[check-engine]") {
    expect_fault({random_engine("--fault bad-option"), "start-up/option lines",
                  "'option name Broken default 1': no 'type'", true});
    expect_fault(
        {random_engine("--fault two-answers"), "positions/startpos", "with no search running"});
}

TEST_CASE("check-engine: an engine that does not exit on quit fails quit", "[check-engine]") {
    expect_fault({random_engine("--fault no-quit"), "quit/quit", "still running", true});
}

TEST_CASE("check-engine: only the named failure for a single fault, and the lines in the table",
          "[check-engine]") {
    const Checked c = check_engine(random_engine("--fault busy"));
    INFO(c.run.output);
    CHECK(with_status(c.json, "fail") == std::vector<std::string>{"go/isready during infinite"});
    // The table shows the exchange under the failed row: what was sent and what came back.
    CHECK(c.run.output.find("  >") != std::string::npos);
    CHECK(c.run.output.find("go infinite") != std::string::npos);
    // Later groups ran on a fresh engine.
    CHECK(find_check(c.json, "quit", "quit")["status"] == "pass");
}

TEST_CASE("check-engine: bad --player specs are one-line errors", "[check-engine]") {
    Run r = run_cli("check-engine --player name=x,depth=3");
    CHECK(r.status == 1);
    CHECK(r.output.find("cmd=PROGRAM") != std::string::npos);
    r = run_cli("check-engine --player name=x,cmd=x,nosuchkey=1");
    CHECK(r.status == 1);
    CHECK(r.output.find("--player:") != std::string::npos);
    // A program that cannot start is the start-up check's failure; nothing else runs. (A spec
    // needs no name here.)
    const Checked c = check_engine("cmd=/nonexistent/engine");
    CHECK(c.run.status == 1);
    CHECK(with_status(c.json, "fail") == std::vector<std::string>{"start-up/uci to uciok"});
    CHECK(with_status(c.json, "skip").size() == 9);
}

TEST_CASE("check-engine: --engines FILE and --player conf=NAME name the engine to check",
          "[check-engine]") {
    const std::string dir = fresh_dir("check_engine_conf");
    std::filesystem::create_directories(dir);
    const std::string engines = dir + "/engines.json";
    std::ofstream(engines) << R"({"engines":[{"name":"rnd","cmd":")" << FANORONA_RANDOM_ENGINE
                           << R"("},{"name":"broken","cmd":")" << fake_engine("illegal")
                           << "\"}]}\n";
    const Run good = run_cli("check-engine --engines " + engines +
                             " --player conf=rnd --random-positions 10 --timeout 1000");
    INFO(good.output);
    CHECK(good.status == 0);
    const Run bad = run_cli("check-engine --engines " + engines +
                            " --player conf=broken --random-positions 10 --timeout 1000");
    CHECK(bad.status == 1);
    CHECK(bad.output.find("positions") != std::string::npos);
    const Run missing = run_cli("check-engine --engines " + engines + " --player conf=nobody");
    CHECK(missing.status == 1);
    CHECK(missing.output.find("nobody") != std::string::npos);
}
