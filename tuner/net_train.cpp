#include "tuner/net_train.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
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
    const NetModel& model;
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
        const double y = p.model.forward(c.sample, c.scratch);
        const double s = sigmoid(p.k * y * scale);
        const double diff = s - double(p.target[row]);
        c.loss += diff * diff;
        if (grad)
            p.model.backward(c.sample, 2 * diff * s * (1 - s) * p.k * scale, c.scratch,
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
    std::string files;
    for (const std::string& f : c.data) files += (files.empty() ? "" : ",") + f;
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

std::vector<double> to_std(const Eigen::VectorXd& v) {
    return std::vector<double>(v.data(), v.data() + v.size());
}
Eigen::VectorXd to_eigen(const std::vector<double>& v) {
    return Eigen::Map<const Eigen::VectorXd>(v.data(), Eigen::Index(v.size()));
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

    Dataset data = load_dataset(config.data, config.filter);
    for (const std::string& w : data.warnings) log("warning: " + w);
    cap_positions(data, config.max_positions);
    nnue::Architecture arch;
    arch.variant = data.rules.variant;
    arch.features = config.features;
    arch.activation = config.activation;
    arch.hidden = config.hidden;
    arch.layer2 = config.layer2;
    arch.buckets = config.buckets;
    if (const std::string why = nnue::architecture_problem(arch); !why.empty())
        throw std::invalid_argument("network: " + why);
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

    const DataSplit split = split_by_game(data, config.valid_fraction, config.seed);
    report.train_positions = split.train.size();
    report.validation_positions = split.validation.size();
    report.train_games = split.train_games;
    report.validation_games = split.validation_games;
    log(format("training on %zu positions of %llu games, validating on %zu positions of %llu "
               "games",
               split.train.size(), (unsigned long long)split.train_games, split.validation.size(),
               (unsigned long long)split.validation_games));

    // K: given, or fitted to the training positions' search scores against their results.
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
    std::vector<float> target(data.records.size());
    for (std::size_t i = 0; i < data.records.size(); ++i) {
        const PositionRecord& r = data.records[i];
        target[i] = float(config.lambda * sigmoid(report.k * r.score) +
                          (1 - config.lambda) * result_for_side(r));
    }

    // The state: random, --init's network, or the checkpoint's.
    std::string settings = settings_text(config, arch, report.k, data);
    NetModel model = NetModel::random(arch, config.seed);
    if (!config.init.empty()) {
        const NetFile start = read_net_file(config.init);
        if (start.net.arch != arch)
            throw std::invalid_argument(
                config.init + ": architecture: the network is " +
                nnue::architecture_text(start.net.arch) + ", the training's " +
                nnue::architecture_text(arch) +
                " (the data's board, --features, --activation, --hidden, --layer2, --buckets)");
        model = NetModel::from_float_network(nnue::dequantise(start.net));
        settings += " init=" + net_fingerprint(start.net);
        log("starting from " + config.init + " (" + net_fingerprint(start.net) + ")");
    }
    model.clip(net_weight_clip(arch));
    const Eigen::Index n_params = model.theta.size();
    Eigen::VectorXd mean = Eigen::VectorXd::Zero(n_params), square = mean;
    Eigen::VectorXd best = model.theta;
    std::uint64_t step = 0;
    double lr = config.lr;
    int best_epoch = 0, since_best = 0;
    double best_loss = std::numeric_limits<double>::infinity();
    double seconds_before = 0;
    const PassContext pass{model, data, target, report.k};
    std::vector<Chunk> chunks;
    const bool has_validation = !split.validation.empty();
    if (config.resume) {
        const TrainCheckpoint c = read_checkpoint(checkpoint_path(config.out));
        if (c.settings != settings)
            throw std::invalid_argument(
                checkpoint_path(config.out) +
                ": settings: the checkpoint was made with other settings or data (it has '" +
                c.settings + "', this run '" + settings + "')");
        if (std::int64_t(c.params.size()) != n_params)
            throw std::invalid_argument(checkpoint_path(config.out) +
                                        ": parameters: wrong count for this network");
        model.theta = to_eigen(c.params);
        mean = to_eigen(c.mean);
        square = to_eigen(c.square);
        best = to_eigen(c.best);
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
    } else {
        NetEpoch e0;
        e0.train_loss = mean_loss(pass, split.train, chunks);
        e0.validation_loss = mean_loss(pass, split.validation, chunks);
        best_loss = has_validation ? e0.validation_loss : e0.train_loss;
        report.history.push_back(e0);
        log(format("epoch 0: train %.6f validation %.6f", e0.train_loss, e0.validation_loss));
    }
    const auto t_train = Clock::now();
    auto elapsed = [&] {
        return seconds_before + std::chrono::duration<double>(Clock::now() - t_train).count();
    };

    const NetLayout layout(arch);
    const std::size_t batch = std::min(config.batch, split.train.size());
    const std::size_t per_batch =
        std::clamp<std::size_t>(batch / kMinChunkRows, std::size_t(1), kBatchChunks);
    std::vector<Chunk> batch_chunks(per_batch);
    for (Chunk& c : batch_chunks) c.grad.assign(std::size_t(n_params), 0.0);
    std::vector<std::uint32_t> order = split.train;

    auto stopped = [&] { return config.patience > 0 && since_best >= config.patience; };
    for (int epoch = report.history.back().epoch + 1; epoch <= config.epochs && !stopped();
         ++epoch) {
        order = split.train;
        Rng::derive(config.seed, 0x7EA1, std::uint64_t(epoch)).shuffle(order);
        double epoch_loss = 0;
        for (std::size_t at = 0; at < order.size(); at += batch) {
            const std::size_t rows = std::min(batch, order.size() - at);
            const std::span<const std::uint32_t> b(order.data() + at, rows);
            const ForkJoin fork_join;
            tbb::parallel_for(tbb::blocked_range<std::size_t>(0, per_batch, 1),
                              fork_join.body([&](const tbb::blocked_range<std::size_t>& r) {
                                  for (std::size_t i = r.begin(); i != r.end(); ++i) {
                                      Chunk& c = batch_chunks[i];
                                      std::fill(c.grad.begin(), c.grad.end(), 0.0);
                                      c.loss = 0;
                                      const std::size_t from = rows * i / per_batch;
                                      const std::size_t to = rows * (i + 1) / per_batch;
                                      run_rows(pass, b.subspan(from, to - from), c, true);
                                  }
                              }));
            fork_join.joined();
            for (const Chunk& c : batch_chunks) epoch_loss += c.loss;
            // Sum the chunks in order and step, in parallel over parameter ranges.
            const AdamStep adam(kAdam, ++step, lr);
            const double inv = 1.0 / double(rows);
            const ForkJoin fj2;
            tbb::parallel_for(tbb::blocked_range<Eigen::Index>(0, n_params, 4096),
                              fj2.body([&](const tbb::blocked_range<Eigen::Index>& r) {
                                  for (Eigen::Index i = r.begin(); i != r.end(); ++i) {
                                      double g = 0;
                                      for (const Chunk& c : batch_chunks)
                                          g += c.grad[std::size_t(i)];
                                      adam.update(model.theta[i], mean[i], square[i], g * inv);
                                  }
                              }));
            fj2.joined();
            model.clip(net_weight_clip(arch));
        }
        NetEpoch e;
        e.epoch = epoch;
        e.train_loss = epoch_loss / double(order.size());
        e.validation_loss = mean_loss(pass, split.validation, chunks);
        e.seconds = elapsed();
        report.history.push_back(e);
        const double watched = has_validation ? e.validation_loss : e.train_loss;
        const bool improved = watched < best_loss;
        if (improved) {
            best_loss = watched;
            best_epoch = epoch;
            best = model.theta;
            since_best = 0;
        } else {
            ++since_best;
        }
        lr *= config.lr_decay;

        TrainCheckpoint c;
        c.settings = settings;
        c.step = step;
        c.lr = lr;
        c.best_epoch = best_epoch;
        c.best_loss = best_loss;
        c.since_best = since_best;
        for (const NetEpoch& h : report.history)
            c.history.push_back({h.epoch, h.train_loss, h.validation_loss, h.seconds});
        c.params = to_std(model.theta);
        c.mean = to_std(mean);
        c.square = to_std(square);
        c.best = to_std(best);
        write_checkpoint(checkpoint_path(config.out), c);
        write_file_atomically(loss_csv_path(config.out), csv_text(report.history));
        log(format("epoch %d/%d: train %.6f validation %.6f%s (%.1f s)", epoch, config.epochs,
                   e.train_loss, e.validation_loss, improved ? " best" : "", e.seconds));
    }
    report.stopped_early = stopped();
    if (report.stopped_early)
        log(format("stopped early: no better validation loss for %d epochs", config.patience));
    if (best_epoch == 0) best = model.theta; // no epoch beat the start (or none ran)
    write_file_atomically(loss_csv_path(config.out), csv_text(report.history));

    // Quantise the best epoch's parameters and write them with their provenance.
    NetModel final_model(arch);
    final_model.theta = best;
    report.best_epoch = best_epoch;
    NetFile& file = report.file;
    file.net = nnue::quantise(final_model.to_float_network());
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
    return report;
}

} // namespace fanorona
