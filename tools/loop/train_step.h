#pragma once
// The network loop's own steps (loop --net): the start network, and step 2 of an iteration, the
// training of a candidate network on the window's data from the current network.

#include <functional>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "core/nnue/network.h"
#include "tools/loop/loop.h"

namespace fanorona {

// A network with the file it lives in.
struct LoopNet {
    std::shared_ptr<const nnue::Network> net;
    std::string path;
};

// The start network of a network loop: engine.net, or a random one of the board's default
// architecture seeded by the loop's seed (nnue::random_float_network, as `net random`). Not
// written.
nnue::Network loop_start_network(const LoopConfig& c);

// Writes OUT/start.net (once; a resume reads it back) and returns it.
LoopNet write_start_network(const LoopConfig& c, const nnue::Network& start);

// Step 2 of iteration `n`: trains ITER/train/iter-N.net on the data of the window's iterations
// from `current`'s parameters (fanorona train's code, with iter-N.net.ckpt: a killed training
// resumes after its last epoch; iter-N.net.csv: the loss curve), or reads the finished step back.
// The step counts as done once ITER/train holds the network and train.json (the training's
// summary).
LoopNet train_step(const LoopConfig& c, int n, const LoopNet& current,
                   const std::function<void(const std::string&)>& say);

// The summary of a finished training step for the history (ITER/train/train.json).
nlohmann::json train_summary(const std::string& iteration_dir);

} // namespace fanorona
