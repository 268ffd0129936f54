#pragma once
// Minimising a Problem: Adam (full-batch or mini-batch), Gauss-Newton with Levenberg-Marquardt
// damping, or L-BFGS, epoch by epoch, with the training and validation loss recorded after
// every epoch, a convergence test and early stopping on the validation loss.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "tuner/texel/problem.h"

namespace fanorona {

enum class OptimizerKind { Adam, Newton, Lbfgs };
std::string optimizer_name(OptimizerKind kind);
std::optional<OptimizerKind> parse_optimizer(const std::string& name);

// How to run the fit. An epoch is one pass over the training rows for Adam (all its
// mini-batches), one damped Gauss-Newton step for newton, one line search for lbfgs.
struct OptimizerSettings {
    OptimizerKind kind = OptimizerKind::Newton;
    int epochs = 200;          // at most this many epochs
    std::size_t batch = 16384; // Adam: rows per mini-batch, rounded up to whole blocks; 0: all
    double lr = 1.0;           // Adam: step size, in centi-pieces per step
    double lr_decay = 1.0;     // Adam: the step size is multiplied by this after every epoch
    double tolerance = 1e-6;   // converged when an epoch lowers the lowest objective so far by
                               // less than this fraction of it (Adam: its last 10 epochs)
    int patience = 10;         // stop when the validation loss has not improved for this many
                               // epochs (0: no early stopping)
    std::uint64_t seed = 1;    // Adam's mini-batch order (run_tune sets TuneConfig::seed)
};

// The state after one epoch (epoch 0: the start weights).
struct EpochRecord {
    int epoch = 0;
    double train_loss = 0;      // mean loss on the training rows (without the L2 term)
    double validation_loss = 0; // NaN without a validation set
    double objective = 0;       // train_loss plus the L2 term
    double seconds = 0;         // since the fit began
    std::uint64_t passes = 0;   // passes over the training data so far
};

// Which epoch of a fit is the best: the lowest validation loss, or without a validation set (its
// loss NaN) the lowest training objective; and early stopping when the validation loss has not
// improved for `patience` epochs (0: never). Starts from epoch 0's record.
class BestEpoch {
public:
    BestEpoch(const EpochRecord& first, int patience);
    // Whether `r` is the best epoch so far (the fit then keeps its weights); after a false,
    // stop() says whether the patience ran out.
    bool improved(const EpochRecord& r);
    bool stop() const { return stop_; }

private:
    bool has_validation_;
    int patience_;
    double best_;
    int since_best_ = 0;
    bool stop_ = false;
};

// The result of a fit: `weights` (unrounded) are those of the epoch with the lowest validation
// loss, or without a validation set the lowest training objective.
struct FitResult {
    WeightVector weights;
    std::vector<EpochRecord> history;
    int best_epoch = 0;
    bool converged = false;     // the convergence test passed
    bool stopped_early = false; // the validation loss stopped improving
    double seconds = 0;
};

FitResult fit(const Problem& problem, const OptimizerSettings& settings,
              const std::function<void(const EpochRecord&)>& on_epoch = {});

} // namespace fanorona
