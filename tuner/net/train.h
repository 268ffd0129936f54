#pragma once
// Training a network (NNUE_SPEC.md) on positions logs: the float model (nnue::FloatNetwork, its
// passes in tuner/net/model.h) fitted by mini-batch Adam to a blend of the search score and the
// game result, with a validation split by game, early stopping, a checkpoint after every epoch
// (--resume), the loss curve as CSV, and the quantised network written with its provenance
// (selfplay/formats/net_file.h).
//
// Loss: mean over positions of (sigmoid(K * e) - t)^2, e = y * scale the model's evaluation in
// centi-pieces for the side to move, t = lambda * sigmoid(K * score) + (1 - lambda) * R (R the
// game's result for the side to move: 1, 1/2, 0; `score` the logged search score). K is the
// Texel tuner's sigmoid scale (`fanorona tune --k`): fitted to the logged scores against the
// results unless given.
//
// Schedules (tuner/net/lr_schedule.h): the step size of each mini-batch follows --lr-schedule (exp
// by
// --lr-decay per epoch, the default; step; cosine) under an optional linear warm-up over the first
// --lr-warmup mini-batches; lambda moves linearly from --lambda at the first epoch to --lambda-end
// at the last. An epoch's training loss is against its own lambda (epoch 0's: the first epoch's);
// the validation loss, which picks the best epoch and stops early, always against the last
// epoch's (the target the network is trained towards), so the epochs' validation losses compare
// (without a validation set the training losses pick the best epoch, each against its own lambda).
//
// The data is a stream (tuner/position_stream.h): every pass reads the inputs game by game, so the
// memory does not grow with the data, unless the filtered records take at most kHeldStreamBytes:
// then the first pass is held in memory and the others replay it (the same games in the same
// order: the same network, faster). A first pass counts the positions, settles the validation
// split (by game, from a hash of the game's file, index and the seed) and samples the scores K is
// fitted to; every epoch is then a pass whose training positions (with --mirror also their
// left-right mirrors) go through a shuffle buffer of --shuffle-buffer positions into the
// mini-batches, and a pass over the validation games. Memory: the held data (if held), the
// buffer, a mini-batch, a block of the loss passes and the model.
//
// Deterministic for a seed at any thread count: the stream is read on one thread in a fixed order,
// the shuffle buffer of every epoch draws from the seed, each mini-batch is cut into a fixed number
// of chunks whose gradients are summed in chunk order, and losses are summed the same way.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/nnue/architecture.h"
#include "selfplay/formats/net_file.h"
#include "tuner/dataset.h"
#include "tuner/net/lr_schedule.h"
#include "tuner/position_stream.h"

namespace fanorona {

// The most memory the data's records may take to be held in memory (PositionStream::hold()):
// 2 GB, about 60 M positions (32 bytes each); more data is read from the files every pass.
inline constexpr std::uint64_t kHeldStreamBytes = std::uint64_t(2) << 30;

// The default capacity of the shuffle buffer, in positions (24 bytes each: 96 MB).
inline constexpr std::size_t kDefaultShuffleBuffer = 4000000;

// Every setting of `fanorona train`.
struct NetTrainConfig {
    std::vector<std::string> data; // positions logs
    std::string out;               // the network file; NET.ckpt and NET.csv are written beside it
    // The network's shape: its features, activation, hidden, layer2 and buckets (its board is the
    // data's, its quantisation and scale the defaults': see architecture()).
    nnue::Architecture shape;
    // The architecture trained on data of `variant`: `shape` on that board, with the default
    // quantisation and scale.
    nnue::Architecture architecture(Variant variant) const {
        nnue::Architecture a = shape;
        a.variant = variant;
        a.qa = nnue::kQA;
        a.qb = nnue::kQB;
        a.scale = nnue::kDefaultScale;
        return a;
    }
    int epochs = 30;
    std::size_t batch = 16384;
    double lr = 0.002;      // Adam's step size
    double lr_decay = 0.92; // exp: the step size is multiplied by this after every epoch
    // The step size's schedule: its shape (--lr-schedule; exp, the default, decays by lr_decay),
    // where cosine annealing ends, and the mini-batches of the linear warm-up (0: none).
    LrSchedule lr_shape;
    double lr_min = 0;
    std::uint64_t lr_warmup = 0;
    double lambda = 0.5; // weight of the search score in the target (1 - lambda: result)
    // The weight at the last epoch (lambda moves linearly from the first); empty: lambda.
    std::optional<double> lambda_end;
    // The step size's schedule with its numbers: lr_shape with lr, lr_decay, lr_min, epochs and
    // lr_warmup.
    LrSchedule lr_schedule() const {
        LrSchedule s = lr_shape;
        s.lr = lr;
        s.decay = lr_decay;
        s.lr_min = lr_min;
        s.epochs = epochs;
        s.warmup = lr_warmup;
        return s;
    }
    // The target's blend at the last epoch, and at epoch `epoch` (from 1).
    double final_lambda() const { return lambda_end.value_or(lambda); }
    double lambda_at_epoch(int epoch) const {
        return lambda_at(lambda, final_lambda(), epoch, epochs);
    }
    std::optional<double> k;     // the sigmoid scale (per centi-piece); fitted when empty
    double valid_fraction = 0.1; // fraction of games held out
    int patience = 4;            // stop when the validation loss has not improved for this many
                                 // epochs (0: never)
    std::uint64_t seed = 1;
    // A network file to start from (fine-tuning) instead of random parameters; its architecture
    // must be the training's (the data's board, features, activation, hidden, layer2, buckets). "":
    // random.
    std::string init;
    std::uint64_t max_positions = 0; // 0: all; else the first games up to this many positions
    // The positions an epoch's shuffle buffer holds (data no larger is shuffled whole).
    std::size_t shuffle_buffer = kDefaultShuffleBuffer;
    bool mirror = false; // also train on each training position's left-right mirror
    DataFilter filter;
    bool resume = false; // continue from NET.ckpt
    std::string command; // for the provenance: the settings that decide the result
    std::string created; // the provenance's creation time ("": write_net_file's clock)
};

// One epoch's losses (epoch 0: the start parameters; its train loss is over all training rows).
struct NetEpoch {
    int epoch = 0;
    double train_loss = 0;      // mean loss of the epoch's mini-batches (before each step)
    double validation_loss = 0; // NaN without a validation set
    double seconds = 0;         // training time so far, over resumed runs too
};

// What a training run did.
struct NetTrainReport {
    FilterCounts counts; // what the data filter read, dropped and relabelled (tuner/dataset.h)
    std::uint64_t positions = 0, games = 0; // used, after filters and --max-positions
    std::uint64_t train_positions = 0, validation_positions = 0;
    std::uint64_t train_games = 0, validation_games = 0;
    std::uint64_t train_samples = 0; // per epoch: the training positions, with their mirrors
    double k = 0;
    bool k_fitted = false;
    std::vector<NetEpoch> history;
    int best_epoch = 0;
    bool stopped_early = false;
    double seconds = 0;
    NetFile file; // what was written
};

// Runs the training and writes config.out (and its .ckpt and .csv). `log` receives progress
// lines (those starting "epoch " are the per-epoch ones). Throws TuneDataError,
// PositionLogError, std::invalid_argument for bad input, FileError when a file cannot be written.
NetTrainReport run_net_training(const NetTrainConfig& config,
                                const std::function<void(const std::string&)>& log);

// The checkpoint and loss curve beside a network file.
std::string checkpoint_path(const std::string& net_path);
std::string loss_csv_path(const std::string& net_path);

} // namespace fanorona
