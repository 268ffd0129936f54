// The default network (issue 34, item 6): the shipped 5x9 network is compiled in (built-in name
// `tsivy`) and plays with no options on its board; weights chosen explicitly play without it
// unless a network is chosen too; `none` selects no network; built-in names work wherever a
// network file does; the default travels in the spec's JSON form.

#include <ctime>
#include <filesystem>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "core/builtins.h"
#include "core/common/files.h"
#include "core/search.h"
#include "core/weights.h"
#include "selfplay/engine/engine_spec.h"
#include "selfplay/engine/engine_spec_json.h"
#include "selfplay/formats/net_file.h"
#include "tests/cli_helpers.h"
#include "tools/loop/loop.h"

using namespace fanorona;

namespace {

const std::string kNetFile = FANORONA_DEFAULT_NET_FILE; // core/CMakeLists.txt

// The output of `fanorona ARGS`, which must succeed.
std::string output_of(const std::string& args) {
    const test_cli::Run r = test_cli::run_cli(args);
    INFO(args << "\n" << r.output);
    REQUIRE(r.status == 0);
    return r.output;
}

// The nodes of a depth-4 search of `variant`'s start position by `spec`'s engine.
std::uint64_t search_nodes(const EngineSpec& spec, Variant variant) {
    Searcher searcher(spec.hash_mb);
    spec.configure(searcher);
    const Game game(Rules{variant}, Position::start(variant));
    SearchLimits limits;
    limits.depth = 4;
    return searcher.search(game, limits).nodes;
}

} // namespace

TEST_CASE("the default network is the shipped file, compiled in and parsed once", "[default_net]") {
    CHECK(default_builtin("net") == "tsivy");
    CHECK(builtin_names("net") == "tsivy (the default)");
    REQUIRE(find_builtin("net", "tsivy"));
    CHECK(find_builtin("net", "tsivy")->text == read_text_file(kNetFile)); // binary, whole
    CHECK(find_builtin("net", "default") == find_builtin("net", "tsivy"));
    CHECK(read_net_file("tsivy").net == read_net_file(kNetFile).net);
    CHECK(load_net_file("tsivy") == load_net_file("default")); // one parse, shared
    CHECK(load_net_file("tsivy").get() != load_net_file(kNetFile).get());
    CHECK(builtin_display_name("net", kNetFile) == "tsivy-points-h128-l16-int8-gen6.net");
    CHECK(builtin_display_name("net", "default") == "tsivy");
    // Every default spec shares the one network.
    CHECK(EngineSpec{}.net.get() == EngineSpec{}.net.get());
    CHECK(EngineSpec{}.net.get() == &load_net_file("tsivy")->net);
}

TEST_CASE("the default spec plays the network on 5x9 and the tuned weights elsewhere",
          "[default_net]") {
    const EngineSpec bare = EngineSpec::parse("name=a");
    REQUIRE(bare.net);
    CHECK(bare.net_path == "tsivy");
    CHECK(bare.weights == load_weights_file("tuned"));
    CHECK(bare.description() == "a(weights=tuned,params=tuned,net=tsivy,depth=4)");
    const EngineSpec linear = EngineSpec::parse("name=a,net=none");
    CHECK_FALSE(linear.net);
    CHECK(linear.description() == "a(weights=tuned,params=tuned,depth=4)");
    // The network changes the search on its board only.
    CHECK(search_nodes(bare, Variant::Tsivy) != search_nodes(linear, Variant::Tsivy));
    CHECK(search_nodes(bare, Variant::Dimy) == search_nodes(linear, Variant::Dimy));
}

TEST_CASE("weights chosen explicitly play without the default network", "[default_net]") {
    const std::string dir = test_cli::fresh_dir("default_net_spec");
    std::filesystem::create_directories(dir);
    const std::string weight_params = dir + "/w.txt", search_params = dir + "/s.txt";
    write_file_atomically(weight_params, "fanorona-params 1\nmaterial_mg 104\n");
    write_file_atomically(search_params, "fanorona-params 1\nLmrBase 80\n");
    for (const std::string& chosen : std::vector<std::string>{
             "weights=tuned", "weights=handset,params=handset", "weights=default",
             "material_mg=104", "vela_weights=tuned", "params=" + weight_params}) {
        INFO(chosen);
        const EngineSpec s = EngineSpec::parse("name=a," + chosen);
        CHECK_FALSE(s.net);
        CHECK(s.net_path.empty());
        CHECK(s.description().find("net=") == std::string::npos);
    }
    // Search parameters are not weights: the network stays.
    for (const std::string& kept :
         std::vector<std::string>{"params=handset", "LmrBase=80", "params=" + search_params}) {
        INFO(kept);
        CHECK(EngineSpec::parse("name=a," + kept).net);
    }
    // A network chosen explicitly stays with explicit weights, in either order.
    const EngineSpec a = EngineSpec::parse("name=a,net=tsivy,weights=handset");
    const EngineSpec b = EngineSpec::parse("name=a,weights=handset,net=default");
    REQUIRE(a.net);
    CHECK(a.net == b.net);
    CHECK(a.weights == handset_weights());
    CHECK(a.description() == "a(weights=handset,params=tuned,net=tsivy,depth=4)");
    CHECK(a.description() == b.description());
    const EngineSpec file = EngineSpec::parse("name=a,material_mg=104,net=" + kNetFile);
    REQUIRE(file.net);
    CHECK(*file.net == *a.net);
    CHECK(file.description() == "a(weights=tuned,params=tuned,net=tsivy-points-h128-l16-int8-gen6."
                                "net,material_mg=104,depth=4)");
    // net=none stays none whatever comes after.
    CHECK_FALSE(EngineSpec::parse("name=a,net=none,weights=tuned").net);
    CHECK_FALSE(EngineSpec::parse("name=a,weights=tuned,net=none").net);
}

TEST_CASE("the default network travels in the spec's JSON form", "[default_net]") {
    const EngineSpec bare = EngineSpec::parse("name=a,depth=3");
    nlohmann::json j = bare;
    CHECK(j.at("net") == "tsivy");
    CHECK(j.at("net_chosen") == false);
    EngineSpec back = j.get<EngineSpec>();
    REQUIRE(back.net);
    CHECK(*back.net == *bare.net);
    CHECK(back.description() == bare.description());
    CHECK(search_nodes(back, Variant::Tsivy) == search_nodes(bare, Variant::Tsivy));
    // The default stays a default: weights set after the round trip drop it, as before it.
    back.set("weights", "handset");
    CHECK_FALSE(back.net);
    // An explicit choice stays explicit, a network or none.
    EngineSpec chosen = nlohmann::json(EngineSpec::parse("name=a,net=tsivy")).get<EngineSpec>();
    chosen.set("weights", "handset");
    CHECK(chosen.net);
    const EngineSpec none =
        nlohmann::json(EngineSpec::parse("name=a,weights=tuned")).get<EngineSpec>();
    CHECK_FALSE(none.net);
    CHECK(none.description() == "a(weights=tuned,params=tuned,depth=4)");
    // A spec written before networks (no "net") plays none; one written before the default
    // network (no "net_chosen") keeps its network when weights are set later.
    j.erase("net_chosen");
    EngineSpec old = j.get<EngineSpec>();
    old.set("weights", "handset");
    CHECK(old.net);
    j.erase("net");
    CHECK_FALSE(j.get<EngineSpec>().net);
}

TEST_CASE("built-in network names work in net info, eval, bench and setoption Net",
          "[default_net]") {
    const auto info = nlohmann::json::parse(output_of("net info tsivy --json"));
    const auto file = nlohmann::json::parse(output_of("net info " + kNetFile + " --json"));
    CHECK(info.at("checksum") == file.at("checksum"));
    CHECK(info.at("variant") == "tsivy");

    // eval: the default network unless weights are chosen; --net none: the linear evaluation.
    const std::string fen = " --json --fen '9/4B4/9/3W1W3/9 w'";
    const auto bare = nlohmann::json::parse(output_of("eval" + fen));
    CHECK(bare.at("evaluation") == "network");
    CHECK(bare.at("net").at("file") == "tsivy");
    CHECK(output_of("eval --net tsivy" + fen) == output_of("eval" + fen));
    CHECK(nlohmann::json::parse(output_of("eval --net none" + fen)).at("evaluation") == "linear");
    CHECK(nlohmann::json::parse(output_of("eval --weights tuned" + fen)).at("evaluation") ==
          "linear");
    CHECK(nlohmann::json::parse(output_of("eval --variant dimy --json")).at("evaluation") ==
          "linear");

    // bench: the default is the network; --net none and --weights tuned the linear engine.
    auto nodes = [](const std::string& args) {
        return nlohmann::json::parse(output_of("bench --depth 4 --json " + args))
            .at("nodes")
            .get<std::uint64_t>();
    };
    const std::uint64_t dflt = nodes(""), linear = nodes("--net none");
    CHECK(dflt == nodes("--net tsivy"));
    CHECK(dflt == nodes("--weights tuned --net " + kNetFile));
    CHECK(linear == nodes("--weights tuned"));
    CHECK(linear != dflt);

    // The protocol: Net shows the default, takes a name or none, and Weights alone drops it.
    const std::string out = output_of("engine <<'EOF'\nuci\nsetoption name Net value none\n"
                                      "setoption name Net value tsivy\n"
                                      "setoption name Net value nosuch\nquit\nEOF");
    CHECK(out.find("option name Net type string default tsivy") != std::string::npos);
    CHECK(out.find("error: net=nosuch") != std::string::npos);
    CHECK(out.find("error: net=tsivy") == std::string::npos);
    CHECK(out.find("error: net=none") == std::string::npos);
    const std::string hand = output_of("engine --weights handset --params handset <<'EOF'\nuci\n"
                                       "quit\nEOF");
    // setoption name Weights plays those weights without the default network (as --net none);
    // Net given too keeps the network, in either order.
    // (no quit: at the end of its input the engine finishes the search)
    auto nodes_of = [](const std::string& engine_args, const std::string& options) {
        const std::string out = output_of("engine " + engine_args + " <<'EOF'\n" + options +
                                          "position startpos\ngo depth 4\nEOF");
        const auto at = out.rfind(" nodes ");
        REQUIRE(at != std::string::npos);
        return std::stoull(out.substr(at + 7));
    };
    const auto net_nodes = nodes_of("", ""), linear_nodes = nodes_of("--net none", "");
    CHECK(net_nodes != linear_nodes);
    CHECK(nodes_of("", "setoption name Weights value tuned\n") == linear_nodes);
    CHECK(nodes_of("", "setoption name Net value none\n") == linear_nodes);
    CHECK(nodes_of("", "setoption name Weights value tuned\nsetoption name Net value tsivy\n") ==
          net_nodes);
    CHECK(nodes_of("", "setoption name Net value tsivy\nsetoption name Weights value tuned\n") ==
          net_nodes);
    CHECK(nodes_of("--net none", "setoption name Net value default\n") == net_nodes);
    CHECK(hand.find("option name Net type string default none") != std::string::npos);
}

TEST_CASE("a run of the default engine resumes with it and refuses the linear one",
          "[default_net]") {
    const std::string dir = test_cli::fresh_dir("default_net_resume");
    const std::string run =
        "selfplay --depth 1 --quiet --threads 1 --no-positions --out " + dir + " --games ";
    output_of(run + "2");
    const test_cli::Run other = test_cli::run_cli(run + "4 --resume --net none");
    CHECK(other.status != 0);
    CHECK_THAT(other.output, Catch::Contains("net=tsivy") && Catch::Contains("--net"));
    output_of(run + "4 --resume --net tsivy"); // the default spelled out is the same engine
    CHECK_THAT(read_text_file(dir + "/games.tsv"),
               Catch::Contains("fanorona(weights=tuned,params=tuned,net=tsivy,depth=1)"));
}

TEST_CASE("the weights loop plays without the default network, loop --net starts from it",
          "[default_net]") {
    LoopConfig c;
    CHECK(c.engine.net); // the default spec
    CHECK_FALSE(loop_engine(c).net);
    c.net = true;
    REQUIRE(loop_engine(c).net);
    CHECK(loop_engine(c).net == c.engine.net);
    c.rules.variant = Variant::Dimy; // no default network for this board: a random start
    CHECK_FALSE(loop_engine(c).net);
    c.rules.variant = Variant::Tsivy;
    c.engine.set("weights", "tuned"); // weights chosen: a random start
    CHECK_FALSE(loop_engine(c).net);
    // A network chosen explicitly is the loop's, whatever the weights.
    c.engine.set("net", "tsivy");
    CHECK(loop_engine(c).net);
}

// Issue 55: the default network is made from the repository alone. Its header's command, run
// from the repository's top (with the file's creation time as SOURCE_DATE_EPOCH), writes the same
// bytes: the corpus files and the start network it names are in the repository.
TEST_CASE("the default network's own command rebuilds it byte for byte from the repository",
          "[default_net][slow]") {
    const NetFile shipped = read_net_file(kNetFile);
    const std::filesystem::path top =
        std::filesystem::path(kNetFile).parent_path().parent_path().parent_path();
    REQUIRE(shipped.provenance.command.rfind("fanorona train ", 0) == 0);
    for (const std::string& data : shipped.provenance.data_files) {
        INFO(data);
        CHECK(std::filesystem::path(data).is_relative());
        CHECK(std::filesystem::is_regular_file(top / data));
    }
    // Its creation time as seconds since 1970 (UTC): the rebuild writes the same header.
    std::tm created{};
    REQUIRE(strptime(shipped.provenance.created.c_str(), "%Y-%m-%dT%H:%M:%SZ", &created));
    const std::string epoch = std::to_string(timegm(&created));
    const std::string out = test_cli::temp_file("default_net", "rebuilt.net");
    const test_cli::Run r = test_cli::run_shell(
        "cd '" + top.string() + "' && SOURCE_DATE_EPOCH=" + epoch + " " FANORONA_BINARY " " +
        shipped.provenance.command.substr(std::string("fanorona ").size()) +
        " --threads 2 --quiet --out " + out);
    INFO(r.output);
    REQUIRE(r.status == 0);
    CHECK(read_net_file(out).net == shipped.net);
    CHECK(test_cli::slurp(out) == read_text_file(kNetFile));
}
