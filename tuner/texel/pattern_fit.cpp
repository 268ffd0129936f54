#include "tuner/texel/pattern_fit.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include "core/common/clock.h"
#include "core/common/fork_join.h"
#include "core/common/rng.h"
#include "core/weights.h"
#include "tuner/adam_rule.h"

namespace fanorona {

namespace {

// Each window's class, and the windows of each class.
struct WindowClasses {
    std::array<std::uint32_t, kPatternWindows> base{}; // class * kPatternConfigs
    std::array<std::vector<int>, kPatternClasses> windows;
    WindowClasses() {
        for (int w = 0; w < kPatternWindows; ++w) {
            const int c = pattern_windows()[std::size_t(w)].cls;
            base[std::size_t(w)] = std::uint32_t(c) * kPatternConfigs;
            windows[std::size_t(c)].push_back(w);
        }
    }
};
const WindowClasses& window_classes() {
    static const WindowClasses classes;
    return classes;
}

// The pattern part of a row from its window configurations.
inline double row_pattern(const std::uint16_t* configs, int phase, const double* w,
                          const WindowClasses& wc) {
    double mg = 0, eg = 0;
    for (int i = 0; i < kPatternWindows; ++i) {
        const std::size_t p = wc.base[std::size_t(i)] + configs[i];
        mg += w[2 * p];
        eg += w[2 * p + 1];
    }
    return eval_of_sum(blend(mg, eg, double(phase)));
}

// The mean loss of the rows of m at evaluation base + pattern part (a deterministic reduction).
double mean_pattern_loss(const FeatureMatrix& m, const Eigen::VectorXf& base,
                         const PatternVector& w, LossKind kind, double k) {
    if (m.rows() == 0) return std::numeric_limits<double>::quiet_NaN();
    const WindowClasses& wc = window_classes();
    const ForkJoin fork_join; // what TSan cannot see inside libtbb (core/common/fork_join.h)
    const double total = tbb::parallel_deterministic_reduce(
        tbb::blocked_range<std::size_t>(0, m.block_count(), 4), 0.0,
        fork_join.body([&](const tbb::blocked_range<std::size_t>& r, double sum) {
            for (std::size_t b = r.begin(); b != r.end(); ++b) {
                const std::size_t end = std::min(m.rows(), m.block_begin(b) + kBlockRows);
                for (std::size_t i = m.block_begin(b); i < end; ++i) {
                    const double e =
                        base[Eigen::Index(i)] + row_pattern(m.patterns.data() + i * kPatternWindows,
                                                            m.phase[i], w.data(), wc);
                    sum += row_loss(kind, k, e, m.target[Eigen::Index(i)]).loss;
                }
            }
            return sum;
        }),
        fork_join.combine(std::plus<double>()));
    fork_join.joined();
    return total / double(m.rows());
}

// One pattern fit's state: the problem, the term parts of every row's evaluation (fixed during
// the fit), the pattern weights with Adam's moments, and the training blocks in batches.
struct PatternFit {
    static constexpr std::size_t kWeights = 2 * std::size_t(kPatternCount);
    static constexpr AdamRule kRule{.epsilon = 1e-18};

    const PatternProblem& p;
    const FeatureMatrix& train;
    const WindowClasses& wc = window_classes();
    const bool has_validation;
    const Eigen::VectorXf base_train, base_validation;
    PatternVector w;
    std::vector<double> grad, mean, square; // kWeights each
    std::vector<std::uint32_t> stamp;       // the step that last touched a pattern
    std::array<std::vector<std::uint32_t>, kPatternClasses> touched; // a step's patterns, by class
    std::vector<std::uint32_t> order; // the training blocks, shuffled each epoch when batched
    std::size_t batch_blocks = 0;     // blocks a batch
    std::vector<float> slope;         // each batch row's derivative of the batch's mean loss

    PatternFit(const PatternProblem& problem, std::size_t batch)
        : p(problem), train(*problem.train),
          has_validation(problem.validation && problem.validation->rows() > 0),
          base_train(evaluate_rows(train, p.terms, false).cast<float>()),
          base_validation(
              has_validation
                  ? Eigen::VectorXf(evaluate_rows(*p.validation, p.terms, false).cast<float>())
                  : Eigen::VectorXf()),
          w(p.start), grad(kWeights, 0.0), mean(kWeights, 0.0), square(kWeights, 0.0),
          stamp(std::size_t(kPatternCount), 0), order(train.block_count()) {
        std::iota(order.begin(), order.end(), 0u);
        batch_blocks =
            std::min(order.size(),
                     batch == 0 ? order.size()
                                : std::max<std::size_t>(1, (batch + kBlockRows - 1) / kBlockRows));
        slope.resize(batch_blocks * kBlockRows);
    }

    double objective_of(double data) const {
        double sq = 0;
        for (std::size_t q = 0; q < std::size_t(kPatternCount); ++q)
            if (p.free[q]) sq += w[2 * q] * w[2 * q] + w[2 * q + 1] * w[2 * q + 1];
        return data + p.l2 * sq;
    }

    // The losses at the current weights (passes and seconds left to the caller).
    EpochRecord record(int epoch) const {
        EpochRecord r;
        r.epoch = epoch;
        r.train_loss = mean_pattern_loss(train, base_train, w, p.loss, p.k);
        r.objective = objective_of(r.train_loss);
        r.validation_loss = has_validation
                                ? mean_pattern_loss(*p.validation, base_validation, w, p.loss, p.k)
                                : std::numeric_limits<double>::quiet_NaN();
        return r;
    }

    // slope[] for the rows of the `count` blocks `ids`.
    void batch_slopes(const std::uint32_t* ids, std::size_t count) {
        std::size_t n_rows = 0;
        for (std::size_t i = 0; i < count; ++i) n_rows += std::size_t(train.blocks[ids[i]].rows());
        const double inv_rows = 1.0 / double(n_rows);
        const ForkJoin fork_join;
        tbb::parallel_for(std::size_t(0), count, fork_join.body([&](std::size_t i) {
            const std::size_t b = ids[i];
            const std::size_t begin = train.block_begin(b);
            const std::size_t rows = std::size_t(train.blocks[b].rows());
            for (std::size_t j = 0; j < rows; ++j) {
                const std::size_t r = begin + j;
                const double e = base_train[Eigen::Index(r)] +
                                 row_pattern(train.patterns.data() + r * kPatternWindows,
                                             train.phase[r], w.data(), wc);
                slope[i * kBlockRows + j] =
                    float(row_loss(p.loss, p.k, e, train.target[Eigen::Index(r)]).slope * inv_rows);
            }
        }));
        fork_join.joined();
    }

    // Adam step `t` over the batch's slopes: scattered and stepped class by class, each class's
    // weights its own task's.
    void step(const std::uint32_t* ids, std::size_t count, std::uint64_t t, double lr) {
        const AdamStep adam(kRule, t, lr);
        const ForkJoin fork_join;
        tbb::parallel_for(0, kPatternClasses, fork_join.body([&](int c) {
            std::vector<std::uint32_t>& list = touched[std::size_t(c)];
            list.clear();
            const std::vector<int>& windows = wc.windows[std::size_t(c)];
            const std::uint32_t base = std::uint32_t(c) * kPatternConfigs;
            for (std::size_t i = 0; i < count; ++i) {
                const std::size_t b = ids[i];
                const std::size_t begin = train.block_begin(b);
                const std::size_t rows = std::size_t(train.blocks[b].rows());
                for (std::size_t j = 0; j < rows; ++j) {
                    const double d = slope[i * kBlockRows + j];
                    if (d == 0) continue;
                    const std::size_t r = begin + j;
                    const auto unit = taper(1.0, double(train.phase[r]));
                    const double dm = d * eval_of_sum(unit.mg), de = d * eval_of_sum(unit.eg);
                    const std::uint16_t* configs = train.patterns.data() + r * kPatternWindows;
                    for (int win : windows) {
                        const std::uint32_t q = base + configs[win];
                        if (!p.free[q]) continue;
                        grad[2 * q] += dm;
                        grad[2 * q + 1] += de;
                        if (stamp[q] != t) {
                            stamp[q] = std::uint32_t(t);
                            list.push_back(q);
                        }
                    }
                }
            }
            for (std::uint32_t q : list)
                for (std::size_t f : {2 * std::size_t(q), 2 * std::size_t(q) + 1}) {
                    const double g = grad[f] + 2 * p.l2 * w[f];
                    grad[f] = 0;
                    adam.update(w[f], mean[f], square[f], g);
                }
        }));
        fork_join.joined();
    }
};

} // namespace

PatternVector pattern_vector(const Weights& w) {
    PatternVector v(2 * std::size_t(kPatternCount), 0.0);
    if (w.patterns)
        for (std::size_t i = 0; i < v.size(); ++i) v[i] = w.patterns->values[i];
    return v;
}

std::shared_ptr<const PatternWeights> round_patterns(const PatternVector& v) {
    auto out = std::make_shared<PatternWeights>();
    bool any = false;
    for (std::size_t i = 0; i < v.size(); ++i) {
        const double x = std::isfinite(v[i]) ? v[i] : 0.0;
        out->values[i] =
            std::int32_t(std::lround(std::clamp(x, -double(kMaxWeight), double(kMaxWeight))));
        any |= out->values[i] != 0;
    }
    if (!any) return nullptr;
    return out;
}

std::vector<std::uint32_t> pattern_counts(const FeatureMatrix& m) {
    const WindowClasses& wc = window_classes();
    std::vector<std::uint32_t> counts(std::size_t(kPatternCount), 0);
    for (std::size_t r = 0; r < m.rows(); ++r) {
        const std::uint16_t* configs = m.patterns.data() + r * kPatternWindows;
        for (const std::vector<int>& windows : wc.windows)
            for (std::size_t i = 0; i < windows.size(); ++i) {
                bool seen = false; // by an earlier window of the class in this row
                for (std::size_t j = 0; j < i; ++j)
                    seen |= configs[windows[j]] == configs[windows[i]];
                if (!seen) ++counts[wc.base[std::size_t(windows[i])] + configs[windows[i]]];
            }
    }
    return counts;
}

double pattern_row_eval(const FeatureMatrix& m, std::size_t r, const PatternVector& w) {
    return row_pattern(m.patterns.data() + r * kPatternWindows, m.phase[r], w.data(),
                       window_classes());
}

void set_pattern_offsets(FeatureMatrix& m, const PatternVector& w) {
    m.offset.resize(Eigen::Index(m.rows()));
    const ForkJoin fork_join;
    tbb::parallel_for(std::size_t(0), m.block_count(), fork_join.body([&](std::size_t b) {
        const std::size_t end = std::min(m.rows(), m.block_begin(b) + kBlockRows);
        for (std::size_t i = m.block_begin(b); i < end; ++i)
            m.offset[Eigen::Index(i)] = float(pattern_row_eval(m, i, w));
    }));
    fork_join.joined();
}

PatternFitResult fit_patterns(const PatternProblem& p, const PatternSettings& s, int patience,
                              std::uint64_t seed,
                              const std::function<void(const EpochRecord&)>& on_epoch) {
    const auto t0 = std::chrono::steady_clock::now();
    // Step 1. The fit's state: the term parts, the start weights, the blocks in batches.
    PatternFit fit(p, s.batch);
    PatternFitResult result;
    std::uint64_t passes = 0;
    auto record = [&](int epoch) {
        EpochRecord r = fit.record(epoch);
        r.passes = ++passes;
        r.seconds = seconds_since(t0);
        result.history.push_back(r);
        if (on_epoch) on_epoch(r);
        return r;
    };

    // Step 2. Epochs of Adam steps, one a batch, keeping the best epoch's weights; the step
    // halves after kPlateau epochs without a lower objective.
    constexpr int kPlateau = 2;
    const EpochRecord first = record(0);
    result.weights = fit.w;
    BestEpoch best(first, patience);
    double best_objective = first.objective; // the lowest so far, for the step size
    double lr = s.lr;
    int flat = 0;
    std::uint64_t t = 0;
    for (int epoch = 1; epoch <= s.epochs; ++epoch) {
        if (fit.batch_blocks < fit.order.size()) {
            Rng::derive(seed, 0x9A77E, std::uint64_t(epoch)).shuffle(fit.order);
        }
        for (std::size_t at = 0; at < fit.order.size(); at += fit.batch_blocks) {
            const std::size_t count = std::min(fit.batch_blocks, fit.order.size() - at);
            const std::uint32_t* ids = fit.order.data() + at;
            fit.batch_slopes(ids, count);
            fit.step(ids, count, ++t, lr);
        }
        ++passes;
        const EpochRecord r = record(epoch);
        if (best.improved(r)) {
            result.weights = fit.w;
            result.best_epoch = epoch;
        } else if (best.stop()) {
            result.stopped_early = true;
            break;
        }
        if (r.objective < best_objective) {
            best_objective = r.objective;
            flat = 0;
        } else if (++flat == kPlateau) {
            lr *= 0.5;
            flat = 0;
        }
    }
    result.seconds = seconds_since(t0);
    return result;
}

} // namespace fanorona
