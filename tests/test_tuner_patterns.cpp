// The tuner's pattern fit (tune --patterns): the rows' window configurations give the pattern
// part evaluate() adds, the fit lowers the loss, rare patterns stay at 0, the result does not
// depend on the thread count, and non-5x9 logs get a clear error.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include <nlohmann/json.hpp>
#include <tbb/global_control.h>

#include "core/common/rng.h"
#include "core/weights.h"
#include "tests/cli_helpers.h"
#include "tuner/texel/synthetic.h"
#include "tuner/texel/tune.h"

using namespace fanorona;

namespace {

std::string temp_path(const std::string& name) {
    return test_cli::temp_file("tuner_patterns", name);
}

// A log of random-playout games; returns its path.
std::string playout_log(const std::string& name, Variant v, int games, std::uint64_t seed) {
    Rules rules;
    rules.variant = v;
    std::vector<std::vector<PositionRecord>> out;
    for (int g = 0; g < games; ++g)
        out.push_back(random_playout_game(rules, std::uint32_t(g), seed));
    const std::string path = temp_path(name);
    write_position_log(path, {v, RuleSet::Standard}, out);
    return path;
}

std::vector<std::uint32_t> all_rows(const Dataset& d) {
    std::vector<std::uint32_t> rows(d.records.size());
    for (std::size_t i = 0; i < rows.size(); ++i) rows[i] = std::uint32_t(i);
    return rows;
}

WeightVector to_vector(const Weights& w) {
    WeightVector v;
    for (int f = 0; f < kFeatureCount; ++f) v[f] = w.values[f];
    return v;
}

// Integer pattern weights in [-40, 40], seeded.
PatternVector random_patterns(std::uint64_t seed) {
    PatternVector v(2 * std::size_t(kPatternCount));
    Rng rng = Rng::derive(seed, 0x7E57, 0);
    for (double& x : v) x = double(rng.below(81)) - 40;
    return v;
}

// Targets from `terms` and `patterns` through the sigmoid (noise free).
void set_true_targets(FeatureMatrix& m, const WeightVector& terms, const PatternVector& patterns,
                      double k) {
    const Eigen::VectorXd e = evaluate_rows(m, terms, false);
    for (std::size_t r = 0; r < m.rows(); ++r)
        m.target[Eigen::Index(r)] =
            float(sigmoid(k * (e[Eigen::Index(r)] + pattern_row_eval(m, r, patterns))));
}

PatternProblem problem_of(const FeatureMatrix& train, const FeatureMatrix& validation,
                          const WeightVector& terms, std::uint32_t min_count) {
    PatternProblem p;
    p.train = &train;
    p.validation = &validation;
    p.k = 0.01;
    p.terms = terms;
    const std::vector<std::uint32_t> counts = pattern_counts(train);
    p.free.resize(counts.size());
    for (std::size_t q = 0; q < counts.size(); ++q) p.free[q] = counts[q] >= min_count;
    p.start = PatternVector(2 * std::size_t(kPatternCount), 0.0);
    return p;
}

} // namespace

TEST_CASE("pattern rows give the pattern part of the evaluation", "[tuner]") {
    const Dataset data = load_dataset({playout_log("rows.bin", Variant::Tsivy, 40, 7)});
    FeatureMatrix m = build_feature_matrix(data, all_rows(data), true);
    REQUIRE(m.rows() > 1000);
    REQUIRE(m.patterns.size() == m.rows() * kPatternWindows);
    const PatternVector w = random_patterns(3);
    set_pattern_offsets(m, w);
    const Weights terms = handset_weights();
    const Eigen::VectorXd e = evaluate_rows(m, to_vector(terms));
    for (std::size_t r = 0; r < m.rows(); ++r) {
        // Brute force: the engine's pattern numbers and the exact integer sum S.
        const Position pos = data.records[r].position(data.rules.variant);
        PatternIndices idx;
        pattern_indices(pos.player(), pos.opponent(), idx);
        const int phase = game_phase(pos);
        Features f;
        extract_features(pos, data.rules, f);
        std::int64_t sum = 0;
        for (int i = 0; i < f.count; ++i)
            sum += std::int64_t(f.entries[i].value) * terms.values[f.entries[i].index];
        std::int64_t pattern_sum = 0;
        for (std::uint32_t p : idx)
            pattern_sum +=
                std::int64_t(w[2 * p]) * phase + std::int64_t(w[2 * p + 1]) * (32 - phase);
        REQUIRE(pattern_row_eval(m, r, w) == double(pattern_sum) / 32);
        REQUIRE(e[Eigen::Index(r)] == double(sum + pattern_sum) / 32);
    }
}

TEST_CASE("with pattern weights, the tuner's evaluation is evaluate()'s", "[tuner]") {
    const std::string path = playout_log("engine.bin", Variant::Tsivy, 40, 17);
    // Random integer weights on the canonical configurations (the only ones a file holds).
    const PatternVector v = random_patterns(7);
    auto patterns = std::make_shared<PatternWeights>();
    for (int c = 0; c < kPatternClasses; ++c)
        for (int k = 0; k < kPatternConfigs; ++k) {
            if (!pattern_config_canonical(c, k)) continue;
            const std::size_t p = std::size_t(c) * kPatternConfigs + std::size_t(k);
            patterns->values[2 * p] = std::int32_t(v[2 * p]);
            patterns->values[2 * p + 1] = std::int32_t(v[2 * p + 1]);
        }
    Weights w = handset_weights();
    w.patterns = patterns;
    const CheckReport r = check_against_engine({path}, w);
    CHECK(r.positions > 1000);
    CHECK(r.mismatches == 0);
    CHECK(r.max_difference < 1.0);
    // Without the patterns the same positions evaluate differently: the check can fail.
    Weights no_patterns = w;
    no_patterns.patterns = nullptr;
    CHECK(check_against_engine({path}, no_patterns).positions == r.positions);
    const Dataset data = load_dataset({path});
    std::size_t differ = 0;
    for (const PositionRecord& rec : data.records) {
        const Position pos = rec.position(data.rules.variant);
        differ += evaluate(pos, data.rules, w) != evaluate(pos, data.rules, no_patterns);
    }
    CHECK(differ > r.positions / 2);
}

TEST_CASE("the pattern fit lowers the loss, keeps rare patterns and ignores the thread count",
          "[tuner]") {
    const Dataset data = load_dataset({playout_log("fit.bin", Variant::Tsivy, 120, 11)});
    const DataSplit split = split_by_game(data, 0.2, 1);
    FeatureMatrix train = build_feature_matrix(data, split.train, true);
    FeatureMatrix validation = build_feature_matrix(data, split.validation, true);
    const WeightVector terms = to_vector(handset_weights());
    // The truth: the default terms and pattern weights on the configurations seen often.
    const std::vector<std::uint32_t> counts = pattern_counts(train);
    PatternVector truth = random_patterns(5);
    for (std::size_t q = 0; q < counts.size(); ++q)
        if (counts[q] < 50) truth[2 * q] = truth[2 * q + 1] = 0;
    set_true_targets(train, terms, truth, 0.01);
    set_true_targets(validation, terms, truth, 0.01);

    constexpr std::uint32_t kMinCount = 20;
    const PatternProblem p = problem_of(train, validation, terms, kMinCount);
    PatternSettings s;
    s.epochs = 8;
    s.batch = 2048;
    s.lr = 2;
    PatternFitResult one, two;
    {
        tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 1);
        one = fit_patterns(p, s, 0, 9);
    }
    {
        tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 2);
        two = fit_patterns(p, s, 0, 9);
    }
    CHECK(one.weights == two.weights);
    REQUIRE(one.history.size() == two.history.size());
    for (std::size_t i = 0; i < one.history.size(); ++i) {
        CHECK(one.history[i].train_loss == two.history[i].train_loss);
        CHECK(one.history[i].validation_loss == two.history[i].validation_loss);
    }
    // Both losses fall by far (the start is the truth without its patterns).
    const EpochRecord& start = one.history.front();
    const EpochRecord& best = one.history[std::size_t(one.best_epoch)];
    INFO("train " << start.train_loss << " -> " << best.train_loss << ", validation "
                  << start.validation_loss << " -> " << best.validation_loss);
    CHECK(best.train_loss < 0.5 * start.train_loss);
    CHECK(best.validation_loss < 0.7 * start.validation_loss);
    // A strong L2 pull keeps the weights nearer 0.
    PatternProblem pulled = p;
    pulled.l2 = 1e-3;
    auto size = [](const PatternVector& v) {
        double t = 0;
        for (double x : v) t += std::abs(x);
        return t;
    };
    CHECK(size(fit_patterns(pulled, s, 0, 9).weights) < 0.5 * size(one.weights));
    // Rare patterns (and never seen ones) stay at 0; frequent ones moved.
    std::size_t rare = 0, moved = 0;
    for (std::size_t q = 0; q < counts.size(); ++q) {
        const bool nonzero = one.weights[2 * q] != 0 || one.weights[2 * q + 1] != 0;
        if (counts[q] < kMinCount) {
            rare += counts[q] > 0;
            CHECK_FALSE(nonzero);
        } else {
            moved += nonzero;
        }
    }
    CHECK(rare > 10);
    CHECK(moved > 100);
}

TEST_CASE("tune --patterns fits patterns on 5x9 logs and refuses others", "[tuner][cli]") {
    const std::string tsivy = playout_log("cli.bin", Variant::Tsivy, 60, 13);
    const std::string dimy = playout_log("cli_dimy.bin", Variant::Dimy, 10, 13);
    const std::string dir = test_cli::fresh_dir("tune_patterns");

    const auto bad = test_cli::run_cli("tune --patterns --data " + dimy + " --out " + dir + "/d");
    INFO(bad.output);
    CHECK(bad.status == 1);
    CHECK_THAT(bad.output, Catch::StartsWith("fanorona: ") && Catch::Contains(dimy) &&
                               Catch::Contains("--patterns") && Catch::Contains("5x9"));
    CHECK(std::count(bad.output.begin(), bad.output.end(), '\n') == 1);
    CHECK_FALSE(std::filesystem::exists(dir + "/d"));

    const auto run =
        test_cli::run_cli("tune --patterns --pattern-rounds 2 --pattern-epochs 3 "
                          "--pattern-min-count 5 --pattern-l2 0 --epochs 5 --threads 2 --data " +
                          tsivy + " --out " + dir + "/t");
    INFO(run.output);
    REQUIRE(run.status == 0);
    CHECK_THAT(run.output, Catch::Contains("round 2: train"));
    const nlohmann::json j = nlohmann::json::parse(test_cli::slurp(dir + "/t/tune.json"));
    CHECK(j["settings"]["patterns"] == true);
    REQUIRE(j["patterns"]["rounds"].size() == 2);
    const auto& r1 = j["patterns"]["rounds"][0];
    CHECK(r1["patterns_train_loss"].get<double>() < r1["start_train_loss"].get<double>());
    CHECK(j["patterns"]["active_weights"].get<int>() > 0);
    CHECK(j["patterns"]["free_patterns"].get<int>() > 0);
    const std::string csv = test_cli::slurp(dir + "/t/loss.csv");
    CHECK_THAT(csv, Catch::StartsWith("epoch,train_loss,validation_loss,seconds,round,stage\n") &&
                        Catch::Contains(",2,patterns\n") && Catch::Contains(",2,terms\n"));
    // The weights file holds the pattern weights, and the engine evaluates with them as the
    // tuner did.
    const std::string file = dir + "/t/weights.txt";
    const Weights w = parse_weights(test_cli::slurp(file), file);
    REQUIRE(w.patterns);
    const auto active = std::count_if(w.patterns->values.begin(), w.patterns->values.end(),
                                      [](std::int32_t x) { return x != 0; });
    CHECK(active == j["patterns"]["active_weights"].get<long>());
    const CheckReport check = check_against_engine({tsivy}, w);
    CHECK(check.mismatches == 0);
    const auto cli_check = test_cli::run_cli("tune --check --data " + tsivy + " --weights " + file);
    INFO(cli_check.output);
    CHECK(cli_check.output.find(" 0 mismatches") != std::string::npos);
}
