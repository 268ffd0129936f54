#include "tuner/texel/optimizer.h"

#include <chrono>
#include <cmath>

#include "tuner/texel/steppers.h"

namespace fanorona {

std::string optimizer_name(OptimizerKind kind) {
    switch (kind) {
    case OptimizerKind::Adam:
        return "adam";
    case OptimizerKind::Newton:
        return "newton";
    case OptimizerKind::Lbfgs:
        return "lbfgs";
    }
    return "?";
}

std::optional<OptimizerKind> parse_optimizer(const std::string& name) {
    for (OptimizerKind k : {OptimizerKind::Adam, OptimizerKind::Newton, OptimizerKind::Lbfgs})
        if (optimizer_name(k) == name) return k;
    return std::nullopt;
}

BestEpoch::BestEpoch(const EpochRecord& first, int patience)
    : has_validation_(!std::isnan(first.validation_loss)), patience_(patience),
      best_(has_validation_ ? first.validation_loss : first.objective) {}

bool BestEpoch::improved(const EpochRecord& r) {
    const double x = has_validation_ ? r.validation_loss : r.objective;
    if (x < best_) {
        best_ = x;
        since_best_ = 0;
        return true;
    }
    if (has_validation_ && patience_ > 0 && ++since_best_ >= patience_) stop_ = true;
    return false;
}

FitResult fit(const Problem& problem, const OptimizerSettings& settings,
              const std::function<void(const EpochRecord&)>& on_epoch) {
    using Clock = std::chrono::steady_clock;
    const auto t0 = Clock::now();
    auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - t0).count(); };

    std::unique_ptr<Stepper> stepper =
        settings.kind == OptimizerKind::Adam     ? make_adam(problem, settings)
        : settings.kind == OptimizerKind::Newton ? make_newton(problem, settings)
                                                 : make_lbfgs(problem, settings);
    FitResult result;
    WeightVector w = problem.initial ? *problem.initial : problem.start;
    std::uint64_t passes = 0;
    auto record = [&](int epoch, const ObjectiveValue& v) {
        EpochRecord r;
        r.epoch = epoch;
        r.train_loss = v.data;
        r.objective = v.total;
        r.validation_loss = problem.validation_loss(w);
        r.passes = passes;
        r.seconds = elapsed();
        result.history.push_back(r);
        if (on_epoch) on_epoch(r);
        return r;
    };

    ++passes;
    const EpochRecord first = record(0, problem.objective(w, false, false));
    BestEpoch best(first, settings.patience);
    result.weights = w;
    std::vector<double> best_objective = {first.objective}; // after each epoch
    for (int epoch = 1; epoch <= settings.epochs; ++epoch) {
        StepOutcome step = stepper->step(w, epoch);
        passes += step.passes;
        if (!step.value) {
            step.value = problem.objective(w, false, false);
            ++passes;
        }
        const EpochRecord r = record(epoch, *step.value);
        if (best.improved(r)) {
            result.weights = w;
            result.best_epoch = epoch;
        } else if (best.stop()) {
            result.stopped_early = true;
            break;
        }
        if (step.stalled) {
            result.converged = true;
            break;
        }
        // Converged when the lowest objective so far is hardly lower than it was `window`
        // epochs ago (for noisy methods, a worse epoch is not yet a verdict).
        best_objective.push_back(std::min(best_objective.back(), r.objective));
        const std::size_t window = std::size_t(stepper->convergence_window());
        if (best_objective.size() > window) {
            const double now = best_objective.back();
            const double before = best_objective[best_objective.size() - 1 - window];
            if (before - now <= settings.tolerance * std::abs(now)) {
                result.converged = true;
                break;
            }
        }
    }
    result.seconds = elapsed();
    return result;
}

} // namespace fanorona
