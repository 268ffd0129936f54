// `fanorona train`: fit a network (NNUE_SPEC.md) to positions logs and write its file.

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <sstream>

#include "core/common/files.h"
#include "core/common/folder_lock.h"
#include "core/common/text.h"
#include "core/common/thread_limit.h"
#include "selfplay/formats/corpus_file.h"
#include "tools/architecture_options.h"
#include "tools/commands.h"
#include "tools/options.h"
#include "tools/table_options.h"
#include "tools/train_options.h"
#include "tuner/net/train.h"

namespace fanorona::cli {

namespace {

// The options as typed; turned into a NetTrainConfig by run().
struct TrainOptions {
    NetTrainConfig config;
    ArchitectureOptions architecture; // --features, --activation, --hidden, --layer2, --buckets
    NetTrainingOptions training;      // --epochs, --batch, --lr, ..., --k, --keep-decisive
    std::string relabel_tables;
    std::string table_positions = "relabel";
    int threads = 0;
    bool quiet = false;
    CLI::Option* table_positions_option = nullptr;
};

// The settings that decide the network, as a command line (neither --out, --threads, --quiet
// nor --resume: a resumed run, or one at another thread count, records the same command).
std::string canonical_command(const TrainOptions& o) {
    const NetTrainConfig& c = o.config;
    std::ostringstream s;
    s << "fanorona train";
    for (const std::string& f : c.data) s << " " << f;
    s << o.architecture.command_text() << " --epochs " << c.epochs << " --batch " << c.batch
      << " --lr " << c.lr;
    // The schedules as given, only where not the default (exp by --lr-decay, no warm-up, a
    // constant lambda): the commands of networks trained before them stay as they were.
    if (c.lr_shape.is_default_shape())
        s << " --lr-decay " << c.lr_decay;
    else
        s << " --lr-schedule " << c.lr_shape.to_text();
    if (c.lr_shape.shape == LrSchedule::Shape::Cosine && c.lr_min != 0)
        s << " --lr-min " << round_trip_number(c.lr_min);
    if (c.lr_warmup) s << " --lr-warmup " << c.lr_warmup;
    s << " --lambda " << c.lambda;
    if (c.final_lambda() != c.lambda) s << " --lambda-end " << round_trip_number(c.final_lambda());
    s << " --k " << o.training.k << " --valid-fraction " << c.valid_fraction << " --patience "
      << c.patience << " --seed " << c.seed;
    if (!c.init.empty()) s << " --init " << c.init;
    if (c.max_positions) s << " --max-positions " << c.max_positions;
    if (c.shuffle_buffer != kDefaultShuffleBuffer) s << " --shuffle-buffer " << c.shuffle_buffer;
    if (c.mirror) s << " --mirror";
    if (o.training.keep_decisive) s << " --keep-decisive";
    if (c.filter.skip_captures) s << " --skip-captures";
    if (!o.relabel_tables.empty())
        s << " --relabel-tables " << o.relabel_tables << " --table-positions " << o.table_positions;
    return s.str();
}

// The shape options into the configuration; with --init, those not given are the network's.
void apply_architecture(TrainOptions& o) {
    NetTrainConfig& c = o.config;
    if (!c.init.empty()) o.architecture.default_to(read_net_file(c.init).net.arch);
    c.shape = o.architecture.architecture(Variant::Tsivy); // the board: the data's
}

void run(TrainOptions& o) {
    NetTrainConfig& c = o.config;
    const ThreadLimit limit(o.threads);
    // Each folder becomes the corpus files it holds now, so that the command and the provenance
    // name the data (a folder that grows later names other data) and a resume checks the files.
    c.data = corpus_input_files(c.data);
    apply_architecture(o);
    o.training.apply(c);
    if (o.relabel_tables.empty() && o.table_positions_option->count() == 0)
        o.table_positions = "keep";
    apply_table_options(o.relabel_tables, o.table_positions, c.filter);
    c.command = canonical_command(o);
    c.created = creation_time(); // SOURCE_DATE_EPOCH when set; checked before training
    // One writer at a time of the network, its checkpoint and its loss CSV: a second train --out
    // the same file is refused at once.
    const FileLock lock(c.out);
    const bool quiet = o.quiet;
    run_net_training(c, [quiet](const std::string& line) {
        if (!quiet || line.rfind("epoch ", 0) != 0) std::printf("%s\n", line.c_str());
        std::fflush(stdout);
    });
}

} // namespace

void add_train_command(CLI::App& app) {
    auto o = std::make_shared<TrainOptions>();
    NetTrainConfig& c = o->config;
    auto* cmd = app.add_subcommand(
        "train", "Train a network (fanorona-net 1) on positions logs or corpus files: Adam on "
                 "sigmoid(K * eval) against a blend of the search score and the game result");
    declare_path(
        cmd->add_option(
               "positions", c.data,
               "Positions logs (positions.bin), corpus files (corpus.fcorpus; their positions "
               "with a search score) or folders of corpus files (every *.fcorpus inside, "
               "in natural name order: s9 before s10), read as a stream")
            ->required()
            ->expected(1, -1),
        PathRole::InputFile);
    declare_path(
        cmd->add_option("--out", c.out,
                        "The network file to write; NET.ckpt (checkpoint) and NET.csv (loss per "
                        "epoch) are written beside it")
            ->required(),
        PathRole::OutputFile, {".ckpt", ".csv"});
    o->architecture.add_to(*cmd);
    declare_path(cmd->add_option(
                     "--init", c.init,
                     "Start from this network's parameters (fine-tuning; a file, or a built-in "
                     "network by name such as tsivy) instead of random ones (--seed); its "
                     "architecture is the default of --features, --activation, --hidden, --layer2 "
                     "and --buckets, which must match it, but for a larger --hidden: the new "
                     "units start with output weights of 0, so the wider network starts as this "
                     "one"),
                 PathRole::InputFile);
    o->training.add_to(*cmd, c);
    cmd->add_option("--seed", c.seed,
                    "Seed of the start weights, validation split and mini-batch order")
        ->capture_default_str();
    add_threads_option(*cmd, o->threads);
    declare_path(cmd->add_option(
                     "--relabel-tables", o->relabel_tables,
                     "Endgame tables folder: positions they hold are relabelled with the tables' "
                     "result (see --table-positions; standard-rule positions only)"),
                 PathRole::InputFolder);
    o->table_positions_option =
        cmd->add_option("--table-positions", o->table_positions,
                        "Positions found in --relabel-tables: relabel (the tables' result, with "
                        "the position's no-capture counter, replaces the game's), skip, or keep")
            ->check(CLI::IsMember({"keep", "skip", "relabel"}))
            ->capture_default_str();
    cmd->add_flag("--resume", c.resume,
                  "Continue from NET.ckpt after its last epoch (the same settings and data)");
    cmd->add_flag("--quiet", o->quiet, "No line per epoch");
    cmd->callback([o] { run(*o); });
}

} // namespace fanorona::cli
