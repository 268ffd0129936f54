// An int8 second layer (Architecture::layer2_int8): its kernel against the scalar loops, the
// integer evaluation against the float reference, the architecture's text and checks, the file
// field, the trainer's rounding (quantisation-aware training) and the command line.

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "core/board/movegen.h"
#include "core/common/rng.h"
#include "core/nnue/network.h"
#include "core/nnue/simd.h"
#include "selfplay/formats/net_file.h"
#include "tests/cli_helpers.h"
#include "tuner/net/model.h"
#include "tuner/texel/synthetic.h"

using namespace fanorona;
using namespace fanorona::nnue;

namespace {

Architecture int8_arch(int layer2 = 16) {
    Architecture a;
    a.layer2 = layer2;
    a.layer2_int8 = true;
    return a;
}

// Positions of random games from the 5x9 start.
std::vector<Position> random_positions(int games) {
    Rules rules;
    std::vector<Position> out;
    MoveList moves;
    for (int g = 0; g < games; ++g) {
        Rng rng(std::uint64_t(g) + 1);
        Position pos = Position::start(rules.variant);
        for (int ply = 0; ply < 200 && !wiped_out(pos); ++ply) {
            out.push_back(pos);
            generate_moves(pos, rules, moves);
            if (moves.count == 0) break;
            pos.make_move(moves[int(rng.below(std::uint64_t(moves.count)))]);
        }
    }
    return out;
}

} // namespace

TEST_CASE("int8 layer: the kernel gives the scalar loops' numbers", "[nnue][int8]") {
    INFO("path " << simd_path());
    Rng rng(9);
    for (const int n : {16, 48, 128, 512})
        for (const int rows : {1, 3, 4, 5, 16, kMaxLayer2}) {
            const auto size = std::size_t(n), count = std::size_t(rows);
            std::vector<std::int16_t> own(size), other(size), wide(size * 2 * count);
            std::vector<std::int8_t> w(wide.size());
            std::vector<std::int32_t> fast(count), slow(count), widened(count);
            for (int trial = 0; trial < 10; ++trial) {
                for (auto* v : {&own, &other})
                    for (auto& x : *v) x = std::int16_t(int(rng.below(65536)) - 32768);
                for (std::size_t k = 0; k < w.size(); ++k) {
                    const int x = int(rng.below(2 * kLayer2Int8MaxW2q + 1)) - kLayer2Int8MaxW2q;
                    w[k] = std::int8_t(x);
                    wide[k] = std::int16_t(x);
                }
                crelu_rows_int8(fast.data(), own.data(), other.data(), w.data(), rows, n, kQA);
                scalar::crelu_rows_int8(slow.data(), own.data(), other.data(), w.data(), rows, n,
                                        kQA);
                scalar::crelu_rows(widened.data(), own.data(), other.data(), wide.data(), rows, n,
                                   kQA);
                CHECK(fast == slow);
                CHECK(slow == widened);
            }
            // Every product at its extreme: the int16 pairs do not saturate, the lanes do not
            // overflow.
            for (const int sign : {-1, 1}) {
                std::fill(own.begin(), own.end(), std::int16_t(32767));
                std::fill(other.begin(), other.end(), std::int16_t(300));
                std::fill(w.begin(), w.end(), std::int8_t(sign * kLayer2Int8MaxW2q));
                crelu_rows_int8(fast.data(), own.data(), other.data(), w.data(), rows, n, kQA);
                for (const std::int32_t v : fast)
                    CHECK(v == 2 * n * kQA * sign * kLayer2Int8MaxW2q);
            }
        }
}

TEST_CASE("int8 layer: the architecture names it and the network keeps its copy in step",
          "[nnue][int8]") {
    Architecture a = int8_arch();
    CHECK_THAT(architecture_text(a), Catch::EndsWith(" layer2=16 int8"));
    Architecture wide = a;
    wide.layer2_int8 = false;
    CHECK(architecture_hash(a) != architecture_hash(wide));
    CHECK(w2_scale(a) == kQL2Int8);
    CHECK(max_w2q(a) == kLayer2Int8MaxW2q);
    Architecture bare;
    bare.layer2_int8 = true;
    CHECK_THAT(architecture_problem(bare), Catch::Contains("need a second layer"));

    Network q = quantise(random_float_network(a, 4));
    REQUIRE(network_problem(q).empty());
    REQUIRE(q.w2.int8().size() == q.w2.size());
    for (std::size_t k = 0; k < q.w2.size(); ++k) CHECK(int(q.w2.int8()[k]) == int(q.w2[k]));
    q.w2.set(0, std::int16_t(q.w2[0] == 1 ? 2 : 1)); // the copy follows
    CHECK(int(q.w2.int8()[0]) == int(q.w2[0]));
    CHECK(network_problem(q).empty());
    q.w2.set(0, kLayer2Int8MaxW2q + 1);
    CHECK_THAT(network_problem(q), Catch::Contains("outside +-64"));
    q.w2.set(0, std::int16_t(300)); // saturated in the copy
    CHECK(int(q.w2.int8()[0]) == 127);
    CHECK(quantise(random_float_network(wide, 4)).w2.int8().empty());
    Network stale = quantise(random_float_network(a, 4));
    stale.arch.layer2_int8 = false; // the architecture no longer matches the copy
    CHECK_THAT(network_problem(stale), Catch::Contains("8-bit copy"));
}

TEST_CASE("int8 layer: the integer evaluation agrees with the float reference", "[nnue][int8]") {
    const Architecture arch = int8_arch(GENERATE(1, 5, 16));
    const FloatNetwork f = random_float_network(arch, 22);
    const Network q = quantise(f);
    REQUIRE(network_problem(q).empty());
    CHECK(quantise(dequantise(q)) == q);
    // The second layer's weights are held at 1/32 within +-2.
    for (const std::int16_t w : q.w2) CHECK(std::abs(int(w)) <= kLayer2Int8MaxW2q);
    double worst = 0;
    for (const Position& pos : random_positions(10)) {
        const int integer = evaluate(q, pos);
        const int pieces = popcount(pos.player() | pos.opponent());
        const int b = output_bucket(pieces, arch.buckets, start_pieces(arch.variant));
        double w3_abs = 0;
        for (int i = 0; i < arch.layer2; ++i)
            w3_abs += std::abs(q.w3[std::size_t(b * arch.layer2 + i)]) / double(kQB);
        // The dequantised formula differs by the rounding of each unit to 1/QA and the final
        // truncation.
        const double deq = evaluate_float(q, pos);
        REQUIRE(std::abs(integer - deq) <= arch.scale * w3_abs * 0.5 / kQA + 1 + 1e-9);
        worst = std::max(worst, std::abs(integer - deq));
    }
    INFO("largest |integer - dequantised| " << worst);
    CHECK(worst > 0); // the bound is exercised: the two evaluations differ somewhere
}

TEST_CASE("int8 layer: the net file keeps the field and refuses another value", "[nnue][int8]") {
    const std::string dir = test_cli::fresh_dir("int8_file");
    std::filesystem::create_directories(dir);
    NetFile file;
    file.net = quantise(random_float_network(int8_arch(8), 5));
    file.provenance.command = "test";
    const std::string path = dir + "/a.net";
    write_net_file(path, file);
    const std::string text = test_cli::slurp(path);
    CHECK_THAT(text, Catch::Contains("\nlayer2 8\nlayer2_weights int8\n"));
    const NetFile read = read_net_file(path);
    CHECK(read.net == file.net); // the 8-bit copy too
    std::string damaged = text;
    damaged.replace(damaged.find("layer2_weights int8"), 19, "layer2_weights int4");
    const std::string bad = dir + "/bad.net";
    std::ofstream(bad, std::ios::binary) << damaged;
    CHECK_THROWS_WITH(read_net_file(bad), Catch::Contains("bad.net") &&
                                              Catch::Contains("layer2_weights") &&
                                              Catch::Contains("'int4' is not int8"));
}

TEST_CASE("int8 layer: the trainer's passes see the weights the integer network will hold",
          "[train][int8]") {
    const Architecture arch = int8_arch(4);
    FloatNetwork model = random_start_network(arch, 6);
    const ParamLayout l = model.layout();
    model.params[l.w2] = 3.0; // beyond +-2: clipped
    model.params[l.w2 + 1] = 0.51 / kQL2Int8;
    clip_network(model, net_weight_clip(arch));
    CHECK(model.params[l.w2] == Approx(2.0));
    FloatNetwork forward;
    rounded_for_training(model, forward);
    const FloatNetwork held = dequantise(quantise(model));
    for (std::size_t k = l.w2; k < l.b2; ++k) CHECK(forward.params[k] == held.params[k]);
    CHECK(forward.params[l.w2 + 1] == Approx(1.0 / kQL2Int8));
    // The other parameters stay as they are (the steps go to them).
    for (std::size_t k = 0; k < l.w2; ++k) CHECK(forward.params[k] == model.params[k]);
    // A 16-bit second layer is not rounded.
    Architecture wide = arch;
    wide.layer2_int8 = false;
    const FloatNetwork wide_model = random_start_network(wide, 6);
    rounded_for_training(wide_model, forward);
    CHECK(forward.params == wide_model.params);
}

TEST_CASE("fanorona train --layer2-weights int8 writes a network the engine plays",
          "[train][cli][int8]") {
    using namespace test_cli;
    const std::string dir = fresh_dir("int8_train");
    std::filesystem::create_directories(dir);
    const std::string log = dir + "/games.bin";
    Rules rules;
    write_position_log(log, {Variant::Tsivy, RuleSet::Standard},
                       labelled_playout_games(rules, 30, 5));
    const Run r = run_cli("train " + log +
                          " --layer2 4 --layer2-weights int8 --hidden 16 --buckets 2 --batch 512 "
                          "--lr 0.01 --patience 0 --epochs 3 --quiet --out " +
                          dir + "/a.net");
    INFO(r.output);
    REQUIRE(r.status == 0);
    const NetFile f = read_net_file(dir + "/a.net");
    CHECK(f.net.arch.layer2_int8);
    CHECK(f.provenance.validation_loss < 0.25);
    CHECK_THAT(f.provenance.command, Catch::Contains("--layer2 4 --layer2-weights int8"));
    const Run info = run_cli("net info " + dir + "/a.net");
    CHECK_THAT(info.output, Catch::Contains("-> 4 hidden (crelu, int8 weights) -> 1"));
    const Run json = run_cli("net info --json " + dir + "/a.net");
    CHECK_THAT(json.output, Catch::Contains("\"layer2_weights\": \"int8\""));
    const Run search = run_cli("analyze --net " + dir + "/a.net --nodes 3000");
    INFO(search.output);
    CHECK(search.status == 0);
    // A 16-bit network starts an int8 training (fine-tuning with the rounding); without a second
    // layer int8 weights are refused.
    REQUIRE(run_cli("train " + log +
                    " --layer2 4 --hidden 16 --buckets 2 --epochs 1 --quiet --out " + dir +
                    "/wide.net")
                .status == 0);
    const Run from_wide =
        run_cli("train " + log + " --init " + dir +
                "/wide.net --layer2-weights int8 --epochs 1 --quiet --out " + dir + "/b.net");
    INFO(from_wide.output);
    CHECK(from_wide.status == 0);
    CHECK(read_net_file(dir + "/b.net").net.arch.layer2_int8);
    const Run bare = run_cli("train " + log + " --layer2-weights int8 --epochs 1 --quiet --out " +
                             dir + "/c.net");
    CHECK(bare.status != 0);
    CHECK_THAT(bare.output, Catch::Contains("need a second layer"));
    CHECK(!std::filesystem::exists(dir + "/c.net"));
}
