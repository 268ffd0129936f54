// The one engine spec: the --player language, the command-line options and the protocol map onto
// the same fields, with the same ranges, defaults and errors.

#include <catch2/catch.hpp>

#include <filesystem>

#include "selfplay/engine/engine_spec.h"
#include "selfplay/engine/external_player.h"
#include "selfplay/formats/weights_file.h"
#include "tests/cli_helpers.h"

using namespace fanorona;
using test_cli::run_cli;

TEST_CASE("an engine spec parses every key onto its fields", "[spec]") {
    const EngineSpec s = EngineSpec::parse("name=A,depth=5,nodes=900,movetime=40,hash=8,"
                                           "tc=2+0.05,lmrbase=80,AspWindow=30");
    CHECK(s.name == "A");
    CHECK(s.kind == EngineSpec::Kind::Engine);
    CHECK(s.limits.depth == 5);
    CHECK(s.limits.nodes == 900);
    CHECK(s.limits.movetime_ms == 40);
    CHECK(s.hash_mb == 8);
    CHECK(s.time_control.base_ms == 2000);
    CHECK(s.time_control.inc_ms == 50);
    CHECK(s.search_params().get("LmrBase") == 80);
    CHECK(s.search_params().get("AspWindow") == 30);
    CHECK(s.description() ==
          "A(weights=tuned,params=tuned,net=tsivy,LmrBase=80,AspWindow=30,depth=5,nodes=900,"
          "movetime=40,"
          "tc=2000ms+50ms,hash=8)");

    const EngineSpec x = EngineSpec::parse("args=-q -v,name=X,cmd=/bin/engine,option.Hash=32");
    CHECK(x.kind == EngineSpec::Kind::External);
    CHECK(x.argv == std::vector<std::string>{"/bin/engine", "-q", "-v"});
    CHECK(x.description() == "X(cmd=/bin/engine -q -v,option.Hash=32)");
    CHECK(EngineSpec::parse("name=R,builtin=greedy").description() == "R(builtin=greedy)");
}

TEST_CASE("one default for every engine: depth, hash, weights", "[spec]") {
    EngineSpec s = EngineSpec::parse("name=A");
    CHECK(s.limits.depth == EngineSpec::kDefaultDepth);
    CHECK(s.hash_mb == EngineSpec::kDefaultHashMb);
    CHECK(s.weights == load_weights_file("tuned")); // the engine's default (core/builtins.h)
    CHECK(s.params_name == "tuned");
    EngineSpec plain;
    CHECK(plain.search_limits().depth == EngineSpec::kDefaultDepth);
    // A later value of the same parameter replaces the earlier one.
    plain.set("LmrBase", "70");
    plain.set("lmrbase", "75");
    REQUIRE(plain.params.size() == 1);
    CHECK(plain.params[0] == std::pair<std::string, int>{"LmrBase", 75});
}

TEST_CASE("engine spec errors name the key, the value and the range", "[spec]") {
    CHECK_THROWS_WITH(EngineSpec::parse("depth=3"), Catch::Contains("name=... is required"));
    CHECK_THROWS_WITH(EngineSpec::parse("name=a,depth=x"), Catch::Contains("depth=x"));
    CHECK_THROWS_WITH(EngineSpec::parse("name=a,depth=0"),
                      Catch::Contains("depth=0: expected a whole number from 1 to 60"));
    CHECK_THROWS_WITH(EngineSpec::parse("name=a,hash=65537"), Catch::Contains("1 to 65536"));
    CHECK_THROWS_WITH(EngineSpec::parse("name=a,colour=red"), Catch::Contains("unknown key"));
    CHECK_THROWS_WITH(EngineSpec::parse("name=a,weights=/no/such/file"),
                      Catch::Contains("/no/such/file"));
    CHECK_THROWS_WITH(EngineSpec::parse("name=a,builtin=smart"), Catch::Contains("builtin"));
    CHECK_THROWS_WITH(EngineSpec::parse("name=a,tc=fast"), Catch::Contains("tc=fast"));
    CHECK_THROWS_WITH(EngineSpec::parse("name=a,LmrBase=99999"), Catch::Contains("LmrBase=99999"));
    CHECK_THROWS_WITH(EngineSpec::parse("name=a b"), Catch::Contains("without spaces"));
    CHECK_THROWS_WITH(EngineSpec::parse("name=a,args=-x"),
                      Catch::Contains("args=-x: a setting of an external engine (cmd=)"));
    CHECK_THROWS_WITH(EngineSpec::parse("name=a,cmd=x,builtin=random"),
                      Catch::Contains("exclude each other"));
    // A NUL byte in a name would cut every message that shows the name (found by the fuzzer).
    CHECK_THROWS_WITH(EngineSpec::parse(std::string("name=\0x,option.Hash=1", 21)),
                      Catch::Equals("name: the value contains a NUL byte"));
}

TEST_CASE("every command takes the same engine options with the same ranges", "[spec][cli]") {
    // The same bad depth, through four commands and the --player language.
    for (const std::string& cmd :
         {std::string("selfplay --games 2 --quiet --depth 0 --out ") +
              test_cli::fresh_dir("spec_sp"),
          std::string("analyze --depth 0"),
          std::string("loop --iterations 1 --depth 0 --out ") + test_cli::fresh_dir("spec_loop"),
          std::string("tournament --games 2 --quiet --player name=a,depth=0 --player "
                      "name=b,depth=1 --out ") +
              test_cli::fresh_dir("spec_t")}) {
        const test_cli::Run r = run_cli(cmd);
        INFO(cmd << "\n" << r.output);
        CHECK(r.status == 1);
        CHECK_THAT(r.output, Catch::Contains("depth=0: expected a whole number from 1 to 60"));
    }
    const test_cli::Run param = run_cli("analyze --depth 1 --param LmrBase=99999");
    CHECK(param.status == 1);
    CHECK_THAT(param.output, Catch::Contains("--param: LmrBase=99999"));
    const test_cli::Run ok = run_cli("analyze --depth 2 --hash 2 --param LmrBase=90");
    CHECK(ok.status == 0);
    // A tournament refuses what self-play refuses: the adjudication ranges are shared.
    const test_cli::Run turns =
        run_cli("tournament --games 2 --quiet --win-turns 0 --player name=a,depth=1 --player "
                "name=b,depth=1 --out " +
                test_cli::fresh_dir("spec_turns"));
    CHECK(turns.status != 0);
    CHECK_THAT(turns.output, Catch::Contains("--win-turns"));
}

TEST_CASE("a spec's description parses back to the same spec, time controls included", "[spec]") {
    // Found by the engine_spec fuzz target (tests/fuzz/corpus/engine_spec/regress_tc_description):
    // descriptions write a time control as 10000ms+100ms, which the parser refused.
    const EngineSpec a = EngineSpec::parse("name=T,tc=10+0.1,nodes=1000,LmrBase=80");
    CHECK(a.description() ==
          "T(weights=tuned,params=tuned,net=tsivy,LmrBase=80,nodes=1000,tc=10000ms+100ms)");
    const EngineSpec b = EngineSpec::parse("name=T,weights=default,net=tsivy,LmrBase=80,nodes=1000,"
                                           "tc=10000ms+100ms");
    CHECK(b.description() == a.description());
    CHECK(b.time_control.base_ms == 10000);
    CHECK(b.time_control.inc_ms == 100);
    CHECK_THROWS_WITH(EngineSpec::parse("name=T,tc=ms"), Catch::Contains("tc=ms"));
    CHECK_THROWS(EngineSpec::parse("name=T,tc=86400001ms"));
}

TEST_CASE("weights= keeps a file's pattern weights, shared by the searcher without a copy",
          "[spec]") {
    const std::string file = FANORONA_FUZZ_CORPUS "/weights/patterns_v2";
    const Weights w = load_weights_file(file);
    REQUIRE(has_pattern_weights(w));
    const EngineSpec s = EngineSpec::parse("name=P,weights=" + file);
    CHECK(s.weights == w);
    REQUIRE(s.weights.patterns);
    const EngineSpec copy = s; // copies share the pattern weights
    CHECK(copy.weights.patterns == s.weights.patterns);
    Searcher searcher(1);
    s.configure(searcher);
    CHECK(searcher.weights().patterns == s.weights.patterns);
}

TEST_CASE("keys of the toolkit's engine on an external or baseline player are refused naming "
          "the key",
          "[spec]") {
    // Wherever the key stands, before or after cmd=.
    CHECK_THROWS_WITH(EngineSpec::parse("name=B,cmd=/bin/engine,hash=64"),
                      "B: hash=64: a setting of the toolkit's engine, not of an external one "
                      "(cmd=); set the engine's own option with option.Hash=64");
    CHECK_THROWS_WITH(EngineSpec::parse("name=B,hash=64,cmd=/bin/engine"),
                      "B: hash=64: a setting of the toolkit's engine, not of an external one "
                      "(cmd=); set the engine's own option with option.Hash=64");
    CHECK_THROWS_WITH(EngineSpec::parse("name=B,weights=tuned,cmd=/bin/engine"),
                      "B: weights=tuned: a setting of the toolkit's engine, not of an external "
                      "one (cmd=); set the engine's own option with option.Weights=tuned");
    CHECK_THROWS_WITH(EngineSpec::parse("name=B,cmd=/bin/engine,net=none"),
                      Catch::EndsWith("set the engine's own option with option.Net=none"));
    CHECK_THROWS_WITH(EngineSpec::parse("name=B,cmd=/bin/engine,params=handset"),
                      Catch::EndsWith("option.Params=handset"));
    CHECK_THROWS_WITH(EngineSpec::parse("name=B,cmd=/bin/engine,lmrbase=80"),
                      Catch::EndsWith("option.LmrBase=80"));
    // A weight by name has no engine option to suggest.
    CHECK_THROWS_WITH(EngineSpec::parse("name=B,cmd=/bin/engine,material_mg=100"),
                      "B: material_mg=100: a setting of the toolkit's engine, not of an "
                      "external one (cmd=)");
    CHECK_THROWS_WITH(EngineSpec::parse("name=R,builtin=random,weights=tuned"),
                      "R: weights=tuned: a setting of the toolkit's engine; a baseline player "
                      "(builtin=) takes none");
    // And the other way: an external engine's keys on the toolkit's engine.
    CHECK_THROWS_WITH(EngineSpec::parse("name=A,option.Hash=32"),
                      "A: option.Hash=32: a setting of an external engine (cmd=); the toolkit's "
                      "engine takes hash=32");
    CHECK_THROWS_WITH(EngineSpec::parse("name=A,restart=on"),
                      "A: restart=on: a setting of an external engine (cmd=)");
    // The engines file names the member at fault (from_settings' failed index).
    std::size_t failed = 99;
    CHECK_THROWS(EngineSpec::from_settings(
        {{"name", "B"}, {"tables", "none"}, {"cmd", "/bin/engine"}}, &failed));
    CHECK(failed == 1);
    // Limits and clocks serve both kinds.
    CHECK(EngineSpec::parse("name=B,cmd=/bin/engine,depth=3,tc=1+0.1").limits.depth == 3);
}

TEST_CASE("arg= passes one argument with its spaces and commas, after args=", "[spec]") {
    const EngineSpec x =
        EngineSpec::parse("name=X,arg=two words,args=-a -b,cmd=/bin/engine,arg=c\\,d,arg=e");
    CHECK(x.argv == std::vector<std::string>{"/bin/engine", "-a", "-b", "two words", "c,d", "e"});
    CHECK(split_settings("a=1\\,2,b=3") == SpecSettings{{"a", "1,2"}, {"b", "3"}});
    // A name stays free of commas (games files and descriptions list names).
    CHECK_THROWS_WITH(EngineSpec::parse("name=a\\,b"), Catch::Contains("without spaces, commas"));
    // Nor of backslashes (the description NAME\(...) would read back as an escaped comma) and
    // control characters (a tab or line break would cut a games file's line).
    CHECK_THROWS_WITH(EngineSpec::parse("name=a\\"), Catch::Contains("backslashes"));
    CHECK_THROWS_WITH(EngineSpec::parse("name=a\tb"), Catch::Contains("control characters"));
    CHECK_THROWS_WITH(EngineSpec::parse("name=a\nb"), Catch::Contains("control characters"));
    CHECK_THROWS_WITH(EngineSpec::parse("name=X,arg=-v"),
                      "X: arg=-v: a setting of an external engine (cmd=)");
}

TEST_CASE("dir= must be a folder and restart= on or off", "[spec]") {
    const std::string here = std::filesystem::current_path().string();
    const EngineSpec x = EngineSpec::parse("name=X,cmd=/bin/engine,dir=" + here + ",restart=on");
    CHECK(x.dir == here);
    CHECK(x.restart);
    CHECK_FALSE(EngineSpec::parse("name=X,cmd=/bin/engine").restart);
    CHECK(external_engine_config(x, nullptr).dir == here);
    CHECK_THROWS_WITH(EngineSpec::parse("name=X,cmd=/bin/engine,dir=/no/such/folder"),
                      "dir=/no/such/folder: no such folder (the engine's working folder)");
    CHECK_THROWS_WITH(EngineSpec::parse("name=X,cmd=/bin/engine,restart=yes"),
                      "restart=yes: expected on (a fresh engine process each game) or off");
}

TEST_CASE("a time control is decimal digits: hex, exponents, signs and spaces are refused",
          "[spec]") {
    // std::stod alone read "0x10" as 16 seconds.
    for (const std::string tc : {"40/0x10", "0x10", "1e1", "inf", "40/ 10", " 10", "10+0x1",
                                 "+40/10", "40/10+", "1..5", ".", "10+-1", "0x2/10"}) {
        INFO(tc);
        CHECK_THROWS_WITH(EngineSpec::parse("name=T,tc=" + tc), Catch::Contains("tc="));
    }
    const EngineSpec a = EngineSpec::parse("name=T,tc=40/10.5+.25");
    CHECK(a.time_control.moves == 40);
    CHECK(a.time_control.base_ms == 10500);
    CHECK(a.time_control.inc_ms == 250);
}

TEST_CASE("a spec refuses an empty net=, weights=, tables=, vela_weights= or params=", "[spec]") {
    for (const std::string key : {"net", "weights", "tables", "vela_weights", "params"}) {
        INFO(key);
        CHECK_THROWS_WITH(EngineSpec::parse("name=T," + key + "="),
                          Catch::StartsWith(key + "=: empty (give a "));
    }
    CHECK(!EngineSpec::parse("name=T,net=none").net);
    const auto r =
        test_cli::run_cli("tournament --games 2 --player name=A --player name=T,net= --out " +
                          test_cli::fresh_dir("spec_empty_net"));
    CHECK(r.status == 1);
    CHECK_THAT(r.output, Catch::Contains("net=: empty"));
}
