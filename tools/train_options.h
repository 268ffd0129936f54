#pragma once
// The training options `fanorona train` and `fanorona loop --net` share (one declaration, one
// meaning): epochs, mini-batch, step size and its schedule, the target's blend and its schedule,
// K, the validation split, early stopping, the shuffle buffer, mirroring and which positions are
// used.

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "tools/options.h"
#include "tuner/net/train.h"

namespace fanorona::cli {

// The target and the positions used, as `train` fits them and `net loss` measures them.
inline CLI::Option* add_lambda_option(CLI::App& cmd, double& lambda) {
    return cmd
        .add_option("--lambda", lambda,
                    "Weight of the search score in the target: lambda * sigmoid(K * score) + "
                    "(1 - lambda) * result")
        ->check(CLI::Range(0.0, 1.0))
        ->capture_default_str();
}
inline CLI::Option* add_k_option(CLI::App& cmd, std::string& k) {
    return cmd
        .add_option("--k", k,
                    "Sigmoid scale per centi-piece: auto (fitted to the logged scores against the "
                    "results) or a value")
        ->capture_default_str();
}
inline CLI::Option* add_keep_decisive_flag(CLI::App& cmd, bool& keep) {
    return cmd.add_flag("--keep-decisive", keep,
                        "Also use positions whose search score is a forced win or loss (skipped "
                        "by default)");
}
inline CLI::Option* add_skip_captures_flag(CLI::App& cmd, bool& skip) {
    return cmd.add_flag("--skip-captures", skip,
                        "Skip positions where the side to move can capture (not quiet)");
}

// The shared training options as typed; add_to() binds the numeric ones to a NetTrainConfig
// directly, apply() fills the fields that need parsing. `declared` lists the options added (a
// command that accepts them only in one mode refuses them in the other).
struct NetTrainingOptions {
    std::string k = "auto";
    bool keep_decisive = false;
    std::string lr_schedule = "exp";
    double lambda_end = 0;
    CLI::Option* lr_decay_option = nullptr;
    CLI::Option* lr_min_option = nullptr;
    CLI::Option* lambda_end_option = nullptr;
    std::vector<CLI::Option*> declared;

    void add_to(CLI::App& cmd, NetTrainConfig& c);
    // K, the decisive-score filter and the schedules; throws std::invalid_argument naming the
    // option (--k, --lr-schedule; --lr-decay given with a schedule other than exp, --lr-min with
    // one other than cosine).
    void apply(NetTrainConfig& c) const {
        c.k = parse_sigmoid_scale(k);
        c.filter.skip_decisive = !keep_decisive;
        c.lr_shape = LrSchedule::parse(lr_schedule);
        if (c.lr_shape.shape != LrSchedule::Shape::Exp && lr_decay_option &&
            lr_decay_option->count() > 0)
            throw std::invalid_argument("--lr-decay applies to --lr-schedule exp only, not " +
                                        c.lr_shape.to_text());
        if (c.lr_shape.shape != LrSchedule::Shape::Cosine && lr_min_option &&
            lr_min_option->count() > 0)
            throw std::invalid_argument("--lr-min applies to --lr-schedule cosine only, not " +
                                        c.lr_shape.to_text());
        if (lambda_end_option && lambda_end_option->count() > 0) c.lambda_end = lambda_end;
    }
    // The first of `declared` given on the command line, or nullptr.
    const CLI::Option* first_given() const {
        for (const CLI::Option* o : declared)
            if (o->count() > 0) return o;
        return nullptr;
    }
};

inline void NetTrainingOptions::add_to(CLI::App& cmd, NetTrainConfig& c) {
    declared.push_back(cmd.add_option("--epochs", c.epochs, "At most this many epochs")
                           ->check(CLI::Range(1, 1000000))
                           ->capture_default_str());
    declared.push_back(cmd.add_option("--batch", c.batch, "Positions per mini-batch")
                           ->check(CLI::Range(1, 1 << 24))
                           ->capture_default_str());
    declared.push_back(cmd.add_option("--lr", c.lr, "Adam's step size")
                           ->check(CLI::Validator(
                               [](std::string& v) {
                                   double x = 0;
                                   return CLI::detail::lexical_cast(v, x) && x > 0
                                              ? std::string()
                                              : "'" + v + "' is not a positive number";
                               },
                               "POSITIVE"))
                           ->capture_default_str());
    lr_decay_option = cmd.add_option("--lr-decay", c.lr_decay,
                                     "exp: the step size is multiplied by this after each epoch")
                          ->check(CLI::Range(0.0, 1.0))
                          ->capture_default_str();
    declared.push_back(lr_decay_option);
    declared.push_back(
        cmd.add_option("--lr-schedule", lr_schedule,
                       "The step size over the epochs: exp (multiplied by --lr-decay after each "
                       "epoch), step:EVERY:GAMMA (multiplied by GAMMA every EVERY epochs) or "
                       "cosine (annealed from --lr at the first epoch towards --lr-min over "
                       "--epochs)")
            ->capture_default_str());
    lr_min_option = cmd.add_option("--lr-min", c.lr_min,
                                   "cosine: the step size the annealing ends at (0 to --lr)")
                        ->check(CLI::Range(0.0, 1e9))
                        ->capture_default_str();
    declared.push_back(lr_min_option);
    declared.push_back(cmd.add_option("--lr-warmup", c.lr_warmup,
                                      "Warm-up: the step size rises linearly over the first this "
                                      "many mini-batches (step / N of the schedule's; 0: none)")
                           ->check(CLI::Range(std::uint64_t(0), std::uint64_t(1) << 40))
                           ->capture_default_str());
    declared.push_back(add_lambda_option(cmd, c.lambda));
    lambda_end_option =
        cmd.add_option("--lambda-end", lambda_end,
                       "lambda at the last epoch: it moves linearly from --lambda at the first "
                       "(default: --lambda, constant); validation uses the last epoch's")
            ->check(CLI::Range(0.0, 1.0));
    declared.push_back(lambda_end_option);
    declared.push_back(add_k_option(cmd, k));
    declared.push_back(
        cmd.add_option("--valid-fraction,--validation", c.valid_fraction,
                       "Fraction of games held out for validation (0: none, no early stopping)")
            ->check(CLI::Range(0.0, 0.99))
            ->capture_default_str());
    declared.push_back(cmd.add_option("--patience", c.patience,
                                      "Stop when the validation loss has not improved for this "
                                      "many epochs (0: never)")
                           ->check(CLI::Range(0, 1000000))
                           ->capture_default_str());
    declared.push_back(cmd.add_option("--max-positions", c.max_positions,
                                      "Use only the first games up to this many positions (0: all)")
                           ->capture_default_str());
    declared.push_back(
        cmd.add_option("--shuffle-buffer", c.shuffle_buffer,
                       "Positions an epoch's shuffle buffer holds (24 bytes each): the data is "
                       "read as a stream, each training position put into the buffer takes a "
                       "random one out into the mini-batches; data no larger is shuffled whole")
            ->check(CLI::Range(std::size_t(1), std::size_t(1) << 32))
            ->capture_default_str());
    declared.push_back(cmd.add_flag("--mirror", c.mirror,
                                    "Also train on each training position's left-right mirror "
                                    "(same score and result: the rules are symmetric); the "
                                    "validation positions are not mirrored"));
    declared.push_back(add_keep_decisive_flag(cmd, keep_decisive));
    declared.push_back(add_skip_captures_flag(cmd, c.filter.skip_captures));
}

} // namespace fanorona::cli
