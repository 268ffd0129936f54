#pragma once
// A network's loss on data, the measure `fanorona train` reports, taken for networks already
// written: the integer networks as the engine plays them, on any positions logs or corpora (held
// out from their training), against the same target as training, lambda * sigmoid(K * score) +
// (1 - lambda) * result, with the same filters. With lambda 0 the target is the game results
// alone, so networks trained on different labels (a corpus and its rescored copy) are compared on
// equal terms.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "selfplay/formats/position_log.h"
#include "tuner/dataset.h"

namespace fanorona {

// The game's result for the side to move in `r`: 1 (won), 0.5 (drawn) or 0 (lost).
double result_for_side(const PositionRecord& r);

// What `fanorona net loss` measures: networks (files or built-in names), on data, one target.
struct NetLossConfig {
    std::vector<std::string> nets;
    std::vector<std::string> data; // positions logs, corpus files, folders of corpus files
    double lambda = 0.5;           // weight of the search score in the target
    std::optional<double> k;       // the sigmoid scale per centi-piece; fitted to the data if empty
    DataFilter filter;
};

// One network's loss: the mean of (sigmoid(K * e) - t)^2 over the positions (e its evaluation in
// centi-pieces for the side to move), and of the same against the result alone.
struct NetLossRow {
    std::string net;
    std::string fingerprint;
    double loss = 0;
    double result_loss = 0;
};

// The measurement: the positions and games used, K, and one row per network in order. The
// labels' own loss (sigmoid(K * score) against the result) is there to compare with.
struct NetLossReport {
    std::uint64_t positions = 0, games = 0;
    double k = 0;
    bool k_fitted = false;
    double label_result_loss = 0;
    std::vector<NetLossRow> rows;
};

// Reads every network, then the data once. Throws std::invalid_argument (a network for another
// board than the data's, no network), TuneDataError and the readers' errors for bad input.
NetLossReport measure_net_loss(const NetLossConfig& config);

} // namespace fanorona
