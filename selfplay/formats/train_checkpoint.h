#pragma once
// The network trainer's checkpoint (`fanorona train`, docs/formats.md): everything a training
// run needs to continue after its last finished epoch exactly as if it had not stopped. Written
// atomically after every epoch beside the network file (NET.ckpt).
//
// The file: text lines `key value` (the first `fanorona-train-checkpoint 1`; numbers as C hex
// floats, exact), one `epoch` line per finished epoch, `parameters <count>`, then 4 * count
// little-endian doubles (parameters, Adam's two moments, the best epoch's parameters), then a
// last line `checksum <8 hex digits>`: the CRC-32 of every byte before that line.

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace fanorona {

// Thrown for a checkpoint that cannot be read; what() names the file and the field.
struct CheckpointError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// One finished epoch of a training run.
struct CheckpointEpoch {
    int epoch = 0;
    double train_loss = 0, validation_loss = 0, seconds = 0;
    friend bool operator==(const CheckpointEpoch&, const CheckpointEpoch&) = default;
};

// The state after `history.back().epoch`. The four vectors have one size (the parameters).
struct TrainCheckpoint {
    std::string settings;   // what decides the result (a resumed run must have the same)
    std::uint64_t step = 0; // Adam steps so far
    double lr = 0;          // the step size of the next epoch, before its decay
    int best_epoch = 0;
    double best_loss = 0;
    int since_best = 0; // epochs since the best one
    std::vector<CheckpointEpoch> history;
    std::vector<double> params, mean, square, best;
    friend bool operator==(const TrainCheckpoint&, const TrainCheckpoint&) = default;
};

std::string format_checkpoint(const TrainCheckpoint& c);
TrainCheckpoint parse_checkpoint(const std::string& bytes, const std::string& name);
void write_checkpoint(const std::string& path, const TrainCheckpoint& c); // atomic
TrainCheckpoint read_checkpoint(const std::string& path);                 // CheckpointError

} // namespace fanorona
