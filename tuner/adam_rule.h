#pragma once
// Adam's update of one weight (Kingma and Ba): running means of the gradient and of its square,
// bias-corrected, set the step. The term fit (adam.cpp) and the pattern fit (pattern_fit.cpp)
// both step through here.

#include <cmath>
#include <cstdint>

namespace fanorona {

// Adam's constants. `epsilon` is added to the root of the corrected square, so it must sit
// below the gradients' scale: each caller gives its own (the term fit 1e-12, its gradients of a
// mean loss being ~1e-5; the pattern fit 1e-18, its per-configuration gradients far smaller).
struct AdamRule {
    double beta1 = 0.9;
    double beta2 = 0.999;
    double epsilon = 1e-12;
};

// One step of Adam at step number `t` (from 1) with step size `lr`: update() moves one weight
// and its two moments. The bias corrections are computed once per step, not per weight.
class AdamStep {
public:
    AdamStep(const AdamRule& rule, std::uint64_t t, double lr)
        : rule_(rule), lr_(lr), c1_(1 - std::pow(rule.beta1, double(t))),
          c2_(1 - std::pow(rule.beta2, double(t))) {}

    // `g` is the weight's gradient; `mean` and `square` its running moments (0 at first).
    void update(double& w, double& mean, double& square, double g) const {
        mean = rule_.beta1 * mean + (1 - rule_.beta1) * g;
        square = rule_.beta2 * square + (1 - rule_.beta2) * (g * g);
        w -= lr_ * (mean / c1_) / (std::sqrt(square / c2_) + rule_.epsilon);
    }

private:
    AdamRule rule_;
    double lr_, c1_, c2_;
};

} // namespace fanorona
