#pragma once
// What the optimizers minimise: the mean loss on the training matrix plus an L2 pull towards
// the start weights, over the weights that are free to move.

#include <array>
#include <cmath>
#include <limits>
#include <optional>

#include "tuner/texel/loss.h"

namespace fanorona {

// The value of the objective at some weights, and if asked its derivatives (zero in the frozen
// coordinates; the curvature is the Gauss-Newton matrix plus the L2 term).
struct ObjectiveValue {
    double data = 0;  // the mean loss
    double total = 0; // data + l2 * sum over free weights of (w - start)^2
    WeightVector gradient = WeightVector::Zero();
    Eigen::Matrix<double, kFeatureCount, kFeatureCount> curvature;
};

// A tuning problem. `train` is non-empty; `validation` may be null or empty. Frozen weights
// (free[f] false) stay at their start value.
struct Problem {
    const FeatureMatrix* train = nullptr;
    const FeatureMatrix* validation = nullptr;
    LossKind loss = LossKind::Mse;
    double k = 0;
    double l2 = 0;
    WeightVector start = WeightVector::Zero();
    // Where the fit begins when set (the L2 pull still goes towards `start`); else `start`.
    std::optional<WeightVector> initial;
    std::array<bool, kFeatureCount> free{};

    // Over all training blocks, or the blocks listed in `ids` (a mini-batch).
    ObjectiveValue objective(const WeightVector& w, bool gradient, bool curvature,
                             std::span<const std::uint32_t> ids = {}) const;
    double train_loss(const WeightVector& w) const { return mean_loss(*train, w, loss, k); }
    // NaN when there is no validation set.
    double validation_loss(const WeightVector& w) const {
        if (!validation || validation->rows() == 0) return std::numeric_limits<double>::quiet_NaN();
        return mean_loss(*validation, w, loss, k);
    }
    int free_count() const;
};

} // namespace fanorona
