// `fanorona net loss` (tuner/net/loss.h): the loss of written networks on data, the same target
// as training, of the integer networks the engine plays; the command's table, JSON and errors.

#include <catch2/catch.hpp>

#include <cmath>

#include <nlohmann/json.hpp>

#include "core/nnue/network.h"
#include "selfplay/formats/net_file.h"
#include "tests/cli_helpers.h"
#include "tuner/net/loss.h"
#include "tuner/texel/loss.h"
#include "tuner/texel/synthetic.h"

using namespace fanorona;

namespace {

std::string temp_path(const std::string& name) {
    return test_cli::temp_file("net_loss", name);
}

// A random network of `variant` written to `path`.
void write_random_net(const std::string& path, Variant variant, std::uint64_t seed) {
    nnue::Architecture a;
    a.variant = variant;
    a.hidden = 32;
    a.buckets = 2;
    NetFile f;
    f.net = nnue::quantise(nnue::random_float_network(a, seed));
    write_net_file(path, f);
}

} // namespace

TEST_CASE("net loss is the mean squared error of the integer network against the target",
          "[train][net-loss]") {
    Rules rules;
    rules.variant = Variant::Tsivy;
    const auto games = labelled_playout_games(rules, 6, 11);
    const std::string log = temp_path("data.bin"), a = temp_path("a.net"), b = temp_path("b.net");
    write_position_log(log, {Variant::Tsivy, RuleSet::Standard}, games);
    write_random_net(a, Variant::Tsivy, 1);
    write_random_net(b, Variant::Tsivy, 2);

    NetLossConfig config;
    config.nets = {a, b};
    config.data = {log};
    config.lambda = 0.3;
    config.k = 0.004;
    config.filter.skip_decisive = false;
    const NetLossReport r = measure_net_loss(config);

    // The same sums, by hand, over every record.
    const NetFile na = read_net_file(a), nb = read_net_file(b);
    double sum_a = 0, result_b = 0, labels = 0;
    std::uint64_t count = 0;
    for (const auto& game : games)
        for (const PositionRecord& rec : game) {
            const Position pos = rec.position(Variant::Tsivy);
            const double result = result_for_side(rec), label = sigmoid(0.004 * rec.score);
            const double pa = sigmoid(0.004 * nnue::evaluate(na.net, pos));
            const double pb = sigmoid(0.004 * nnue::evaluate(nb.net, pos));
            sum_a += std::pow(pa - (0.3 * label + 0.7 * result), 2);
            result_b += std::pow(pb - result, 2);
            labels += std::pow(label - result, 2);
            ++count;
        }
    REQUIRE(r.positions == count);
    CHECK(r.games == games.size());
    CHECK_FALSE(r.k_fitted);
    REQUIRE(r.rows.size() == 2);
    CHECK(r.rows[0].net == a);
    CHECK(r.rows[0].fingerprint == net_fingerprint(na.net));
    CHECK(r.rows[0].loss == Approx(sum_a / double(count)).epsilon(1e-12));
    CHECK(r.rows[1].result_loss == Approx(result_b / double(count)).epsilon(1e-12));
    CHECK(r.label_result_loss == Approx(labels / double(count)).epsilon(1e-12));
    // Two different networks measure differently; K fitted when not given.
    CHECK(r.rows[0].loss != r.rows[1].loss);
    config.k.reset();
    const NetLossReport fitted = measure_net_loss(config);
    CHECK(fitted.k_fitted);
    CHECK(fitted.k > 0);
}

TEST_CASE("fanorona net loss prints a row per network, writes JSON and refuses bad input",
          "[train][net-loss][cli]") {
    using namespace test_cli;
    Rules rules;
    rules.variant = Variant::Tsivy;
    const std::string log = temp_path("cli.bin"), a = temp_path("cli_a.net");
    const std::string dimy = temp_path("cli_dimy.net"), json = temp_path("cli.json");
    write_position_log(log, {Variant::Tsivy, RuleSet::Standard},
                       labelled_playout_games(rules, 6, 12));
    write_random_net(a, Variant::Tsivy, 3);
    write_random_net(dimy, Variant::Dimy, 3);

    const Run r = run_cli("net loss " + log + " --net " + a + " --net tsivy --lambda 0 --k 0.004 " +
                          "--json-out " + json);
    INFO(r.output);
    REQUIRE(r.status == 0);
    CHECK_THAT(r.output, Catch::Contains("K = 0.004 (given); target = 0 * sigmoid(K * score) + 1 "
                                         "* result"));
    const auto j = nlohmann::json::parse(slurp(json));
    CHECK(j["format"] == "fanorona-net-loss 1");
    REQUIRE(j["networks"].size() == 2);
    CHECK(j["networks"][1]["net"] == "tsivy");
    // With lambda 0 the target is the result: the two columns agree.
    for (const auto& row : j["networks"])
        CHECK(row["loss"].get<double>() == Approx(row["result_loss"].get<double>()));
    // On self-play games held out from its training (the repository's corpus chunk 004), the
    // default network predicts the results far better than a random one.
    const std::string chunk =
        FANORONA_TEST_DATA "/../../data/corpus/tsivy-gen4-n20000-s7-004.fcorpus";
    const Run held_out = run_cli("net loss " + chunk + " --net " + a + " --net tsivy --lambda 0 " +
                                 "--k 0.0033 --json-out " + json);
    INFO(held_out.output);
    REQUIRE(held_out.status == 0);
    const auto h = nlohmann::json::parse(slurp(json));
    CHECK(h["networks"][1]["loss"].get<double>() < 0.8 * h["networks"][0]["loss"].get<double>());

    const Run other = run_cli("net loss " + log + " --net " + dimy);
    CHECK(other.status == 1);
    CHECK(other.output == "fanorona: " + dimy + ": the network plays dimy, the data is tsivy\n");
    const Run same = run_cli("net loss " + log + " --net " + a + " --json-out " + log);
    CHECK(same.status == 1);
    CHECK_THAT(same.output, Catch::Contains("the same file as the input data"));
    CHECK(run_cli("net loss " + log).status != 0); // no --net
}
