#include "core/nnue/network.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>

#include "core/common/rng.h"
#include "core/nnue/accumulator.h"
#include "core/nnue/features.h"

namespace fanorona::nnue {

namespace {

std::string nnue_sizes_problem(const Network& net) {
    const Architecture& a = net.arch;
    if (std::string p = architecture_problem(a); !p.empty()) return p;
    const ParamLayout l(a);
    if (net.w1.size() != l.b1 - l.w1) return "w1 size does not match";
    if (net.b1.size() != l.w2 - l.b1) return "b1 size does not match";
    if (net.w2.size() != l.b2 - l.w2) return "w2 size does not match";
    if (net.b2.size() != l.w3 - l.b2) return "b2 size does not match";
    if (net.w3.size() != l.b3 - l.w3) return "w3 size does not match";
    if (net.b3.size() != l.size - l.b3) return "b3 size does not match";
    if (net.w2.has_int8() != a.layer2_int8)
        return a.layer2_int8 ? "the 8-bit copy of the second layer's weights is missing"
                             : "an 8-bit copy of weights the architecture keeps in 16 bits";
    const int limit = max_w2q(a);
    for (const std::int16_t w : net.w2)
        if (w < -limit || w > limit)
            return "an output weight " + std::to_string(w) + " is outside +-" +
                   std::to_string(limit) + " (" + std::string(activation_name(a.activation)) + ")";
    return "";
}

template <class T> T nnue_round_saturate(double x) {
    const double r = std::round(x); // halves away from zero
    return T(std::clamp(r, double(std::numeric_limits<T>::min()),
                        double(std::numeric_limits<T>::max())));
}

// The float formula over parameters given by accessors (the float or the dequantised ones):
// w2(r, k) and b2(r) by row (bucket, or second-layer unit), w3(b, i) and b3(b) with layer2.
template <class W1, class B1, class W2, class B2, class W3, class B3>
double nnue_float_output(const Architecture& a, const Position& pos, W1 w1, B1 b1, W2 w2, B2 b2,
                         W3 w3, B3 b3) {
    const int h = a.hidden;
    const Color stm = pos.side_to_move();
    const int pieces = popcount(pos.player() | pos.opponent());
    const int bucket = output_bucket(pieces, a.buckets, start_pieces(a.variant));
    std::array<double, 2 * kMaxHidden> act{};
    for (int half = 0; half < 2; ++half) {
        const Color persp = half == 0 ? stm : ~stm;
        ActiveFeatures active;
        active_features(pos, a.features, persp, active);
        std::array<double, kMaxHidden> acc{};
        for (int j = 0; j < h; ++j) acc[std::size_t(j)] = b1(j);
        for (int i = 0; i < active.size; ++i)
            for (int j = 0; j < h; ++j) acc[std::size_t(j)] += w1(active.index[std::size_t(i)], j);
        const bool squared = a.activation == Activation::SCReLU;
        for (int j = 0; j < h; ++j) {
            const double v = std::clamp(acc[std::size_t(j)], 0.0, 1.0);
            act[std::size_t(half * h + j)] = squared ? v * v : v;
        }
    }
    const auto row_sum = [&](int r) {
        double z = b2(r);
        for (int k = 0; k < 2 * h; ++k) z += act[std::size_t(k)] * w2(r, k);
        return z;
    };
    if (a.layer2 == 0) return row_sum(bucket) * a.scale;
    double y = b3(bucket);
    for (int i = 0; i < a.layer2; ++i) y += std::clamp(row_sum(i), 0.0, 1.0) * w3(bucket, i);
    return y * a.scale;
}

// The extremes of b + sum of at most `most` of `weights` (each taken at most once, scaled by
// `factor`): the bias plus the `most` largest positive weights, and plus the `most` most negative.
struct Extremes {
    std::int64_t low = 0;
    std::int64_t high = 0;
};

// Extremes of bias + factor * (a sum of at most `most` distinct entries of `weights`).
Extremes nnue_extremes(std::int64_t bias, std::vector<std::int64_t>& weights, int most,
                       std::int64_t factor) {
    const auto k = std::min(weights.size(), std::size_t(std::max(most, 0)));
    Extremes e{bias, bias};
    if (k == 0) return e;
    const auto kth = weights.begin() + std::ptrdiff_t(k);
    std::nth_element(weights.begin(), kth - 1, weights.end(), std::greater<>());
    for (auto it = weights.begin(); it != kth; ++it)
        e.high += factor * std::max<std::int64_t>(*it, 0);
    std::nth_element(weights.begin(), kth - 1, weights.end());
    for (auto it = weights.begin(); it != kth; ++it)
        e.low += factor * std::min<std::int64_t>(*it, 0);
    return e;
}

// "" when [e.low, e.high] lies within [lo, hi], else "(WHAT: value > hi)" (or "< lo").
std::string nnue_outside(const Extremes& e, std::int64_t lo, std::int64_t hi,
                         const std::string& what) {
    if (e.high > hi)
        return "(" + what + ": " + std::to_string(e.high) + " > " + std::to_string(hi) + ")";
    if (e.low < lo)
        return "(" + what + ": " + std::to_string(e.low) + " < " + std::to_string(lo) + ")";
    return "";
}

// The evaluation (centi-pieces) of an output sum `out`, as evaluate() truncates it.
std::int64_t nnue_centi(const Architecture& a, std::int64_t out) {
    return out * a.scale / (std::int64_t(a.qa) * a.qb);
}

// Why the integer arithmetic of `net` (sizes checked) could leave its types or its evaluations
// exceed +-kMaxNetEval, for some position ("" when it cannot). Every bound takes each layer's
// inputs at their extremes independently, so it holds for every position:
//  - accumulator: a_P[j] = b1[j] + the sum of at most max_active(a) distinct rows of w1 (one
//    input per piece, and per line with PointsLines; position_problem() bounds the pieces), so
//    it lies within b1[j] + the max_active most negative and most positive w1[.][j]: that must
//    fit int16 (apply_rows wraps, and a wrapped sum is exact only when the true one fits);
//  - without layer2: out = b2 + sum over 2H of act * w2 with act in [0, QA] (SCReLU: (sum of
//    act^2 w2) / QA, the same range), so out lies within b2 + QA * (sum of the negative, and of
//    the positive w2 of the row); its evaluation must stay within +-kMaxNetEval;
//  - with layer2: zq_i = b2[i] + (int32) sum of act * w2[i] likewise must fit int32 (evaluate()
//    adds them as int32), and out = b3 + sum h_i w3 with h_i in [0, QA], whose evaluation must
//    stay within +-kMaxNetEval.
std::string nnue_range_problem(const Network& net) {
    const Architecture& a = net.arch;
    const auto h = std::size_t(a.hidden);
    const auto inputs = std::size_t(input_count(a));
    std::vector<std::int64_t> column(inputs);
    for (std::size_t j = 0; j < h; ++j) {
        for (std::size_t f = 0; f < inputs; ++f) column[f] = net.w1[f * h + j];
        const Extremes e = nnue_extremes(net.b1[j], column, max_active(a), 1);
        if (std::string p = nnue_outside(e, std::numeric_limits<std::int16_t>::min(),
                                         std::numeric_limits<std::int16_t>::max(),
                                         "hidden unit " + std::to_string(j));
            !p.empty())
            return "the first layer can overflow its int16 accumulator " + p;
    }
    const auto centi = [&](Extremes e) {
        return Extremes{nnue_centi(a, e.low), nnue_centi(a, e.high)};
    };
    const std::string beyond = "the output can exceed the evaluations the search allows ";
    std::vector<std::int64_t> row(2 * h);
    for (int r = 0; r < w2_rows(a); ++r) {
        for (std::size_t k = 0; k < 2 * h; ++k) row[k] = net.w2[std::size_t(r) * 2 * h + k];
        const Extremes e = nnue_extremes(net.b2[std::size_t(r)], row, int(2 * h), a.qa);
        if (a.layer2 == 0) {
            if (std::string p = nnue_outside(centi(e), -kMaxNetEval, kMaxNetEval,
                                             "bucket " + std::to_string(r));
                !p.empty())
                return beyond + p;
        } else if (std::string p = nnue_outside(e, std::numeric_limits<std::int32_t>::min(),
                                                std::numeric_limits<std::int32_t>::max(),
                                                "unit " + std::to_string(r));
                   !p.empty()) {
            return "the second layer can overflow its int32 sum " + p;
        }
    }
    const auto l2 = std::size_t(a.layer2);
    std::vector<std::int64_t> units(l2);
    for (std::size_t b = 0; b < net.b3.size(); ++b) {
        for (std::size_t i = 0; i < l2; ++i) units[i] = net.w3[b * l2 + i];
        const Extremes e = nnue_extremes(net.b3[b], units, a.layer2, a.qa);
        if (std::string p =
                nnue_outside(centi(e), -kMaxNetEval, kMaxNetEval, "bucket " + std::to_string(b));
            !p.empty())
            return beyond + p;
    }
    return "";
}

} // namespace

ParamLayout::ParamLayout(const Architecture& a) {
    const auto h = std::size_t(a.hidden), rows = std::size_t(w2_rows(a));
    const auto l2 = std::size_t(a.layer2), b3_size = a.layer2 > 0 ? std::size_t(a.buckets) : 0;
    w1 = 0;
    b1 = w1 + std::size_t(input_count(a)) * h;
    w2 = b1 + h;
    b2 = w2 + rows * 2 * h;
    w3 = b2 + rows;
    b3 = w3 + b3_size * l2;
    size = b3 + b3_size;
}

std::string network_problem(const Network& net) {
    if (std::string p = nnue_sizes_problem(net); !p.empty()) return p;
    return nnue_range_problem(net);
}
std::string network_problem(const FloatNetwork& net) {
    if (std::string p = architecture_problem(net.arch); !p.empty()) return p;
    if (net.params.size() != ParamLayout(net.arch).size) return "parameter count does not match";
    return "";
}

Layer2Weights::Layer2Weights(std::vector<std::int16_t> w, bool int8)
    : w_(std::move(w)), int8_(int8) {
    if (!int8_) return;
    w8_.reserve(w_.size());
    for (const std::int16_t x : w_) w8_.push_back(std::int8_t(std::clamp<int>(x, -128, 127)));
}

void Layer2Weights::set(std::size_t k, std::int16_t v) {
    w_.at(k) = v;
    if (int8_) w8_[k] = std::int8_t(std::clamp<int>(v, -128, 127));
}

Network make_network(const Architecture& a) {
    const ParamLayout l(a);
    Network net;
    net.arch = a;
    net.w1.assign(l.b1 - l.w1, 0);
    net.b1.assign(l.w2 - l.b1, 0);
    net.w2 = Layer2Weights(std::vector<std::int16_t>(l.b2 - l.w2, 0), a.layer2_int8);
    net.b2.assign(l.w3 - l.b2, 0);
    net.w3.assign(l.b3 - l.w3, 0);
    net.b3.assign(l.size - l.b3, 0);
    return net;
}

FloatNetwork make_float_network(const Architecture& a) {
    return {a, std::vector<double>(ParamLayout(a).size, 0.0)};
}

Network quantise(const FloatNetwork& f) {
    const ParamLayout l = f.layout();
    Network q;
    q.arch = f.arch;
    const double qa = f.arch.qa, qb = f.arch.qb, q2 = w2_scale(f.arch);
    for (const double x : f.slice(l.w1, l.b1))
        q.w1.push_back(nnue_round_saturate<std::int16_t>(float(x) * qa));
    for (const double x : f.slice(l.b1, l.w2))
        q.b1.push_back(nnue_round_saturate<std::int16_t>(float(x) * qa));
    const auto w2_limit = std::int16_t(max_w2q(f.arch));
    std::vector<std::int16_t> w2;
    for (const double x : f.slice(l.w2, l.b2))
        w2.push_back(std::clamp(nnue_round_saturate<std::int16_t>(float(x) * q2),
                                std::int16_t(-w2_limit), w2_limit));
    q.w2 = Layer2Weights(std::move(w2), f.arch.layer2_int8);
    for (const double x : f.slice(l.b2, l.w3))
        q.b2.push_back(nnue_round_saturate<std::int32_t>(float(x) * qa * q2));
    for (const double x : f.slice(l.w3, l.b3))
        q.w3.push_back(nnue_round_saturate<std::int16_t>(float(x) * qb));
    for (const double x : f.slice(l.b3, l.size))
        q.b3.push_back(nnue_round_saturate<std::int32_t>(float(x) * qa * qb));
    return q;
}

FloatNetwork dequantise(const Network& q) {
    FloatNetwork f{q.arch, {}};
    f.params.reserve(ParamLayout(q.arch).size);
    const double qa = q.arch.qa, qb = q.arch.qb, q2 = w2_scale(q.arch);
    const auto put = [&](const auto& from, double scale) {
        for (const auto x : from) f.params.push_back(float(x / scale));
    };
    put(q.w1, qa);
    put(q.b1, qa);
    put(q.w2, q2);
    put(q.b2, qa * q2);
    put(q.w3, qb);
    put(q.b3, qa * qb);
    return f;
}

FloatNetwork random_float_network(const Architecture& a, std::uint64_t seed) {
    FloatNetwork f = make_float_network(a);
    const ParamLayout l = f.layout();
    Rng rng(seed);
    // Every value is a float (the sums too), as quantise() reads them.
    const auto uniform = [&](double r) { return float((rng.uniform() * 2 - 1) * r); };
    const auto h = std::size_t(a.hidden);
    const int cells = cell_count(a.variant);
    // Each hidden unit counts the material (own pieces +0.01, the other side's -0.01, around
    // 0.5) plus noise; the output weights read the difference, about 100 centi-pieces a piece.
    const double u = 0.25 / (0.02 * double(h)) / a.scale * 400;
    // Line inputs (from 2 * cells on) get smaller noise and no material part.
    const std::span<double> w1 = f.slice(l.w1, l.b1), w2 = f.slice(l.w2, l.b2);
    for (std::size_t i = 0; i < w1.size(); ++i) {
        const int input = int(i / h);
        w1[i] =
            input < 2 * cells ? float(input < cells ? 0.01 : -0.01) + uniform(0.05) : uniform(0.01);
    }
    for (double& x : f.slice(l.b1, l.w2)) x = 0.5f + uniform(0.05);
    if (a.layer2 == 0) {
        for (std::size_t i = 0; i < w2.size(); ++i)
            w2[i] = float(i % (2 * h) < h ? u : -u) + uniform(0.3 / std::sqrt(double(h)));
        for (double& x : f.slice(l.b2, l.w3)) x = uniform(0.1);
        return f;
    }
    // With a second layer: each of its units is 0.5 + a quarter of that material output (inside
    // clamp's slope for up to 2 of the output's units either way), and the output sums them
    // back: -2 + 4 / L per unit.
    for (std::size_t i = 0; i < w2.size(); ++i)
        w2[i] = float((i % (2 * h) < h ? u : -u) / 4) + uniform(0.075 / std::sqrt(double(h)));
    for (double& x : f.slice(l.b2, l.w3)) x = 0.5f + uniform(0.025);
    for (double& x : f.slice(l.w3, l.b3)) x = float(4.0 / a.layer2) + uniform(0.1 / a.layer2);
    for (double& x : f.slice(l.b3, l.size)) x = -2.0f + uniform(0.1);
    return f;
}

double evaluate_float(const FloatNetwork& net, const Position& pos) {
    const auto h = std::size_t(net.arch.hidden);
    const ParamLayout l = net.layout();
    const std::vector<double>& p = net.params;
    return nnue_float_output(
        net.arch, pos, [&](int f, int j) { return p[l.w1 + std::size_t(f) * h + std::size_t(j)]; },
        [&](int j) { return p[l.b1 + std::size_t(j)]; },
        [&](int r, int k) { return p[l.w2 + std::size_t(r) * 2 * h + std::size_t(k)]; },
        [&](int r) { return p[l.b2 + std::size_t(r)]; },
        [&](int b, int i) { return p[l.w3 + std::size_t(b * net.arch.layer2 + i)]; },
        [&](int b) { return p[l.b3 + std::size_t(b)]; });
}

double evaluate_float(const Network& net, const Position& pos) {
    const auto h = std::size_t(net.arch.hidden);
    const double qa = net.arch.qa, qb = net.arch.qb, q2 = w2_scale(net.arch);
    return nnue_float_output(
        net.arch, pos, [&](int f, int j) { return net.w1[std::size_t(f) * h + j] / qa; },
        [&](int j) { return net.b1[std::size_t(j)] / qa; },
        [&](int r, int k) { return net.w2[std::size_t(r) * 2 * h + std::size_t(k)] / q2; },
        [&](int r) { return net.b2[std::size_t(r)] / (qa * q2); },
        [&](int b, int i) { return net.w3[std::size_t(b * net.arch.layer2 + i)] / qb; },
        [&](int b) { return net.b3[std::size_t(b)] / (qa * qb); });
}

int evaluate(const Network& net, const Position& pos) {
    Accumulator a;
    refresh(net, pos, a);
    return evaluate(net, a, pos.side_to_move(), popcount(pos.player() | pos.opponent()));
}

} // namespace fanorona::nnue
