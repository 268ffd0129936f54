#include "tuner/texel/loss.h"

#include <cmath>
#include <memory>

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include "core/common/fork_join.h"

namespace fanorona {

namespace {

using Curvature = Eigen::Matrix<double, kFeatureCount, kFeatureCount>;

// Per-thread buffers of the loss kernel, reused so that a pass allocates nothing.
struct LossScratch {
    EvalScratch eval;
    Eigen::ArrayXf z, s, slope;                 // K e, sigmoid(K e), its derivative in e
    Eigen::ArrayXf d, c;                        // dloss/de, curvature
    Eigen::ArrayXf a, b;                        // de/d(R w_mg) = p / 32, de/d(R w_eg)
    Eigen::Matrix<float, Eigen::Dynamic, 2> d2; // d * a and d * (1 - a)
    Eigen::Matrix<float, kTermCount, 2> g2;     // one block's gradient
    Eigen::MatrixXf dense;                      // the block's raw terms, dense
    Eigen::MatrixXf jac;                        // sqrt(c) * [a R, (1 - a) R]
    Eigen::MatrixXf jtj;                        // jac^T jac
};

thread_local LossScratch tls_scratch;

// log(1 + exp(z)) without overflow.
inline float softplus(float z) {
    return std::max(z, 0.0f) + std::log1p(std::exp(-std::abs(z)));
}

// The loss of a block's rows at their evaluations s.eval.e and targets y (s.z: K e, s.s: the
// sigmoid of K e).
double block_loss(LossScratch& s, const auto& y, LossKind kind, float k) {
    const Eigen::Index n = s.eval.e.size();
    s.z = s.eval.e.array() * k;
    s.s = 1.0f / (1.0f + (-s.z).exp());
    if (kind == LossKind::Mse) return (s.s - y).square().template cast<double>().sum();
    double sum = 0;
    for (Eigen::Index i = 0; i < n; ++i) sum += softplus(s.z[i]) - y[i] * s.z[i];
    return sum;
}

// After block_loss(): the loss's slope (s.d) and curvature (s.c) in each of block b's n
// evaluations, and each evaluation's slopes in R w_mg (s.a) and R w_eg (s.b).
void block_slopes(const FeatureMatrix& m, std::size_t b, Eigen::Index n, const auto& y,
                  LossKind kind, float k, LossScratch& s) {
    s.slope = s.s * (1.0f - s.s) * k;
    if (kind == LossKind::Mse) {
        s.d = 2.0f * (s.s - y) * s.slope;
        s.c = 2.0f * s.slope.square();
    } else {
        s.d = (s.s - y) * k;
        s.c = s.slope * k;
    }
    // e = eval_of_sum(blend(R w_mg, R w_eg, p)): its slopes in R w_mg and R w_eg.
    const auto unit = taper(1.0f, Eigen::Map<const Eigen::Array<std::uint8_t, Eigen::Dynamic, 1>>(
                                      m.phase.data() + m.block_begin(b), n)
                                      .cast<float>());
    s.a = eval_of_sum(unit.mg);
    s.b = eval_of_sum(unit.eg);
}

// The block's gradient (d loss / d w, [mg | eg] columns) added to `grad`.
void add_gradient(const BlockMatrix& block, Eigen::Index n, LossScratch& s,
                  Eigen::Matrix<double, kTermCount, 2>& grad) {
    s.d2.resize(n, 2);
    s.d2.col(0) = (s.d * s.a).matrix();
    s.d2.col(1) = (s.d * s.b).matrix();
    s.g2.noalias() = block.transpose() * s.d2;
    grad += s.g2.cast<double>();
}

// The block's Gauss-Newton curvature (lower triangle, [mg block | eg block]) added to `curv`.
void add_curvature(const BlockMatrix& block, Eigen::Index n, LossScratch& s, Curvature& curv) {
    s.dense = block; // n x kTermCount
    s.jac.resize(n, 2 * kTermCount);
    s.c = s.c.sqrt();
    s.jac.leftCols(kTermCount) = (s.c * s.a).matrix().asDiagonal() * s.dense;
    s.jac.rightCols(kTermCount) = (s.c * s.b).matrix().asDiagonal() * s.dense;
    s.jtj.setZero(2 * kTermCount, 2 * kTermCount);
    s.jtj.selfadjointView<Eigen::Lower>().rankUpdate(s.jac.transpose());
    curv += s.jtj.cast<double>();
}

// The loss sums over a range of blocks: a tbb deterministic-reduce body.
// Under TSan (TaskMemory, core/common/fork_join.h) each body object publishes its state after
// construction and after each range or join, and every use starts by acquiring it, before any
// member is read; a split or a join also acquires the other body first.
struct LossBody : TaskMemory {
    const ForkJoin& fj;
    const FeatureMatrix& m;
    std::span<const std::uint32_t> ids; // the blocks, or empty for all of them
    const Eigen::Matrix<float, kTermCount, 2>& w;
    LossKind kind;
    float k;
    bool want_gradient, want_curvature;

    double loss = 0;
    std::size_t rows = 0;
    Eigen::Matrix<double, kTermCount, 2> grad = Eigen::Matrix<double, kTermCount, 2>::Zero();
    std::unique_ptr<Curvature> curv; // [mg block | eg block] order, lower triangle

    LossBody(const ForkJoin& fj_, const FeatureMatrix& m_, std::span<const std::uint32_t> ids_,
             const Eigen::Matrix<float, kTermCount, 2>& w_, LossKind k_, float kk, bool g, bool c)
        : fj(fj_), m(m_), ids(ids_), w(w_), kind(k_), k(kk), want_gradient(g), want_curvature(c) {
        if (c) curv = std::make_unique<Curvature>(Curvature::Zero());
        end_use();
    }
    // TaskMemory(o) acquires o before any of its members is read.
    LossBody(LossBody& o, tbb::split)
        : TaskMemory(o), fj(o.fj), m(o.m), ids(o.ids), w(o.w), kind(o.kind), k(o.k),
          want_gradient(o.want_gradient), want_curvature(o.want_curvature) {
        if (want_curvature) curv = std::make_unique<Curvature>(Curvature::Zero());
        end_use();
    }
    ~LossBody() { begin_use(); }
    LossBody(const LossBody&) = delete;

    void join(LossBody& o) {
        begin_use();
        o.begin_use();
        fj.enter();
        loss += o.loss;
        rows += o.rows;
        grad += o.grad;
        if (curv) *curv += *o.curv;
        fj.leave();
        o.end_use();
        end_use();
    }

    void operator()(const tbb::blocked_range<std::size_t>& r) {
        begin_use();
        fj.enter();
        LossScratch& s = tls_scratch;
        for (std::size_t i = r.begin(); i != r.end(); ++i) block(ids.empty() ? i : ids[i], s);
        fj.leave();
        end_use();
    }

    void block(std::size_t b, LossScratch& s) {
        block_evaluation(m, b, w, s.eval);
        const Eigen::Index n = s.eval.e.size();
        const auto y = m.target.segment(Eigen::Index(m.block_begin(b)), n).array();
        // Step 1. The rows' loss.
        loss += block_loss(s, y, kind, k);
        rows += std::size_t(n);
        if (!want_gradient && !want_curvature) return;
        // Step 2. The loss's slope and curvature in each row's evaluation, and the evaluation's
        // slopes in the weights.
        block_slopes(m, b, n, y, kind, k, s);
        // Step 3. The gradient and the curvature of the weights.
        if (want_gradient) add_gradient(m.blocks[b], n, s, grad);
        if (want_curvature) add_curvature(m.blocks[b], n, s, *curv);
    }
};

// Feature index (2t + eg) of position i in the [mg block | eg block] order.
constexpr int interleaved(int i) {
    return i < kTermCount ? 2 * i : 2 * (i - kTermCount) + 1;
}

} // namespace

TargetSpec TargetSpec::parse(const std::string& text) {
    if (text == "result") return {1.0};
    if (text == "score") return {0.0};
    if (text.rfind("mix:", 0) == 0) {
        const std::string num = text.substr(4);
        std::size_t used = 0;
        double l = -1;
        try {
            l = std::stod(num, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used == num.size() && !num.empty() && l >= 0 && l <= 1) return {l};
    }
    throw std::invalid_argument("--target: expected result, score or mix:L with L in [0, 1], "
                                "found '" +
                                text + "'");
}

std::string TargetSpec::to_string() const {
    if (result_weight == 1.0) return "result";
    if (result_weight == 0.0) return "score";
    char buf[32];
    std::snprintf(buf, sizeof buf, "mix:%g", result_weight);
    return buf;
}

std::string loss_name(LossKind kind) {
    return kind == LossKind::Mse ? "mse" : "cross-entropy";
}

void set_targets(FeatureMatrix& m, const TargetSpec& spec, double k) {
    const double l = spec.result_weight;
    for (std::size_t i = 0; i < m.rows(); ++i) {
        const double result = 0.5 * (1.0 + m.result[i]);
        const double score = l < 1 ? sigmoid(k * m.score[i]) : 0.0;
        m.target[Eigen::Index(i)] = float(l * result + (1 - l) * score);
    }
}

LossOutput compute_loss(const FeatureMatrix& m, const WeightVector& w, LossKind kind, double k,
                        std::span<const std::uint32_t> ids, bool gradient, bool curvature) {
    const Eigen::Matrix<float, kTermCount, 2> wf =
        Eigen::Map<const TermWeights>(w.data()).cast<float>();
    const ForkJoin fork_join; // what TSan cannot see inside libtbb (core/common/fork_join.h)
    LossBody body(fork_join, m, ids, wf, kind, float(k), gradient, curvature);
    constexpr std::size_t kGrain = 4; // blocks per task
    const std::size_t count = ids.empty() ? m.block_count() : ids.size();
    tbb::parallel_deterministic_reduce(tbb::blocked_range<std::size_t>(0, count, kGrain), body);
    fork_join.joined();
    ForkJoin::acquire(&body);
    LossOutput out;
    out.rows = body.rows;
    const double n = body.rows ? double(body.rows) : 1.0;
    out.loss = body.loss / n;
    out.gradient = WeightVector::Zero();
    out.curvature.setZero();
    if (gradient)
        for (int t = 0; t < kTermCount; ++t) {
            out.gradient[2 * t] = body.grad(t, 0) / n;
            out.gradient[2 * t + 1] = body.grad(t, 1) / n;
        }
    if (curvature) {
        const Curvature& c = *body.curv;
        for (int i = 0; i < kFeatureCount; ++i)
            for (int j = 0; j <= i; ++j) {
                const double v = c(i, j) / n;
                out.curvature(interleaved(i), interleaved(j)) = v;
                out.curvature(interleaved(j), interleaved(i)) = v;
            }
    }
    return out;
}

double fit_k(const FeatureMatrix& m, const WeightVector& w, LossKind kind) {
    const Eigen::VectorXd e = evaluate_rows(m, w);
    if (e.size() == 0 || e.cwiseAbs().maxCoeff() == 0)
        throw TuneDataError("cannot fit K: the start weights evaluate every position as 0 "
                            "(give --k VALUE)");
    Eigen::VectorXd y(e.size());
    for (Eigen::Index i = 0; i < e.size(); ++i) y[i] = 0.5 * (1.0 + m.result[std::size_t(i)]);
    return fit_k_to(e, y, kind);
}

double fit_k_to(const Eigen::VectorXd& e, const Eigen::VectorXd& y, LossKind kind) {
    auto loss_at = [&](double log_k) {
        const double k = std::exp(log_k);
        const ForkJoin fork_join; // what TSan cannot see inside libtbb (core/common/fork_join.h)
        const double total = tbb::parallel_deterministic_reduce(
            tbb::blocked_range<Eigen::Index>(0, e.size(), 8192), 0.0,
            fork_join.body([&](const tbb::blocked_range<Eigen::Index>& r, double sum) {
                for (Eigen::Index i = r.begin(); i != r.end(); ++i)
                    sum += row_loss(kind, k, e[i], y[i]).loss;
                return sum;
            }),
            fork_join.combine(std::plus<double>()));
        fork_join.joined();
        return total / double(e.size());
    };
    // Golden-section search on log K.
    const double phi = (std::sqrt(5.0) - 1) / 2;
    double lo = std::log(1e-6), hi = std::log(1.0);
    double x1 = hi - phi * (hi - lo), x2 = lo + phi * (hi - lo);
    double f1 = loss_at(x1), f2 = loss_at(x2);
    while (hi - lo > 1e-5) { // K to a relative 1e-5
        if (f1 < f2) {
            hi = x2;
            x2 = x1;
            f2 = f1;
            x1 = hi - phi * (hi - lo);
            f1 = loss_at(x1);
        } else {
            lo = x1;
            x1 = x2;
            f1 = f2;
            x2 = lo + phi * (hi - lo);
            f2 = loss_at(x2);
        }
    }
    return std::exp((lo + hi) / 2);
}

} // namespace fanorona
