#include "tuner/net/model.h"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "core/common/rng.h"

namespace fanorona {

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

nnue::FloatNetwork random_start_network(const nnue::Architecture& a, std::uint64_t seed) {
    nnue::FloatNetwork m = nnue::make_float_network(a);
    const nnue::ParamLayout l(a);
    Rng rng = Rng::derive(seed, 0x4E4E, 0);
    auto fill = [&](std::size_t from, std::size_t to, double range) {
        for (double& x : m.slice(from, to)) x = (2 * rng.uniform() - 1) * range;
    };
    const int lines = a.features == nnue::FeatureSet::PointsLines ? nnue::line_count(a.variant) : 0;
    fill(l.w1, l.b1, 1.0 / std::sqrt(double(nnue::cell_count(a.variant) + lines)));
    for (double& x : m.slice(l.b1, l.w2)) x = 0.25;
    fill(l.w2, l.b2, 1.0 / std::sqrt(2.0 * a.hidden));
    if (a.layer2 > 0) {
        for (double& x : m.slice(l.b2, l.w3)) x = 0.5;
        fill(l.w3, l.b3, 1.0 / std::sqrt(double(a.layer2)));
    }
    return m;
}

nnue::FloatNetwork widened_network(const nnue::FloatNetwork& narrow, nnue::FloatNetwork wide) {
    nnue::Architecture same = narrow.arch;
    same.hidden = wide.arch.hidden;
    assert(same == wide.arch && narrow.arch.hidden < wide.arch.hidden);
    (void)same;
    const nnue::ParamLayout from(narrow.arch), to(wide.arch);
    const auto h0 = std::size_t(narrow.arch.hidden), h = std::size_t(wide.arch.hidden);
    const auto inputs = std::size_t(nnue::input_count(wide.arch));
    const auto rows = std::size_t(nnue::w2_rows(wide.arch));
    const std::vector<double>& n = narrow.params;
    std::vector<double>& w = wide.params;
    // Step 1. The first h0 units of the accumulator: the narrow network's inputs and biases.
    for (std::size_t f = 0; f < inputs; ++f)
        std::copy_n(n.begin() + std::ptrdiff_t(from.w1 + f * h0), h0,
                    w.begin() + std::ptrdiff_t(to.w1 + f * h));
    std::copy_n(n.begin() + std::ptrdiff_t(from.b1), h0, w.begin() + std::ptrdiff_t(to.b1));
    // Step 2. Each row's output weights: the narrow ones for the old units of both halves (side
    // to move's, then the other side's), 0 for the new ones.
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t half = 0; half < 2; ++half) {
            const auto out = w.begin() + std::ptrdiff_t(to.w2 + r * 2 * h + half * h);
            std::fill_n(out, h, 0.0);
            std::copy_n(n.begin() + std::ptrdiff_t(from.w2 + r * 2 * h0 + half * h0), h0, out);
        }
    // Step 3. What follows the hidden units (b2, and with a second layer W3 and b3) is unchanged.
    std::copy(n.begin() + std::ptrdiff_t(from.b2), n.end(), w.begin() + std::ptrdiff_t(to.b2));
    return wide;
}

namespace {

// The model's parameters as an Eigen vector (a view: no copy).
using Theta = Eigen::Map<const Eigen::VectorXd>;
Theta theta_of(const nnue::FloatNetwork& net) {
    return {net.params.data(), Eigen::Index(net.params.size())};
}

void accumulate(const Theta& theta, const nnue::ParamLayout& l, Eigen::Index h,
                const nnue::ActiveFeatures& f, Eigen::VectorXd& acc) {
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
// and is scaled in place. A plain loop the compiler vectorises (Eigen's boolean mask was a quarter
// of a training's time), with the same products: d * inside, and d * ((2 a) * inside) for SCReLU.
void apply_slope(nnue::Activation act, const Eigen::VectorXd& a, Eigen::VectorXd& d) {
    const double* x = a.data();
    double* out = d.data();
    const Eigen::Index n = d.size();
    if (act == nnue::Activation::SCReLU) {
        for (Eigen::Index i = 0; i < n; ++i) {
            const double inside = x[i] > 0.0 && x[i] < 1.0 ? 1.0 : 0.0;
            out[i] *= 2.0 * x[i] * inside;
        }
    } else {
        for (Eigen::Index i = 0; i < n; ++i) out[i] *= x[i] > 0.0 && x[i] < 1.0 ? 1.0 : 0.0;
    }
}

// The second layer's weights as a 2H x L matrix: column i is unit i's row of w2.
Eigen::Map<const Eigen::MatrixXd> layer2_weights(const Theta& theta, const nnue::ParamLayout& l,
                                                 const nnue::Architecture& a) {
    return {theta.data() + l.w2, 2 * Eigen::Index(a.hidden), Eigen::Index(a.layer2)};
}

} // namespace

double net_forward(const nnue::FloatNetwork& net, const NetSample& x, NetScratch& s) {
    const nnue::Architecture& a = net.arch;
    const nnue::ParamLayout l(a);
    const Theta theta = theta_of(net);
    const Eigen::Index h = a.hidden, l2 = a.layer2;
    accumulate(theta, l, h, x.own, s.acc_own);
    accumulate(theta, l, h, x.other, s.acc_other);
    activate(a.activation, s.acc_own, s.act_own);
    activate(a.activation, s.acc_other, s.act_other);
    if (l2 == 0) {
        const Eigen::Index w2 = Eigen::Index(l.w2) + Eigen::Index(x.bucket) * 2 * h;
        return theta[Eigen::Index(l.b2) + x.bucket] + s.act_own.dot(theta.segment(w2, h)) +
               s.act_other.dot(theta.segment(w2 + h, h));
    }
    const auto w2 = layer2_weights(theta, l, a);
    s.z = theta.segment(Eigen::Index(l.b2), l2);
    s.z.noalias() += w2.topRows(h).transpose() * s.act_own;
    s.z.noalias() += w2.bottomRows(h).transpose() * s.act_other;
    activate(nnue::Activation::CReLU, s.z, s.h2);
    const Eigen::Index w3 = Eigen::Index(l.w3) + Eigen::Index(x.bucket) * l2;
    return theta[Eigen::Index(l.b3) + x.bucket] + s.h2.dot(theta.segment(w3, l2));
}

void net_backward(const nnue::FloatNetwork& net, const NetSample& x, double dy, NetScratch& s,
                  double* grad) {
    const nnue::Architecture& a = net.arch;
    const nnue::ParamLayout l(a);
    const Theta theta = theta_of(net);
    const Eigen::Index h = a.hidden, l2 = a.layer2;
    Eigen::Map<Eigen::VectorXd> g(grad, Eigen::Index(l.size));
    if (l2 == 0) {
        const Eigen::Index w2 = Eigen::Index(l.w2) + Eigen::Index(x.bucket) * 2 * h;
        g[Eigen::Index(l.b2) + x.bucket] += dy;
        g.segment(w2, h) += dy * s.act_own;
        g.segment(w2 + h, h) += dy * s.act_other;
        s.d_own = dy * theta.segment(w2, h);
        s.d_other = dy * theta.segment(w2 + h, h);
    } else {
        // y = b3 + clamp(z) . w3: d z = dy w3 where 0 < z < 1.
        const Eigen::Index w3 = Eigen::Index(l.w3) + Eigen::Index(x.bucket) * l2;
        g[Eigen::Index(l.b3) + x.bucket] += dy;
        g.segment(w3, l2) += dy * s.h2;
        s.dz = dy * theta.segment(w3, l2);
        apply_slope(nnue::Activation::CReLU, s.z, s.dz);
        // z = b2 + W2^T act: d b2 = dz, d W2 = act dz^T, d act = W2 dz, a unit (a column) at a
        // time, in unit order as Eigen's product sums them. A unit outside its clamp's slope (dz
        // 0) adds nothing and is skipped.
        g.segment(Eigen::Index(l.b2), l2) += s.dz;
        Eigen::Map<Eigen::MatrixXd> gw2(grad + l.w2, 2 * h, Eigen::Index(l2));
        const auto w2 = layer2_weights(theta, l, a);
        s.d_own.setZero(h);
        s.d_other.setZero(h);
        for (Eigen::Index j = 0; j < l2; ++j) {
            const double dz = s.dz[j];
            if (dz == 0.0) continue;
            gw2.col(j).head(h) += s.act_own * dz;
            gw2.col(j).tail(h) += s.act_other * dz;
            s.d_own += w2.col(j).head(h) * dz;
            s.d_other += w2.col(j).tail(h) * dz;
        }
    }
    apply_slope(a.activation, s.acc_own, s.d_own);
    apply_slope(a.activation, s.acc_other, s.d_other);
    g.segment(Eigen::Index(l.b1), h) += s.d_own + s.d_other;
    for (int i = 0; i < x.own.size; ++i)
        g.segment(Eigen::Index(l.w1) + Eigen::Index(x.own.index[std::size_t(i)]) * h, h) += s.d_own;
    for (int i = 0; i < x.other.size; ++i)
        g.segment(Eigen::Index(l.w1) + Eigen::Index(x.other.index[std::size_t(i)]) * h, h) +=
            s.d_other;
}

void clip_network(nnue::FloatNetwork& net, double limit) {
    const nnue::Architecture& a = net.arch;
    const nnue::ParamLayout l(a);
    Eigen::Map<Eigen::VectorXd> theta(net.params.data(), Eigen::Index(net.params.size()));
    auto first = theta.segment(Eigen::Index(l.w1), Eigen::Index(l.w2 - l.w1));
    first = first.cwiseMax(-limit).cwiseMin(limit);
    if (a.activation == nnue::Activation::SCReLU) {
        // The integer kernel needs |W2q| <= kScreluMaxW2q (NNUE_SPEC.md).
        const double w2_limit = double(nnue::kScreluMaxW2q) / a.qb;
        auto second = theta.segment(Eigen::Index(l.w2), Eigen::Index(l.b2 - l.w2));
        second = second.cwiseMax(-w2_limit).cwiseMin(w2_limit);
    }
    if (a.layer2 > 0) {
        const double w2_limit = double(nnue::max_w2q(a)) / nnue::w2_scale(a),
                     w3_limit = 32767.0 / a.qb;
        auto second = theta.segment(Eigen::Index(l.w2), Eigen::Index(l.b2 - l.w2));
        second = second.cwiseMax(-w2_limit).cwiseMin(w2_limit);
        auto third = theta.segment(Eigen::Index(l.w3), Eigen::Index(l.b3 - l.w3));
        third = third.cwiseMax(-w3_limit).cwiseMin(w3_limit);
    }
}

void rounded_for_training(const nnue::FloatNetwork& from, nnue::FloatNetwork& to) {
    to.arch = from.arch;
    to.params.assign(from.params.begin(), from.params.end());
    if (!from.arch.layer2_int8) return;
    const nnue::ParamLayout l(from.arch);
    const double q2 = nnue::w2_scale(from.arch), limit = nnue::max_w2q(from.arch);
    for (double& x : to.slice(l.w2, l.b2))
        x = float(std::clamp(std::round(double(float(x)) * q2), -limit, limit) / q2);
}

} // namespace fanorona
