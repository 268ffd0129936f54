#include "tuner/net_model.h"

#include <algorithm>
#include <cmath>

#include "common/rng.h"

namespace fanorona {

NetLayout::NetLayout(const nnue::Architecture& a)
    : inputs(nnue::input_count(a)), hidden(a.hidden), buckets(a.buckets),
      start_pieces(nnue::start_pieces(a.variant)) {
    const auto h = std::size_t(hidden);
    w1 = 0;
    b1 = w1 + std::size_t(inputs) * h;
    w2 = b1 + h;
    b2 = w2 + std::size_t(buckets) * 2 * h;
    size = b2 + std::size_t(buckets);
}

double net_weight_clip(const nnue::Architecture& a) {
    const double fits = 32767.0 / (double(a.qa) * double(nnue::max_active(a) + 1));
    return std::min(kNetWeightClip, std::floor(fits * 1000) / 1000);
}

void make_sample(const nnue::Architecture& a, const Position& pos, NetSample& out) {
    const Color stm = pos.side_to_move();
    nnue::active_features(pos, a.features, stm, out.own);
    nnue::active_features(pos, a.features, ~stm, out.other);
    out.bucket = nnue::output_bucket(popcount(pos.player() | pos.opponent()), a.buckets,
                                     nnue::start_pieces(a.variant));
}

NetModel::NetModel(const nnue::Architecture& a)
    : arch(a), theta(Eigen::VectorXd::Zero(Eigen::Index(NetLayout(a).size))) {}

NetModel NetModel::random(const nnue::Architecture& a, std::uint64_t seed) {
    NetModel m(a);
    const NetLayout l(a);
    Rng rng = Rng::derive(seed, 0x4E4E, 0);
    auto fill = [&](std::size_t from, std::size_t to, double range) {
        for (std::size_t i = from; i < to; ++i)
            m.theta[Eigen::Index(i)] = (2 * rng.uniform() - 1) * range;
    };
    const int lines = a.features == nnue::FeatureSet::PointsLines ? nnue::line_count(a.variant) : 0;
    fill(l.w1, l.b1, 1.0 / std::sqrt(double(nnue::cell_count(a.variant) + lines)));
    m.theta.segment(Eigen::Index(l.b1), l.hidden).setConstant(0.25);
    fill(l.w2, l.b2, 1.0 / std::sqrt(2.0 * l.hidden));
    return m;
}

namespace {

void accumulate(const Eigen::VectorXd& theta, const NetLayout& l, const nnue::ActiveFeatures& f,
                Eigen::VectorXd& acc) {
    const Eigen::Index h = l.hidden;
    acc = theta.segment(Eigen::Index(l.b1), h);
    for (int i = 0; i < f.size; ++i)
        acc += theta.segment(Eigen::Index(l.w1) + Eigen::Index(f.index[std::size_t(i)]) * h, h);
}

// The activation of an accumulator into `out` (a buffer of the scratch: no allocation once sized):
// clamp(a, 0, 1), squared for SCReLU.
void activate(nnue::Activation act, const Eigen::VectorXd& a, Eigen::VectorXd& out) {
    out = a.cwiseMax(0.0).cwiseMin(1.0);
    if (act == nnue::Activation::SCReLU) out = out.cwiseProduct(out);
}

// d loss / d a = dy * w2 * the activation's slope: clamp's is 1 strictly inside (0, 1) and 0
// outside; SCReLU's is 2 a inside and 0 outside. Written into `d` without a temporary.
void hidden_gradient(nnue::Activation act, double dy, const Eigen::VectorXd& a,
                     const Eigen::VectorXd::ConstSegmentReturnType& w2, Eigen::VectorXd& d) {
    const auto inside = ((a.array() > 0.0) && (a.array() < 1.0)).cast<double>();
    if (act == nnue::Activation::SCReLU)
        d = (2.0 * dy * w2.array() * a.array() * inside).matrix();
    else
        d = (dy * w2.array() * inside).matrix();
}

} // namespace

double NetModel::forward(const NetSample& x, NetScratch& s) const {
    const NetLayout l(arch);
    const Eigen::Index h = l.hidden;
    accumulate(theta, l, x.own, s.acc_own);
    accumulate(theta, l, x.other, s.acc_other);
    const Eigen::Index w2 = Eigen::Index(l.w2) + Eigen::Index(x.bucket) * 2 * h;
    activate(arch.activation, s.acc_own, s.act_own);
    activate(arch.activation, s.acc_other, s.act_other);
    return theta[Eigen::Index(l.b2) + x.bucket] + s.act_own.dot(theta.segment(w2, h)) +
           s.act_other.dot(theta.segment(w2 + h, h));
}

double NetModel::evaluate(const Position& pos) const {
    NetSample x;
    make_sample(arch, pos, x);
    NetScratch s;
    return forward(x, s) * arch.scale;
}

void NetModel::backward(const NetSample& x, double dy, NetScratch& s, double* grad) const {
    const NetLayout l(arch);
    const Eigen::Index h = l.hidden;
    const Eigen::Index w2 = Eigen::Index(l.w2) + Eigen::Index(x.bucket) * 2 * h;
    Eigen::Map<Eigen::VectorXd> g(grad, Eigen::Index(l.size));
    g[Eigen::Index(l.b2) + x.bucket] += dy;
    g.segment(w2, h) += dy * s.act_own;
    g.segment(w2 + h, h) += dy * s.act_other;
    hidden_gradient(arch.activation, dy, s.acc_own, theta.segment(w2, h), s.d_own);
    hidden_gradient(arch.activation, dy, s.acc_other, theta.segment(w2 + h, h), s.d_other);
    g.segment(Eigen::Index(l.b1), h) += s.d_own + s.d_other;
    for (int i = 0; i < x.own.size; ++i)
        g.segment(Eigen::Index(l.w1) + Eigen::Index(x.own.index[std::size_t(i)]) * h, h) += s.d_own;
    for (int i = 0; i < x.other.size; ++i)
        g.segment(Eigen::Index(l.w1) + Eigen::Index(x.other.index[std::size_t(i)]) * h, h) +=
            s.d_other;
}

void NetModel::clip(double limit) {
    const NetLayout l(arch);
    auto first = theta.segment(Eigen::Index(l.w1), Eigen::Index(l.w2 - l.w1));
    first = first.cwiseMax(-limit).cwiseMin(limit);
    if (arch.activation == nnue::Activation::SCReLU) {
        // The integer kernel needs |W2q| <= kScreluMaxW2q (NNUE_SPEC.md).
        const double w2_limit = double(nnue::kScreluMaxW2q) / arch.qb;
        auto second = theta.segment(Eigen::Index(l.w2), Eigen::Index(l.b2 - l.w2));
        second = second.cwiseMax(-w2_limit).cwiseMin(w2_limit);
    }
}

nnue::FloatNetwork NetModel::to_float_network() const {
    const NetLayout l(arch);
    nnue::FloatNetwork net = nnue::make_float_network(arch);
    auto copy = [&](std::vector<float>& to, std::size_t from) {
        for (std::size_t i = 0; i < to.size(); ++i) to[i] = float(theta[Eigen::Index(from + i)]);
    };
    copy(net.w1, l.w1);
    copy(net.b1, l.b1);
    copy(net.w2, l.w2);
    copy(net.b2, l.b2);
    return net;
}

NetModel NetModel::from_float_network(const nnue::FloatNetwork& net) {
    NetModel m(net.arch);
    const NetLayout l(net.arch);
    auto copy = [&](const std::vector<float>& from, std::size_t to) {
        for (std::size_t i = 0; i < from.size(); ++i) m.theta[Eigen::Index(to + i)] = from[i];
    };
    copy(net.w1, l.w1);
    copy(net.b1, l.b1);
    copy(net.w2, l.w2);
    copy(net.b2, l.b2);
    return m;
}

} // namespace fanorona
