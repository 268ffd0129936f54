#pragma once
// Fitting the pattern weights (core/patterns.h, 5x9 only) with the term weights held fixed.
//
// A row's evaluation is its term part (the feature matrix, see feature_matrix.h) plus its
// pattern part, in centi-pieces:
//   pattern(i) = sum over the 21 windows of blend(w_mg(p), w_eg(p), phase_i) / kEvalScale,
// p the window's pattern weight number, exactly as evaluate() adds it to the sum S. Each row
// touches 21 _mg and 21 _eg weights, so the fit is sparse Adam on mini-batches of whole
// blocks: the row derivatives are computed in parallel, scattered class by class (a window's
// class is fixed by its place, so classes are disjoint: no two tasks write one weight, and
// each class's sums run in row order) and only the weights a batch touched are stepped (lazy
// Adam). Results are the same on any number of threads. The tuner alternates this fit with the
// term fit, which sees the pattern part as a fixed per-row offset (FeatureMatrix::offset).

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "core/evaluate.h"
#include "tuner/texel/loss.h"
#include "tuner/texel/optimizer.h"

namespace fanorona {

// The pattern settings of `fanorona tune` (--patterns and --pattern-*).
struct PatternSettings {
    bool enabled = false;      // fit patterns with the terms (5x9 logs only)
    int rounds = 3;            // alternations: patterns (terms fixed), then terms
    int epochs = 20;           // at most this many epochs per pattern fit
    std::size_t batch = 16384; // rows per mini-batch, rounded up to whole blocks
    double lr = 0.5;           // Adam step size, centi-pieces
    double l2 = 1e-7; // adds l2 * w^2 per pattern weight (towards 0) to the loss: lower values
                      // fit the results better but played worse (docs/patterns.md)
    std::uint32_t min_count = 20; // weights seen in fewer training rows stay at their start
};

// Pattern weights during the fit, [2p] the _mg and [2p + 1] the _eg weight of pattern p, in
// centi-pieces; size 2 * kPatternCount.
using PatternVector = std::vector<double>;

PatternVector pattern_vector(const Weights& w); // zeros when w.patterns is null
// Rounded to integers and clamped to +-kMaxWeight; null when every weight rounds to 0.
std::shared_ptr<const PatternWeights> round_patterns(const PatternVector& v);

// For each pattern weight number, how many rows of m show it in some window (once per row).
std::vector<std::uint32_t> pattern_counts(const FeatureMatrix& m);

// The pattern part of row r's evaluation, in centi-pieces (exact for integer weights).
double pattern_row_eval(const FeatureMatrix& m, std::size_t r, const PatternVector& w);

// m.offset = every row's pattern part.
void set_pattern_offsets(FeatureMatrix& m, const PatternVector& w);

// A pattern fit: the matrices' term parts with `terms` are fixed. Weights with free[p] false
// stay at their start value (both halves).
struct PatternProblem {
    const FeatureMatrix* train = nullptr;
    const FeatureMatrix* validation = nullptr; // may be null or empty
    LossKind loss = LossKind::Mse;
    double k = 0;
    double l2 = 0;
    WeightVector terms = WeightVector::Zero();
    std::vector<bool> free; // kPatternCount entries
    PatternVector start;
};

// The result: `weights` of the epoch with the lowest validation loss (without validation, the
// lowest training objective); history from epoch 0 (the start).
struct PatternFitResult {
    PatternVector weights;
    std::vector<EpochRecord> history;
    int best_epoch = 0;
    bool stopped_early = false;
    double seconds = 0;
};

// Sparse Adam for at most settings.epochs epochs (mini-batch order from `seed`); stops when the
// validation loss has not improved for `patience` epochs (0: never).
PatternFitResult fit_patterns(const PatternProblem& problem, const PatternSettings& settings,
                              int patience, std::uint64_t seed,
                              const std::function<void(const EpochRecord&)>& on_epoch = {});

} // namespace fanorona
