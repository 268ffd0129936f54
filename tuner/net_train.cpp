#include "tuner/net_train.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "core/common/files.h"
#include "core/common/fork_join.h"
#include "core/common/rng.h"
#include "selfplay/formats/train_checkpoint.h"
#include "tuner/adam_rule.h"
#include "tuner/loss.h"
#include "tuner/net_model.h"

namespace fanorona {

namespace {

using Clock = std::chrono::steady_clock;

std::string format(const char* fmt, auto... args) {
    const int n = std::snprintf(nullptr, 0, fmt, args...);
    std::string out(std::size_t(std::max(n, 0)) + 1, '\0');
    std::snprintf(out.data(), out.size(), fmt, args...);
    out.pop_back();
    return out;
}

// A mini-batch is cut into this many chunks (fewer for a small batch), each with its own
// gradient buffer, summed in chunk order: the numbers do not depend on the thread count.
constexpr std::size_t kBatchChunks = 16;
constexpr std::size_t kMinChunkRows = 64;
// Rows per chunk of a loss pass over a whole set (validation, epoch 0).
constexpr std::size_t kPassChunkRows = 4096;
constexpr AdamRule kAdam{.epsilon = 1e-10};

double result_for_side(const PositionRecord& r) {
    if (r.result == GameResult::Draw) return 0.5;
    const bool white_won = r.result == GameResult::WhiteWins;
    return white_won == (r.side_to_move == Color::White) ? 1.0 : 0.0;
}

// Keeps the first games of `data` up to `max` positions (the last kept game may be cut).
void cap_positions(Dataset& data, std::uint64_t max) {
    if (max == 0 || data.records.size() <= max) return;
    std::uint64_t kept = 0;
    std::size_t games = 0;
    for (GameSpan& g : data.games) {
        if (kept >= max) break;
        g.count = std::uint32_t(std::min<std::uint64_t>(g.count, max - kept));
        kept += g.count;
        ++games;
    }
    data.games.resize(games);
    data.records.resize(std::size_t(kept));
}

// The pieces of a pass: the model, the data and the sigmoid's scale.
struct PassContext {
    const nnue::FloatNetwork& model;
    const Dataset& data;
    const std::vector<float>& target;
    double k;
};

// One chunk's work area: its sample, scratch, gradient and loss sum.
struct Chunk {
    NetSample sample;
    NetScratch scratch;
    std::vector<double> grad;
    double loss = 0;
};

// Adds the loss (and with `grad`, the gradient) of rows[from, to) to `c`.
void run_rows(const PassContext& p, std::span<const std::uint32_t> rows, Chunk& c, bool grad) {
    const double scale = p.model.arch.scale;
    const Variant v = p.data.rules.variant;
    for (const std::uint32_t row : rows) {
        const PositionRecord& r = p.data.records[row];
        make_sample(p.model.arch, r.position(v), c.sample);
        const double y = net_forward(p.model, c.sample, c.scratch);
        const double s = sigmoid(p.k * y * scale);
        const double diff = s - double(p.target[row]);
        c.loss += diff * diff;
        if (grad)
            net_backward(p.model, c.sample, 2 * diff * s * (1 - s) * p.k * scale, c.scratch,
                         c.grad.data());
    }
}

// The mean loss over `rows`, in fixed chunks summed in order.
double mean_loss(const PassContext& p, std::span<const std::uint32_t> rows,
                 std::vector<Chunk>& chunks) {
    if (rows.empty()) return std::numeric_limits<double>::quiet_NaN();
    const std::size_t n = (rows.size() + kPassChunkRows - 1) / kPassChunkRows;
    if (chunks.size() < n) chunks.resize(n);
    const ForkJoin fork_join;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 1),
                      fork_join.body([&](const tbb::blocked_range<std::size_t>& r) {
                          for (std::size_t i = r.begin(); i != r.end(); ++i) {
                              const std::size_t from = i * kPassChunkRows;
                              const std::size_t to = std::min(rows.size(), from + kPassChunkRows);
                              chunks[i].loss = 0;
                              run_rows(p, rows.subspan(from, to - from), chunks[i], false);
                          }
                      }));
    fork_join.joined();
    double sum = 0;
    for (std::size_t i = 0; i < n; ++i) sum += chunks[i].loss;
    return sum / double(rows.size());
}

std::string settings_text(const NetTrainConfig& c, const nnue::Architecture& a, double k,
                          const Dataset& data) {
    // The data's paths as spelled lexically normal: a resume naming ./x where the run named x
    // (or a/../x) is the same run; the counts below tell other content apart.
    std::string files;
    for (const std::string& f : c.data)
        files += (files.empty() ? "" : ",") + std::filesystem::path(f).lexically_normal().string();
    return format("data=%s positions=%zu games=%zu arch=%s batch=%zu lr=%a lr_decay=%a "
                  "lambda=%a k=%a validation=%a seed=%llu",
                  files.c_str(), data.records.size(), data.games.size(),
                  nnue::architecture_text(a).c_str(), c.batch, c.lr, c.lr_decay, c.lambda, k,
                  c.valid_fraction, (unsigned long long)c.seed);
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
    if (!(config.lr > 0)) throw std::invalid_argument("--lr must be positive");
    if (config.k && !(*config.k > 0)) throw std::invalid_argument("--k must be positive");
    if (config.epochs < 1) throw std::invalid_argument("--epochs must be at least 1");
    check_writable(config.out);
    check_writable(checkpoint_path(config.out));
    check_writable(loss_csv_path(config.out));
}

// The positions logs as filtered, cut at --max-positions; their warnings go to the log.
Dataset load_net_data(const NetTrainConfig& config,
                      const std::function<void(const std::string&)>& log) {
    Dataset data = load_dataset(config.data, config.filter);
    for (const std::string& w : data.warnings) log("warning: " + w);
    cap_positions(data, config.max_positions);
    return data;
}

// The network trained: the data's board with the configured shape. Throws std::invalid_argument
// naming the problem when there is no such network.
nnue::Architecture net_architecture(const NetTrainConfig& config, Variant variant) {
    const nnue::Architecture arch = config.architecture(variant);
    if (const std::string why = nnue::architecture_problem(arch); !why.empty())
        throw std::invalid_argument("network: " + why);
    return arch;
}

// The data's counts into the report, and a line of them to the log.
void count_net_data(const Dataset& data, NetTrainReport& report,
                    const std::function<void(const std::string&)>& log) {
    report.positions_read = data.read;
    report.skipped_decisive = data.skipped_decisive;
    report.skipped_captures = data.skipped_captures;
    report.table_positions = data.table_positions;
    report.relabelled = data.relabelled;
    report.positions = data.records.size();
    report.games = data.games.size();
    log(format("read %llu positions of %zu files; using %llu positions of %llu games (%llu "
               "skipped for decisive scores, %llu where the side to move can capture, %llu in "
               "the tables of which %llu relabelled)",
               (unsigned long long)data.read, data.files.size(),
               (unsigned long long)report.positions, (unsigned long long)report.games,
               (unsigned long long)data.skipped_decisive, (unsigned long long)data.skipped_captures,
               (unsigned long long)data.table_positions, (unsigned long long)data.relabelled));
}

// The split into training and validation games (--valid-fraction, --seed), with its counts in
// the report and the log.
DataSplit split_net_data(const NetTrainConfig& config, const Dataset& data, NetTrainReport& report,
                         const std::function<void(const std::string&)>& log) {
    DataSplit split = split_by_game(data, config.valid_fraction, config.seed);
    report.train_positions = split.train.size();
    report.validation_positions = split.validation.size();
    report.train_games = split.train_games;
    report.validation_games = split.validation_games;
    log(format("training on %zu positions of %llu games, validating on %zu positions of %llu "
               "games",
               split.train.size(), (unsigned long long)split.train_games, split.validation.size(),
               (unsigned long long)split.validation_games));
    return split;
}

// K into the report: given, or fitted to the training positions' search scores against their
// results. Throws TuneDataError when every score is 0 (nothing to fit).
void fit_net_k(const NetTrainConfig& config, const Dataset& data, const DataSplit& split,
               NetTrainReport& report, const std::function<void(const std::string&)>& log) {
    report.k_fitted = !config.k;
    if (config.k) {
        report.k = *config.k;
    } else {
        Eigen::VectorXd e(Eigen::Index(split.train.size())), y(e.size());
        for (std::size_t i = 0; i < split.train.size(); ++i) {
            const PositionRecord& r = data.records[split.train[i]];
            e[Eigen::Index(i)] = r.score;
            y[Eigen::Index(i)] = result_for_side(r);
        }
        if (e.cwiseAbs().maxCoeff() == 0)
            throw TuneDataError("cannot fit K: every logged score is 0 (give --k VALUE)");
        report.k = fit_k_to(e, y, LossKind::Mse);
    }
    log(format("K = %.6g (1 / K = %.1f centi-pieces, %s); target = %g * sigmoid(K * score) + "
               "%g * result",
               report.k, 1 / report.k, report.k_fitted ? "fitted to the scores" : "given",
               config.lambda, 1 - config.lambda));
}

// Every record's target: lambda * sigmoid(K * score) + (1 - lambda) * result.
std::vector<float> net_targets(const NetTrainConfig& config, const Dataset& data, double k) {
    std::vector<float> target(data.records.size());
    for (std::size_t i = 0; i < data.records.size(); ++i) {
        const PositionRecord& r = data.records[i];
        target[i] =
            float(config.lambda * sigmoid(k * r.score) + (1 - config.lambda) * result_for_side(r));
    }
    return target;
}

// One training between its steps: the settings, data, split and targets (fixed), the model and
// Adam's moments, the best epoch's parameters and the counters (what a checkpoint holds: after
// every epoch the checkpoint and the loss CSV are the state), and the report it fills.
struct NetTraining {
    const NetTrainConfig& config;
    const std::function<void(const std::string&)>& log;
    NetTrainReport& report;
    const nnue::Architecture arch;
    const Dataset& data;
    const DataSplit& split;
    const std::vector<float>& target;
    const bool has_validation = !split.validation.empty();
    std::string settings; // the checkpoint's settings: a resume must have the same
    nnue::FloatNetwork model;
    // Adam's state beside the parameters: the two moments of every parameter (the step count and
    // the step size below); and the best epoch's parameters.
    std::vector<double> mean, square;
    std::vector<double> best;
    std::uint64_t step = 0;
    double lr = config.lr;
    int best_epoch = 0, since_best = 0;
    double best_loss = std::numeric_limits<double>::infinity();
    double seconds_before = 0; // training time of the runs before a resume
    Clock::time_point t_train; // the start of this run's epochs
    std::vector<Chunk> chunks; // the loss passes' work areas

    NetTraining(const NetTrainConfig& c, const std::function<void(const std::string&)>& l,
                NetTrainReport& r, const nnue::Architecture& a, const Dataset& d,
                const DataSplit& s, const std::vector<float>& t)
        : config(c), log(l), report(r), arch(a), data(d), split(s), target(t),
          model(nnue::make_float_network(a)) {}

    PassContext pass() const { return {model, data, target, report.k}; }
    double elapsed() const {
        return seconds_before + std::chrono::duration<double>(Clock::now() - t_train).count();
    }
    bool stopped() const { return config.patience > 0 && since_best >= config.patience; }

    void start_parameters();
    void resume();
    void first_epoch();
    void run_epochs();
    double train_epoch(int epoch, std::size_t batch, std::vector<Chunk>& batch_chunks);
    void compute_gradients(std::span<const std::uint32_t> b, std::vector<Chunk>& batch_chunks);
    void adam_step(std::size_t rows, const std::vector<Chunk>& batch_chunks);
    void end_epoch(int epoch, double train_loss);
    TrainCheckpoint checkpoint() const;
    void write_network(Clock::time_point t_start);
};

// The start: random parameters (--seed) or --init's network (whose architecture must be the
// training's), clipped, with Adam's moments at zero; the settings name the start network.
void NetTraining::start_parameters() {
    settings = settings_text(config, arch, report.k, data);
    model = random_start_network(arch, config.seed);
    if (!config.init.empty()) {
        const NetFile start = read_net_file(config.init);
        if (start.net.arch != arch)
            throw std::invalid_argument(
                config.init + ": architecture: the network is " +
                nnue::architecture_text(start.net.arch) + ", the training's " +
                nnue::architecture_text(arch) +
                " (the data's board, --features, --activation, --hidden, --layer2, --buckets)");
        model = nnue::dequantise(start.net);
        settings += " init=" + net_fingerprint(start.net);
        log("starting from " + config.init + " (" + net_fingerprint(start.net) + ")");
    }
    clip_network(model, net_weight_clip(arch));
    mean.assign(model.params.size(), 0.0);
    square = mean;
    best = model.params;
}

// --resume: the state after the checkpoint's last epoch, with its history in the report. Throws
// std::invalid_argument when the checkpoint is of other settings or data, or holds no epoch.
void NetTraining::resume() {
    const TrainCheckpoint c = read_checkpoint(checkpoint_path(config.out));
    if (c.settings != settings)
        throw std::invalid_argument(
            checkpoint_path(config.out) +
            ": settings: the checkpoint was made with other settings or data (it has '" +
            c.settings + "', this run '" + settings + "')");
    if (c.params.size() != model.params.size())
        throw std::invalid_argument(checkpoint_path(config.out) +
                                    ": parameters: wrong count for this network");
    model.params = c.params;
    mean = c.mean;
    square = c.square;
    best = c.best;
    step = c.step;
    lr = c.lr;
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

// Epoch 0: the start parameters' losses, the first best loss (validation, else training).
void NetTraining::first_epoch() {
    NetEpoch e0;
    e0.train_loss = mean_loss(pass(), split.train, chunks);
    e0.validation_loss = mean_loss(pass(), split.validation, chunks);
    best_loss = has_validation ? e0.validation_loss : e0.train_loss;
    report.history.push_back(e0);
    log(format("epoch 0: train %.6f validation %.6f", e0.train_loss, e0.validation_loss));
}

// The epochs after the last in the history up to --epochs, until --patience stops them; then the
// best parameters are those of the best epoch, or the last ones when no epoch beat the start.
void NetTraining::run_epochs() {
    t_train = Clock::now();
    const std::size_t batch = std::min(config.batch, split.train.size());
    const std::size_t per_batch =
        std::clamp<std::size_t>(batch / kMinChunkRows, std::size_t(1), kBatchChunks);
    std::vector<Chunk> batch_chunks(per_batch);
    for (Chunk& c : batch_chunks) c.grad.assign(model.params.size(), 0.0);
    for (int epoch = report.history.back().epoch + 1; epoch <= config.epochs && !stopped(); ++epoch)
        end_epoch(epoch, train_epoch(epoch, batch, batch_chunks));
    report.stopped_early = stopped();
    if (report.stopped_early)
        log(format("stopped early: no better validation loss for %d epochs", config.patience));
    if (best_epoch == 0) best = model.params; // no epoch beat the start (or none ran)
    write_file_atomically(loss_csv_path(config.out), csv_text(report.history));
}

// One epoch's mini-batches in the epoch's own order (--seed); returns the mean loss of the
// training rows, each taken before its batch's step.
double NetTraining::train_epoch(int epoch, std::size_t batch, std::vector<Chunk>& batch_chunks) {
    std::vector<std::uint32_t> order = split.train;
    Rng::derive(config.seed, 0x7EA1, std::uint64_t(epoch)).shuffle(order);
    double epoch_loss = 0;
    for (std::size_t at = 0; at < order.size(); at += batch) {
        const std::size_t rows = std::min(batch, order.size() - at);
        compute_gradients(std::span<const std::uint32_t>(order.data() + at, rows), batch_chunks);
        for (const Chunk& c : batch_chunks) epoch_loss += c.loss;
        adam_step(rows, batch_chunks);
    }
    return epoch_loss / double(order.size());
}

// The loss and gradient of mini-batch `b`, cut into the chunks (each its own share of the rows).
void NetTraining::compute_gradients(std::span<const std::uint32_t> b,
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

// Sums the chunks' gradients in order and takes Adam's step, in parallel over parameter ranges;
// the parameters are then clipped.
void NetTraining::adam_step(std::size_t rows, const std::vector<Chunk>& batch_chunks) {
    const AdamStep adam(kAdam, ++step, lr);
    const double inv = 1.0 / double(rows);
    const ForkJoin fork_join;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, model.params.size(), 4096),
                      fork_join.body([&](const tbb::blocked_range<std::size_t>& r) {
                          for (std::size_t i = r.begin(); i != r.end(); ++i) {
                              double g = 0;
                              for (const Chunk& c : batch_chunks) g += c.grad[i];
                              adam.update(model.params[i], mean[i], square[i], g * inv);
                          }
                      }));
    fork_join.joined();
    clip_network(model, net_weight_clip(arch));
}

// Records an epoch: its losses and time in the history, the best epoch so far, the step size's
// decay; then the checkpoint and the loss CSV are written and a line logged.
void NetTraining::end_epoch(int epoch, double train_loss) {
    NetEpoch e;
    e.epoch = epoch;
    e.train_loss = train_loss;
    e.validation_loss = mean_loss(pass(), split.validation, chunks);
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
    lr *= config.lr_decay;
    write_checkpoint(checkpoint_path(config.out), checkpoint());
    write_file_atomically(loss_csv_path(config.out), csv_text(report.history));
    log(format("epoch %d/%d: train %.6f validation %.6f%s (%.1f s)", epoch, config.epochs,
               e.train_loss, e.validation_loss, improved ? " best" : "", e.seconds));
}

// The state after the last epoch, as --resume reads it.
TrainCheckpoint NetTraining::checkpoint() const {
    TrainCheckpoint c;
    c.settings = settings;
    c.step = step;
    c.lr = lr;
    c.best_epoch = best_epoch;
    c.best_loss = best_loss;
    c.since_best = since_best;
    for (const NetEpoch& h : report.history)
        c.history.push_back({h.epoch, h.train_loss, h.validation_loss, h.seconds});
    c.params = model.params;
    c.mean = mean;
    c.square = square;
    c.best = best;
    return c;
}

// Quantises the best epoch's parameters and writes them with their provenance (the file also
// goes into the report).
void NetTraining::write_network(Clock::time_point t_start) {
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
    report.seconds = std::chrono::duration<double>(Clock::now() - t_start).count();
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
    const auto t_start = Clock::now();
    NetTrainReport report;
    check_net_train_config(config);

    // The data, the network's shape, the split, K and the targets.
    const Dataset data = load_net_data(config, log);
    const nnue::Architecture arch = net_architecture(config, data.rules.variant);
    count_net_data(data, report, log);
    const DataSplit split = split_net_data(config, data, report, log);
    fit_net_k(config, data, split, report, log);
    const std::vector<float> target = net_targets(config, data, report.k);

    // The state: random, --init's network, or the checkpoint's.
    NetTraining training(config, log, report, arch, data, split, target);
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
