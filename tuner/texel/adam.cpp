// Adam: per-weight steps from running means of the gradient and its square. Each epoch visits
// every training block once, in a new seeded order, in mini-batches of whole blocks (the rows
// were shuffled when the matrix was built, so a block is a random sample of positions). The step
// size is multiplied by --lr-decay after every epoch and halved after two epochs that do not
// lower the lowest training objective (by the tolerance): mini-batch noise then dies down and
// the convergence test can pass. Halved ten times, the fit has converged.

#include <cmath>
#include <limits>
#include <numeric>

#include "core/common/rng.h"
#include "tuner/adam_rule.h"
#include "tuner/texel/steppers.h"

namespace fanorona {

namespace {

class Adam final : public Stepper {
public:
    Adam(const Problem& p, const OptimizerSettings& s) : p_(p), s_(s) {
        const std::size_t blocks = p.train->block_count();
        order_.resize(blocks);
        std::iota(order_.begin(), order_.end(), 0u);
        batch_blocks_ =
            s.batch == 0
                ? blocks
                : std::max<std::size_t>(1, (s.batch + kBlockRows - 1) / std::size_t(kBlockRows));
        batch_blocks_ = std::min(batch_blocks_, blocks);
    }

    StepOutcome step(WeightVector& w, int epoch) override {
        StepOutcome out;
        if (epoch > 1) lr_ *= s_.lr_decay;
        const double lr = lr_;
        if (batch_blocks_ < order_.size()) {
            Rng::derive(s_.seed, 0xADA3, std::uint64_t(epoch)).shuffle(order_);
        }
        for (std::size_t at = 0; at < order_.size(); at += batch_blocks_) {
            const std::size_t count = std::min(batch_blocks_, order_.size() - at);
            const std::span<const std::uint32_t> ids(order_.data() + at, count);
            const ObjectiveValue v = p_.objective(
                w, true, false, count == order_.size() ? std::span<const std::uint32_t>() : ids);
            const WeightVector& g = v.gradient;
            const AdamStep adam(kRule, ++t_, lr);
            for (int f = 0; f < kFeatureCount; ++f)
                if (p_.free[f]) adam.update(w[f], m_[f], v_[f], g[f]);
        }
        out.value = p_.objective(w, false, false);
        out.passes = 2;
        if (best_ - out.value->total > s_.tolerance * std::abs(out.value->total)) {
            flat_epochs_ = 0;
        } else if (++flat_epochs_ == kPlateau) {
            lr_ *= 0.5;
            flat_epochs_ = 0;
        }
        best_ = std::min(best_, out.value->total);
        out.stalled = lr_ < s_.lr * 0x1p-10; // halved ten times
        return out;
    }

    int convergence_window() const override { return 10; }

private:
    static constexpr AdamRule kRule{.epsilon = 1e-12}; // gradients of a mean loss are ~1e-5
    static constexpr int kPlateau = 2; // epochs without progress that halve the step

    const Problem& p_;
    OptimizerSettings s_;
    std::vector<std::uint32_t> order_;
    std::size_t batch_blocks_ = 1;
    WeightVector m_ = WeightVector::Zero(), v_ = WeightVector::Zero();
    std::uint64_t t_ = 0;
    double lr_ = s_.lr;
    double best_ = std::numeric_limits<double>::infinity(); // lowest objective after an epoch
    int flat_epochs_ = 0; // epochs since best_ last improved (reset when the step is halved)
};

} // namespace

std::unique_ptr<Stepper> make_adam(const Problem& p, const OptimizerSettings& s) {
    return std::make_unique<Adam>(p, s);
}

} // namespace fanorona
