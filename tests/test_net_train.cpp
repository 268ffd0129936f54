// The network trainer (`fanorona train`, tuner/net/train.h): its pass over the float model
// evaluates as core's float reference and its gradient is the derivative of its loss, the file it
// writes plays as the model within the quantisation's tolerance, the checkpoint round-trips and
// refuses damage, and a training run lowers the loss, writes the same bytes at any thread count and
// resumes to the same file as an uninterrupted run.

#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "core/board/movegen.h"
#include "core/evaluate.h"
#include "core/nnue/network.h"
#include "selfplay/formats/net_file.h"
#include "selfplay/formats/train_checkpoint.h"
#include "tests/cli_helpers.h"
#include "tuner/dataset.h"
#include "tuner/net/model.h"
#include "tuner/texel/loss.h"
#include "tuner/texel/synthetic.h"

using namespace fanorona;

namespace {

std::string temp_path(const std::string& name) {
    return test_cli::temp_file("net_train", name);
}

Rules tsivy() {
    Rules r;
    r.variant = Variant::Tsivy;
    return r;
}

std::vector<std::vector<PositionRecord>> labelled_games(int games, std::uint64_t seed) {
    return labelled_playout_games(tsivy(), games, seed);
}

std::vector<Position> sample_positions(int games) {
    std::vector<Position> out;
    for (const auto& game : labelled_games(games, 7))
        for (const PositionRecord& r : game) out.push_back(r.position(Variant::Tsivy));
    return out;
}

// The trainer's evaluation of `pos` (its forward pass, y * scale) in centi-pieces.
double model_evaluate(const nnue::FloatNetwork& model, const Position& pos) {
    NetSample x;
    make_sample(model.arch, pos, x);
    NetScratch s;
    return net_forward(model, x, s) * model.arch.scale;
}

nnue::Architecture small_arch(int hidden = 32, int buckets = 4) {
    nnue::Architecture a;
    a.hidden = hidden;
    a.buckets = buckets;
    return a;
}

// A positions log of 30 labelled games (seed `games_seed`) and a network `train` fitted to it in
// 3 epochs with the architecture options `shape`: TMP/tiny_NAME.bin and TMP/NAME.net.
struct TinyNet {
    std::string log, out;
};
TinyNet train_tiny_net(const std::string& name, std::uint64_t games_seed,
                       const std::string& shape) {
    const TinyNet t{temp_path("tiny_" + name + ".bin"), temp_path(name + ".net")};
    write_position_log(t.log, {Variant::Tsivy, RuleSet::Standard}, labelled_games(30, games_seed));
    const test_cli::Run r = test_cli::run_shell(
        FANORONA_BINARY " train " + t.log + " " + shape +
        " --batch 512 --lr 0.01 --patience 0 --epochs 3 --quiet --out " + t.out);
    INFO(r.output);
    REQUIRE(r.status == 0);
    return t;
}

// The loss curve of a training run: NET.csv's columns, one entry per epoch from epoch 0 (the
// start), after checking its header.
struct LossCurve {
    std::vector<double> train, valid;
};
LossCurve read_loss_curve(const std::string& net) {
    std::ifstream csv(net + ".csv");
    std::string line;
    std::getline(csv, line);
    CHECK(line == "epoch,train_loss,validation_loss,seconds");
    LossCurve curve;
    while (std::getline(csv, line)) {
        std::stringstream s(line);
        std::string epoch, t, v;
        std::getline(s, epoch, ',');
        std::getline(s, t, ',');
        std::getline(s, v, ',');
        curve.train.push_back(std::stod(t));
        curve.valid.push_back(std::stod(v));
    }
    return curve;
}

} // namespace

TEST_CASE("the trainer's pass evaluates as core's float reference", "[train]") {
    // The one float model (core's random network) read by both.
    const nnue::Activation activation = GENERATE(nnue::Activation::CReLU, nnue::Activation::SCReLU);
    for (const auto& [buckets, features] : {std::pair{1, nnue::FeatureSet::Points},
                                            {8, nnue::FeatureSet::Points},
                                            {8, nnue::FeatureSet::PointsLines}}) {
        nnue::Architecture arch = small_arch(32, buckets);
        arch.features = features;
        arch.activation = activation;
        const nnue::FloatNetwork net = nnue::random_float_network(arch, 11);
        int checked = 0;
        for (const Position& pos : sample_positions(6)) {
            const double reference = nnue::evaluate_float(net, pos);
            REQUIRE(model_evaluate(net, pos) == Approx(reference).margin(1e-9));
            ++checked;
        }
        CHECK(checked > 100);
    }
}

TEST_CASE("the trainer's pass with a second layer evaluates as core's float reference", "[train]") {
    nnue::Architecture arch = small_arch(32, 4);
    arch.layer2 = GENERATE(1, 8, 12);
    const nnue::FloatNetwork net = nnue::random_float_network(arch, 12);
    // The model's one vector holds the integer network's arrays, in its layouts.
    const nnue::ParamLayout l = net.layout();
    const nnue::Network q = nnue::quantise(net);
    CHECK(l.size == net.params.size());
    CHECK(l.size ==
          q.w1.size() + q.b1.size() + q.w2.size() + q.b2.size() + q.w3.size() + q.b3.size());
    CHECK(l.b2 - l.w2 == std::size_t(arch.layer2) * 64);
    CHECK(l.b3 - l.w3 == std::size_t(arch.layer2) * 4);
    std::set<double> distinct;
    for (const Position& pos : sample_positions(6)) {
        const double reference = nnue::evaluate_float(net, pos);
        REQUIRE(model_evaluate(net, pos) == Approx(reference).margin(1e-9));
        distinct.insert(reference);
    }
    CHECK(distinct.size() > 20); // the second layer's units are not all clamped flat
}

TEST_CASE("the trainer's gradient is the derivative of the model's output", "[train]") {
    // Random parameters with accumulators spread over clamp's slope; finite differences of y
    // against backward() with dy = 1, for parameters of every array.
    nnue::Architecture arch = small_arch(16, 2);
    arch.features = GENERATE(nnue::FeatureSet::Points, nnue::FeatureSet::PointsLines);
    arch.activation = GENERATE(nnue::Activation::CReLU, nnue::Activation::SCReLU);
    const nnue::FloatNetwork model = random_start_network(arch, 5);
    const nnue::ParamLayout l = model.layout();
    for (const Position& pos : sample_positions(2)) {
        NetSample x;
        make_sample(model.arch, pos, x);
        NetScratch s;
        net_forward(model, x, s);
        std::vector<double> grad(l.size, 0.0);
        net_backward(model, x, 1.0, s, grad.data());
        // The last inputs are lines with PointsLines.
        const std::size_t probes[] = {l.w1 + std::size_t(x.own.index[0]) * 16 + 3,
                                      l.w1 + std::size_t(x.other.index[0]) * 16 + 5,
                                      l.w1 + std::size_t(x.own.index[x.own.size - 1]) * 16 + 4,
                                      l.b1 + 7,
                                      l.w2 + std::size_t(x.bucket) * 32 + 2,
                                      l.w2 + std::size_t(x.bucket) * 32 + 16 + 9,
                                      l.b2 + std::size_t(x.bucket)};
        for (std::size_t p : probes) {
            const double h = 1e-6;
            nnue::FloatNetwork plus = model, minus = model;
            plus.params[p] += h;
            minus.params[p] -= h;
            NetScratch sp, sm;
            const double numeric = (net_forward(plus, x, sp) - net_forward(minus, x, sm)) / (2 * h);
            // At a kink of clamp (an accumulator within h of 0 or 1) the two sides differ.
            CHECK(grad[p] == Approx(numeric).margin(1e-5));
        }
    }
}

TEST_CASE("the trainer's gradient with a second layer is the derivative of the output", "[train]") {
    // As above, through the second layer: probes in every array (W1, b1, W2, b2, W3, b3).
    nnue::Architecture arch = small_arch(16, 2);
    arch.layer2 = 4;
    const nnue::FloatNetwork model = random_start_network(arch, 6);
    const nnue::ParamLayout l = model.layout();
    int active_units = 0;
    for (const Position& pos : sample_positions(2)) {
        NetSample x;
        make_sample(model.arch, pos, x);
        NetScratch s;
        net_forward(model, x, s);
        for (int i = 0; i < 4; ++i) active_units += s.z[i] > 0 && s.z[i] < 1;
        std::vector<double> grad(l.size, 0.0);
        net_backward(model, x, 1.0, s, grad.data());
        const std::size_t probes[] = {l.w1 + std::size_t(x.own.index[0]) * 16 + 3,
                                      l.w1 + std::size_t(x.other.index[0]) * 16 + 5,
                                      l.b1 + 7,
                                      l.w2 + 1 * 32 + 2,
                                      l.w2 + 3 * 32 + 16 + 9,
                                      l.b2 + 2,
                                      l.w3 + std::size_t(x.bucket) * 4 + 1,
                                      l.b3 + std::size_t(x.bucket)};
        for (std::size_t p : probes) {
            const double h = 1e-6;
            nnue::FloatNetwork plus = model, minus = model;
            plus.params[p] += h;
            minus.params[p] -= h;
            NetScratch sp, sm;
            const double numeric = (net_forward(plus, x, sp) - net_forward(minus, x, sm)) / (2 * h);
            CHECK(grad[p] == Approx(numeric).margin(1e-5));
        }
    }
    CHECK(active_units > 0); // the checks went through the second layer's slope
}

TEST_CASE("a trained network written and read back plays as the float model", "[train]") {
    // H1's tolerance (tests/test_nnue.cpp): the integer evaluation is the float formula on the
    // dequantised parameters up to the final truncation (< 1 centi-piece), and differs from the
    // float parameters by at most the rounding of the weights, bounded per position.
    nnue::Architecture arch = small_arch();
    arch.features = GENERATE(nnue::FeatureSet::Points, nnue::FeatureSet::PointsLines);
    arch.activation = GENERATE(nnue::Activation::CReLU, nnue::Activation::SCReLU);
    const bool squared = arch.activation == nnue::Activation::SCReLU;
    nnue::FloatNetwork model = random_start_network(arch, 3);
    const nnue::ParamLayout l = model.layout();
    if (squared) // output weights beyond SCReLU's range, which clip_network() brings back
        model.params[l.w2] = 5.0;
    clip_network(model, net_weight_clip(arch));
    if (squared) CHECK(model.params[l.w2] == Approx(double(nnue::kScreluMaxW2q) / nnue::kQB));
    CHECK(net_weight_clip(arch) ==
          (arch.features == nnue::FeatureSet::Points ? kNetWeightClip : 0.996));
    NetFile file;
    file.net = nnue::quantise(model);
    file.provenance.command = "test";
    const std::string path = temp_path("roundtrip.net");
    write_net_file(path, file);
    const NetFile read = read_net_file(path);
    REQUIRE(read.net == file.net);
    double worst = 0;
    for (const Position& pos : sample_positions(6)) {
        const int q = nnue::evaluate(read.net, pos);
        // SCReLU truncates once more (below one output unit, scale / (QA QB)).
        const double steps = squared ? double(arch.scale) / (nnue::kQA * nnue::kQB) : 0.0;
        REQUIRE(std::abs(q - nnue::evaluate_float(read.net, pos)) < 1.0 + steps + 1e-9);
        NetSample x;
        make_sample(model.arch, pos, x);
        const double da = (std::max(x.own.size, x.other.size) + 1) * 0.5 / nnue::kQA;
        double w2_abs = 0;
        const int hidden = arch.hidden;
        for (int k = 0; k < 2 * hidden; ++k)
            w2_abs += std::abs(model.params[l.w2 + std::size_t(x.bucket * 2 * hidden + k)]) +
                      0.5 / nnue::kQB;
        const double bound =
            model.arch.scale * ((squared ? 2 : 1) * da * w2_abs + 2 * hidden * 0.5 / nnue::kQB +
                                0.5 / (nnue::kQA * nnue::kQB)) +
            steps + 1;
        const double f = model_evaluate(model, pos);
        CHECK(std::abs(f - q) <= bound);
        worst = std::max(worst, std::abs(f - q));
    }
    INFO("largest |float - integer| " << worst << " centi-pieces");
    CHECK(worst < 60);
}

TEST_CASE("train checkpoints round-trip and a damaged one names the field", "[train]") {
    TrainCheckpoint c;
    c.settings = "data=a.bin positions=10";
    c.step = 42;
    c.lr = 0.00123456789;
    c.best_epoch = 2;
    c.best_loss = 0.0312345678901;
    c.since_best = 1;
    c.history = {{0, 0.05, 0.051, 0}, {1, 0.04, 0.041, 1.5}, {2, 0.035, 0.0312345678901, 3.25}};
    for (int i = 0; i < 37; ++i) {
        c.params.push_back(std::sin(i) * 1e-3);
        c.mean.push_back(std::cos(i));
        c.square.push_back(i * 1e-9);
        c.best.push_back(-i / 3.0);
    }
    const std::string bytes = format_checkpoint(c);
    CHECK(parse_checkpoint(bytes, "c.ckpt") == c);
    const std::string path = temp_path("c.ckpt");
    write_checkpoint(path, c);
    CHECK(read_checkpoint(path) == c);

    auto error = [](const std::string& b) {
        try {
            parse_checkpoint(b, "c.ckpt");
        } catch (const CheckpointError& e) {
            return std::string(e.what());
        }
        return std::string("(no error)");
    };
    std::string flipped = bytes;
    flipped[bytes.size() - 40] ^= 1; // inside the parameters
    CHECK(error(flipped) == "c.ckpt: checksum: does not match the content");
    CHECK_THAT(error(bytes.substr(0, bytes.size() - 100)), Catch::Contains("c.ckpt: "));
    CHECK_THAT(error("fanorona-weights 2\n"), Catch::Contains("c.ckpt: header:"));
    std::string bad_step = bytes;
    bad_step.replace(bad_step.find("step 42"), 7, "step x2");
    CHECK(error(bad_step) == "c.ckpt: step: 'x2' is not a count");
}

TEST_CASE("skip_captures drops the positions where the side to move can capture", "[train]") {
    const std::string path = temp_path("captures.bin");
    const auto games = labelled_games(10, 3);
    write_position_log(path, {Variant::Tsivy, RuleSet::Standard}, games);
    std::size_t quiet = 0, total = 0;
    for (const auto& g : games)
        for (const PositionRecord& r : g) {
            ++total;
            quiet += capturing_pieces(r.position(Variant::Tsivy)) == 0;
        }
    DataFilter filter;
    filter.skip_decisive = false;
    filter.skip_captures = true;
    const Dataset d = load_dataset({path}, filter);
    CHECK(d.records.size() == quiet);
    CHECK(d.skipped_captures == total - quiet);
    CHECK(quiet > 0);
    CHECK(quiet < total);
    for (const PositionRecord& r : d.records)
        CHECK(capturing_pieces(r.position(Variant::Tsivy)) == 0);
}

TEST_CASE("fanorona train lowers the loss, writes the same file at 1 and 2 threads and resumes "
          "to the same file",
          "[train][cli]") {
    using namespace test_cli;
    const std::string log = temp_path("tiny.bin");
    write_position_log(log, {Variant::Tsivy, RuleSet::Standard}, labelled_games(60, 1));
    const std::string common = "SOURCE_DATE_EPOCH=1700000000 " FANORONA_BINARY " train " + log +
                               " --hidden 16 --buckets 2 --batch 512 --lr 0.01 --patience 0 "
                               "--quiet";
    const std::string a = temp_path("a.net"), b = temp_path("b.net"), c = temp_path("c.net");
    const Run one = run_shell(common + " --epochs 4 --threads 1 --out " + a);
    INFO(one.output);
    REQUIRE(one.status == 0);
    const Run two = run_shell(common + " --epochs 4 --threads 2 --out " + b);
    REQUIRE(two.status == 0);
    CHECK(test_cli::slurp(a) == test_cli::slurp(b));

    // The loss curve: epochs 0..4, each training loss below the start's, the last the lowest.
    const auto [train, valid] = read_loss_curve(a);
    REQUIRE(train.size() == 5);
    CHECK(train[4] < train[0] * 0.9);
    CHECK(valid[4] < valid[0]);

    // Stopped after 2 epochs, then resumed to 4: the same network, byte for byte.
    REQUIRE(run_shell(common + " --epochs 2 --threads 2 --out " + c).status == 0);
    CHECK(test_cli::slurp(c) != test_cli::slurp(a));
    const Run resumed = run_shell(common + " --epochs 4 --threads 1 --resume --out " + c);
    INFO(resumed.output);
    REQUIRE(resumed.status == 0);
    CHECK(test_cli::slurp(c) == test_cli::slurp(a));

    // The provenance says what made it.
    const NetFile f = read_net_file(a);
    CHECK(f.provenance.data_files == std::vector<std::string>{log});
    CHECK(f.provenance.epochs == 4);
    CHECK(f.provenance.seed == 1);
    CHECK(f.provenance.positions > 1000);
    CHECK(f.provenance.games == 60);
    CHECK(f.provenance.validation_loss == Approx(*std::min_element(valid.begin(), valid.end())));
    CHECK_THAT(f.provenance.command, Catch::Contains("--hidden 16 --buckets 2"));
    CHECK(f.provenance.created == "2023-11-14T22:13:20Z");
}

TEST_CASE("fanorona train --features points+lines trains and writes a lines network",
          "[train][cli]") {
    using namespace test_cli;
    const auto [log, out] =
        train_tiny_net("lines", 3, "--features points+lines --hidden 16 --buckets 2");
    const NetFile f = read_net_file(out);
    CHECK(f.net.arch.features == nnue::FeatureSet::PointsLines);
    CHECK(nnue::input_count(f.net.arch) == 90 + 26 * 84);
    CHECK(f.provenance.validation_loss < 0.25);
    CHECK_THAT(f.provenance.command, Catch::Contains("--features points+lines"));
    // Fine-tuning takes the feature set from --init; a different one is refused.
    const Run refused =
        run_shell(FANORONA_BINARY " train " + log + " --init " + out +
                  " --features points --epochs 1 --quiet --out " + temp_path("lines2.net"));
    CHECK(refused.status != 0);
    CHECK(run_shell(FANORONA_BINARY " train " + log + " --features lines --out " +
                    temp_path("lines3.net"))
              .output.find("--features: unknown feature set 'lines'") != std::string::npos);
}

TEST_CASE("fanorona train --activation screlu writes a network the engine plays as trained",
          "[train][cli]") {
    using namespace test_cli;
    const auto [log, out] =
        train_tiny_net("screlu", 4, "--activation screlu --hidden 16 --buckets 2");
    const NetFile f = read_net_file(out);
    CHECK(f.net.arch.activation == nnue::Activation::SCReLU);
    CHECK(f.provenance.validation_loss < 0.25);
    CHECK_THAT(f.provenance.command, Catch::Contains("--activation screlu"));
    for (const std::int16_t w : f.net.w2) CHECK(std::abs(int(w)) <= nnue::kScreluMaxW2q);
    const Run info = run_shell(FANORONA_BINARY " net info " + out);
    CHECK_THAT(info.output, Catch::Contains("2 x 16 hidden (screlu)"));
    CHECK_THAT(info.output, Catch::Contains("activation=screlu"));
    // Fine-tuning takes the activation from --init; another one is refused.
    const Run tuned = run_shell(FANORONA_BINARY " train " + log + " --init " + out +
                                " --epochs 1 --quiet --out " + temp_path("screlu2.net"));
    INFO(tuned.output);
    CHECK(tuned.status == 0);
    CHECK(read_net_file(temp_path("screlu2.net")).net.arch.activation == nnue::Activation::SCReLU);
    const Run refused =
        run_shell(FANORONA_BINARY " train " + log + " --init " + out +
                  " --activation crelu --epochs 1 --quiet --out " + temp_path("screlu3.net"));
    CHECK(refused.status != 0);
    CHECK(run_shell(FANORONA_BINARY " train " + log + " --activation relu --out " +
                    temp_path("screlu4.net"))
              .status != 0);
}

TEST_CASE("fanorona train --layer2 writes a network with a second layer that the engine plays",
          "[train][cli]") {
    using namespace test_cli;
    const auto [log, out] = train_tiny_net("layer2", 5, "--layer2 4 --hidden 16 --buckets 2");
    const NetFile f = read_net_file(out);
    CHECK(f.net.arch.layer2 == 4);
    CHECK(f.provenance.validation_loss < 0.25);
    CHECK_THAT(f.provenance.command, Catch::Contains("--layer2 4"));
    const Run info = run_shell(FANORONA_BINARY " net info " + out);
    CHECK_THAT(info.output, Catch::Contains("2 x 16 hidden (crelu) -> 4 hidden (crelu) -> 1"));
    const Run eval = run_shell(FANORONA_BINARY " eval --net " + out);
    INFO(eval.output);
    CHECK(eval.status == 0);
    CHECK_THAT(eval.output, Catch::Contains("the search evaluates with the network"));
    const Run search = run_shell(FANORONA_BINARY " analyze --net " + out + " --nodes 5000");
    INFO(search.output);
    CHECK(search.status == 0);
    // Fine-tuning takes the second layer from --init; another size is refused, and so is a
    // second layer with SCReLU.
    const Run tuned = run_shell(FANORONA_BINARY " train " + log + " --init " + out +
                                " --epochs 1 --quiet --out " + temp_path("layer2b.net"));
    INFO(tuned.output);
    CHECK(tuned.status == 0);
    CHECK(read_net_file(temp_path("layer2b.net")).net.arch.layer2 == 4);
    CHECK(run_shell(FANORONA_BINARY " train " + log + " --init " + out +
                    " --layer2 8 --epochs 1 --quiet --out " + temp_path("layer2c.net"))
              .status != 0);
    const Run squared = run_shell(FANORONA_BINARY " train " + log +
                                  " --layer2 4 --activation screlu --epochs 1 --quiet --out " +
                                  temp_path("layer2d.net"));
    CHECK(squared.status != 0);
    CHECK_THAT(squared.output, Catch::Contains("crelu"));
}

TEST_CASE("fanorona train refuses bad input with one line", "[train][cli]") {
    using namespace test_cli;
    const std::string log = temp_path("bad.bin");
    write_position_log(log, {Variant::Tsivy, RuleSet::Standard}, labelled_games(8, 2));
    const std::string out = temp_path("bad.net");
    std::filesystem::remove(out + ".ckpt");
    Run r = run_cli("train " + log + " --out " + out + " --resume --hidden 16");
    CHECK(r.status != 0);
    CHECK_THAT(r.output, Catch::Contains(out + ".ckpt: cannot open for reading"));
    r = run_cli("train " + log + " --out " + out + " --hidden 20");
    CHECK(r.status != 0);
    CHECK_THAT(r.output, Catch::Contains("hidden"));
    r = run_cli("train " + temp_path("missing.bin") + " --out " + out);
    CHECK(r.status != 0);
    CHECK_THAT(r.output, Catch::Contains("missing.bin"));
    // A checkpoint of other settings is refused.
    REQUIRE(run_cli("train " + log + " --out " + out + " --hidden 16 --epochs 1 --quiet").status ==
            0);
    r = run_cli("train " + log + " --out " + out + " --hidden 16 --epochs 2 --lr 0.5 --resume");
    CHECK(r.status != 0);
    CHECK_THAT(r.output, Catch::Contains(out + ".ckpt: settings:"));
}

TEST_CASE("fanorona train --resume takes the data by another spelling of the same file, not a "
          "copy",
          "[train][cli][paths]") {
    using namespace test_cli;
    const std::string dir = fresh_dir("train_spelling");
    std::filesystem::create_directories(dir + "/sub");
    write_position_log(dir + "/d.bin", {Variant::Tsivy, RuleSet::Standard}, labelled_games(8, 5));
    const std::string args = " --hidden 16 --batch 512 --quiet --out " + dir + "/n.net";
    // The run names its data relative to its folder; the resumes absolutely and through "..".
    REQUIRE(
        run_shell("cd " + dir + " && " FANORONA_BINARY " train d.bin --epochs 1" + args).status ==
        0);
    const Run absolute = run_cli("train " + dir + "/sub/../d.bin --epochs 2 --resume" + args);
    INFO(absolute.output);
    CHECK(absolute.status == 0);
    const Run dots = run_shell(
        "cd " + dir + "/sub && " FANORONA_BINARY " train ../d.bin --epochs 3 --resume" + args);
    INFO(dots.output);
    CHECK(dots.status == 0);
    // A copy of the data is other data: refused.
    std::filesystem::copy_file(dir + "/d.bin", dir + "/copy.bin");
    const Run copy = run_cli("train " + dir + "/copy.bin --epochs 4 --resume" + args);
    CHECK(copy.status != 0);
    CHECK_THAT(copy.output, Catch::Contains("n.net.ckpt: settings:"));
}

TEST_CASE("fanorona train --init starts from a network's parameters", "[train][cli]") {
    using namespace test_cli;
    const std::string log = temp_path("init.bin");
    write_position_log(log, {Variant::Tsivy, RuleSet::Standard}, labelled_games(60, 3));
    const std::string common = "train " + log + " --batch 512 --lr 0.01 --patience 0 --quiet";
    const std::string a = temp_path("init_a.net"), b = temp_path("init_b.net");
    REQUIRE(run_cli(common + " --hidden 16 --buckets 2 --epochs 3 --out " + a).status == 0);
    // No architecture options: --init's network decides them.
    const Run r = run_cli(common + " --epochs 1 --init " + a + " --out " + b);
    INFO(r.output);
    REQUIRE(r.status == 0);
    const NetFile fa = read_net_file(a), fb = read_net_file(b);
    CHECK(fb.net.arch == fa.net.arch);
    CHECK_THAT(fb.provenance.command, Catch::Contains("--init " + a));
    // Epoch 0 of the second run is the first run's network (up to its quantisation), far below
    // a random start's loss.
    auto epoch0 = [](const std::string& net) { return read_loss_curve(net).valid.at(0); };
    CHECK(epoch0(b) == Approx(fa.provenance.validation_loss).epsilon(0.02));
    CHECK(epoch0(b) < epoch0(a) * 0.9);
    // A fine-tune in which no epoch beats the start (a step size far too large) writes the start
    // network back, as its log and provenance say (best epoch 0), not the last epoch's.
    const std::string c = temp_path("init_c.net");
    const Run worse = run_shell(FANORONA_BINARY " train " + log +
                                " --batch 512 --lr 5 --patience 2 --epochs 4 "
                                "--init " +
                                a + " --out " + c);
    INFO(worse.output);
    REQUIRE(worse.status == 0);
    CHECK_THAT(worse.output, Catch::Contains("best epoch 0"));
    CHECK(net_fingerprint(read_net_file(c).net) == net_fingerprint(fa.net));
    // An architecture other than the network's is refused, naming the file (more hidden units
    // widen it, fewer are refused: the next tests).
    const Run bad = run_cli(common + " --epochs 1 --buckets 4 --init " + a + " --out " + b);
    CHECK(bad.status != 0);
    CHECK_THAT(bad.output, Catch::Contains(a + ": architecture"));
}

TEST_CASE("a network widened to more hidden units evaluates as the narrower one", "[train]") {
    nnue::Architecture narrow_arch = small_arch(16, 2);
    narrow_arch.layer2 = GENERATE(0, 8);
    narrow_arch.layer2_int8 = narrow_arch.layer2 > 0;
    nnue::Architecture wide_arch = narrow_arch;
    wide_arch.hidden = 48;
    // A trained-like narrow network: a random start, quantised and read back as --init reads it.
    const nnue::FloatNetwork narrow =
        nnue::dequantise(nnue::quantise(random_start_network(narrow_arch, 5)));
    const nnue::FloatNetwork random_wide = random_start_network(wide_arch, 6);
    const nnue::FloatNetwork wide = widened_network(narrow, random_wide);
    REQUIRE(wide.arch == wide_arch);
    REQUIRE(wide.params.size() == random_wide.params.size());
    const nnue::Network narrow_q = nnue::quantise(narrow), wide_q = nnue::quantise(wide);
    REQUIRE(nnue::network_problem(wide_q).empty());
    int differ_from_zero = 0;
    for (const Position& pos : sample_positions(4)) {
        // The float model (the trainer's pass) and the integer network alike.
        CHECK(model_evaluate(wide, pos) == Approx(model_evaluate(narrow, pos)).margin(1e-9));
        CHECK(nnue::evaluate(wide_q, pos) == nnue::evaluate(narrow_q, pos));
        differ_from_zero += nnue::evaluate(narrow_q, pos) != 0;
    }
    CHECK(differ_from_zero > 0);
    // The new units are live: their inputs are the random start's, so that training can grow
    // their output weights (the gradient of each is its activation).
    const nnue::ParamLayout l(wide_arch);
    const auto h = std::size_t(wide_arch.hidden);
    for (std::size_t j = 16; j < h; ++j) {
        CHECK(wide.params[l.b1 + j] == random_wide.params[l.b1 + j]);
        CHECK(wide.params[l.w1 + 3 * h + j] == random_wide.params[l.w1 + 3 * h + j]);
        CHECK(wide.params[l.w2 + j] == 0.0);
        CHECK(wide.params[l.w2 + h + j] == 0.0);
    }
}

TEST_CASE("fanorona train --init with a larger --hidden starts as the narrower network and "
          "trains it",
          "[train][cli]") {
    using namespace test_cli;
    const std::string log = temp_path("widen.bin");
    write_position_log(log, {Variant::Tsivy, RuleSet::Standard}, labelled_games(60, 4));
    const std::string common = "train " + log + " --batch 512 --lr 0.01 --patience 0 --quiet";
    const std::string a = temp_path("widen_a.net"), same = temp_path("widen_same.net"),
                      wide = temp_path("widen_wide.net");
    REQUIRE(run_cli(common + " --hidden 16 --layer2 8 --epochs 2 --out " + a).status == 0);
    REQUIRE(run_cli(common + " --epochs 2 --init " + a + " --out " + same).status == 0);
    const Run r = run_cli(common + " --epochs 2 --hidden 32 --init " + a + " --out " + wide);
    INFO(r.output);
    REQUIRE(r.status == 0);
    const NetFile fa = read_net_file(a), fw = read_net_file(wide);
    CHECK(fw.net.arch.hidden == 32);
    CHECK(fw.net.arch.layer2 == fa.net.arch.layer2);
    CHECK_THAT(fw.provenance.command,
               Catch::Contains("--hidden 32") && Catch::Contains("--init " + a));
    // Epoch 0 (the start's validation loss, NET.csv's first row) is the narrow network's.
    const std::vector<double> same_losses = read_loss_curve(same).valid,
                              wide_losses = read_loss_curve(wide).valid;
    REQUIRE(wide_losses.size() == 3);
    CHECK(wide_losses[0] == Approx(same_losses[0]).epsilon(1e-9));
    // Its training moved it: the wide network is not the narrow one padded with zeros.
    CHECK(wide_losses[2] != wide_losses[0]);
    // The same command writes the same bytes (the new units' start is a function of --seed).
    const std::string again = temp_path("widen_again.net");
    REQUIRE(run_cli(common + " --epochs 2 --hidden 32 --init " + a + " --out " + again).status ==
            0);
    CHECK(read_net_file(again).net == fw.net);
    // Fewer hidden units than --init's network are refused, naming it.
    const Run narrower = run_cli(common + " --epochs 1 --hidden 16 --init " + wide + " --out " +
                                 temp_path("widen_narrower.net"));
    CHECK(narrower.status != 0);
    CHECK_THAT(narrower.output, Catch::Contains(wide + ": architecture") &&
                                    Catch::Contains("only --hidden may be larger"));
}
