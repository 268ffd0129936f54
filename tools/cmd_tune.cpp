// `fanorona tune`: fit the evaluation weights to positions logs (Texel tuning with Eigen).

#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>

#include "core/common/files.h"
#include "core/common/thread_limit.h"
#include "selfplay/formats/weights_file.h"
#include "tools/commands.h"
#include "tools/options.h"
#include "tools/table_options.h"
#include "tuner/texel/tune.h"

namespace fanorona::cli {

namespace {

// The options as typed; turned into a TuneConfig by run().
struct TuneOptions {
    TuneConfig config;
    std::string weights = "default";
    std::string target = "result";
    std::string loss = "mse";
    std::string optimizer = "newton";
    std::string k = "auto";
    std::string freeze;
    bool check = false;
    bool quiet = false;
    bool keep_decisive = false;
    std::string game_rules; // "": every position; else only positions of games under these rules
    std::string relabel_tables; // endgame tables folder
    std::string table_positions = "keep";
};

// --relabel-tables and --table-positions onto the data filter.
void apply_tables(const TuneOptions& o, DataFilter& filter) {
    apply_table_options(o.relabel_tables, o.table_positions, filter);
}

std::vector<std::string> split_list(const std::string& text) {
    std::vector<std::string> out;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ','))
        if (!item.empty()) out.push_back(item);
    return out;
}

void run_check(const TuneOptions& o) {
    const Weights w = load_weights_file(o.weights);
    DataFilter filter;
    filter.skip_decisive = !o.keep_decisive;
    if (!o.game_rules.empty()) filter.only_rules = parse_ruleset(o.game_rules);
    apply_tables(o, filter);
    const CheckReport r = check_against_engine(o.config.data, w, filter);
    std::printf("checked %llu positions: %llu mismatches between the feature matrix and "
                "evaluate(); largest difference before truncation %.4f centi-pieces\n",
                static_cast<unsigned long long>(r.positions),
                static_cast<unsigned long long>(r.mismatches), r.max_difference);
    for (const std::string& e : r.examples) std::printf("  mismatch: %s\n", e.c_str());
    if (r.mismatches)
        throw std::runtime_error("the feature matrix does not reproduce evaluate() for " +
                                 std::to_string(r.mismatches) + " positions");
}

void run(TuneOptions& o) {
    TuneConfig& c = o.config;
    const ThreadLimit limit(c.threads);
    if (o.check) return run_check(o);
    if (c.out_dir.empty())
        throw std::invalid_argument("--out is required (the folder to write the tuned weights to)");
    c.start = load_weights_file(o.weights);
    c.start_name = o.weights;
    c.target = TargetSpec::parse(o.target);
    c.loss = o.loss == "mse" ? LossKind::Mse : LossKind::CrossEntropy;
    c.optimizer.kind = *parse_optimizer(o.optimizer);
    c.k = parse_sigmoid_scale(o.k);
    c.freeze = split_list(o.freeze);
    c.filter.skip_decisive = !o.keep_decisive;
    if (!o.game_rules.empty()) c.filter.only_rules = parse_ruleset(o.game_rules);
    apply_tables(o, c.filter);
    const bool quiet = o.quiet;
    const TuneReport report = run_tune(c, [quiet](const std::string& line) {
        // Progress (the epochs, the timings) on standard error, as every command's; the files
        // written on standard output.
        if (!quiet || line.rfind("epoch ", 0) != 0) std::fprintf(stderr, "%s\n", line.c_str());
    });
    write_tune_outputs(c, report);
    std::printf("wrote %s/weights.txt (and loss.csv, tune.json beside it)\n", c.out_dir.c_str());
}

// --data, --weights and --out: the positions logs read, the start weights, the output folder.
void add_tune_files(CLI::App& cmd, TuneOptions& o) {
    TuneConfig& c = o.config;
    declare_path(cmd.add_option("--data", c.data, "Positions logs (positions.bin of selfplay runs)")
                     ->required()
                     ->expected(1, -1),
                 PathRole::InputFile);
    declare_path(cmd.add_option("--weights", o.weights, weights_option_help("Start weights"))
                     ->capture_default_str(),
                 PathRole::InputFile);
    declare_path(
        cmd.add_option(
            "--out", c.out_dir,
            "Output folder (created): weights.txt (the tuned weights), loss.csv, tune.json"),
        PathRole::OutputFolder, {"weights.txt", "loss.csv", "tune.json"});
}

// --target, --loss, --optimizer and the optimiser's --epochs, --batch, --lr and --lr-decay.
void add_tune_fit_options(CLI::App& cmd, TuneOptions& o) {
    TuneConfig& c = o.config;
    cmd.add_option("--target", o.target,
                   "What sigmoid(K * eval) fits: result (the game result), score (the search "
                   "score through the same sigmoid) or mix:L (L * result + (1 - L) * score)")
        ->capture_default_str();
    cmd.add_option("--loss", o.loss, "mse (the Texel loss) or cross-entropy")
        ->check(CLI::IsMember({"mse", "cross-entropy"}))
        ->capture_default_str();
    cmd.add_option("--optimizer", o.optimizer,
                   "newton (Gauss-Newton, Levenberg-Marquardt damped), lbfgs, or adam")
        ->check(CLI::IsMember({"adam", "newton", "lbfgs"}))
        ->capture_default_str();
    cmd.add_option("--epochs", c.optimizer.epochs, "At most this many epochs")
        ->check(CLI::Range(1, 1000000))
        ->capture_default_str();
    cmd.add_option("--batch", c.optimizer.batch,
                   "Adam: positions per mini-batch, rounded up to blocks of 1024 (0: full batch)")
        ->capture_default_str();
    cmd.add_option("--lr", c.optimizer.lr, "Adam: step size in centi-pieces")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    cmd.add_option("--lr-decay", c.optimizer.lr_decay,
                   "Adam: the step size is multiplied by this after each epoch")
        ->check(CLI::Range(0.0, 1.0))
        ->capture_default_str();
}

// The loss's pull and scale (--l2, --k, --freeze), when to stop (--validation, --tolerance,
// --patience), --threads and --seed.
void add_tune_stopping_options(CLI::App& cmd, TuneOptions& o) {
    TuneConfig& c = o.config;
    cmd.add_option("--l2", c.l2,
                   "Adds C * sum of (weight - start weight)^2 over the free weights (weights "
                   "in centi-pieces) to the loss")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    cmd.add_option("--k", o.k,
                   "Sigmoid scale: auto (fit it to the results with the start weights) or a "
                   "value")
        ->capture_default_str();
    cmd.add_option("--validation", c.validation,
                   "Fraction of games held out for validation (0: none, no early stopping)")
        ->check(CLI::Range(0.0, 0.99))
        ->capture_default_str();
    declare_path(
        cmd.add_option("--freeze", o.freeze,
                       "Weights that stay as they are: names as in the weights file, a term name "
                       "for both halves, or a prefix ending in '*', separated by commas"),
        PathRole::NotAPath);
    cmd.add_option("--tolerance", c.optimizer.tolerance,
                   "Converged when an epoch lowers the loss by less than this fraction")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    cmd.add_option("--patience", c.optimizer.patience,
                   "Stop when the validation loss has not improved for this many epochs "
                   "(0: never)")
        ->check(CLI::Range(0, 1000000))
        ->capture_default_str();
    add_threads_option(cmd, c.threads);
    cmd.add_option("--seed", c.seed, "Seed of the validation split, row order and mini-batches")
        ->capture_default_str();
}

// --game-rules, --keep-decisive, --relabel-tables and --table-positions: which positions count.
void add_tune_position_options(CLI::App& cmd, TuneOptions& o) {
    declare_path(
        cmd.add_option("--game-rules", o.game_rules,
                       "Only positions of games played under these rules (a Vela series log holds "
                       "normal and Vela games: --game-rules vela fits the Vela games alone)")
            ->check(CLI::IsMember({"standard", "firstturn", "vela"})),
        PathRole::NotAPath);
    cmd.add_flag("--keep-decisive", o.keep_decisive,
                 "Also use positions whose search score is a forced win or loss (skipped by "
                 "default)");
    declare_path(cmd.add_option(
                     "--relabel-tables", o.relabel_tables,
                     "Endgame tables folder for --table-positions (standard-rule positions only)"),
                 PathRole::InputFolder);
    cmd.add_option("--table-positions", o.table_positions,
                   "Positions found in --relabel-tables: keep (as logged), skip, or relabel (the "
                   "tables' result, with the position's no-capture counter, replaces the game's)")
        ->check(CLI::IsMember({"keep", "skip", "relabel"}))
        ->capture_default_str();
}

// --patterns and its --pattern-* options (tuner/patterns.h).
void add_tune_pattern_options(CLI::App& cmd, PatternSettings& ps) {
    declare_path(
        cmd.add_flag("--patterns", ps.enabled,
                     "Also fit pattern weights (3x3 windows, 5x9 logs only), alternating with the "
                     "term weights; written as pattern lines of the weights file"),
        PathRole::NotAPath);
    cmd.add_option("--pattern-rounds", ps.rounds,
                   "--patterns: rounds of a pattern fit (terms fixed) then a term fit "
                   "(patterns fixed)")
        ->check(CLI::Range(1, 1000))
        ->capture_default_str();
    cmd.add_option("--pattern-epochs", ps.epochs,
                   "--patterns: at most this many epochs of each pattern fit (sparse Adam; "
                   "--patience stops it early on the validation loss)")
        ->check(CLI::Range(1, 1000000))
        ->capture_default_str();
    cmd.add_option("--pattern-batch", ps.batch,
                   "--patterns: positions per mini-batch of the pattern fit, rounded up to "
                   "blocks of 1024 (0: full batch)")
        ->capture_default_str();
    cmd.add_option("--pattern-lr", ps.lr,
                   "--patterns: Adam step size of the pattern fit, in centi-pieces (halved "
                   "after two epochs without progress)")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    cmd.add_option("--pattern-l2", ps.l2,
                   "--patterns: adds C * sum of pattern weight^2 (a pull towards 0) to the "
                   "loss, applied at each step to the weights the mini-batch touches")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    cmd.add_option("--pattern-min-count", ps.min_count,
                   "--patterns: a pattern seen in fewer training positions keeps its start "
                   "weights (0 unless --weights has pattern lines)")
        ->capture_default_str();
}

} // namespace

void add_tune_command(CLI::App& app) {
    auto o = std::make_shared<TuneOptions>();
    auto* cmd = app.add_subcommand(
        "tune", "Fit the evaluation weights to positions logs (Texel tuning: sigmoid(K * eval) "
                "against game results or search scores)");
    add_tune_files(*cmd, *o);
    add_tune_fit_options(*cmd, *o);
    add_tune_stopping_options(*cmd, *o);
    add_tune_position_options(*cmd, *o);
    add_tune_pattern_options(*cmd, o->config.patterns);
    cmd->add_flag("--check", o->check,
                  "Only check that the feature matrix reproduces the engine's evaluation of every "
                  "position (with --weights), then exit");
    cmd->add_flag("--quiet", o->quiet, "No line per epoch");
    cmd->callback([o] { run(*o); });
}

} // namespace fanorona::cli
