// The training schedules (tuner/net/lr_schedule.h, `fanorona train --lr-schedule --lr-min
// --lr-warmup
// --lambda-end`): the step size and lambda at chosen epochs and mini-batches against values
// computed here, the one-line refusals of bad text, and training runs that record a schedule in
// the network's command (shown by `net info`, rebuilding the same bytes), resume it at the right
// point, and leave the default (exp by --lr-decay, constant lambda) as it was.

#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <limits>
#include <numbers>
#include <stdexcept>

#include "selfplay/formats/net_file.h"
#include "tests/cli_helpers.h"
#include "tuner/net/lr_schedule.h"
#include "tuner/texel/synthetic.h"

using namespace fanorona;

namespace {

std::string temp_path(const std::string& name) {
    return test_cli::temp_file("lr_schedule", name);
}

// The message of the std::invalid_argument `f` throws ("" when it throws none).
template <class F> std::string refusal(F&& f) {
    try {
        f();
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "";
}

// A positions log of 40 labelled playout games on 5x5.
std::string tiny_log(const std::string& name, std::uint64_t seed) {
    const std::string log = temp_path(name);
    Rules rules;
    rules.variant = Variant::Tsivy;
    write_position_log(log, {Variant::Tsivy, RuleSet::Standard},
                       labelled_playout_games(rules, 40, seed));
    return log;
}

} // namespace

TEST_CASE("the exp schedule multiplies the step size by the decay epoch by epoch",
          "[lr_schedule]") {
    LrSchedule s;
    s.lr = 0.01;
    s.decay = 0.9;
    CHECK(s.to_text() == "exp");
    CHECK(s.is_default_shape());
    // The trainer's old rule: lr *= decay after every epoch (the same bits, not pow's).
    double lr = 0.01;
    for (int epoch = 1; epoch <= 12; ++epoch) {
        INFO(epoch);
        CHECK(s.epoch_lr(epoch) == lr);
        CHECK(s.at(epoch, 1000) == lr);
        lr *= 0.9;
    }
}

TEST_CASE("the step schedule multiplies the step size by GAMMA every EVERY epochs",
          "[lr_schedule]") {
    LrSchedule s = LrSchedule::parse("step:3:0.5");
    CHECK(s.shape == LrSchedule::Shape::Step);
    CHECK(s.every == 3);
    CHECK(s.gamma == 0.5);
    CHECK(s.to_text() == "step:3:0.5");
    s.lr = 0.08;
    s.decay = 0.1; // not read by step
    CHECK(s.epoch_lr(1) == 0.08);
    CHECK(s.epoch_lr(3) == 0.08);
    CHECK(s.epoch_lr(4) == 0.04);
    CHECK(s.epoch_lr(6) == 0.04);
    CHECK(s.epoch_lr(7) == 0.02);
    CHECK(s.epoch_lr(10) == 0.01);
    CHECK(LrSchedule::parse("step:10:0.3").to_text() == "step:10:0.3");
    CHECK(LrSchedule::parse("step:1:1").to_text() == "step:1:1");
}

TEST_CASE("the cosine schedule anneals from --lr towards --lr-min over the epochs",
          "[lr_schedule]") {
    LrSchedule s = LrSchedule::parse("cosine");
    CHECK(s.to_text() == "cosine");
    s.lr = 0.01;
    s.lr_min = 0.001;
    s.epochs = 4;
    CHECK(s.epoch_lr(1) == Approx(0.01));
    // Epoch 2 of 4: a quarter of the half cosine, (1 + cos(pi/4)) / 2 = 0.853553.
    CHECK(s.epoch_lr(2) == Approx(0.001 + 0.009 * 0.8535533906));
    CHECK(s.epoch_lr(3) == Approx(0.0055));
    CHECK(s.epoch_lr(4) == Approx(0.001 + 0.009 * 0.1464466094));
    CHECK(s.epoch_lr(5) == Approx(0.001)); // where the annealing ends
    for (int e = 1; e < 4; ++e) CHECK(s.epoch_lr(e + 1) < s.epoch_lr(e));
    s.lr_min = 0;
    CHECK(s.epoch_lr(3) == Approx(0.005));
}

TEST_CASE("the warm-up ramps the step size linearly over the first mini-batches", "[lr_schedule]") {
    LrSchedule s = LrSchedule::parse("step:2:0.5");
    s.lr = 0.004;
    s.warmup = 4;
    CHECK(s.at(1, 1) == Approx(0.001));
    CHECK(s.at(1, 2) == Approx(0.002));
    CHECK(s.at(1, 3) == Approx(0.003));
    CHECK(s.at(1, 4) == 0.004);
    CHECK(s.at(1, 9) == 0.004);
    // Across an epoch boundary the warm-up keeps counting mini-batches.
    CHECK(s.at(3, 2) == Approx(0.001));
    CHECK(s.at(3, 5) == 0.002);
    s.warmup = 0;
    CHECK(s.at(1, 1) == 0.004);
}

TEST_CASE("lambda moves linearly from its start at the first epoch to its end at the last",
          "[lr_schedule]") {
    CHECK(lambda_at(0.2, 0.8, 1, 4) == 0.2);
    CHECK(lambda_at(0.2, 0.8, 2, 4) == Approx(0.4));
    CHECK(lambda_at(0.2, 0.8, 3, 4) == Approx(0.6));
    CHECK(lambda_at(0.2, 0.8, 4, 4) == Approx(0.8));
    CHECK(lambda_at(1.0, 0.0, 2, 3) == Approx(0.5));
    CHECK(lambda_at(0.2, 0.8, 1, 1) == 0.2);
    CHECK(lambda_at(0.5, 0.5, 7, 9) == 0.5);
}

TEST_CASE("bad schedule text and numbers are refused with one line naming the option",
          "[lr_schedule]") {
    for (const char* text :
         {"", "linear", "Cosine", "exp:0.9", "step", "step:", "step:3", "step:0:0.5", "step:-2:0.5",
          "step:x:0.5", "step:3:", "step:3:nan", "step:3:inf", "step:3:0", "step:3:1.5",
          "step:3:0.5:1", "step:2.5:0.5", "cosine:1"}) {
        INFO(text);
        const std::string why = refusal([&] { LrSchedule::parse(text); });
        CHECK_THAT(why, Catch::StartsWith("--lr-schedule: '" + std::string(text) + "'"));
        CHECK(why.find('\n') == std::string::npos);
    }
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    LrSchedule s;
    CHECK(refusal([&] { s.check(); }).empty());
    s.lr = nan;
    CHECK_THAT(refusal([&] { s.check(); }), Catch::StartsWith("--lr "));
    s.lr = inf;
    CHECK_THAT(refusal([&] { s.check(); }), Catch::StartsWith("--lr "));
    s.lr = 0.01;
    s.decay = nan;
    CHECK_THAT(refusal([&] { s.check(); }), Catch::StartsWith("--lr-decay"));
    s.decay = 0.9;
    s.lr_min = 0.02;
    CHECK_THAT(refusal([&] { s.check(); }), Catch::StartsWith("--lr-min"));
    s.lr_min = nan;
    CHECK_THAT(refusal([&] { s.check(); }), Catch::StartsWith("--lr-min"));
    s.lr_min = 0;
    s.epochs = 0;
    CHECK_THAT(refusal([&] { s.check(); }), Catch::StartsWith("--epochs"));
}

TEST_CASE("fanorona train refuses bad schedules with one line", "[lr_schedule][cli]") {
    using namespace test_cli;
    const std::string log = tiny_log("bad.bin", 3);
    const std::string out = temp_path("bad.net");
    const std::string train = "train " + log + " --hidden 16 --buckets 2 --epochs 1 --out " + out;
    struct Case {
        const char* options;
        const char* says;
    };
    for (const Case& c :
         {Case{"--lr-schedule linear", "--lr-schedule: 'linear'"},
          Case{"--lr-schedule step:0:0.5", "--lr-schedule: 'step:0:0.5'"},
          Case{"--lr-schedule step:2:nan", "--lr-schedule: 'step:2:nan'"},
          Case{"--lr-schedule cosine --lr-decay 0.9", "--lr-decay"},
          Case{"--lr-schedule step:2:0.5 --lr-decay 0.9", "--lr-decay"},
          Case{"--lr-min 0.001", "--lr-min"},
          Case{"--lr-schedule cosine --lr 0.01 --lr-min 0.1", "--lr-min"},
          Case{"--lr-schedule cosine --lr-min nan", "--lr-min"},
          Case{"--lambda-end 1.5", "--lambda-end"}, Case{"--lambda-end nan", "--lambda-end"},
          Case{"--lr-warmup -3", "--lr-warmup"}}) {
        INFO(c.options);
        const Run r = run_cli(train + " " + c.options);
        INFO(r.output);
        CHECK(r.status != 0);
        CHECK_THAT(r.output, Catch::Contains(c.says));
    }
    CHECK_FALSE(std::filesystem::exists(out));
}

TEST_CASE("a trained network records its schedules, net info shows them and its command rebuilds "
          "it",
          "[lr_schedule][cli]") {
    using namespace test_cli;
    const std::string log = tiny_log("sched.bin", 5);
    const std::string base = "SOURCE_DATE_EPOCH=1700000000 " FANORONA_BINARY " train " + log +
                             " --hidden 16 --buckets 2 --batch 256 --lr 0.01 --patience 0 --quiet";
    const std::string scheduled = " --lr-schedule cosine --lr-min 0.001 --lr-warmup 5 "
                                  "--lambda 0.3 --lambda-end 0.9";
    const std::string a = temp_path("sched_a.net"), b = temp_path("sched_b.net"),
                      c = temp_path("sched_c.net"), d = temp_path("sched_d.net");
    const Run one = run_shell(base + scheduled + " --epochs 4 --out " + a);
    INFO(one.output);
    REQUIRE(one.status == 0);
    CHECK_THAT(one.output, Catch::Contains("lambda moves linearly from 0.3 at epoch 1 to 0.9"));
    CHECK_THAT(one.output, Catch::Contains("step size: cosine from 0.01 to 0.001, warm-up over 5 "
                                           "mini-batches"));

    // The command records the schedules (and not --lr-decay, which cosine does not read).
    const NetFile f = read_net_file(a);
    CHECK_THAT(f.provenance.command,
               Catch::Contains("--lr 0.01 --lr-schedule cosine --lr-min 0.001 --lr-warmup 5 "
                               "--lambda 0.3 --lambda-end 0.9 --k auto"));
    CHECK(f.provenance.command.find("--lr-decay") == std::string::npos);
    const Run info = run_cli("net info " + a);
    CHECK_THAT(info.output, Catch::Contains("--lr-schedule cosine --lr-min 0.001 --lr-warmup 5"));
    CHECK_THAT(info.output, Catch::Contains("--lambda-end 0.9"));

    // The recorded command rebuilds the same bytes.
    const std::string command = f.provenance.command.substr(std::string("fanorona ").size());
    const Run rebuilt = run_shell("SOURCE_DATE_EPOCH=1700000000 " FANORONA_BINARY " " + command +
                                  " --quiet --out " + b);
    INFO(rebuilt.output);
    REQUIRE(rebuilt.status == 0);
    CHECK(slurp(b) == slurp(a));

    // Each schedule changes the network: without them it is another one.
    REQUIRE(run_shell(base + " --lambda 0.3 --epochs 4 --out " + d).status == 0);
    CHECK(slurp(d) != slurp(a));

    REQUIRE(run_shell(base + scheduled + " --epochs 2 --out " + c).status == 0);
    // A cosine or lambda schedule spans --epochs: a resume with other epochs than the checkpoint's
    // run is refused (its schedule would have been another).
    const Run refused = run_shell(base + scheduled + " --epochs 4 --resume --out " + c);
    CHECK(refused.status != 0);
    CHECK_THAT(refused.output, Catch::Contains(c + ".ckpt: settings:"));
}

// Stopped after 2 epochs and resumed to 4: the step schedule goes on from epoch 3 and the
// warm-up (longer than two epochs) from its mini-batch count, so the uninterrupted run's network.
TEST_CASE("a resumed training continues its schedules where they stopped", "[lr_schedule][cli]") {
    using namespace test_cli;
    const std::string log = tiny_log("resume.bin", 6);
    const std::string common = "SOURCE_DATE_EPOCH=1700000000 " FANORONA_BINARY " train " + log +
                               " --hidden 16 --buckets 2 --batch 256 --lr 0.01 --patience 0 "
                               "--quiet --lr-schedule step:1:0.5 --lr-warmup 40";
    const std::string a = temp_path("resume_a.net"), c = temp_path("resume_c.net");
    REQUIRE(run_shell(common + " --epochs 4 --out " + a).status == 0);
    REQUIRE(run_shell(common + " --epochs 2 --out " + c).status == 0);
    CHECK(slurp(c) != slurp(a));
    const Run resumed = run_shell(common + " --epochs 4 --resume --out " + c);
    INFO(resumed.output);
    REQUIRE(resumed.status == 0);
    CHECK(slurp(c) == slurp(a));
}

TEST_CASE("the default schedules are the old rule and leave the command as it was",
          "[lr_schedule][cli]") {
    using namespace test_cli;
    const std::string log = tiny_log("default.bin", 7);
    const std::string base = "SOURCE_DATE_EPOCH=1700000000 " FANORONA_BINARY " train " + log +
                             " --hidden 16 --buckets 2 --batch 256 --lr 0.01 --patience 0 --quiet "
                             "--epochs 3";
    const std::string a = temp_path("default_a.net"), b = temp_path("default_b.net"),
                      c = temp_path("default_c.net");
    REQUIRE(run_shell(base + " --out " + a).status == 0);
    const NetFile f = read_net_file(a);
    CHECK_THAT(f.provenance.command,
               Catch::Contains("--lr 0.01 --lr-decay 0.92 --lambda 0.5 --k auto"));
    for (const char* absent : {"--lr-schedule", "--lr-min", "--lr-warmup", "--lambda-end"})
        CHECK(f.provenance.command.find(absent) == std::string::npos);
    // The defaults spelled out: the same network and the same command.
    const Run spelled =
        run_shell(base + " --lr-schedule exp --lr-warmup 0 --lambda-end 0.5 --out " + b);
    INFO(spelled.output);
    REQUIRE(spelled.status == 0);
    CHECK(slurp(b) == slurp(a));
    // A step schedule of one epoch and GAMMA 0.92 is not the same bits as exp (pow against
    // repeated products may differ), but --lr-decay 0.5 and step:1:0.5 are: powers of two.
    REQUIRE(run_shell(base + " --lr-decay 0.5 --out " + b).status == 0);
    REQUIRE(run_shell(base + " --lr-schedule step:1:0.5 --out " + c).status == 0);
    CHECK(read_net_file(b).net == read_net_file(c).net);
}
