// Engines files (--engines FILE, selfplay/engine/engine_file.h): engines by name, --player
// conf=NAME with keys over them, and errors naming the file, the entry and the member; the same
// through tournament, spsa and loop.

#include <catch2/catch.hpp>

#include <fstream>

#include <nlohmann/json.hpp>

#include "selfplay/engine/engine_file.h"
#include "selfplay/formats/games_file.h"
#include "tests/cli_helpers.h"

using namespace fanorona;

namespace {

std::string write(const std::string& dir, const std::string& name, const std::string& text) {
    std::filesystem::create_directories(dir);
    const std::string path = dir + "/" + name;
    std::ofstream(path) << text;
    return path;
}

const char* const kEngines = R"({"engines": [
  {"name": "A", "depth": 3, "hash": "8", "LmrBase": 80, "tc": "40/60+0.5"},
  {"name": "X", "cmd": "/bin/engine", "args": "-q -v", "options": {"Hash": 32, "Style": "calm"},
   "tc": "10+0.1", "timemargin": 300},
  {"name": "R", "builtin": "random"}
]})";

} // namespace

TEST_CASE("an engines file gives engines by name, and --player keys go over them", "[enginefile]") {
    const std::string path = write(test_cli::fresh_dir("engine_file"), "engines.json", kEngines);
    const EngineFile file = read_engine_file(path);
    REQUIRE(file.engines.size() == 3);
    REQUIRE(file.find("X"));
    CHECK(file.find("nobody") == nullptr);

    const EngineSpec a = player_spec("conf=A", &file);
    CHECK(a.name == "A");
    CHECK(a.limits.depth == 3);
    CHECK(a.hash_mb == 8);
    CHECK(a.time_control.moves == 40);
    CHECK(a.search_params().get("LmrBase") == 80);
    // The same engine as the --player language writes it.
    CHECK(a.description() ==
          EngineSpec::parse("name=A,depth=3,hash=8,LmrBase=80,tc=40/60+0.5").description());

    // Keys after conf= override the file's, in any place; a new name renames it.
    const EngineSpec a2 = player_spec("depth=5,conf=A,name=A2,LmrBase=90", &file);
    CHECK(a2.name == "A2");
    CHECK(a2.limits.depth == 5);
    CHECK(a2.hash_mb == 8);
    CHECK(a2.search_params().get("LmrBase") == 90);

    const EngineSpec x = player_spec("conf=X,option.Hash=64,args=-z", &file);
    CHECK(x.kind == EngineSpec::Kind::External);
    CHECK(x.argv == std::vector<std::string>{"/bin/engine", "-z"});
    CHECK(x.options ==
          std::vector<std::pair<std::string, std::string>>{{"Hash", "64"}, {"Style", "calm"}});
    CHECK(x.time_control.margin_ms == 300);
    CHECK(x.time_control.base_ms == 10000);
    CHECK(player_spec("conf=R", &file).kind == EngineSpec::Kind::Random);

    // Without conf= a --player is EngineSpec::parse's; conf= needs a file and a known name.
    CHECK(player_spec("name=Z,depth=2", nullptr).limits.depth == 2);
    CHECK_THROWS_WITH(player_spec("conf=A", nullptr),
                      "conf=A: no engines file given (--engines FILE)");
    CHECK_THROWS_WITH(player_spec("conf=B", &file),
                      "conf=B: no engine of that name in " + path + " (A, X, R)");
    CHECK_THROWS_WITH(player_spec("conf=A,depth=0", &file),
                      Catch::StartsWith("conf=A: depth=0: expected a whole number"));
    CHECK_THROWS_WITH(player_spec("conf=A,conf=X", &file), "conf= given twice");
}

TEST_CASE("engines file errors name the file, the entry and the member", "[enginefile]") {
    const std::string dir = test_cli::fresh_dir("engine_file_errors");
    auto error_of = [&](const std::string& text) {
        const std::string path = write(dir, "e.json", text);
        try {
            (void)read_engine_file(path);
        } catch (const std::exception& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    const std::string f = dir + "/e.json";
    CHECK(error_of(R"({"engines": [{"name": "A", "depth": 0}]})") ==
          f + ": engines[0] (A): \"depth\": depth=0: expected a whole number from 1 to 60");
    CHECK(error_of(R"({"engines": [{"name": "A"}, {"name": "B", "tc": [1]}]})") ==
          f + ": engines[1] (B): \"tc\": expected a string or a number");
    CHECK_THAT(error_of(R"({"engines": [{"name": "A", "colour": "red"}]})"),
               Catch::StartsWith(f + ": engines[0] (A): \"colour\": unknown key 'colour' ("));
    CHECK(error_of(R"({"engines": [{"name": "X", "cmd": "e", "options": {"Hash": [32]}}]})") ==
          f + ": engines[0] (X): \"options\": \"Hash\": expected a string or a number");
    CHECK(error_of(R"({"engines": [{"name": "X", "cmd": "e", "options": 3}]})") ==
          f + ": engines[0] (X): \"options\": expected an object {\"NAME\": VALUE}");
    CHECK(error_of(R"({"engines": [{"depth": 3}]})") ==
          f + ": engines[0]: \"name\": a string is required");
    CHECK(error_of(R"({"engines": [{"name": "A"}, {"name": "A"}]})") ==
          f + ": engines[1] (A): a second engine named A");
    CHECK(error_of(R"({"engines": [{"name": "A", "conf": "B"}]})") ==
          f + ": engines[0] (A): \"conf\": an entry cannot name another (conf=)");
    CHECK(error_of(R"({"engines": [{"name": "A", "cmd": "e", "builtin": "random"}]})") ==
          f + ": engines[0] (A): A: cmd and builtin exclude each other");
    CHECK(error_of(R"({"engines": [{"name": "A", "weights": "/no/such/w.txt"}]})")
              .rfind(f + ": engines[0] (A): \"weights\": /no/such/w.txt: ", 0) == 0);
    CHECK(error_of(R"({"engines": [3]})") == f + ": engines[0]: expected an object");
    CHECK(error_of(R"([{"name": "A"}])") ==
          f + ": expected an object {\"engines\": [{\"name\": ...}, ...]}");
    CHECK(error_of(R"({"engines": [], "players": []})") ==
          f + ": \"players\": unknown member (an engines file holds \"engines\")");
    CHECK_THAT(error_of("{\"engines\": [\n{\"name\": \"A\",}]}"),
               Catch::StartsWith(f + ": not JSON: parse error at line 2"));
    CHECK_THAT(error_of(""), Catch::StartsWith(f + ": not JSON"));
    std::filesystem::remove(f);
    CHECK_THROWS_WITH(read_engine_file(f), Catch::StartsWith(f + ": "));
}

TEST_CASE("tournament, spsa and loop take their engines from --engines", "[enginefile][cli]") {
    const std::string dir = test_cli::fresh_dir("engine_file_cli");
    const std::string engines = write(dir, "engines.json", kEngines);
    const std::string t = dir + "/t";
    const test_cli::Run r =
        test_cli::run_cli("tournament --quiet --games 2 --max-turns 20 --engines " + engines +
                          " --player conf=A,depth=1,tc=none --player conf=R,name=rnd --out " + t);
    INFO(r.output);
    REQUIRE(r.status == 0);
    const auto games = read_games_file(t + "/games.tsv").games;
    REQUIRE(games.size() == 2);
    // The file's engine with the keys over it (tc=none: no clock).
    CHECK(games[0].white == EngineSpec::parse("name=A,depth=1,hash=8,LmrBase=80").description());
    CHECK(games[0].black == "rnd(builtin=random)");

    const test_cli::Run unknown =
        test_cli::run_cli("tournament --quiet --games 2 --engines " + engines +
                          " --player conf=B --player conf=R --out " + dir + "/u");
    CHECK(unknown.status != 0);
    CHECK_THAT(unknown.output,
               Catch::Contains("--player: conf=B: no engine of that name in " + engines));
    const std::string bad = write(dir, "bad.json", R"({"engines": [{"name": "A", "hash": 0}]})");
    const test_cli::Run broken =
        test_cli::run_cli("tournament --quiet --games 2 --engines " + bad +
                          " --player conf=A --player conf=A,name=B --out " + dir + "/b");
    CHECK(broken.status != 0);
    CHECK_THAT(broken.output, Catch::Contains("--engines: " + bad +
                                              ": engines[0] (A): \"hash\": hash=0: expected"));
    const test_cli::Run nofile = test_cli::run_cli(
        "tournament --quiet --games 2 --player conf=A --player name=r,builtin=random --out " + dir +
        "/n");
    CHECK(nofile.status != 0);
    CHECK_THAT(nofile.output, Catch::Contains("--player: conf=A: no engines file given"));

    // spsa: the engine it tunes from the file, the engine options over it.
    const std::string s = dir + "/spsa";
    const test_cli::Run spsa = test_cli::run_cli(
        "spsa --quiet --games 2 --iteration-pairs 1 --verify-games 0 --max-turns 20 "
        "--spsa-param AspWindow --engines " +
        engines + " --player conf=A --depth 1 --out " + s);
    INFO(spsa.output);
    REQUIRE(spsa.status == 0);
    std::ifstream in(s + "/settings.json");
    const std::string base = nlohmann::json::parse(in)["spsa"]["base"].get<std::string>();
    CHECK_THAT(base, Catch::Contains("LmrBase=80"));
    CHECK_THAT(base, Catch::Contains("depth=1,tc=40/60000ms+500ms,hash=8"));
    const test_cli::Run external =
        test_cli::run_cli("spsa --quiet --games 2 --spsa-param AspWindow --engines " + engines +
                          " --player conf=X --out " + dir + "/sx");
    CHECK(external.status != 0);
    const test_cli::Run alone =
        test_cli::run_cli("spsa --quiet --games 2 --spsa-param AspWindow --engines " + engines +
                          " --out " + dir + "/sa");
    CHECK(alone.status != 0);
    CHECK_THAT(alone.output, Catch::Contains("--engines: give --player conf=NAME"));

    // loop: its engine too (an external one cannot be tuned).
    const test_cli::Run loop =
        test_cli::run_cli("loop --quiet --iterations 1 --engines " + engines +
                          " --player conf=X --out " + dir + "/loop");
    CHECK(loop.status != 0);
    CHECK_THAT(loop.output, Catch::Contains("the loop tunes the toolkit's own engine"));
}

TEST_CASE("an engines file takes arg as an array, refuses keys its engine cannot take, and "
          "--each goes under its entries",
          "[enginefile]") {
    const std::string dir = test_cli::fresh_dir("engine_file_arg");
    const EngineFile file = read_engine_file(write(dir, "e.json", R"({"engines": [
  {"name": "X", "cmd": "/bin/engine", "arg": ["one two", "a,b"], "depth": 4},
  {"name": "A", "depth": 3}]})"));
    const EngineSpec x = player_spec("conf=X", &file);
    CHECK(x.argv == std::vector<std::string>{"/bin/engine", "one two", "a,b"});
    CHECK_THROWS_WITH(read_engine_file(write(dir, "bad.json", R"({"engines": [
  {"name": "X", "cmd": "/bin/engine", "hash": 64}]})")),
                      dir + "/bad.json: engines[0] (X): \"hash\": X: hash=64: a setting of the "
                            "toolkit's engine, not of an external one (cmd=); set the engine's "
                            "own option with option.Hash=64");
    // --each first, then the entry, then the player's own keys.
    const SpecSettings each = {{"depth", "7"}, {"tc", "5+0.1"}};
    CHECK(player_spec("conf=A", &file, each).limits.depth == 3);
    CHECK(player_spec("conf=A", &file, each).time_control.base_ms == 5000);
    CHECK(player_spec("conf=A,depth=2", &file, each).limits.depth == 2);
    CHECK(player_spec("name=B", &file, each).limits.depth == 7);
    CHECK_THROWS_WITH(player_spec("name=R,builtin=random", &file, {{"hash", "8"}}),
                      "R: hash=8: a setting of the toolkit's engine; a baseline player (builtin=) "
                      "takes none (from --each)");
}

TEST_CASE("an engines file refuses a key given twice and a number beyond a double",
          "[enginefile]") {
    const std::string dir = test_cli::fresh_dir("engine_file_keys");
    const std::string twice =
        write(dir, "twice.json", R"({"engines": [{"name": "A", "depth": 3, "depth": 5}]})");
    CHECK_THROWS_WITH(read_engine_file(twice),
                      twice + ": the key \"depth\" appears twice in one object");
    const std::string options = write(
        dir, "options.json",
        R"({"engines": [{"name": "X", "cmd": "/bin/e", "options": {"Hash": 1, "Hash": 2}}]})");
    CHECK_THROWS_WITH(read_engine_file(options), Catch::Contains("\"Hash\" appears twice"));
    const std::string top = write(dir, "top.json", R"({"engines": [], "engines": []})");
    CHECK_THROWS_WITH(read_engine_file(top), Catch::Contains("\"engines\" appears twice"));
    // The same key in two objects is no repetition.
    const std::string two =
        write(dir, "two.json", R"({"engines": [{"name": "A"}, {"name": "B", "depth": 2}]})");
    CHECK(read_engine_file(two).engines.size() == 2);
    const std::string huge =
        write(dir, "huge.json", R"({"engines": [{"name": "A", "depth": 1e400}]})");
    CHECK_THROWS_WITH(read_engine_file(huge),
                      huge + ": the number 1e400 is out of range (beyond a double)");
}

TEST_CASE("a long engines file loads in linear time", "[enginefile]") {
    // 20000 engines, and one engine with 100000 options: each name and option was searched in a
    // list of those before it (0.4 and 2 billion comparisons).
    std::string text = R"({"engines": [)";
    for (int i = 0; i < 20000; ++i)
        text += R"({"name": "E)" + std::to_string(i) + R"(", "builtin": "random"},)";
    text += R"({"name": "X", "cmd": "/bin/e", "options": {)";
    for (int i = 0; i < 100000; ++i) text += (i ? "," : "") + ("\"O" + std::to_string(i) + "\": 1");
    text += "}}]}";
    const std::string path = write(test_cli::fresh_dir("engine_file_long"), "long.json", text);
    const auto start = std::chrono::steady_clock::now();
    const EngineFile file = read_engine_file(path);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    REQUIRE(file.engines.size() == 20001);
    CHECK(EngineSpec::from_settings(*file.find("X")).options.size() == 100000);
    CHECK(seconds < 5 * test_cli::kSlowdown);
}
