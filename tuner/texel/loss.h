#pragma once
// The Texel loss: how well sigmoid(K * e) predicts a target in [0, 1], for the evaluations e of
// a feature matrix; its gradient and Gauss-Newton curvature with respect to the weights.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "tuner/texel/feature_matrix.h"

namespace fanorona {

// mse: mean of (sigmoid(K e) - y)^2 (the Texel loss). cross-entropy: mean of
// -(y ln s + (1 - y) ln(1 - s)) with s = sigmoid(K e).
enum class LossKind { Mse, CrossEntropy };

// What a position's target is: result_weight * R + (1 - result_weight) * sigmoid(K * score),
// R being the game's result for the side to move (1 win, 1/2 draw, 0 loss). 1 is the result
// alone, 0 the search score alone.
struct TargetSpec {
    double result_weight = 1.0;
    // "result", "score" or "mix:L" (L in [0, 1], the weight of the result).
    static TargetSpec parse(const std::string& text);
    std::string to_string() const;
};

std::string loss_name(LossKind kind);

inline double sigmoid(double x) {
    return 1.0 / (1.0 + std::exp(-x));
}

// One row's loss at evaluation e (centi-pieces) against target y, and its derivative in e: the
// per-row form of compute_loss, for fits that visit rows one by one (tuner/texel/pattern_fit.h).
struct RowLoss {
    double loss = 0;
    double slope = 0;
};
inline RowLoss row_loss(LossKind kind, double k, double e, double y) {
    const double z = k * e;
    const double s = sigmoid(z);
    if (kind == LossKind::Mse) return {(s - y) * (s - y), 2 * (s - y) * s * (1 - s) * k};
    return {std::max(z, 0.0) + std::log1p(std::exp(-std::abs(z))) - y * z, (s - y) * k};
}

// Sets m.target for every row.
void set_targets(FeatureMatrix& m, const TargetSpec& spec, double k);

// The mean loss over the rows of the blocks listed in `ids` (all blocks when `ids` is empty),
// and if asked its gradient and its Gauss-Newton
// matrix (J^T C J / n: J the derivative of the evaluations, C the per-row curvature of the
// loss) with respect to the weights, in feature order (2t mg, 2t+1 eg). Computed in parallel
// with a deterministic reduction: the same numbers with any number of threads.
struct LossOutput {
    double loss = 0;
    WeightVector gradient;
    Eigen::Matrix<double, kFeatureCount, kFeatureCount> curvature;
    std::size_t rows = 0;
};
LossOutput compute_loss(const FeatureMatrix& m, const WeightVector& w, LossKind kind, double k,
                        std::span<const std::uint32_t> ids, bool gradient, bool curvature);

inline double mean_loss(const FeatureMatrix& m, const WeightVector& w, LossKind kind, double k) {
    return compute_loss(m, w, kind, k, {}, false, false).loss;
}

// The K that minimises the loss of the weights `w` against the game results (whatever the
// tuning target: the score target itself depends on K). Golden-section search on log K in
// [1e-6, 1]. Throws TuneDataError when every evaluation is 0 (K is then undetermined).
double fit_k(const FeatureMatrix& m, const WeightVector& w, LossKind kind);
// The same search for evaluations `e` (centi-pieces) against results `y` (1, 1/2, 0): the net
// trainer fits K to the logged search scores this way. `e` must not be all 0.
double fit_k_to(const Eigen::VectorXd& e, const Eigen::VectorXd& y, LossKind kind);

} // namespace fanorona
