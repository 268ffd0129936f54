#include "tuner/net_model.h"

#include <algorithm>
#include <cmath>

#include "core/common/rng.h"

namespace fanorona {

NetLayout::NetLayout(const nnue::Architecture& a)
    : inputs(nnue::input_count(a)), hidden(a.hidden), buckets(a.buckets), layer2(a.layer2),
      start_pieces(nnue::start_pieces(a.variant)) {
    const auto h = std::size_t(hidden), rows = std::size_t(nnue::w2_rows(a));
    w1 = 0;
    b1 = w1 + std::size_t(inputs) * h;
    w2 = b1 + h;
    b2 = w2 + rows * 2 * h;
    w3 = b2 + rows;
    b3 = w3 + (layer2 > 0 ? std::size_t(buckets) * std::size_t(layer2) : 0);
    size = b3 + (layer2 > 0 ? std::size_t(buckets) : 0);
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
    if (l.layer2 > 0) {
        m.theta.segment(Eigen::Index(l.b2), l.layer2).setConstant(0.5);
        fill(l.w3, l.b3, 1.0 / std::sqrt(double(l.layer2)));
    }
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

// d loss / d a = upstream (d loss / d activation) * the activation's slope: clamp's is 1
// strictly inside (0, 1) and 0 outside; SCReLU's is 2 a inside and 0 outside. `d` holds upstream
// and is scaled in place.
void apply_slope(nnue::Activation act, const Eigen::VectorXd& a, Eigen::VectorXd& d) {
    const auto inside = ((a.array() > 0.0) && (a.array() < 1.0)).cast<double>();
    if (act == nnue::Activation::SCReLU)
        d.array() *= 2.0 * a.array() * inside;
    else
        d.array() *= inside;
}

// The second layer's weights as a 2H x L matrix: column i is unit i's row of w2.
Eigen::Map<const Eigen::MatrixXd> layer2_weights(const Eigen::VectorXd& theta, const NetLayout& l) {
    return {theta.data() + l.w2, 2 * Eigen::Index(l.hidden), Eigen::Index(l.layer2)};
}

} // namespace

double NetModel::forward(const NetSample& x, NetScratch& s) const {
    const NetLayout l(arch);
    const Eigen::Index h = l.hidden;
    accumulate(theta, l, x.own, s.acc_own);
    accumulate(theta, l, x.other, s.acc_other);
    activate(arch.activation, s.acc_own, s.act_own);
    activate(arch.activation, s.acc_other, s.act_other);
    if (l.layer2 == 0) {
        const Eigen::Index w2 = Eigen::Index(l.w2) + Eigen::Index(x.bucket) * 2 * h;
        return theta[Eigen::Index(l.b2) + x.bucket] + s.act_own.dot(theta.segment(w2, h)) +
               s.act_other.dot(theta.segment(w2 + h, h));
    }
    const auto w2 = layer2_weights(theta, l);
    s.z = theta.segment(Eigen::Index(l.b2), l.layer2);
    s.z.noalias() += w2.topRows(h).transpose() * s.act_own;
    s.z.noalias() += w2.bottomRows(h).transpose() * s.act_other;
    activate(nnue::Activation::CReLU, s.z, s.h2);
    const Eigen::Index w3 = Eigen::Index(l.w3) + Eigen::Index(x.bucket) * l.layer2;
    return theta[Eigen::Index(l.b3) + x.bucket] + s.h2.dot(theta.segment(w3, l.layer2));
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
    Eigen::Map<Eigen::VectorXd> g(grad, Eigen::Index(l.size));
    if (l.layer2 == 0) {
        const Eigen::Index w2 = Eigen::Index(l.w2) + Eigen::Index(x.bucket) * 2 * h;
        g[Eigen::Index(l.b2) + x.bucket] += dy;
        g.segment(w2, h) += dy * s.act_own;
        g.segment(w2 + h, h) += dy * s.act_other;
        s.d_own = dy * theta.segment(w2, h);
        s.d_other = dy * theta.segment(w2 + h, h);
    } else {
        // y = b3 + clamp(z) . w3: d z = dy w3 where 0 < z < 1.
        const Eigen::Index w3 = Eigen::Index(l.w3) + Eigen::Index(x.bucket) * l.layer2;
        g[Eigen::Index(l.b3) + x.bucket] += dy;
        g.segment(w3, l.layer2) += dy * s.h2;
        s.dz = dy * theta.segment(w3, l.layer2);
        apply_slope(nnue::Activation::CReLU, s.z, s.dz);
        // z = b2 + W2^T act: d b2 = dz, d W2 = act dz^T, d act = W2 dz.
        g.segment(Eigen::Index(l.b2), l.layer2) += s.dz;
        Eigen::Map<Eigen::MatrixXd> gw2(grad + l.w2, 2 * h, Eigen::Index(l.layer2));
        gw2.topRows(h).noalias() += s.act_own * s.dz.transpose();
        gw2.bottomRows(h).noalias() += s.act_other * s.dz.transpose();
        const auto w2 = layer2_weights(theta, l);
        s.d_own.noalias() = w2.topRows(h) * s.dz;
        s.d_other.noalias() = w2.bottomRows(h) * s.dz;
    }
    apply_slope(arch.activation, s.acc_own, s.d_own);
    apply_slope(arch.activation, s.acc_other, s.d_other);
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
    if (l.layer2 > 0) {
        const double w2_limit = double(nnue::kLayer2MaxW2q) / nnue::kQL2,
                     w3_limit = 32767.0 / arch.qb;
        auto second = theta.segment(Eigen::Index(l.w2), Eigen::Index(l.b2 - l.w2));
        second = second.cwiseMax(-w2_limit).cwiseMin(w2_limit);
        auto third = theta.segment(Eigen::Index(l.w3), Eigen::Index(l.b3 - l.w3));
        third = third.cwiseMax(-w3_limit).cwiseMin(w3_limit);
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
    copy(net.w3, l.w3);
    copy(net.b3, l.b3);
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
    copy(net.w3, l.w3);
    copy(net.b3, l.b3);
    return m;
}

} // namespace fanorona
