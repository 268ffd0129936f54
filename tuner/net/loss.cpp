#include "tuner/net/loss.h"

#include <Eigen/Core>

#include "core/board/rules.h"

#include "core/nnue/network.h"
#include "selfplay/formats/net_file.h"
#include "tuner/position_stream.h"
#include "tuner/texel/loss.h"

namespace fanorona {

namespace {

// K is fitted to the scores and results of at most this many positions (the first ones).
constexpr std::size_t kKFitRows = std::size_t(1) << 20;

// Fits K to the logged scores against the results, as `train --k auto` does.
double fit_k_to_scores(const PositionStream& stream) {
    std::vector<double> scores, results;
    stream.for_each_game([&](const StreamGame& g) {
        for (const PositionRecord& r : g.records) {
            if (scores.size() == kKFitRows) return;
            scores.push_back(r.score);
            results.push_back(result_for_side(r));
        }
    });
    const auto n = Eigen::Index(scores.size());
    const Eigen::VectorXd e = Eigen::Map<const Eigen::VectorXd>(scores.data(), n);
    if (n == 0 || e.cwiseAbs().maxCoeff() == 0)
        throw TuneDataError("cannot fit K: every logged score is 0 (give --k VALUE)");
    return fit_k_to(e, Eigen::Map<const Eigen::VectorXd>(results.data(), n), LossKind::Mse);
}

} // namespace

double result_for_side(const PositionRecord& r) {
    if (r.result == GameResult::Draw) return 0.5;
    const bool white_won = r.result == GameResult::WhiteWins;
    return white_won == (r.side_to_move == Color::White) ? 1.0 : 0.0;
}

NetLossReport measure_net_loss(const NetLossConfig& config) {
    if (config.nets.empty()) throw std::invalid_argument("--net: no network to measure");
    const PositionStream stream(config.data, config.filter);
    const Variant variant = stream.rules().variant;
    std::vector<NetFile> nets;
    NetLossReport report;
    for (const std::string& name : config.nets) {
        nets.push_back(read_net_file(name));
        const nnue::Architecture& a = nets.back().net.arch;
        if (a.variant != variant)
            throw std::invalid_argument(name + ": the network plays " +
                                        std::string(variant_name(a.variant)) + ", the data is " +
                                        std::string(variant_name(variant)));
        report.rows.push_back({name, net_fingerprint(nets.back().net), 0, 0});
    }
    report.k_fitted = !config.k;
    report.k = config.k ? *config.k : fit_k_to_scores(stream);
    std::vector<double> sum(nets.size(), 0), result_sum(nets.size(), 0);
    double label_sum = 0;
    const StreamPass pass = stream.for_each_game([&](const StreamGame& g) {
        for (const PositionRecord& r : g.records) {
            const double result = result_for_side(r);
            const double label = sigmoid(report.k * r.score);
            const double target = config.lambda * label + (1 - config.lambda) * result;
            label_sum += (label - result) * (label - result);
            const Position pos = r.position(variant);
            for (std::size_t i = 0; i < nets.size(); ++i) {
                const double p = sigmoid(report.k * nnue::evaluate(nets[i].net, pos));
                sum[i] += (p - target) * (p - target);
                result_sum[i] += (p - result) * (p - result);
            }
        }
    });
    if (pass.positions == 0) throw no_positions_error(config.data, pass, config.filter);
    report.positions = pass.positions;
    report.games = pass.games;
    const double n = double(pass.positions);
    report.label_result_loss = label_sum / n;
    for (std::size_t i = 0; i < nets.size(); ++i) {
        report.rows[i].loss = sum[i] / n;
        report.rows[i].result_loss = result_sum[i] / n;
    }
    return report;
}

} // namespace fanorona
