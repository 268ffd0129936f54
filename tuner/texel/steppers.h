#pragma once
// The optimizers' inner loops, behind one interface used by fit() (optimizer.cpp).

#include <memory>

#include "tuner/texel/optimizer.h"

namespace fanorona {

// What one epoch of an optimizer did.
struct StepOutcome {
    std::optional<ObjectiveValue> value; // the objective at the new weights, if it was computed
    std::uint64_t passes = 0;            // passes over the training data this epoch
    bool stalled = false;                // no step could lower the objective
};

// One optimizer: step() moves the weights by one epoch.
class Stepper {
public:
    virtual ~Stepper() = default;
    virtual StepOutcome step(WeightVector& w, int epoch) = 0;
    // Epochs over which the convergence test looks (noisy methods look further back).
    virtual int convergence_window() const { return 1; }
};

std::unique_ptr<Stepper> make_adam(const Problem& p, const OptimizerSettings& s);
std::unique_ptr<Stepper> make_newton(const Problem& p, const OptimizerSettings& s);
std::unique_ptr<Stepper> make_lbfgs(const Problem& p, const OptimizerSettings& s);

} // namespace fanorona
