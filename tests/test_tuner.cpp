// The tuner: the feature matrix reproduces the engine's evaluation, the validation split keeps
// games whole, gradients match finite differences, every optimizer recovers known weights, and
// bad input gets a clear error.

#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include <Eigen/Eigenvalues>
#include <nlohmann/json.hpp>
#include <tbb/global_control.h>

#include "core/weights.h"
#include "selfplay/formats/weights_file.h"
#include "tests/cli_helpers.h"
#include "tuner/texel/synthetic.h"
#include "tuner/texel/tune.h"

using namespace fanorona;

namespace {

std::string temp_path(const std::string& name) {
    return test_cli::temp_file("tuner", name);
}

Rules make_rules(Variant v, RuleSet r = RuleSet::Standard) {
    Rules rules;
    rules.variant = v;
    rules.ruleset = r;
    return rules;
}

std::vector<std::vector<PositionRecord>> playouts(const Rules& rules, int games,
                                                  std::uint64_t seed) {
    std::vector<std::vector<PositionRecord>> out;
    for (int g = 0; g < games; ++g)
        out.push_back(random_playout_game(rules, std::uint32_t(g), seed));
    return out;
}

// A log of random-playout games; returns its path.
std::string playout_log(const std::string& name, const Rules& rules, int games,
                        std::uint64_t seed) {
    const std::string path = temp_path(name);
    write_position_log(path, {rules.variant, rules.ruleset}, playouts(rules, games, seed));
    return path;
}

WeightVector to_vector(const Weights& w) {
    WeightVector v;
    for (int f = 0; f < kFeatureCount; ++f) v[f] = w.values[f];
    return v;
}

// The default weights with every term changed a little: a second, different weight vector.
Weights perturbed_defaults(int seed) {
    Weights w = handset_weights();
    for (int f = 0; f < kFeatureCount; ++f) w.values[f] += ((f * 7 + seed * 13) % 11) - 5;
    return w;
}

std::vector<std::uint32_t> all_rows(const Dataset& d) {
    std::vector<std::uint32_t> rows(d.records.size());
    for (std::size_t i = 0; i < rows.size(); ++i) rows[i] = std::uint32_t(i);
    return rows;
}

template <class F> std::string error_of(F&& f) {
    try {
        f();
    } catch (const std::exception& e) {
        return e.what();
    }
    return "(no error)";
}

} // namespace

TEST_CASE("the feature matrix reproduces evaluate() for every position", "[tuner]") {
    const std::vector<Rules> cases = {make_rules(Variant::Tsivy),
                                      make_rules(Variant::Tsivy, RuleSet::FirstTurn),
                                      make_rules(Variant::Dimy, RuleSet::Vela)};
    int n = 0;
    for (const Rules& rules : cases) {
        const std::string path = playout_log("check" + std::to_string(n++) + ".bin", rules, 60, 5);
        for (const Weights& w : {handset_weights(), perturbed_defaults(3)}) {
            const CheckReport r = check_against_engine({path}, w);
            CHECK(r.positions > 1000);
            CHECK(r.mismatches == 0);
            CHECK(r.max_difference < 1.0);
        }
    }
    // And the CLI's --check mode says so.
    const std::string path = temp_path("check0.bin");
    const auto run = test_cli::run_cli("tune --check --data " + path);
    INFO(run.output);
    CHECK(run.status == 0);
    CHECK(run.output.find(" 0 mismatches") != std::string::npos);
}

TEST_CASE("the validation split keeps every game whole", "[tuner]") {
    const Rules rules = make_rules(Variant::Dimy);
    // Two files whose games have the same indices: games are told apart by file too.
    const std::string a = playout_log("split_a.bin", rules, 50, 1);
    const std::string b = playout_log("split_b.bin", rules, 50, 2);
    const Dataset data = load_dataset({a, b});
    REQUIRE(data.games.size() == 100);
    const DataSplit split = split_by_game(data, 0.2, 7);
    CHECK(split.validation_games == 20);
    CHECK(split.train_games == 80);
    CHECK(split.train.size() + split.validation.size() == data.records.size());
    // Which game each row belongs to, and the side of each game.
    std::vector<std::size_t> game_of(data.records.size());
    for (std::size_t g = 0; g < data.games.size(); ++g)
        for (std::uint32_t i = 0; i < data.games[g].count; ++i)
            game_of[data.games[g].first + i] = g;
    std::map<std::size_t, int> side;
    std::set<std::uint32_t> seen;
    for (int set = 0; set < 2; ++set)
        for (std::uint32_t row : set ? split.validation : split.train) {
            CHECK(seen.insert(row).second); // every row once
            const auto [it, fresh] = side.emplace(game_of[row], set);
            CHECK(it->second == set); // never on both sides
            const GameSpan& g = data.games[game_of[row]];
            CHECK(data.records[row].game_index == g.game_index);
        }
    CHECK(seen.size() == data.records.size());
    // Seeded: the same seed, the same split; another seed, another one.
    CHECK(split_by_game(data, 0.2, 7).validation == split.validation);
    CHECK(split_by_game(data, 0.2, 8).validation != split.validation);
    CHECK(split_by_game(data, 0.0, 7).validation.empty());
}

TEST_CASE("gradient and curvature match finite differences", "[tuner]") {
    const Rules rules = make_rules(Variant::Tsivy);
    const Dataset data = load_dataset({playout_log("grad.bin", rules, 40, 3)});
    FeatureMatrix m = build_feature_matrix(data, all_rows(data));
    const double k = 0.004;
    set_targets(m, TargetSpec{0.5}, k);
    const WeightVector w = to_vector(perturbed_defaults(1));
    for (LossKind kind : {LossKind::Mse, LossKind::CrossEntropy}) {
        const LossOutput at = compute_loss(m, w, kind, k, {}, true, true);
        // The matrix holds floats: a component far smaller than the largest is checked against
        // that scale (1e-4 of it), not relatively.
        const double gradient_scale = at.gradient.cwiseAbs().maxCoeff();
        for (int f = 0; f < kFeatureCount; ++f) {
            const double h = 0.5; // weights are centi-pieces; the loss is smooth on this scale
            WeightVector up = w, down = w;
            up[f] += h;
            down[f] -= h;
            const double numeric =
                (mean_loss(m, up, kind, k) - mean_loss(m, down, kind, k)) / (2 * h);
            INFO(loss_name(kind) << " " << feature_name(f));
            CHECK(at.gradient[f] == Approx(numeric).epsilon(2e-3).margin(1e-4 * gradient_scale));
            const double scale = at.curvature.cwiseAbs().maxCoeff();
            if (kind == LossKind::CrossEntropy) {
                // For cross-entropy the Gauss-Newton matrix is the exact Hessian.
                const LossOutput gu = compute_loss(m, up, kind, k, {}, true, false);
                const LossOutput gd = compute_loss(m, down, kind, k, {}, true, false);
                const WeightVector column = (gu.gradient - gd.gradient) / (2 * h);
                for (int j = 0; j < kFeatureCount; ++j)
                    CHECK(at.curvature(j, f) == Approx(column[j]).margin(2e-3 * scale));
            }
        }
        // The Gauss-Newton matrix is symmetric positive semi-definite.
        CHECK((at.curvature - at.curvature.transpose()).cwiseAbs().maxCoeff() == 0.0);
        CHECK(at.curvature.selfadjointView<Eigen::Lower>().eigenvalues().minCoeff() > -1e-12);
    }
}

TEST_CASE("losses do not depend on the number of threads", "[tuner]") {
    const Dataset data =
        load_dataset({playout_log("threads.bin", make_rules(Variant::Tsivy), 200, 4)});
    FeatureMatrix m = build_feature_matrix(data, all_rows(data));
    set_targets(m, TargetSpec{}, 0.004);
    REQUIRE(m.block_count() > 4);
    const WeightVector w = to_vector(handset_weights());
    LossOutput one, two;
    {
        tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 1);
        one = compute_loss(m, w, LossKind::Mse, 0.004, {}, true, true);
    }
    {
        tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 2);
        two = compute_loss(m, w, LossKind::Mse, 0.004, {}, true, true);
    }
    CHECK(one.loss == two.loss);
    CHECK(one.gradient == two.gradient);
    CHECK(one.curvature == two.curvature);
    // The memory target: under 150 bytes per position.
    CHECK(double(m.bytes()) / double(m.rows()) < 150);
}

namespace {

// A known answer: random-playout positions whose targets come from `truth` through the sigmoid,
// and a start that differs from it on every free weight. material, strong and centre are sums
// of point-table terms (collinear with them), so they are frozen at the truth; so are the ending
// terms (mopup_near, mopup_mobility, stall): random playouts hold few positions with lopsided
// material or a long run without capture, where the two mop-up terms also move together, so the
// data cannot identify them (their _mg weights least: such positions on a full board).
struct Recovery {
    inline static const std::vector<std::string> kFrozen = {
        "material", "strong", "centre", "mopup_near", "mopup_mobility", "stall"};
    Weights truth = handset_weights();
    Weights start;
    double k = 1.0 / 50; // a piece is worth 2 logits: informative results
    std::string path;
    std::array<bool, kFeatureCount> frozen{};

    // sampled: results drawn from sigmoid(K e); otherwise each score is the true evaluation
    // (tuned with --target score: a noise-free target).
    Recovery(const std::string& name, int games, bool sampled) {
        const Rules rules = make_rules(Variant::Tsivy);
        auto data = playouts(rules, games, 11);
        if (sampled) {
            label_from_weights(data, rules, truth, k, 12);
        } else {
            for (auto& game : data)
                for (PositionRecord& r : game) {
                    Features f;
                    extract_features(r.position(rules.variant), rules, f);
                    double sum = 0;
                    for (int i = 0; i < f.count; ++i)
                        sum += double(f.entries[i].value) * truth.values[f.entries[i].index];
                    r.score = std::int16_t(std::lround(sum / kEvalScale));
                }
        }
        path = temp_path(name);
        write_position_log(path, {rules.variant, rules.ruleset}, data);
        frozen = resolve_frozen(kFrozen);
        start = truth;
        for (int f = 0; f < kFeatureCount; ++f)
            if (!frozen[f]) start.values[f] += f % 2 ? 15 : -20;
    }

    TuneReport tune(OptimizerKind kind, bool score_target) const {
        TuneConfig c;
        c.data = {path};
        c.start = start;
        c.k = k;
        c.l2 = 0;
        c.validation = 0;
        c.target = TargetSpec{score_target ? 0.0 : 1.0};
        c.freeze = kFrozen;
        c.optimizer.kind = kind;
        c.optimizer.tolerance = 1e-9;
        c.optimizer.epochs = 300;
        c.optimizer.lr = 5;
        c.optimizer.batch = 2048;
        return run_tune(c, {});
    }

    // The largest and the mean distance from the truth over the weights the data determines.
    std::pair<int, double> error(const TuneReport& r) const {
        int worst = 0, n = 0;
        double sum = 0;
        for (int f = 0; f < kFeatureCount; ++f) {
            const std::string name(feature_name(f));
            if (frozen[f] || std::find(r.unused.begin(), r.unused.end(), name) != r.unused.end())
                continue;
            const int d = std::abs(r.final.values[f] - truth.values[f]);
            worst = std::max(worst, d);
            sum += d;
            ++n;
            UNSCOPED_INFO(name << ": truth " << truth.values[f] << ", start " << start.values[f]
                               << ", tuned " << r.final.values[f]);
        }
        return {worst, sum / n};
    }
};

} // namespace

TEST_CASE("every optimizer recovers known weights from a noise-free target", "[tuner]") {
    const Recovery rec("recover_exact.bin", 150, false);
    for (OptimizerKind kind : {OptimizerKind::Newton, OptimizerKind::Lbfgs, OptimizerKind::Adam}) {
        const TuneReport r = rec.tune(kind, true);
        const auto [worst, mean] = rec.error(r);
        INFO(optimizer_name(kind) << ": worst " << worst << ", mean " << mean);
        CHECK(worst <= 1);
        CHECK(r.final_train_loss < 1e-6);
    }
}

TEST_CASE("every optimizer recovers known weights from sampled results", "[tuner][slow]") {
    const Recovery rec("recover_sampled.bin", 3000, true);
    for (OptimizerKind kind : {OptimizerKind::Newton, OptimizerKind::Lbfgs, OptimizerKind::Adam}) {
        const TuneReport r = rec.tune(kind, false);
        const auto [worst, mean] = rec.error(r);
        INFO(optimizer_name(kind) << ": worst " << worst << ", mean " << mean);
        CHECK(worst <= 12);
        CHECK(mean <= 4);
    }
}

TEST_CASE("frozen weights stay and a strong L2 pull keeps the start", "[tuner]") {
    const Recovery rec("recover_frozen.bin", 100, false);
    TuneConfig c;
    c.data = {rec.path};
    c.start = rec.start;
    c.k = rec.k;
    c.validation = 0.2;
    c.target = TargetSpec{0.0};
    c.l2 = 0;
    c.freeze = {"tempo", "mobility_eg", "pst_tsivy_*", "material", "strong", "centre"};
    const TuneReport free_fit = run_tune(c, {});
    const auto frozen = resolve_frozen(c.freeze);
    for (int f = 0; f < kFeatureCount; ++f)
        if (frozen[f]) CHECK(free_fit.final.values[f] == rec.start.values[f]);
    // The free middle-game terms are active in most positions: each moves off its start (the
    // end-game ones may not, 100 short games hold few bare boards).
    for (const char* name :
         {"mobility_mg", "capture_now_mg", "exposed_mg", "threat_mg", "loose_mg"}) {
        const int f = feature_index(name);
        REQUIRE(f >= 0);
        INFO(name);
        CHECK_FALSE(frozen[f]);
        CHECK(free_fit.final.values[f] != rec.start.values[f]);
    }
    CHECK(free_fit.final_validation_loss < free_fit.start_validation_loss);
    CHECK(free_fit.frozen.size() == 2 + 1 + 2 * 15 + 2 * 3);
    // The validation loss of every epoch is recorded, and the best one is kept.
    const auto& h = free_fit.fit.history;
    REQUIRE(h.size() >= 2);
    for (const EpochRecord& e : h)
        CHECK(e.validation_loss >= h[free_fit.fit.best_epoch].validation_loss);

    c.freeze = {"material", "strong", "centre"};
    c.l2 = 1e3; // far stronger than the data
    const TuneReport pulled = run_tune(c, {});
    for (int f = 0; f < kFeatureCount; ++f)
        CHECK(std::abs(pulled.final.values[f] - rec.start.values[f]) <= 1);
}

TEST_CASE("bad tuner input gets a clear error", "[tuner]") {
    const Rules tsivy = make_rules(Variant::Tsivy), dimy = make_rules(Variant::Dimy);
    const std::string good = playout_log("bad_good.bin", tsivy, 5, 1);
    const std::string other_variant = playout_log("bad_dimy.bin", dimy, 5, 1);
    const std::string other_rules =
        playout_log("bad_vela.bin", make_rules(Variant::Tsivy, RuleSet::Vela), 5, 1);
    const std::string magic = temp_path("bad_magic.bin");
    std::ofstream(magic, std::ios::binary) << "NOTALOG-and-some-more-bytes";
    const std::string empty = temp_path("bad_empty.bin");
    write_position_log(empty, {Variant::Tsivy, RuleSet::Standard}, {});
    // A log whose every position has a decisive score.
    auto decisive_games = playouts(tsivy, 3, 2);
    for (auto& g : decisive_games)
        for (PositionRecord& r : g) r.score = 29990;
    const std::string decisive = temp_path("bad_decisive.bin");
    write_position_log(decisive, {Variant::Tsivy, RuleSet::Standard}, decisive_games);
    const std::string missing = temp_path("no_such_file.bin");

    auto load_error = [](std::vector<std::string> files) {
        return error_of([&] { load_dataset(files); });
    };
    CHECK_THAT(load_error({missing}), Catch::Contains(missing) && Catch::Contains("cannot open"));
    CHECK_THAT(load_error({magic}), Catch::Contains(magic) && Catch::Contains("magic"));
    CHECK_THAT(load_error({good, other_variant}), Catch::Contains(other_variant) &&
                                                      Catch::Contains("variant dimy") &&
                                                      Catch::Contains("variant tsivy"));
    CHECK_THAT(load_error({good, other_rules}),
               Catch::Contains(other_rules) && Catch::Contains("rules vela"));
    CHECK_THAT(load_error({empty}), Catch::Contains("no positions to tune on"));
    CHECK_THAT(load_error({decisive}), Catch::Contains("no positions to tune on") &&
                                           Catch::Contains("skipped for decisive scores"));
    CHECK_THAT(load_error({good, good}), Catch::Contains("given twice"));
    CHECK_THAT(load_error({}), Catch::Contains("no positions log given"));
    // With --keep-decisive those positions are used.
    DataFilter keep_decisive;
    keep_decisive.skip_decisive = false;
    CHECK(load_dataset({decisive}, keep_decisive).records.size() > 10);

    const Dataset one_game = load_dataset({playout_log("bad_one.bin", tsivy, 1, 1)});
    CHECK_THAT(error_of([&] { split_by_game(one_game, 0.1, 1); }),
               Catch::Contains("at least 2 games"));
    CHECK(split_by_game(one_game, 0.0, 1).train.size() == one_game.records.size());
    CHECK_THAT(error_of([] { resolve_frozen({"materiel"}); }), Catch::Contains("'materiel'"));
    CHECK_THAT(error_of([] { TargetSpec::parse("mix:1.5"); }), Catch::Contains("mix:L"));
    CHECK(TargetSpec::parse("mix:0.25").result_weight == 0.25);

    // Through the command line: one line naming the file (and the line of a bad weights file).
    const std::string dir = test_cli::fresh_dir("tune_bad");
    std::filesystem::create_directories(dir);
    const std::string bad_weights = dir + "/bad.txt";
    std::ofstream(bad_weights) << "fanorona-weights 1\nmaterial_mg 100\nmaterial_mg 90\n";
    struct Case {
        std::string args, expect;
    };
    const std::vector<Case> cases = {
        {"--data " + missing, "cannot open"},
        {"--data " + magic, "wrong magic"},
        {"--data " + good + " " + other_variant, "must agree"},
        {"--data " + empty, "no positions to tune on"},
        {"--data " + good + " --weights " + dir + "/none.txt", "cannot open the weights file"},
        {"--data " + good + " --weights " + bad_weights, bad_weights + ":3: duplicate weight"},
        {"--data " + good + " --freeze nothing_like_this", "nothing_like_this"},
        {"--data " + good + " --target best", "--target"},
        {"--data " + good + " --k -1", "--k"},
    };
    for (const Case& c : cases) {
        const auto run = test_cli::run_cli("tune " + c.args + " --out " + dir + "/w");
        INFO(c.args << "\n" << run.output);
        CHECK(run.status == 1);
        CHECK_THAT(run.output, Catch::StartsWith("fanorona: ") && Catch::Contains(c.expect));
    }
}

TEST_CASE("fanorona tune writes the weights, loss.csv and tune.json", "[tuner][cli]") {
    const std::string a = playout_log("cli_a.bin", make_rules(Variant::Tsivy), 60, 21);
    const std::string b = playout_log("cli_b.bin", make_rules(Variant::Tsivy), 60, 22);
    const std::string dir = test_cli::fresh_dir("tune_cli");
    const std::string out = dir + "/sub/weights.txt";
    const auto run = test_cli::run_cli("tune --data " + a + " " + b + " --out " + dir + "/sub" +
                                       " --threads 2 --freeze tempo --l2 1e-6 --seed 3");
    INFO(run.output);
    REQUIRE(run.status == 0);
    CHECK_THAT(run.output, Catch::Contains("epoch    1  train"));
    CHECK_THAT(run.output, Catch::Contains("features extracted"));

    // The weights file is what the engine reads; its header says how it was made.
    const std::string text = test_cli::slurp(out);
    const Weights w = parse_weights(text, out);
    // It starts from the engine's default weights (the tuned ones, core/builtins.h).
    const Weights start = load_weights_file("default");
    CHECK(w.values[feature_index("tempo_mg")] == start.values[feature_index("tempo_mg")]);
    CHECK_THAT(text, Catch::StartsWith("fanorona-weights 1\n# Tuned by `fanorona tune`"));
    CHECK_THAT(text, Catch::Contains("# data: " + a + ", " + b));
    CHECK_THAT(text, Catch::Contains("optimizer=newton"));
    CHECK_THAT(text, Catch::Contains("# loss (mse, rounded weights): validation "));

    const nlohmann::json j = nlohmann::json::parse(test_cli::slurp(dir + "/sub/tune.json"));
    CHECK(j["format"] == "fanorona-tune 1");
    CHECK(j["data"] == nlohmann::json({a, b}));
    CHECK(j["positions"]["train"].get<int>() + j["positions"]["validation"].get<int>() ==
          j["positions"]["read"].get<int>() - j["positions"]["skipped_decisive"].get<int>());
    CHECK(j["games"]["validation"].get<int>() == 12); // 10% of 120 games
    CHECK(j["settings"]["freeze"] == nlohmann::json({"tempo"}));
    CHECK(j["settings"]["seed"] == 3);
    CHECK(j["k"].get<double>() > 0);
    CHECK(j["final_validation_loss"].get<double>() < j["start_validation_loss"].get<double>());
    CHECK(j["out_dir"] == dir + "/sub");
    for (const auto& c : j["changed_weights"]) {
        const int f = feature_index(c["name"].get<std::string>());
        REQUIRE(f >= 0);
        CHECK(c["final"].get<int>() == w.values[f]);
        CHECK(c["start"].get<int>() == start.values[f]);
        CHECK(c["start"] != c["final"]);
    }

    // loss.csv: one row per epoch from 0, as many as the fit ran.
    std::istringstream csv(test_cli::slurp(dir + "/sub/loss.csv"));
    std::string line;
    std::getline(csv, line);
    CHECK(line == "epoch,train_loss,validation_loss,seconds");
    int rows = 0;
    while (std::getline(csv, line)) {
        CHECK_THAT(line, Catch::StartsWith(std::to_string(rows) + ","));
        ++rows;
    }
    CHECK(rows == j["epochs"].get<int>() + 1);

    // Without the L2 pull, material and the point tables are collinear: the user is told.
    CHECK_THAT(run.output, !Catch::Contains("collinear"));
    const auto no_pull =
        test_cli::run_cli("tune --data " + a + " --out " + dir + "/no_pull --threads 2 --l2 0");
    CHECK(no_pull.status == 0);
    CHECK_THAT(no_pull.output, Catch::Contains("warning: --l2 0 with material and the point "
                                               "tables free: they are collinear"));
}
