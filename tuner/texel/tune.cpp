#include "tuner/texel/tune.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>

#include "core/common/clock.h"
#include "core/common/text.h"
#include "core/features.h"

namespace fanorona {

namespace {

using SteadyClock = std::chrono::steady_clock;

WeightVector to_vector(const Weights& w) {
    WeightVector v;
    for (int f = 0; f < kFeatureCount; ++f) v[f] = w.values[f];
    return v;
}

Weights round_weights(const WeightVector& v) {
    Weights w;
    for (int f = 0; f < kFeatureCount; ++f) {
        if (!std::isfinite(v[f]) || std::abs(v[f]) > 1e9)
            throw std::runtime_error("the fit diverged: weight " + std::string(feature_name(f)) +
                                     " = " + std::to_string(v[f]) +
                                     " (try a smaller --lr or a larger --l2)");
        w.values[f] = std::int32_t(std::lround(v[f]));
    }
    return w;
}

// The free terms of the material group (core/terms.h), joined by ", ", when a board's point
// table is free with them: its classes sum to them, so only the L2 pull makes the fit unique. A
// table is free when none of its classes is held fixed on the data (each is free or unused) and
// one at least is free. "" when there is no such collinearity.
std::string collinear_terms(const std::array<bool, kFeatureCount>& free,
                            const std::array<std::size_t, kFeatureCount>& counts) {
    std::string names;
    for (int t = 0; t < kTermCount; ++t) {
        if (kTerms[t].group != TermGroup::Material) continue;
        bool collinear = false;
        for (bool eg : {false, true}) {
            if (!free[feature_of(t, eg)]) continue;
            for (Variant v : {Variant::Tsivy, Variant::Dimy}) {
                const TermRange table = point_table_terms(v);
                bool fixed = false, any_free = false;
                for (int c = table.first; c < table.first + table.count; ++c) {
                    const int f = feature_of(c, eg);
                    fixed |= !free[f] && counts[f] > 0;
                    any_free |= free[f];
                }
                collinear |= any_free && !fixed;
            }
        }
        if (collinear) names += (names.empty() ? "" : ", ") + std::string(kTerms[t].name);
    }
    return names;
}

std::string loss_text(double v) {
    return std::isnan(v) ? "-" : format("%.6f", v);
}

// The fit with patterns: rounds of a pattern fit (terms fixed) then a term fit (patterns fixed,
// as the rows' offsets). Leaves the last term fit in report.fit, the pattern weights in `pw`
// and the offsets of both matrices at `pw`.
void pattern_rounds(const TuneConfig& config, Problem& problem, const OptimizerSettings& settings,
                    FeatureMatrix& train, FeatureMatrix& validation, PatternVector& pw,
                    TuneReport& report, const std::function<void(const std::string&)>& say) {
    const PatternSettings& ps = config.patterns;
    const std::vector<std::uint32_t> counts = pattern_counts(train);
    PatternProblem pp;
    pp.train = &train;
    pp.validation = &validation;
    pp.loss = problem.loss;
    pp.k = problem.k;
    pp.l2 = ps.l2;
    pp.free.resize(counts.size());
    for (std::size_t q = 0; q < counts.size(); ++q) {
        pp.free[q] = counts[q] >= std::max<std::uint32_t>(ps.min_count, 1);
        report.pattern_free += pp.free[q];
    }
    say(format("patterns: %llu of %d seen in at least %u training positions are fitted; %d "
               "rounds",
               (unsigned long long)report.pattern_free, kPatternCount, unsigned(ps.min_count),
               ps.rounds));
    WeightVector terms = problem.start;
    for (int round = 1; round <= ps.rounds; ++round) {
        const auto t_round = SteadyClock::now();
        PatternRound r;
        r.round = round;
        pp.terms = terms;
        pp.start = pw;
        PatternFitResult pf = fit_patterns(
            pp, ps, settings.patience, config.seed + std::uint64_t(round),
            [&](const EpochRecord& e) {
                say(format("round %d patterns epoch %3d  train %s  validation %s  %7.2f s", round,
                           e.epoch, loss_text(e.train_loss).c_str(),
                           loss_text(e.validation_loss).c_str(), e.seconds));
            });
        pw = std::move(pf.weights);
        pf.weights.clear();
        set_pattern_offsets(train, pw);
        set_pattern_offsets(validation, pw);
        problem.initial = terms;
        FitResult tf = fit(problem, settings, [&](const EpochRecord& e) {
            say(format("round %d terms epoch %4d  train %s  validation %s  %7.2f s", round, e.epoch,
                       loss_text(e.train_loss).c_str(), loss_text(e.validation_loss).c_str(),
                       e.seconds));
        });
        terms = tf.weights;
        const EpochRecord& p0 = pf.history.front();
        const EpochRecord& pb = pf.history[std::size_t(pf.best_epoch)];
        const EpochRecord& tb = tf.history[std::size_t(tf.best_epoch)];
        r.start_train = p0.train_loss;
        r.start_validation = p0.validation_loss;
        r.patterns_train = pb.train_loss;
        r.patterns_validation = pb.validation_loss;
        r.terms_train = tb.train_loss;
        r.terms_validation = tb.validation_loss;
        r.patterns = std::move(pf);
        r.terms = tf;
        r.seconds = seconds_since(t_round);
        say(format("round %d: train %s -> %s (patterns) -> %s (terms), validation %s -> %s -> "
                   "%s; %d + %d epochs, %.2f s",
                   round, loss_text(r.start_train).c_str(), loss_text(r.patterns_train).c_str(),
                   loss_text(r.terms_train).c_str(), loss_text(r.start_validation).c_str(),
                   loss_text(r.patterns_validation).c_str(), loss_text(r.terms_validation).c_str(),
                   int(r.patterns.history.size()) - 1, int(r.terms.history.size()) - 1, r.seconds));
        report.rounds.push_back(std::move(r));
        report.fit = std::move(tf);
    }
    problem.initial.reset();
}

// Throws std::invalid_argument for settings out of range (the frozen names are resolved first).
void check_tune_config(const TuneConfig& config) {
    if (!(config.l2 >= 0)) throw std::invalid_argument("--l2 must be at least 0");
    if (config.k && !(*config.k > 0)) throw std::invalid_argument("--k must be positive");
    const PatternSettings& ps = config.patterns;
    if (ps.enabled && !(ps.rounds >= 1 && ps.epochs >= 1 && ps.lr > 0 && ps.l2 >= 0))
        throw std::invalid_argument("--pattern-rounds, --pattern-epochs and --pattern-lr must be "
                                    "positive, --pattern-l2 at least 0");
}

// The positions of the logs and their split into training and validation games.
struct TuneData {
    Dataset data;
    DataSplit split;
};

// Reads the logs and splits them by game, into the report's counts of files, positions and
// games, saying what it read. Throws TuneDataError for --patterns on logs of another board.
TuneData read_tune_data(const TuneConfig& config, TuneReport& report,
                        const std::function<void(const std::string&)>& say) {
    TuneData d;
    d.data = load_dataset(config.data, config.filter);
    const Dataset& data = d.data;
    for (const std::string& w : data.warnings) say("warning: " + w);
    if (config.patterns.enabled && !patterns_apply(data.rules.variant))
        throw TuneDataError(data.files.front() +
                            ": --patterns needs 5x9 (tsivy) logs, this one is " +
                            std::string(variant_name(data.rules.variant)));
    d.split = split_by_game(data, config.validation, config.seed);
    const DataSplit& split = d.split;
    report.files = data.files;
    report.rules = data.rules;
    report.counts = data;
    if (config.filter.tables && config.filter.table_positions != DataFilter::TablePositions::Keep)
        say(format("%llu positions in the endgame tables %s (%llu results changed)",
                   (unsigned long long)data.table_positions,
                   config.filter.table_positions == DataFilter::TablePositions::Skip
                       ? "skipped"
                       : "relabelled with the tables' results",
                   (unsigned long long)data.relabelled));
    report.warnings = data.warnings;
    report.train_positions = split.train.size();
    report.validation_positions = split.validation.size();
    report.train_games = split.train_games;
    report.validation_games = split.validation_games;
    say(format("read %llu positions of %zu games (%s, %s); %llu skipped for decisive scores",
               (unsigned long long)data.read, data.games.size(),
               std::string(variant_name(data.rules.variant)).c_str(),
               std::string(ruleset_name(data.rules.ruleset)).c_str(),
               (unsigned long long)data.skipped_decisive));
    say(format("training: %zu positions of %llu games; validation: %zu positions of %llu games",
               split.train.size(), (unsigned long long)split.train_games, split.validation.size(),
               (unsigned long long)split.validation_games));
    return d;
}

// One tuning run between its steps: the settings, the report it fills, the feature matrices of
// the training and validation positions (built once; `problem` points at them, so the run stays
// where it is made), the start weights, the pattern weights (with --patterns) and the problem the
// optimizer solves.
struct TuneRun {
    const TuneConfig& config;
    TuneReport& report;
    const std::function<void(const std::string&)> say; // the log's lines (none without a log)
    const bool patterns = config.patterns.enabled;
    FeatureMatrix train, validation;
    const WeightVector start = to_vector(config.start);
    PatternVector pattern_weights;
    Problem problem;

    TuneRun(const TuneConfig& c, TuneReport& r, const std::function<void(const std::string&)>& log)
        : config(c), report(r), say([&log](const std::string& line) {
              if (log) log(line);
          }) {}
    TuneRun(const TuneRun&) = delete;
    TuneRun& operator=(const TuneRun&) = delete;

    void extract_features(const TuneData& d);
    void set_k_and_targets();
    void choose_free_weights(const std::array<bool, kFeatureCount>& frozen);
    void fit_weights();
    void round_and_measure();
};

// Extracts the features of the training and validation rows once, into train and validation.
void TuneRun::extract_features(const TuneData& d) {
    const auto t_extract = SteadyClock::now();
    train = build_feature_matrix(d.data, d.split.train, patterns);
    validation = build_feature_matrix(d.data, d.split.validation, patterns);
    report.extraction_seconds = seconds_since(t_extract);
    report.nonzeros = train.nonzeros() + validation.nonzeros();
    report.matrix_bytes = train.bytes() + validation.bytes();
    const double n_rows = double(train.rows() + validation.rows());
    say(format("features extracted in %.3f s (%.0f positions/s); %.1f non-zeros and %.1f bytes "
               "per position",
               report.extraction_seconds, n_rows / std::max(report.extraction_seconds, 1e-9),
               double(report.nonzeros) / n_rows, double(report.matrix_bytes) / n_rows));
}

// K (given, or fitted with the start weights), then the rows' targets; with --patterns the start's
// pattern part is first set as the rows' offsets.
void TuneRun::set_k_and_targets() {
    if (patterns) {
        pattern_weights = pattern_vector(config.start);
        set_pattern_offsets(train, pattern_weights);
        set_pattern_offsets(validation, pattern_weights);
    }
    report.k_fitted = !config.k;
    report.k = config.k ? *config.k : fit_k(train, start, config.loss);
    say(format("K = %.6g (%s)", report.k, report.k_fitted ? "fitted to the results" : "given"));
    set_targets(train, config.target, report.k);
    set_targets(validation, config.target, report.k);
}

// The problem: which weights move (neither frozen nor without data; the report names the others),
// with a warning when --l2 0 leaves collinear weights free.
void TuneRun::choose_free_weights(const std::array<bool, kFeatureCount>& frozen) {
    problem.train = &train;
    problem.validation = &validation;
    problem.loss = config.loss;
    problem.k = report.k;
    problem.l2 = config.l2;
    problem.start = start;
    const auto counts = train.feature_counts();
    for (int f = 0; f < kFeatureCount; ++f) {
        problem.free[f] = !frozen[f] && counts[f] > 0;
        if (frozen[f])
            report.frozen.emplace_back(feature_name(f));
        else if (counts[f] == 0)
            report.unused.emplace_back(feature_name(f));
    }
    if (!report.unused.empty())
        say(format("%zu weights have no data and stay as they are", report.unused.size()));
    if (config.l2 <= 0) {
        const std::string collinear = collinear_terms(problem.free, counts);
        if (!collinear.empty())
            say("warning: --l2 0 with " + collinear +
                " and the point tables free: they are collinear, so the weights may drift far "
                "from the start (use the default --l2)");
    }
}

// The start weights' losses, then the fit (with --patterns, its rounds) into report.fit.
void TuneRun::fit_weights() {
    report.start_train_loss = problem.train_loss(start);
    report.start_validation_loss = problem.validation_loss(start);
    say(format("fitting %d weights with %s (%s loss, target %s)", problem.free_count(),
               optimizer_name(config.optimizer.kind).c_str(), loss_name(config.loss).c_str(),
               config.target.to_string().c_str()));
    OptimizerSettings settings = config.optimizer;
    settings.seed = config.seed;
    auto on_epoch = [&](const EpochRecord& r) {
        say(format("epoch %4d  train %s  validation %s  %7.2f s", r.epoch,
                   loss_text(r.train_loss).c_str(), loss_text(r.validation_loss).c_str(),
                   r.seconds));
    };
    if (!patterns)
        report.fit = fit(problem, settings, on_epoch);
    else
        pattern_rounds(config, problem, settings, train, validation, pattern_weights, report, say);
    const FitResult& f = report.fit;
    say(format("%s after %d epochs (%llu passes, %.2f s); best epoch %d",
               f.converged       ? "converged"
               : f.stopped_early ? "stopped early (validation loss)"
                                 : "epoch limit reached",
               int(f.history.size()) - 1, (unsigned long long)f.history.back().passes, f.seconds,
               f.best_epoch));
}

// Rounds the fitted weights as the engine uses them into report.final, with the changed weights
// and the losses of the fitted and the rounded weights (with --patterns the rounded pattern
// weights become the rows' offsets first).
void TuneRun::round_and_measure() {
    const FitResult& f = report.fit;
    report.final = round_weights(f.weights);
    if (patterns) {
        report.final.patterns = round_patterns(pattern_weights);
        if (report.final.patterns)
            for (std::int32_t v : report.final.patterns->values) report.pattern_active += v != 0;
    }
    for (int i = 0; i < kFeatureCount; ++i)
        if (report.final.values[i] != config.start.values[i])
            report.changed.push_back(
                {std::string(feature_name(i)), config.start.values[i], report.final.values[i]});
    const WeightVector rounded = to_vector(report.final);
    report.fitted_train_loss = problem.train_loss(f.weights);
    report.fitted_validation_loss = problem.validation_loss(f.weights);
    if (patterns) { // the rounded pattern weights as the offsets
        const PatternVector final_patterns = pattern_vector(report.final);
        set_pattern_offsets(train, final_patterns);
        set_pattern_offsets(validation, final_patterns);
    }
    report.final_train_loss = problem.train_loss(rounded);
    report.final_validation_loss = problem.validation_loss(rounded);
    say(format("loss with the start weights: train %s, validation %s",
               loss_text(report.start_train_loss).c_str(),
               loss_text(report.start_validation_loss).c_str()));
    say(format("loss with the tuned weights (rounded): train %s, validation %s; %zu weights "
               "changed",
               loss_text(report.final_train_loss).c_str(),
               loss_text(report.final_validation_loss).c_str(), report.changed.size()));
    if (patterns)
        say(format("pattern weights: %llu of %d patterns seen in at least %u training positions; "
                   "%llu of %d weights not 0",
                   (unsigned long long)report.pattern_free, kPatternCount,
                   unsigned(config.patterns.min_count), (unsigned long long)report.pattern_active,
                   2 * kPatternCount));
}

} // namespace

std::array<bool, kFeatureCount> resolve_frozen(const std::vector<std::string>& names) {
    std::array<bool, kFeatureCount> frozen{};
    for (const std::string& raw : names) {
        if (raw.empty()) continue;
        bool matched = false;
        const bool prefix = raw.back() == '*';
        const std::string stem = prefix ? raw.substr(0, raw.size() - 1) : raw;
        for (int f = 0; f < kFeatureCount; ++f) {
            const std::string_view feature = feature_name(f);
            const std::string_view term = term_name(f / 2);
            const bool hit =
                prefix ? feature.substr(0, stem.size()) == stem : (feature == stem || term == stem);
            if (hit) frozen[f] = matched = true;
        }
        if (!matched)
            throw std::invalid_argument("--freeze: no weight or term is named '" + raw +
                                        "' (names as in the weights file, a term name for "
                                        "both halves, or a prefix ending in '*')");
    }
    return frozen;
}

TuneReport run_tune(const TuneConfig& config, const std::function<void(const std::string&)>& log) {
    const auto t_start = SteadyClock::now();
    TuneReport report;
    const std::array<bool, kFeatureCount> frozen = resolve_frozen(config.freeze);
    check_tune_config(config);
    TuneRun run(config, report, log);
    // Read and split, then extract the features once (the records are not kept).
    run.extract_features(read_tune_data(config, report, run.say));
    run.set_k_and_targets();
    run.choose_free_weights(frozen);
    run.fit_weights();
    run.round_and_measure();
    report.seconds = seconds_since(t_start);
    return report;
}

CheckReport check_against_engine(const std::vector<std::string>& files, const Weights& w,
                                 const DataFilter& filter) {
    const Dataset data = load_dataset(files, filter);
    std::vector<std::uint32_t> rows(data.records.size());
    for (std::size_t i = 0; i < rows.size(); ++i) rows[i] = std::uint32_t(i);
    const bool patterns = w.patterns && patterns_apply(data.rules.variant);
    const FeatureMatrix m = build_feature_matrix(data, rows, patterns);
    Eigen::VectorXd e = evaluate_rows(m, to_vector(w));
    if (patterns) { // in double (exact), not through the float offsets
        const PatternVector pw = pattern_vector(w);
        for (std::size_t i = 0; i < rows.size(); ++i)
            e[Eigen::Index(i)] += pattern_row_eval(m, i, pw);
    }
    CheckReport report;
    report.positions = rows.size();
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const PositionRecord& r = data.records[i];
        const Position pos = r.position(data.rules.variant);
        Rules own = data.rules;
        own.ruleset = r.rules_or(data.rules.ruleset);
        const int engine = evaluate(pos, own, w);
        const double mine = e[Eigen::Index(i)];
        report.max_difference = std::max(report.max_difference, std::abs(mine - engine));
        if (int(std::trunc(mine)) != engine) {
            if (report.examples.size() < 5)
                report.examples.push_back(format("game %u turn %u: matrix %.4f, evaluate() %d  %s",
                                                 r.game_index, unsigned(r.turn), mine, engine,
                                                 pos.to_string().c_str()));
            ++report.mismatches;
        }
    }
    return report;
}

} // namespace fanorona
