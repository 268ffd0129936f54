#include "tuner/net/train.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <sstream>
#include <utility>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "core/board/symmetry.h"
#include "core/common/files.h"
#include "core/common/fork_join.h"
#include "core/common/rng.h"
#include "core/common/text.h"
#include "selfplay/formats/train_checkpoint.h"
#include "tuner/adam_rule.h"
#include "tuner/net/loss.h"
#include "tuner/net/model.h"
#include "tuner/shuffle_buffer.h"
#include "tuner/texel/loss.h"

namespace fanorona {

namespace {

using TrainClock = std::chrono::steady_clock; // (not Clock: selfplay/engine/player.h has one)

// A mini-batch is cut into this many chunks (fewer for a small batch), each with its own
// gradient buffer, summed in chunk order: the numbers do not depend on the thread count.
constexpr std::size_t kBatchChunks = 16;
constexpr std::size_t kMinChunkRows = 64;
// Rows per chunk of a loss pass over a whole set (validation, epoch 0), and rows a loss pass
// holds before it evaluates them.
constexpr std::size_t kPassChunkRows = 4096;
constexpr std::size_t kPassBlockRows = kPassChunkRows * 16;
// At most this many training positions' scores and results are kept to fit K (a seeded sample
// when there are more).
constexpr std::size_t kKSampleRows = std::size_t(1) << 20;
constexpr AdamRule kAdam{.epsilon = 1e-10};

// One training position as the trainer holds it (in the shuffle buffer, a mini-batch, a block of
// a loss pass): the pieces, the side to move and the target. 24 bytes.
struct TrainSample {
    Bitboard white = 0, black = 0;
    float target = 0;
    Color side = Color::White;

    Position position(Variant v) const { return Position::from_pieces(v, white, black, side); }
    // The left-right mirror (the same target: the rules are symmetric).
    TrainSample mirrored(Variant v) const {
        return {mirror_files(white, v), mirror_files(black, v), target, side};
    }
};
static_assert(sizeof(TrainSample) == 24);

// The pieces of a pass: the model, the data's board and the sigmoid's scale.
struct PassContext {
    const nnue::FloatNetwork& model;
    Variant variant;
    double k;
};

// One chunk's work area: its sample, scratch, gradient and loss sum.
struct Chunk {
    NetSample sample;
    NetScratch scratch;
    std::vector<double> grad;
    double loss = 0;
};

// Adds the loss (and with `grad`, the gradient) of `rows` to `c`. Allocates nothing.
void run_rows(const PassContext& p, std::span<const TrainSample> rows, Chunk& c, bool grad) {
    const double scale = p.model.arch.scale;
    for (const TrainSample& row : rows) {
        make_sample(p.model.arch, row.position(p.variant), c.sample);
        const double y = net_forward(p.model, c.sample, c.scratch);
        const double s = sigmoid(p.k * y * scale);
        const double diff = s - double(row.target);
        c.loss += diff * diff;
        if (grad)
            net_backward(p.model, c.sample, 2 * diff * s * (1 - s) * p.k * scale, c.scratch,
                         c.grad.data());
    }
}

// The mean loss over a stream of rows: add() them one by one; they are evaluated in blocks of
// kPassBlockRows, each cut into chunks of kPassChunkRows whose losses are summed in order (the
// same sum at any thread count). Holds one block.
class LossPass {
public:
    LossPass(const PassContext& p, std::vector<Chunk>& chunks) : p_(p), chunks_(chunks) {
        block_.reserve(kPassBlockRows);
    }
    void add(const TrainSample& row) {
        block_.push_back(row);
        if (block_.size() == kPassBlockRows) flush();
    }
    // The mean loss of the rows added (NaN for none).
    double mean() {
        flush();
        return rows_ ? sum_ / double(rows_) : std::numeric_limits<double>::quiet_NaN();
    }

private:
    void flush();

    const PassContext& p_;
    std::vector<Chunk>& chunks_;
    std::vector<TrainSample> block_;
    double sum_ = 0;
    std::uint64_t rows_ = 0;
};

void LossPass::flush() {
    const std::span<const TrainSample> rows(block_);
    const std::size_t n = (rows.size() + kPassChunkRows - 1) / kPassChunkRows;
    if (chunks_.size() < n) chunks_.resize(n);
    const ForkJoin fork_join;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 1),
                      fork_join.body([&](const tbb::blocked_range<std::size_t>& r) {
                          for (std::size_t i = r.begin(); i != r.end(); ++i) {
                              const std::size_t from = i * kPassChunkRows;
                              const std::size_t to = std::min(rows.size(), from + kPassChunkRows);
                              chunks_[i].loss = 0;
                              run_rows(p_, rows.subspan(from, to - from), chunks_[i], false);
                          }
                      }));
    fork_join.joined();
    for (std::size_t i = 0; i < n; ++i) sum_ += chunks_[i].loss;
    rows_ += rows.size();
    block_.clear();
}

std::string settings_text(const NetTrainConfig& c, const nnue::Architecture& a, double k,
                          const StreamPass& data) {
    // The data's paths absolute, links followed (lexically normal when that fails): a resume
    // naming /abs/x, ./x or a/../x where the run named x is the same run (a checkpoint of an
    // earlier version, relative paths, resumes by identity: same_run_settings); the counts below
    // tell other content apart.
    std::string files;
    for (const std::string& f : c.data) {
        std::error_code ec;
        std::filesystem::path p =
            std::filesystem::weakly_canonical(std::filesystem::absolute(f), ec);
        if (ec) p = std::filesystem::absolute(f).lexically_normal();
        files += (files.empty() ? "" : ",") + p.string();
    }
    // split=hash: the validation split by a hash of the game (GameSplit); a checkpoint of the
    // trainer before it (another split) is refused.
    std::string text =
        format("data=%s positions=%llu games=%llu arch=%s batch=%zu lr=%a lr_decay=%a "
               "lambda=%a k=%a validation=%a seed=%llu split=hash shuffle_buffer=%zu mirror=%d",
               files.c_str(), (unsigned long long)data.positions, (unsigned long long)data.games,
               nnue::architecture_text(a).c_str(), c.batch, c.lr, c.lr_decay, c.lambda, k,
               c.valid_fraction, (unsigned long long)c.seed, c.shuffle_buffer, int(c.mirror));
    // The schedules, only when not the default (a checkpoint made before them still resumes);
    // --epochs too when a schedule spans them (a resume with other epochs would change it).
    const bool lambda_moves = c.final_lambda() != c.lambda;
    if (!c.lr_shape.is_default_shape()) text += " lr_schedule=" + c.lr_shape.to_text();
    if (c.lr_shape.shape == LrSchedule::Shape::Cosine) text += format(" lr_min=%a", c.lr_min);
    if (c.lr_warmup) text += format(" lr_warmup=%llu", (unsigned long long)c.lr_warmup);
    if (lambda_moves) text += format(" lambda_end=%a", c.final_lambda());
    if (lambda_moves || c.lr_shape.shape == LrSchedule::Shape::Cosine)
        text += format(" epochs=%d", c.epochs);
    return text;
}

std::string csv_text(const std::vector<NetEpoch>& history) {
    std::string out = "epoch,train_loss,validation_loss,seconds\n";
    for (const NetEpoch& e : history)
        out += format("%d,%.9g,%.9g,%.3f\n", e.epoch, e.train_loss, e.validation_loss, e.seconds);
    return out;
}

// Throws std::invalid_argument for settings out of range, FileError for an output file that
// cannot be written (the network, its checkpoint, its loss CSV).
void check_net_train_config(const NetTrainConfig& config) {
    if (config.out.empty()) throw std::invalid_argument("--out is required (the network file)");
    if (config.batch == 0) throw std::invalid_argument("--batch must be positive");
    if (!(config.lambda >= 0 && config.lambda <= 1))
        throw std::invalid_argument("--lambda must be in [0, 1]");
    if (config.lambda_end && !(*config.lambda_end >= 0 && *config.lambda_end <= 1))
        throw std::invalid_argument("--lambda-end must be in [0, 1]");
    if (config.epochs < 1) throw std::invalid_argument("--epochs must be at least 1");
    config.lr_schedule().check();
    if (config.k && !(*config.k > 0)) throw std::invalid_argument("--k must be positive");
    if (config.shuffle_buffer == 0)
        throw std::invalid_argument("--shuffle-buffer must be positive");
    check_writable(config.out);
    check_writable(checkpoint_path(config.out));
    check_writable(loss_csv_path(config.out));
}

// The network trained: the data's board with the configured shape. Throws std::invalid_argument
// naming the problem when there is no such network.
nnue::Architecture net_architecture(const NetTrainConfig& config, Variant variant) {
    const nnue::Architecture arch = config.architecture(variant);
    if (const std::string why = nnue::architecture_problem(arch); !why.empty())
        throw std::invalid_argument("network: " + why);
    return arch;
}

// What the first pass over the data found: its counts, and the search scores and results of the
// training positions K is fitted to (all of them, or a seeded sample of kKSampleRows).
struct Survey {
    StreamPass pass;
    std::vector<double> scores, results;
};

// The first pass: the data's counts and the split's (settled: see GameSplit), and the scores for
// K. Throws TuneDataError when no position is left or the split has too few games.
Survey survey_net_data(const NetTrainConfig& config, const PositionStream& stream,
                       GameSplit& split) {
    Survey s;
    std::uint64_t seen = 0; // training positions offered to the K sample
    Rng rng = Rng::derive(config.seed, 0x5C0E, 0);
    s.pass = stream.for_each_game([&](const StreamGame& g) {
        split.see(g.file, g.index, g.records.size());
        if (split.validation(g.file, g.index)) return;
        for (const PositionRecord& r : g.records) {
            std::size_t at = s.scores.size();
            if (seen >= kKSampleRows) at = std::size_t(rng.below(seen + 1));
            ++seen;
            if (at == s.scores.size()) {
                s.scores.push_back(r.score);
                s.results.push_back(result_for_side(r));
            } else if (at < kKSampleRows) {
                s.scores[at] = r.score;
                s.results[at] = result_for_side(r);
            }
        }
    });
    if (s.pass.positions == 0) throw no_positions_error(config.data, s.pass, config.filter);
    split.settle();
    return s;
}

// The data's counts into the report, and a line of them (and the warnings) to the log.
void count_net_data(const PositionStream& stream, const StreamPass& data, NetTrainReport& report,
                    const std::function<void(const std::string&)>& log) {
    for (const std::string& w : data.warnings) log("warning: " + w);
    report.counts = data;
    report.positions = data.positions;
    report.games = data.games;
    log(format("read %llu positions of %zu files%s; using %llu positions of %llu games (%llu "
               "skipped for decisive scores, %llu where the side to move can capture, %llu in "
               "the tables of which %llu relabelled)",
               (unsigned long long)data.read, stream.files().size(),
               data.unscored ? format(" (and %llu corpus positions without a search score)",
                                      (unsigned long long)data.unscored)
                                   .c_str()
                             : "",
               (unsigned long long)report.positions, (unsigned long long)report.games,
               (unsigned long long)data.skipped_decisive, (unsigned long long)data.skipped_captures,
               (unsigned long long)data.table_positions, (unsigned long long)data.relabelled));
}

// The split's counts into the report and the log.
void count_net_split(const NetTrainConfig& config, const GameSplit& split, NetTrainReport& report,
                     const std::function<void(const std::string&)>& log) {
    report.train_positions = split.train_positions;
    report.validation_positions = split.validation_positions;
    report.train_games = split.train_games;
    report.validation_games = split.validation_games;
    report.train_samples = split.train_positions * (config.mirror ? 2 : 1);
    log(format("training on %llu positions of %llu games%s, validating on %llu positions of %llu "
               "games",
               (unsigned long long)split.train_positions, (unsigned long long)split.train_games,
               config.mirror ? " and their mirrors" : "",
               (unsigned long long)split.validation_positions,
               (unsigned long long)split.validation_games));
}

// K into the report: given, or fitted to the sampled training positions' search scores against
// their results. Throws TuneDataError when every score is 0 (nothing to fit).
void fit_net_k(const NetTrainConfig& config, const Survey& survey, NetTrainReport& report,
               const std::function<void(const std::string&)>& log) {
    report.k_fitted = !config.k;
    if (config.k) {
        report.k = *config.k;
    } else {
        const auto n = Eigen::Index(survey.scores.size());
        const Eigen::VectorXd e = Eigen::Map<const Eigen::VectorXd>(survey.scores.data(), n);
        const Eigen::VectorXd y = Eigen::Map<const Eigen::VectorXd>(survey.results.data(), n);
        if (n == 0 || e.cwiseAbs().maxCoeff() == 0)
            throw TuneDataError("cannot fit K: every logged score is 0 (give --k VALUE)");
        report.k = fit_k_to(e, y, LossKind::Mse);
    }
    log(format("K = %.6g (1 / K = %.1f centi-pieces, %s); target = %g * sigmoid(K * score) + "
               "%g * result",
               report.k, 1 / report.k, report.k_fitted ? "fitted to the scores" : "given",
               config.lambda, 1 - config.lambda));
    if (config.final_lambda() != config.lambda)
        log(format("lambda moves linearly from %g at epoch 1 to %g at epoch %d (validation: %g)",
                   config.lambda, config.final_lambda(), config.epochs, config.final_lambda()));
    const LrSchedule lr = config.lr_schedule();
    if (!lr.is_default_shape() || lr.warmup)
        log(format(
            "step size: %s from %g%s%s", lr.to_text().c_str(), lr.lr,
            lr.shape == LrSchedule::Shape::Cosine ? format(" to %g", lr.lr_min).c_str() : "",
            lr.warmup
                ? format(", warm-up over %llu mini-batches", (unsigned long long)lr.warmup).c_str()
                : ""));
}

// The optimiser (Adam) beside the model's parameters: the two moments of every parameter, the
// step count, and the step size (the current epoch's, before the warm-up) with its schedule.
struct NetOptimiser {
    std::vector<double> mean, square;
    std::uint64_t step = 0;
    LrSchedule schedule;
    double lr = 0;
    // Step `step + 1` of `params` along the mean gradient of `rows` rows: the chunks' gradients
    // summed in order, in parallel over parameter ranges.
    void apply(std::vector<double>& params, std::size_t rows,
               const std::vector<Chunk>& batch_chunks);
};

// One training between its steps: the settings, data stream and split (fixed), the model and
// Adam's moments, the best epoch's parameters and the counters (what a checkpoint holds: after
// every epoch the checkpoint and the loss CSV are the state), and the report it fills.
struct NetTraining {
    const NetTrainConfig& config;
    const std::function<void(const std::string&)>& log;
    NetTrainReport& report;
    const nnue::Architecture arch;
    const PositionStream& stream;
    const GameSplit& split;
    const StreamPass& data; // the first pass's counts
    const bool has_validation = split.validation_games > 0;
    std::string settings; // the checkpoint's settings: a resume must have the same
    nnue::FloatNetwork model;
    // What the passes evaluate: the model, with an int8 second layer's weights rounded as the
    // integer network will hold them (rounded_for_training); kept in step by set_forward().
    nnue::FloatNetwork forward;
    NetOptimiser optimiser{{}, {}, 0, config.lr_schedule(), config.lr};
    std::vector<double> best;                          // the best epoch's parameters
    double train_lambda = config.lambda;               // the current epoch's blend of the target
    const double final_lambda = config.final_lambda(); // the validation's
    int best_epoch = 0, since_best = 0;
    double best_loss = std::numeric_limits<double>::infinity();
    double seconds_before = 0;      // training time of the runs before a resume
    TrainClock::time_point t_train; // the start of this run's epochs
    std::vector<Chunk> chunks;      // the loss passes' work areas

    NetTraining(const NetTrainConfig& c, const std::function<void(const std::string&)>& l,
                NetTrainReport& r, const nnue::Architecture& a, const PositionStream& st,
                const GameSplit& sp, const StreamPass& d)
        : config(c), log(l), report(r), arch(a), stream(st), split(sp), data(d),
          model(nnue::make_float_network(a)) {}

    PassContext pass() const { return {forward, stream.rules().variant, report.k}; }
    void set_forward() { rounded_for_training(model, forward); }
    // A record as a row: its pieces and its target, lambda * sigmoid(K * score) +
    // (1 - lambda) * result.
    TrainSample sample(const PositionRecord& r, double lambda) const {
        const double t = lambda * sigmoid(report.k * r.score) + (1 - lambda) * result_for_side(r);
        return {r.white, r.black, float(t), r.side_to_move};
    }
    // Calls row(const TrainSample&) for each training row of a game (none for a validation
    // game): every position, and after it its mirror with --mirror.
    template <class Row> void training_rows(const StreamGame& g, Row&& row) const {
        if (split.validation(g.file, g.index)) return;
        const Variant v = stream.rules().variant;
        for (const PositionRecord& r : g.records) {
            const TrainSample x = sample(r, train_lambda);
            row(x);
            if (config.mirror) row(x.mirrored(v));
        }
    }
    double validation_loss();
    double elapsed() const {
        return seconds_before + std::chrono::duration<double>(TrainClock::now() - t_train).count();
    }
    bool stopped() const { return config.patience > 0 && since_best >= config.patience; }

    void start_parameters();
    void resume();
    void first_epoch();
    void run_epochs();
    double train_epoch(int epoch, std::size_t batch, std::vector<Chunk>& batch_chunks);
    void compute_gradients(std::span<const TrainSample> b, std::vector<Chunk>& batch_chunks);
    void adam_step(std::size_t rows, const std::vector<Chunk>& batch_chunks);
    void end_epoch(int epoch, double train_loss);
    TrainCheckpoint checkpoint() const;
    void write_network(TrainClock::time_point t_start);
};

// The start: random parameters (--seed) or --init's network (whose architecture must be the
// training's, or narrower: widened_network), clipped, with Adam's moments at zero; the settings
// name the start network.
void NetTraining::start_parameters() {
    settings = settings_text(config, arch, report.k, data);
    model = random_start_network(arch, config.seed);
    if (!config.init.empty()) {
        const NetFile start = read_net_file(config.init);
        // A 16-bit second layer may start an int8 one (its weights are clipped and rounded), and
        // fewer hidden units more of them.
        nnue::Architecture start_arch = start.net.arch;
        start_arch.layer2_int8 = arch.layer2_int8;
        const bool widen = start_arch.hidden < arch.hidden;
        if (widen) start_arch.hidden = arch.hidden;
        if (start_arch != arch)
            throw std::invalid_argument(
                config.init + ": architecture: the network is " +
                nnue::architecture_text(start.net.arch) + ", the training's " +
                nnue::architecture_text(arch) +
                " (the data's board, --features, --activation, --hidden, --layer2, --buckets; "
                "only --hidden may be larger)");
        nnue::FloatNetwork narrow = nnue::dequantise(start.net);
        narrow.arch.layer2_int8 = arch.layer2_int8;
        model = widen ? widened_network(narrow, std::move(model)) : std::move(narrow);
        model.arch = arch;
        settings += " init=" + net_fingerprint(start.net);
        log("starting from " + config.init + " (" + net_fingerprint(start.net) + ")");
    }
    clip_network(model, net_weight_clip(arch));
    set_forward();
    optimiser.mean.assign(model.params.size(), 0.0);
    optimiser.square = optimiser.mean;
    best = model.params;
}

// The data files of a settings text ("data=A,B positions=..."), and the rest from " positions=".
std::pair<std::vector<std::string>, std::string> split_settings_data(const std::string& text) {
    const std::size_t rest = text.rfind(" positions=");
    if (text.rfind("data=", 0) != 0 || rest == std::string::npos) return {{}, text};
    std::vector<std::string> files;
    std::stringstream list(text.substr(5, rest - 5));
    for (std::string f; std::getline(list, f, ',');) files.push_back(f);
    return {files, text.substr(rest)};
}

// Whether the settings texts `was` (a checkpoint's) and `now` name the same run: equal, or equal
// but for the spelling of the data files, which are the same files by identity (an absolute path
// where the run named a relative one, a/../x for x).
bool same_run_settings(const std::string& was, const std::string& now) {
    if (was == now) return true;
    const auto [files_was, rest_was] = split_settings_data(was);
    const auto [files_now, rest_now] = split_settings_data(now);
    if (rest_was != rest_now || files_was.size() != files_now.size() || files_was.empty())
        return false;
    for (std::size_t i = 0; i < files_was.size(); ++i) {
        std::error_code ec;
        if (files_was[i] != files_now[i] &&
            !(std::filesystem::equivalent(files_was[i], files_now[i], ec) && !ec))
            return false;
    }
    return true;
}

// --resume: the state after the checkpoint's last epoch, with its history in the report. Throws
// std::invalid_argument when the checkpoint is of other settings or data, or holds no epoch.
void NetTraining::resume() {
    const TrainCheckpoint c = read_checkpoint(checkpoint_path(config.out));
    if (!same_run_settings(c.settings, settings))
        throw std::invalid_argument(
            checkpoint_path(config.out) +
            ": settings: the checkpoint was made with other settings or data (it has '" +
            c.settings + "', this run '" + settings + "')");
    if (c.params.size() != model.params.size())
        throw std::invalid_argument(checkpoint_path(config.out) +
                                    ": parameters: wrong count for this network");
    model.params = c.params;
    set_forward();
    optimiser.mean = c.mean;
    optimiser.square = c.square;
    best = c.best;
    optimiser.step =
        c.step; // the warm-up goes on from here; the schedule from the epoch after the last
    best_epoch = c.best_epoch;
    best_loss = c.best_loss;
    since_best = c.since_best;
    for (const CheckpointEpoch& e : c.history)
        report.history.push_back({e.epoch, e.train_loss, e.validation_loss, e.seconds});
    if (report.history.empty())
        throw std::invalid_argument(checkpoint_path(config.out) + ": epoch: none recorded");
    seconds_before = report.history.back().seconds;
    log(format("resumed from %s after epoch %d", checkpoint_path(config.out).c_str(),
               report.history.back().epoch));
}

// The mean loss of the validation games' positions (never mirrored), NaN without any: a pass.
double NetTraining::validation_loss() {
    const PassContext p = pass();
    LossPass loss(p, chunks);
    if (has_validation)
        stream.for_each_game([&](const StreamGame& g) {
            if (!split.validation(g.file, g.index)) return;
            for (const PositionRecord& r : g.records) loss.add(sample(r, final_lambda));
        });
    return loss.mean();
}

// Epoch 0: the start parameters' losses (one pass over training and validation rows), the first
// best loss (validation, else training).
void NetTraining::first_epoch() {
    NetEpoch e0;
    const PassContext p = pass();
    LossPass train(p, chunks), validation(p, chunks);
    stream.for_each_game([&](const StreamGame& g) {
        training_rows(g, [&](const TrainSample& x) { train.add(x); });
        if (split.validation(g.file, g.index))
            for (const PositionRecord& r : g.records) validation.add(sample(r, final_lambda));
    });
    e0.train_loss = train.mean();
    e0.validation_loss = validation.mean();
    best_loss = has_validation ? e0.validation_loss : e0.train_loss;
    report.history.push_back(e0);
    log(format("epoch 0: train %.6f validation %.6f", e0.train_loss, e0.validation_loss));
}

// The epochs after the last in the history up to --epochs, until --patience stops them; then the
// best parameters are those of the best epoch. When no epoch beat the start: a fine-tune keeps
// its --init network's parameters (what the log and the provenance call epoch 0), a random start
// the last ones.
void NetTraining::run_epochs() {
    t_train = TrainClock::now();
    const std::size_t batch =
        std::size_t(std::min<std::uint64_t>(config.batch, report.train_samples));
    const std::size_t per_batch =
        std::clamp<std::size_t>(batch / kMinChunkRows, std::size_t(1), kBatchChunks);
    std::vector<Chunk> batch_chunks(per_batch);
    for (Chunk& c : batch_chunks) c.grad.assign(model.params.size(), 0.0);
    for (int epoch = report.history.back().epoch + 1; epoch <= config.epochs && !stopped(); ++epoch)
        end_epoch(epoch, train_epoch(epoch, batch, batch_chunks));
    report.stopped_early = stopped();
    if (report.stopped_early)
        log(format("stopped early: no better validation loss for %d epochs", config.patience));
    if (best_epoch == 0 && config.init.empty()) best = model.params; // a random start: the last
    write_file_atomically(loss_csv_path(config.out), csv_text(report.history));
}

// One epoch: a pass whose training rows go through the epoch's shuffle buffer (drawing from
// --seed and the epoch) into mini-batches of `batch` rows (the last may hold fewer), each a step.
// Returns the mean loss of the training rows, each taken before its batch's step.
double NetTraining::train_epoch(int epoch, std::size_t batch, std::vector<Chunk>& batch_chunks) {
    optimiser.lr = optimiser.schedule.epoch_lr(epoch);
    train_lambda = config.lambda_at_epoch(epoch);
    ShuffleBuffer<TrainSample> buffer(config.shuffle_buffer,
                                      Rng::derive(config.seed, 0x7EA1, std::uint64_t(epoch)),
                                      std::size_t(report.train_samples));
    std::vector<TrainSample> rows;
    rows.reserve(batch);
    double epoch_loss = 0;
    std::uint64_t count = 0;
    auto run_batch = [&] {
        compute_gradients(rows, batch_chunks);
        for (const Chunk& c : batch_chunks) epoch_loss += c.loss;
        adam_step(rows.size(), batch_chunks);
        count += rows.size();
        rows.clear();
    };
    auto take = [&](const TrainSample& x) {
        rows.push_back(x);
        if (rows.size() == batch) run_batch();
    };
    stream.for_each_game([&](const StreamGame& g) {
        training_rows(g, [&](const TrainSample& x) { buffer.push(x, take); });
    });
    buffer.drain(take);
    if (!rows.empty()) run_batch();
    return epoch_loss / double(count);
}

// The loss and gradient of mini-batch `b`, cut into the chunks (each its own share of the rows).
void NetTraining::compute_gradients(std::span<const TrainSample> b,
                                    std::vector<Chunk>& batch_chunks) {
    const std::size_t rows = b.size(), per_batch = batch_chunks.size();
    const PassContext p = pass();
    const ForkJoin fork_join;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, per_batch, 1),
                      fork_join.body([&](const tbb::blocked_range<std::size_t>& r) {
                          for (std::size_t i = r.begin(); i != r.end(); ++i) {
                              Chunk& c = batch_chunks[i];
                              std::fill(c.grad.begin(), c.grad.end(), 0.0);
                              c.loss = 0;
                              const std::size_t from = rows * i / per_batch;
                              const std::size_t to = rows * (i + 1) / per_batch;
                              run_rows(p, b.subspan(from, to - from), c, true);
                          }
                      }));
    fork_join.joined();
}

void NetOptimiser::apply(std::vector<double>& params, std::size_t rows,
                         const std::vector<Chunk>& batch_chunks) {
    ++step;
    const AdamStep adam(kAdam, step, lr * schedule.warmup_factor(step));
    const double inv = 1.0 / double(rows);
    const ForkJoin fork_join;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, params.size(), 4096),
                      fork_join.body([&](const tbb::blocked_range<std::size_t>& r) {
                          for (std::size_t i = r.begin(); i != r.end(); ++i) {
                              double g = 0;
                              for (const Chunk& c : batch_chunks) g += c.grad[i];
                              adam.update(params[i], mean[i], square[i], g * inv);
                          }
                      }));
    fork_join.joined();
}

// Adam's step over the mini-batch's gradients; the parameters are then clipped.
void NetTraining::adam_step(std::size_t rows, const std::vector<Chunk>& batch_chunks) {
    optimiser.apply(model.params, rows, batch_chunks);
    clip_network(model, net_weight_clip(arch));
    set_forward();
}

// Records an epoch: its losses and time in the history, the best epoch so far, the next epoch's
// step size; then the checkpoint and the loss CSV are written and a line logged.
void NetTraining::end_epoch(int epoch, double train_loss) {
    NetEpoch e;
    e.epoch = epoch;
    e.train_loss = train_loss;
    e.validation_loss = validation_loss();
    e.seconds = elapsed();
    report.history.push_back(e);
    const double watched = has_validation ? e.validation_loss : e.train_loss;
    const bool improved = watched < best_loss;
    if (improved) {
        best_loss = watched;
        best_epoch = epoch;
        best = model.params;
        since_best = 0;
    } else {
        ++since_best;
    }
    optimiser.lr =
        optimiser.schedule.epoch_lr(epoch + 1); // the checkpoint's: the next epoch's step size
    write_checkpoint(checkpoint_path(config.out), checkpoint());
    write_file_atomically(loss_csv_path(config.out), csv_text(report.history));
    log(format("epoch %d/%d: train %.6f validation %.6f%s (%.1f s)", epoch, config.epochs,
               e.train_loss, e.validation_loss, improved ? " best" : "", e.seconds));
}

// The state after the last epoch, as --resume reads it.
TrainCheckpoint NetTraining::checkpoint() const {
    TrainCheckpoint c;
    c.settings = settings;
    c.step = optimiser.step;
    c.lr = optimiser.lr;
    c.best_epoch = best_epoch;
    c.best_loss = best_loss;
    c.since_best = since_best;
    for (const NetEpoch& h : report.history)
        c.history.push_back({h.epoch, h.train_loss, h.validation_loss, h.seconds});
    c.params = model.params;
    c.mean = optimiser.mean;
    c.square = optimiser.square;
    c.best = best;
    return c;
}

// Quantises the best epoch's parameters and writes them with their provenance (the file also
// goes into the report).
void NetTraining::write_network(TrainClock::time_point t_start) {
    report.best_epoch = best_epoch;
    NetFile& file = report.file;
    file.net = nnue::quantise({arch, std::move(best)});
    NetProvenance& p = file.provenance;
    p.data_files = config.data;
    p.positions = std::int64_t(report.positions);
    p.games = std::int64_t(report.games);
    p.epochs = report.history.back().epoch;
    const NetEpoch& at_best = report.history[std::size_t(best_epoch)];
    p.train_loss = at_best.train_loss;
    p.validation_loss = has_validation ? at_best.validation_loss : -1;
    p.seed = config.seed;
    p.command = config.command;
    p.created = config.created;
    write_net_file(config.out, file);
    report.seconds = std::chrono::duration<double>(TrainClock::now() - t_start).count();
    log(format("wrote %s: best epoch %d (validation loss %.6f), %d epochs, %.1f s training",
               config.out.c_str(), best_epoch, at_best.validation_loss, p.epochs,
               report.history.back().seconds));
}

} // namespace

std::string checkpoint_path(const std::string& net_path) {
    return net_path + ".ckpt";
}
std::string loss_csv_path(const std::string& net_path) {
    return net_path + ".csv";
}

NetTrainReport run_net_training(const NetTrainConfig& config,
                                const std::function<void(const std::string&)>& log) {
    const auto t_start = TrainClock::now();
    NetTrainReport report;
    check_net_train_config(config);

    // The data, the network's shape, the split and K (a first pass over the data).
    PositionStream stream(config.data, config.filter, config.max_positions);
    // Held in memory when it fits: the epochs then replay it instead of decoding it.
    if (stream.hold(kHeldStreamBytes))
        log(format("holding the data in memory (%.0f MB): the epochs do not read the files again",
                   double(stream.held_bytes()) / 1e6));
    const nnue::Architecture arch = net_architecture(config, stream.rules().variant);
    GameSplit split(stream.identities(), config.valid_fraction, config.seed);
    const Survey survey = survey_net_data(config, stream, split);
    count_net_data(stream, survey.pass, report, log);
    count_net_split(config, split, report, log);
    fit_net_k(config, survey, report, log);

    // The state: random, --init's network, or the checkpoint's.
    NetTraining training(config, log, report, arch, stream, split, survey.pass);
    training.start_parameters();
    if (config.resume)
        training.resume();
    else
        training.first_epoch();

    training.run_epochs();
    training.write_network(t_start);
    return report;
}

} // namespace fanorona
