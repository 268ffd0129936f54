#include "tuner/texel/problem.h"

namespace fanorona {

ObjectiveValue Problem::objective(const WeightVector& w, bool gradient, bool curvature,
                                  std::span<const std::uint32_t> ids) const {
    const LossOutput out = compute_loss(*train, w, loss, k, ids, gradient, curvature);
    ObjectiveValue v;
    v.data = out.loss;
    v.total = out.loss;
    if (gradient) v.gradient = out.gradient;
    if (curvature) v.curvature = out.curvature;
    for (int f = 0; f < kFeatureCount; ++f) {
        if (!free[f]) {
            v.gradient[f] = 0;
            if (curvature) {
                v.curvature.row(f).setZero();
                v.curvature.col(f).setZero();
            }
            continue;
        }
        const double diff = w[f] - start[f];
        v.total += l2 * diff * diff;
        if (gradient) v.gradient[f] += 2 * l2 * diff;
        if (curvature) v.curvature(f, f) += 2 * l2;
    }
    return v;
}

int Problem::free_count() const {
    int n = 0;
    for (bool f : free) n += f;
    return n;
}

} // namespace fanorona
