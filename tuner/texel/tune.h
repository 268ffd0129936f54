#pragma once
// A whole tuning run: read the logs, split by game, extract the feature matrices, fit K, fit
// the weights, round them; and the files it writes (weights, loss.csv, tune.json).

#include <array>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/evaluate.h"
#include "tuner/dataset.h"
#include "tuner/texel/optimizer.h"
#include "tuner/texel/pattern_fit.h"

namespace fanorona {

// Every setting of `fanorona tune`.
struct TuneConfig {
    std::vector<std::string> data;      // positions logs
    Weights start;                      // the start weights
    std::string start_name = "default"; // the file they came from ("default": built in)
    std::string out_dir; // the folder to write weights.txt, loss.csv, tune.json to ("": none)
    TargetSpec target;
    LossKind loss = LossKind::Mse;
    OptimizerSettings optimizer;
    double l2 = 1e-7;                // pull towards the start weights, see Problem: it keeps
                                     // collinear terms (material, point tables) from drifting
    std::optional<double> k;         // the sigmoid scale; fitted when empty
    double validation = 0.1;         // fraction of games held out
    std::vector<std::string> freeze; // weights that stay: see resolve_frozen
    std::uint64_t seed = 1;          // split, row order, mini-batches
    int threads = 0;                 // for the records (the caller limits oneTBB)
    DataFilter filter;
    PatternSettings patterns; // --patterns: fit pattern weights with the terms (5x9 only)
};

// Feature names, term names (both halves) and prefixes ending in '*' (e.g. "pst_*") to a mask;
// throws std::invalid_argument naming an unknown entry.
std::array<bool, kFeatureCount> resolve_frozen(const std::vector<std::string>& names);

// One weight the fit changed.
struct WeightChange {
    std::string name;
    int start = 0;
    int final = 0;
};

// One round of a fit with patterns: the pattern fit (terms fixed), then the term fit (patterns
// fixed). Losses are the training and validation losses at the round's start, after its pattern
// fit and after its term fit (unrounded weights).
struct PatternRound {
    int round = 0;
    double start_train = 0, start_validation = 0;
    double patterns_train = 0, patterns_validation = 0;
    double terms_train = 0, terms_validation = 0;
    PatternFitResult patterns; // its history and best epoch (weights cleared)
    FitResult terms;           // the term fit of the round
    double seconds = 0;
};

// What a tuning run did and measured.
struct TuneReport {
    std::vector<std::string> files;
    Rules rules;
    FilterCounts counts; // what the data filter read, dropped and relabelled (tuner/dataset.h)
    std::uint64_t train_positions = 0, validation_positions = 0;
    std::uint64_t train_games = 0, validation_games = 0;
    std::vector<std::string> warnings;

    double extraction_seconds = 0; // features of every position, train and validation
    std::uint64_t nonzeros = 0;
    std::uint64_t matrix_bytes = 0; // feature matrices and per-row vectors

    double k = 0;
    bool k_fitted = false;
    std::vector<std::string> frozen; // names held at their start value (asked for)
    std::vector<std::string> unused; // names no training position gives a value (also held)

    // Losses with the start weights, the fitted (unrounded) weights and the rounded ones.
    double start_train_loss = 0, start_validation_loss = 0;
    double fitted_train_loss = 0, fitted_validation_loss = 0;
    double final_train_loss = 0, final_validation_loss = 0;

    FitResult fit;                    // the term fit (with patterns: the last round's)
    std::vector<PatternRound> rounds; // with patterns, else empty
    std::uint64_t pattern_free = 0;   // pattern numbers seen in --pattern-min-count rows or more
    std::uint64_t pattern_active = 0; // final pattern weights (of 2 * kPatternCount) that are not 0
    Weights final;
    std::vector<WeightChange> changed;
    double seconds = 0; // the whole run
};

// Runs the pipeline; `log` receives progress lines (one per step and one per epoch). Throws
// TuneDataError / PositionLogError / std::invalid_argument for bad input.
TuneReport run_tune(const TuneConfig& config, const std::function<void(const std::string&)>& log);

// The weights file: core's format with a comment header saying how it was produced.
std::string tuned_weights_text(const TuneConfig& config, const TuneReport& report);
nlohmann::ordered_json tune_json(const TuneConfig& config, const TuneReport& report);
std::string loss_csv(const TuneReport& report);
// Writes weights.txt, loss.csv and tune.json into config.out_dir (creating it).
void write_tune_outputs(const TuneConfig& config, const TuneReport& report);

// `fanorona tune --check`: the evaluation computed through the feature matrix against the
// engine's evaluate() for every position of the logs.
struct CheckReport {
    std::uint64_t positions = 0;
    std::uint64_t mismatches = 0;      // trunc(matrix evaluation) != evaluate()
    double max_difference = 0;         // largest |matrix evaluation - evaluate()|, below 1
    std::vector<std::string> examples; // the first few mismatches, described
};
CheckReport check_against_engine(const std::vector<std::string>& files, const Weights& w,
                                 const DataFilter& filter = {});

} // namespace fanorona
