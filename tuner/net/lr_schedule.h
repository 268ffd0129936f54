#pragma once
// The step size of `fanorona train` over its epochs and mini-batches (--lr-schedule, --lr,
// --lr-decay, --lr-min, --lr-warmup, --epochs): exponential decay per epoch (the default), a step
// decay every few epochs, or cosine annealing, each optionally under a linear warm-up over the
// first mini-batches; and the target's blend over the epochs (--lambda to --lambda-end).

#include <cstdint>
#include <string>

namespace fanorona {

// A learning-rate schedule: its shape (the --lr-schedule text: exp, step:EVERY:GAMMA or cosine)
// and the numbers of the other options it reads. Epochs count from 1, mini-batches (Adam's steps)
// from 1 over the whole training, resumed runs included.
struct LrSchedule {
    enum class Shape { Exp, Step, Cosine };
    Shape shape = Shape::Exp;
    int every = 1;     // step: the step size is multiplied by gamma every this many epochs
    double gamma = 1;  // step: the factor
    double lr = 0.002; // --lr: the first epoch's step size
    double decay = 1;  // exp: the step size is multiplied by this after every epoch (--lr-decay)
    double lr_min = 0; // cosine: the step size the annealing ends at (--lr-min)
    int epochs = 1;    // cosine: the epochs the annealing spans (--epochs)
    std::uint64_t warmup = 0; // the first this many mini-batches ramp linearly up (--lr-warmup)

    // The step size of epoch `epoch` (from 1) before the warm-up:
    //   exp:    lr * decay^(epoch - 1) (multiplied epoch by epoch, as the trainer always did);
    //   step:   lr * gamma^floor((epoch - 1) / every);
    //   cosine: lr_min + (lr - lr_min) * (1 + cos(pi * (epoch - 1) / epochs)) / 2.
    double epoch_lr(int epoch) const;
    // The step size of mini-batch `step` (from 1) of epoch `epoch`: epoch_lr(epoch), times
    // step / warmup while step < warmup.
    double at(int epoch, std::uint64_t step) const;
    // The warm-up's factor for mini-batch `step`: min(1, step / warmup) (1 without a warm-up).
    double warmup_factor(std::uint64_t step) const;
    bool is_default_shape() const { return shape == Shape::Exp; }
    // The shape as --lr-schedule takes it: "exp", "step:EVERY:GAMMA" (shortest round-trip
    // numbers) or "cosine"; parse(to_text()) gives the same shape.
    std::string to_text() const;
    // Parses the --lr-schedule text into the shape (the other fields keep their defaults).
    // Throws std::invalid_argument, one line naming --lr-schedule, for anything else.
    static LrSchedule parse(const std::string& text);
    // Throws std::invalid_argument naming the option when a number is out of range or not finite
    // (--lr, --lr-decay, --lr-min, --lr-schedule's EVERY and GAMMA, --epochs).
    void check() const;
};

// The blend of the target (weight of the search score) at epoch `epoch` of `epochs`: `start` at the
// first epoch moving linearly to `end` at the last (start with one epoch).
double lambda_at(double start, double end, int epoch, int epochs);

// The shortest text that reads back as the same double ("0.5", "1e-05", "0.1").
std::string round_trip_number(double x);

} // namespace fanorona
