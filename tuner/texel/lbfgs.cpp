// L-BFGS: a quasi-Newton direction from the last few steps (two-loop recursion), and a line
// search for the weak Wolfe conditions (bisection and doubling). One epoch is one line search.

#include <cmath>
#include <deque>
#include <limits>

#include "tuner/texel/steppers.h"

namespace fanorona {

namespace {

class Lbfgs final : public Stepper {
public:
    Lbfgs(const Problem& p, const OptimizerSettings&) : p_(p) {}

    StepOutcome step(WeightVector& w, int) override {
        StepOutcome out;
        if (!current_) {
            current_ = p_.objective(w, true, false);
            ++out.passes;
        }
        const WeightVector& g = current_->gradient;
        WeightVector d = -direction(g);
        double slope = g.dot(d);
        if (!(slope < 0)) { // not a descent direction: start again from steepest descent
            history_.clear();
            d = -g;
            slope = g.dot(d);
        }
        if (!(slope < 0)) {
            out.value = current_;
            out.stalled = true;
            return out;
        }
        // The first step moves the largest weight by one centi-piece; later ones try 1.
        double alpha = history_.empty() ? 1.0 / d.cwiseAbs().maxCoeff() : 1.0;
        double lo = 0, hi = std::numeric_limits<double>::infinity();
        constexpr double c1 = 1e-4, c2 = 0.9;
        std::optional<ObjectiveValue> accepted;
        WeightVector accepted_w;
        for (int eval = 0; eval < 40; ++eval) {
            const WeightVector trial = w + alpha * d;
            ObjectiveValue v = p_.objective(trial, true, false);
            ++out.passes;
            if (!(v.total <= current_->total + c1 * alpha * slope)) {
                hi = alpha;
            } else {
                if (!accepted || v.total < accepted->total) {
                    accepted = v;
                    accepted_w = trial;
                }
                if (v.gradient.dot(d) < c2 * slope)
                    lo = alpha;
                else
                    break; // both conditions hold
            }
            alpha = std::isinf(hi) ? 2 * alpha : (lo + hi) / 2;
        }
        if (!accepted) {
            out.value = current_;
            out.stalled = true;
            return out;
        }
        const WeightVector s = accepted_w - w;
        const WeightVector y = accepted->gradient - g;
        const double sy = s.dot(y);
        if (sy > 1e-12 * s.norm() * y.norm()) {
            history_.push_back({s, y, 1.0 / sy});
            if (history_.size() > kMemory) history_.pop_front();
        }
        w = accepted_w;
        current_ = std::move(accepted);
        out.value = current_;
        return out;
    }

private:
    // One remembered step: s the change of the weights, y of the gradient, rho = 1 / (s . y) > 0.
    struct Pair {
        WeightVector s, y;
        double rho;
    };
    static constexpr std::size_t kMemory = 10;

    // H g by the two-loop recursion, H0 = (s.y / y.y) I.
    WeightVector direction(const WeightVector& g) const {
        WeightVector q = g;
        std::vector<double> alphas(history_.size());
        for (std::size_t i = history_.size(); i-- > 0;) {
            alphas[i] = history_[i].rho * history_[i].s.dot(q);
            q -= alphas[i] * history_[i].y;
        }
        if (!history_.empty()) {
            const Pair& last = history_.back();
            q *= last.s.dot(last.y) / last.y.squaredNorm();
        }
        for (std::size_t i = 0; i < history_.size(); ++i) {
            const double beta = history_[i].rho * history_[i].y.dot(q);
            q += (alphas[i] - beta) * history_[i].s;
        }
        return q;
    }

    const Problem& p_;
    std::deque<Pair> history_;
    std::optional<ObjectiveValue> current_;
};

} // namespace

std::unique_ptr<Stepper> make_lbfgs(const Problem& p, const OptimizerSettings& s) {
    return std::make_unique<Lbfgs>(p, s);
}

} // namespace fanorona
