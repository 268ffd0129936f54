// Gauss-Newton with Levenberg-Marquardt damping: each epoch solves the (dense, kFeatureCount
// square) normal equations (J^T C J / n + 2 l2 I + lambda D) delta = -g over the free weights,
// J being the sparse derivative of the evaluations. The step is kept only if it lowers the
// objective; lambda shrinks after a good step and grows after a bad one.

#include <Eigen/Cholesky>

#include "tuner/texel/steppers.h"

namespace fanorona {

namespace {

class Newton final : public Stepper {
public:
    Newton(const Problem& p, const OptimizerSettings&) : p_(p) {
        for (int f = 0; f < kFeatureCount; ++f)
            if (p.free[f]) free_.push_back(f);
    }

    StepOutcome step(WeightVector& w, int) override {
        StepOutcome out;
        if (!current_) {
            current_ = p_.objective(w, true, true);
            ++out.passes;
        }
        const int n = int(free_.size());
        if (n == 0) {
            out.value = current_;
            out.stalled = true;
            return out;
        }
        Eigen::MatrixXd h(n, n);
        Eigen::VectorXd g(n);
        for (int i = 0; i < n; ++i) {
            g[i] = current_->gradient[free_[i]];
            for (int j = 0; j < n; ++j) h(i, j) = current_->curvature(free_[i], free_[j]);
        }
        // Marquardt scaling: damp each weight by its own curvature (a floor keeps the matrix
        // definite for weights the data barely touches).
        const Eigen::VectorXd scale =
            h.diagonal().cwiseMax(1e-12 * h.diagonal().maxCoeff() + 1e-300);
        for (int attempt = 0; attempt < 30; ++attempt) {
            Eigen::MatrixXd a = h;
            a.diagonal() += lambda_ * scale;
            const Eigen::VectorXd delta = -a.ldlt().solve(g);
            WeightVector trial = w;
            for (int i = 0; i < n; ++i) trial[free_[i]] += delta[i];
            ObjectiveValue v = p_.objective(trial, true, true);
            ++out.passes;
            if (v.total <= current_->total && delta.allFinite()) {
                w = trial;
                lambda_ = std::max(lambda_ * 0.3, 1e-7);
                current_ = std::move(v);
                out.value = current_;
                return out;
            }
            lambda_ *= 10;
        }
        out.value = current_;
        out.stalled = true;
        return out;
    }

private:
    const Problem& p_;
    std::vector<int> free_;
    std::optional<ObjectiveValue> current_; // at the current weights, with derivatives
    double lambda_ = 1e-3;
};

} // namespace

std::unique_ptr<Stepper> make_newton(const Problem& p, const OptimizerSettings& s) {
    return std::make_unique<Newton>(p, s);
}

} // namespace fanorona
