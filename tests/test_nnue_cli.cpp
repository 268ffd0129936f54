// Tests of the network through the program and the search: `net random` and `net info`, `eval
// --net`, `bench --net`, --net on the searching commands, `setoption name Net`, net=FILE in a
// tournament player, and the search's fallback to the linear weights on other boards.

#include <filesystem>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "cli_helpers.h"
#include "core/bench.h"
#include "core/search.h"
#include "selfplay/formats/net_file.h"

using namespace fanorona;
using test_cli::run_cli;
using test_cli::run_shell;

namespace {

std::string make_net(const std::string& dir, const std::string& args) {
    std::filesystem::create_directories(dir);
    const std::string path = dir + "/n.net";
    const auto r = run_cli("net random --out " + path + " " + args);
    INFO(r.output);
    REQUIRE(r.status == 0);
    return path;
}

} // namespace

TEST_CASE("net random writes a network that net info shows", "[nnue][cli]") {
    const std::string net = make_net(test_cli::fresh_dir("nnue_cli_info"), "--seed 7 --hidden 64");
    const auto info = run_cli("net info " + net + " --json");
    REQUIRE(info.status == 0);
    const auto j = nlohmann::json::parse(info.output);
    CHECK(j["hidden"] == 64);
    CHECK(j["buckets"] == 8);
    CHECK(j["variant"] == "tsivy");
    CHECK(j["seed"] == 7);
    CHECK(j["qa"] == 255);
    CHECK(j["qb"] == 64);
    CHECK(j["scale"] == 400);
    CHECK(j["checksum"].get<std::string>().size() == 16);
    // The same seed writes the same parameters.
    const NetFile a = read_net_file(net);
    const std::string again =
        make_net(test_cli::fresh_dir("nnue_cli_info2"), "--seed 7 --hidden 64");
    CHECK(read_net_file(again).net == a.net);
    // A damaged file: one line naming the file and the field, non-zero exit.
    std::string bytes;
    {
        std::ifstream in(net, std::ios::binary);
        bytes.assign(std::istreambuf_iterator<char>(in), {});
    }
    bytes[bytes.size() / 2] = char(bytes[bytes.size() / 2] ^ 0x10);
    {
        std::ofstream out(net, std::ios::binary);
        out << bytes;
    }
    const auto bad = run_cli("net info " + net);
    CHECK(bad.status != 0);
    CHECK(bad.output.find(net + ": net file field 'checksum'") != std::string::npos);
    const auto bad_eval = run_cli("eval --net " + net);
    CHECK(bad_eval.status != 0);
    CHECK(run_cli("net random --out " + net + " --hidden 100").status != 0);
    CHECK(run_cli("net random --out " + net + " --features lines").status != 0);
}

TEST_CASE("train and net random declare the shape options once, with one meaning", "[nnue][cli]") {
    // Each of the five options reads the same in both helps, and is refused the same way.
    const auto train = run_cli("train --help"), random = run_cli("net random --help");
    REQUIRE(train.status == 0);
    REQUIRE(random.status == 0);
    const auto help_of = [](const std::string& help, const std::string& option) {
        const std::size_t at = help.find("  " + option + " ");
        REQUIRE(at != std::string::npos);
        const std::size_t next = std::min(help.find("\n  -", at), help.find("\n\n", at));
        return help.substr(at, next - at);
    };
    for (const char* option : {"--features", "--activation", "--hidden", "--layer2", "--buckets"}) {
        INFO(option);
        CHECK(help_of(train.output, option) == help_of(random.output, option));
    }
    const std::string dir = test_cli::fresh_dir("nnue_cli_shape");
    for (const char* bad : {"--layer2 65", "--features lines", "--activation relu"}) {
        INFO(bad);
        const auto t = run_cli("train x.bin --out " + dir + "/t.net " + bad);
        const auto r = run_cli("net random --out " + dir + "/r.net " + bad);
        CHECK(t.status == 1);
        CHECK(t.output == r.output);
    }
    // The network's command records its shape as train's would.
    const std::string net = make_net(dir, "--seed 2 --layer2 8 --buckets 4");
    CHECK_THAT(read_net_file(net).provenance.command,
               Catch::EndsWith("--features points --hidden 128 --layer2 8 --buckets 4"));
}

TEST_CASE("net random --features points+lines: net info shows it and the engine plays it",
          "[nnue][cli]") {
    const std::string net =
        make_net(test_cli::fresh_dir("nnue_cli_lines"), "--seed 3 --features points+lines");
    const auto info = run_cli("net info " + net + " --json");
    REQUIRE(info.status == 0);
    const auto j = nlohmann::json::parse(info.output);
    CHECK(j["features"] == "points+lines");
    CHECK(j["inputs"] == 90 + 26 * 84);
    CHECK_THAT(j["architecture_text"].get<std::string>(),
               Catch::Contains("features=points+lines inputs=2274"));
    CHECK_THAT(j["command"].get<std::string>(), Catch::Contains("--features points+lines"));
    const auto text = run_cli("net info " + net);
    CHECK_THAT(text.output, Catch::Contains("2274 inputs (points+lines)"));
    const auto bench = run_cli("bench --depth 3 --net " + net);
    INFO(bench.output);
    CHECK(bench.status == 0);
}

TEST_CASE("eval --net shows the network beside the linear evaluation", "[nnue][cli]") {
    const std::string net = make_net(test_cli::fresh_dir("nnue_cli_eval"), "--seed 3");
    const auto r = run_cli("eval --json --net " + net);
    REQUIRE(r.status == 0);
    const auto j = nlohmann::json::parse(r.output);
    CHECK(j["evaluation"] == "network");
    const NetFile f = read_net_file(net);
    const Position start = Position::start(Variant::Tsivy);
    CHECK(j["net"]["score"] == nnue::evaluate(f.net, start));
    CHECK(j["net"]["float"].get<double>() == Approx(nnue::evaluate_float(f.net, start)));
    CHECK(j.contains("score")); // the linear evaluation stays
    const auto dimy = run_cli("eval --json --variant dimy --net " + net);
    REQUIRE(dimy.status == 0);
    const auto d = nlohmann::json::parse(dimy.output);
    CHECK(d["evaluation"] == "linear");
    CHECK(d["net"]["plays"] == false);
    const auto text = run_cli("eval --net " + net);
    CHECK(text.output.find("the search evaluates with the network evaluation") !=
          std::string::npos);
}

TEST_CASE("the search uses the network on its board only", "[nnue][search]") {
    nnue::Architecture tsivy, dimy;
    dimy.variant = Variant::Dimy;
    const auto net =
        std::make_shared<const nnue::Network>(nnue::quantise(nnue::random_float_network(tsivy, 2)));
    const auto dimy_net =
        std::make_shared<const nnue::Network>(nnue::quantise(nnue::random_float_network(dimy, 2)));
    Searcher linear(4), with_net(4), with_dimy_net(4);
    with_net.set_network(net);
    with_dimy_net.set_network(dimy_net);
    const auto a = run_bench(linear, 5), b = run_bench(with_net, 5),
               c = run_bench(with_dimy_net, 5);
    CHECK(a != b); // the tsivy positions are searched with another evaluation
    CHECK(a != c); // the dimy ones
    // On a board the net does not play the search is the linear one, node for node; with the net
    // it is deterministic (the accumulators start over with each search).
    const Game game(Rules{Variant::Dimy}, Position::start(Variant::Dimy));
    SearchLimits limits;
    limits.depth = 6;
    linear.clear();
    with_net.clear();
    CHECK(linear.search(game, limits).nodes == with_net.search(game, limits).nodes);
    with_net.clear();
    const auto first = run_bench(with_net, 5);
    CHECK(first == b);
    with_net.set_network(nullptr);
    CHECK(run_bench(with_net, 5) == a);
}

TEST_CASE("The network reaches the engine through --net, net=FILE and setoption Net",
          "[nnue][cli]") {
    const std::string dir = test_cli::fresh_dir("nnue_cli_engine");
    const std::string net = make_net(dir, "--seed 5");
    const auto plain = run_cli("bench --depth 4 --json");
    const auto netted = run_cli("bench --depth 4 --json --net " + net);
    REQUIRE(plain.status == 0);
    REQUIRE(netted.status == 0);
    CHECK(nlohmann::json::parse(plain.output)["nodes"] !=
          nlohmann::json::parse(netted.output)["nodes"]);
    const auto analyze = run_cli("analyze --depth 3 --net " + net);
    CHECK(analyze.status == 0);
    CHECK(run_cli("analyze --depth 3 --net /no/such.net").output.find("--net: ") !=
          std::string::npos);
    // The protocol: the option is listed, a bad file is refused with the engine going on.
    const auto proto =
        run_shell("printf 'uci\\nsetoption name Net value /no/such.net\\n"
                  "setoption name Net value " +
                  net + "\\nposition startpos\\ngo depth 3\\n' | " + FANORONA_BINARY + " engine");
    CHECK(proto.output.find("option name Net type string") != std::string::npos);
    CHECK(proto.output.find("info string error: net=/no/such.net") != std::string::npos);
    CHECK(proto.output.find("bestmove ") != std::string::npos);
    // A tournament player with net=FILE: its description names the network.
    const auto t = run_cli("tournament --games 2 --quiet --out " + dir +
                           "/t --player name=N,net=" + net + ",depth=2 --player name=L,depth=2");
    INFO(t.output);
    CHECK(t.status == 0);
}

// The networks shipped in data/nets/ (docs/network.md): their checksums verify, they are for the
// 5x9 board, and they value an extra piece in an ending the right way round for both sides.
TEST_CASE("The shipped networks read and value material", "[nnue][cli]") {
    const auto [file, features] =
        GENERATE(std::pair{"tsivy-points-h128-gen2.net", "points"},
                 std::pair{"tsivy-points-h128-gen3.net", "points"},
                 std::pair{"tsivy-points-h128-l16-gen4.net", "points"},
                 std::pair{"tsivy-points-h128-l16-int8-gen5.net", "points"},
                 std::pair{"tsivy-points-h128-l16-int8-gen6.net", "points"},
                 std::pair{"tsivy-points-h128.net", "points"},
                 std::pair{"tsivy-lines-h128.net", "points+lines"});
    const std::string net = std::string(FANORONA_TEST_DATA) + "/../../data/nets/" + file;
    const auto info = run_cli("net info " + net + " --json");
    INFO(info.output);
    REQUIRE(info.status == 0);
    const auto j = nlohmann::json::parse(info.output);
    CHECK(j["variant"] == "tsivy");
    CHECK(j["features"] == features);
    CHECK(j["positions"].get<long long>() > 1000000);
    const auto score = [&](const std::string& fen) {
        const auto r = run_cli("eval --json --net " + net + " --fen '" + fen + "'");
        INFO(r.output);
        REQUIRE(r.status == 0);
        const auto e = nlohmann::json::parse(r.output);
        CHECK(e["evaluation"] == "network");
        return e["net"]["score"].get<int>();
    };
    CHECK(score("9/4B4/9/3W1W3/9 w") > 200);  // White to move, two pieces against one
    CHECK(score("9/3B1B3/9/4W4/9 w") < -200); // White to move, one piece against two
}
