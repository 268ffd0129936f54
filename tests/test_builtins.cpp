// The engine's defaults (issue 34): with no options every command plays the default network on
// 5x9 (tests/test_default_net.cpp), the tuned weights elsewhere and the tuned search parameters
// (data/weights/tuned.txt, data/params/tuned.txt, compiled in), and the names `tuned` and
// `handset` select a configuration wherever a weights or parameters file is expected.
// Checked through the program (engine protocol, eval, bench, tournament) and the spec's parser.

#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "core/builtins.h"
#include "core/common/files.h"
#include "core/weights.h"
#include "selfplay/engine/engine_spec.h"
#include "selfplay/engine/engine_spec_json.h"
#include "selfplay/formats/params_file.h"
#include "selfplay/formats/weights_file.h"
#include "tests/cli_helpers.h"

using namespace fanorona;

namespace {

const std::string kData = FANORONA_DATA_DIR;
const std::string kTunedWeights = kData + "/weights/tuned.txt";
const std::string kTunedParams = kData + "/params/tuned.txt";
const std::string kHandsetWeights = kData + "/weights/handset.txt";
const std::string kNet = FANORONA_DEFAULT_NET_FILE; // core/CMakeLists.txt

// The search parameters a parameters file sets over the core's values.
SearchParams params_of_file(const std::string& path) {
    SearchParams p;
    for (const ParamsLine& line : read_params_file(path))
        REQUIRE(p.set(line.name, std::stoi(line.value)));
    return p;
}

bool same_values(const SearchParams& a, const SearchParams& b) {
    const auto la = a.list(), lb = b.list();
    if (la.size() != lb.size()) return false;
    for (std::size_t i = 0; i < la.size(); ++i)
        if (la[i].value != lb[i].value) return false;
    return true;
}

// The output of `fanorona ARGS`, which must succeed.
std::string output_of(const std::string& args) {
    const test_cli::Run r = test_cli::run_cli(args);
    INFO(args << "\n" << r.output);
    REQUIRE(r.status == 0);
    return r.output;
}

// The lines of the engine's `uci` answer that start with `prefix`.
std::string uci_line(const std::string& engine_args, const std::string& prefix) {
    const std::string out = output_of("engine " + engine_args + " <<'EOF'\nuci\nquit\nEOF");
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);)
        if (line.rfind(prefix, 0) == 0) return line;
    return "";
}

// The total node count of `fanorona bench --depth 5 ARGS --json`.
std::uint64_t bench_nodes(const std::string& args) {
    const auto j = nlohmann::json::parse(output_of("bench --depth 5 --json " + args));
    return j.at("nodes").get<std::uint64_t>();
}

} // namespace

TEST_CASE("the built-ins are the data files, and the defaults are the tuned ones", "[builtins]") {
    CHECK(default_builtin("weights") == "tuned");
    CHECK(default_builtin("params") == "tuned");
    REQUIRE(find_builtin("weights", "tuned"));
    CHECK(find_builtin("weights", "tuned")->text == read_text_file(kTunedWeights));
    CHECK(find_builtin("weights", "handset")->text == read_text_file(kHandsetWeights));
    CHECK(find_builtin("params", "tuned")->text == read_text_file(kTunedParams));
    CHECK(find_builtin("weights", "default") == find_builtin("weights", "tuned"));
    CHECK_FALSE(find_builtin("weights", "tuned.txt"));
    CHECK_FALSE(find_builtin("params", "weak"));
    // The hand-set weights are core's own defaults; the tuned ones are not.
    CHECK(load_weights_file("handset") == handset_weights());
    CHECK(load_weights_file("tuned") == load_weights_file(kTunedWeights));
    CHECK_FALSE(load_weights_file("tuned") == handset_weights());
    CHECK(load_weights_file("") == load_weights_file("tuned"));
    CHECK(weights_display_name("default") == "tuned");
    CHECK(weights_display_name("handset") == "handset");
    CHECK(builtin_names("weights") == "handset, tuned (the default)");
    // Every built-in parameters file sets search parameters only, within their ranges.
    for (const BuiltinFile& f : builtin_files()) {
        if (f.kind != "params") continue;
        INFO(f.name);
        for (const ParamsLine& line : read_params_file(std::string(f.name))) {
            SearchParams p;
            CHECK(p.set(line.name, std::stoi(line.value)));
        }
    }
    CHECK(read_params_file("handset").empty());
}

TEST_CASE("a bare spec is the default engine, handset names the hand-set one", "[builtins]") {
    const EngineSpec bare = EngineSpec::parse("name=a");
    CHECK(bare.weights == load_weights_file(kTunedWeights));
    CHECK(same_values(bare.search_params(), params_of_file(kTunedParams)));
    CHECK_FALSE(same_values(bare.search_params(), SearchParams{}));
    CHECK(bare.description() == "a(weights=tuned,params=tuned,net=tsivy,depth=4)");
    CHECK(EngineSpec{}.description() == "fanorona(weights=tuned,params=tuned,net=tsivy)");

    const EngineSpec hand = EngineSpec::parse("name=h,weights=handset,params=handset");
    CHECK(hand.weights == handset_weights());
    CHECK(same_values(hand.search_params(), SearchParams{}));
    CHECK(hand.description() == "h(weights=handset,params=handset,depth=4)");

    // `default` names the defaults (weights chosen by name play without the default network);
    // a name given by value applies over the built-in parameters whatever the order.
    const EngineSpec dflt = EngineSpec::parse("name=d,weights=default,params=default");
    CHECK(dflt.description() == "d(weights=tuned,params=tuned,depth=4)");
    CHECK(EngineSpec::parse("name=d,weights=default,params=default,net=default").description() ==
          "d(weights=tuned,params=tuned,net=tsivy,depth=4)");
    const EngineSpec before = EngineSpec::parse("name=o,LmrBase=80,params=handset");
    const EngineSpec after = EngineSpec::parse("name=o,params=handset,LmrBase=80");
    CHECK(before.search_params().get("LmrBase") == 80);
    CHECK(after.search_params().get("LmrBase") == 80);
    CHECK(before.search_params().get("LmrDiv") == SearchParams{}.get("LmrDiv"));
    CHECK(before.description() == after.description());
    // A parameters file still applies its lines as values given by name.
    const EngineSpec file = EngineSpec::parse("name=f,params=handset,params=" + kTunedParams);
    CHECK(same_values(file.search_params(), params_of_file(kTunedParams)));
    CHECK(file.params_name == "handset");
}

TEST_CASE("the built-in parameters travel in the spec's JSON form", "[builtins]") {
    const EngineSpec hand = EngineSpec::parse("name=h,params=handset,LmrBase=80");
    nlohmann::json j = hand;
    CHECK(j.at("params_name") == "handset");
    const EngineSpec back = j.get<EngineSpec>();
    CHECK(back.description() == hand.description());
    CHECK(same_values(back.search_params(), hand.search_params()));
    for (const char* bad : {"default", "nosuch", "data/params/tuned.txt"}) {
        j["params_name"] = bad;
        CHECK_THROWS_WITH(j.get<EngineSpec>(), Catch::Contains("params_name"));
    }
    j.erase("params_name");
    CHECK_THROWS_WITH(j.get<EngineSpec>(), Catch::Contains("missing \"params_name\""));
}

TEST_CASE("the bare engine tells the protocol it plays the tuned configuration", "[builtins]") {
    const std::string lmr_tuned = "option name LmrBase type spin default " +
                                  std::to_string(params_of_file(kTunedParams).get("LmrBase"));
    const std::string lmr_handset =
        "option name LmrBase type spin default " + std::to_string(SearchParams{}.get("LmrBase"));
    REQUIRE(lmr_tuned != lmr_handset);
    CHECK(uci_line("", "option name Weights ") == "option name Weights type string default tuned");
    CHECK(uci_line("", "option name Params ") == "option name Params type string default tuned");
    CHECK(uci_line("", "option name Net ") == "option name Net type string default tsivy");
    CHECK(uci_line("", "option name LmrBase ").rfind(lmr_tuned, 0) == 0);
    const std::string hand = "--weights handset --params handset";
    CHECK(uci_line(hand, "option name Weights ") ==
          "option name Weights type string default handset");
    CHECK(uci_line(hand, "option name Params ") ==
          "option name Params type string default handset");
    CHECK(uci_line(hand, "option name LmrBase ").rfind(lmr_handset, 0) == 0);
    CHECK(uci_line(hand, "option name Net ") == "option name Net type string default none");
}

TEST_CASE("bare eval and bench use the default configuration", "[builtins]") {
    const std::string fen = "--fen 'BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w'";
    const std::string bare = output_of("eval --json " + fen);
    CHECK(bare == output_of("eval --json " + fen + " --weights tuned --net tsivy"));
    const std::string tuned = output_of("eval --json " + fen + " --weights " + kTunedWeights);
    CHECK(tuned == output_of("eval --json " + fen + " --weights tuned"));
    CHECK(tuned == output_of("eval --json " + fen + " --net none"));
    CHECK(tuned != bare);
    const std::string hand = output_of("eval --json " + fen + " --weights handset");
    CHECK(hand == output_of("eval --json " + fen + " --weights " + kHandsetWeights));
    CHECK(hand != tuned);

    const std::uint64_t nodes = bench_nodes("");
    CHECK(nodes == bench_nodes("--weights " + kTunedWeights + " --params " + kTunedParams +
                               " --net " + kNet));
    CHECK(nodes == bench_nodes("--weights tuned --params tuned --net tsivy"));
    const std::uint64_t linear = bench_nodes("--weights tuned --params tuned");
    CHECK(linear == bench_nodes("--net none"));
    CHECK(linear != nodes);
    const std::uint64_t hand_nodes = bench_nodes("--weights handset --params handset");
    CHECK(hand_nodes == bench_nodes("--weights " + kHandsetWeights + " --params handset"));
    // The hand-set weights alone keep the default (tuned) search parameters.
    CHECK(bench_nodes("--weights handset") != hand_nodes);
    CHECK(hand_nodes != nodes);
}

TEST_CASE("a bare --player is the default engine, weights=handset,params=handset the hand-set one",
          "[builtins]") {
    // Games between the same engines spelled two ways are the same games.
    const std::string dir = test_cli::fresh_dir("builtins_player");
    auto games = [&](const std::string& name, const std::string& a, const std::string& b) {
        output_of("tournament --games 4 --openings random:4 --seed 3 --threads 1 --quiet --out " +
                  dir + "/" + name + " --player " + a + " --player " + b);
        std::istringstream in(test_cli::slurp_run_file(dir + "/" + name + "/games.tsv"));
        std::string text, line;
        while (std::getline(in, line))
            if (!line.empty() && line[0] != '#') // the moves and results, not the descriptions
                text +=
                    line.substr(line.find('\t', line.find('\t', line.find('\t') + 1) + 1)) + "\n";
        return std::make_pair(text, read_text_file(dir + "/" + name + "/games.tsv"));
    };
    const auto named =
        games("named", "name=a,depth=2", "name=b,weights=handset,params=handset,depth=2");
    const auto files = games("files",
                             "name=a,weights=" + kTunedWeights + ",params=" + kTunedParams +
                                 ",net=" + kNet + ",depth=2",
                             "name=b,weights=" + kHandsetWeights + ",params=handset,depth=2");
    CHECK(named.first == files.first);
    CHECK(named.second.find("a(weights=tuned,params=tuned,net=tsivy,depth=2)") !=
          std::string::npos);
    CHECK(named.second.find("b(weights=handset,params=handset,depth=2)") != std::string::npos);
    // ... and the hand-set engine on both sides plays other games.
    const auto hand = games("hand", "name=a,weights=handset,params=handset,depth=2",
                            "name=b,weights=handset,params=handset,depth=2");
    CHECK(hand.first != named.first);
}
