#include "core/nnue/network.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <type_traits>

#include "core/common/rng.h"
#include "core/nnue/accumulator.h"
#include "core/nnue/features.h"

namespace fanorona::nnue {

namespace {

template <class Net> std::string nnue_sizes_problem(const Net& net) {
    const Architecture& a = net.arch;
    if (std::string p = architecture_problem(a); !p.empty()) return p;
    const auto h = std::size_t(a.hidden), r = std::size_t(w2_rows(a));
    const auto l2 = std::size_t(a.layer2), b3 = a.layer2 > 0 ? std::size_t(a.buckets) : 0;
    if (net.w1.size() != std::size_t(input_count(a)) * h) return "w1 size does not match";
    if (net.b1.size() != h) return "b1 size does not match";
    if (net.w2.size() != r * 2 * h) return "w2 size does not match";
    if (net.b2.size() != r) return "b2 size does not match";
    if (net.w3.size() != b3 * l2) return "w3 size does not match";
    if (net.b3.size() != b3) return "b3 size does not match";
    if constexpr (std::is_same_v<Net, Network>) {
        const int limit = max_w2q(a);
        for (const std::int16_t w : net.w2)
            if (w < -limit || w > limit)
                return "an output weight " + std::to_string(w) + " is outside +-" +
                       std::to_string(limit) + " (" + std::string(activation_name(a.activation)) +
                       ")";
    }
    return "";
}

template <class T> T nnue_round_saturate(double x) {
    const double r = std::round(x); // halves away from zero
    return T(std::clamp(r, double(std::numeric_limits<T>::min()),
                        double(std::numeric_limits<T>::max())));
}

template <class Net> void nnue_resize(Net& net) {
    const Architecture& a = net.arch;
    const auto h = std::size_t(a.hidden), r = std::size_t(w2_rows(a));
    const auto l2 = std::size_t(a.layer2), b3 = a.layer2 > 0 ? std::size_t(a.buckets) : 0;
    net.w1.assign(std::size_t(input_count(a)) * h, 0);
    net.b1.assign(h, 0);
    net.w2.assign(r * 2 * h, 0);
    net.b2.assign(r, 0);
    net.w3.assign(b3 * l2, 0);
    net.b3.assign(b3, 0);
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

} // namespace

std::string network_problem(const Network& net) {
    return nnue_sizes_problem(net);
}
std::string network_problem(const FloatNetwork& net) {
    return nnue_sizes_problem(net);
}

Network make_network(const Architecture& a) {
    Network net;
    net.arch = a;
    nnue_resize(net);
    return net;
}

FloatNetwork make_float_network(const Architecture& a) {
    FloatNetwork net;
    net.arch = a;
    nnue_resize(net);
    return net;
}

Network quantise(const FloatNetwork& f) {
    Network q;
    q.arch = f.arch;
    const double qa = f.arch.qa, qb = f.arch.qb, q2 = w2_scale(f.arch);
    for (const float x : f.w1) q.w1.push_back(nnue_round_saturate<std::int16_t>(x * qa));
    for (const float x : f.b1) q.b1.push_back(nnue_round_saturate<std::int16_t>(x * qa));
    const auto w2_limit = std::int16_t(max_w2q(f.arch));
    for (const float x : f.w2)
        q.w2.push_back(std::clamp(nnue_round_saturate<std::int16_t>(x * q2),
                                  std::int16_t(-w2_limit), w2_limit));
    for (const float x : f.b2) q.b2.push_back(nnue_round_saturate<std::int32_t>(x * qa * q2));
    for (const float x : f.w3) q.w3.push_back(nnue_round_saturate<std::int16_t>(x * qb));
    for (const float x : f.b3) q.b3.push_back(nnue_round_saturate<std::int32_t>(x * qa * qb));
    return q;
}

FloatNetwork dequantise(const Network& q) {
    FloatNetwork f;
    f.arch = q.arch;
    const double qa = q.arch.qa, qb = q.arch.qb, q2 = w2_scale(q.arch);
    for (const auto x : q.w1) f.w1.push_back(float(x / qa));
    for (const auto x : q.b1) f.b1.push_back(float(x / qa));
    for (const auto x : q.w2) f.w2.push_back(float(x / q2));
    for (const auto x : q.b2) f.b2.push_back(float(x / (qa * q2)));
    for (const auto x : q.w3) f.w3.push_back(float(x / qb));
    for (const auto x : q.b3) f.b3.push_back(float(x / (qa * qb)));
    return f;
}

FloatNetwork random_float_network(const Architecture& a, std::uint64_t seed) {
    FloatNetwork f = make_float_network(a);
    Rng rng(seed);
    const auto uniform = [&](double r) { return float((rng.uniform() * 2 - 1) * r); };
    const auto h = std::size_t(a.hidden);
    const int cells = cell_count(a.variant);
    // Each hidden unit counts the material (own pieces +0.01, the other side's -0.01, around
    // 0.5) plus noise; the output weights read the difference, about 100 centi-pieces a piece.
    const double u = 0.25 / (0.02 * double(h)) / a.scale * 400;
    // Line inputs (from 2 * cells on) get smaller noise and no material part.
    for (std::size_t i = 0; i < f.w1.size(); ++i) {
        const int input = int(i / h);
        f.w1[i] =
            input < 2 * cells ? float(input < cells ? 0.01 : -0.01) + uniform(0.05) : uniform(0.01);
    }
    for (float& x : f.b1) x = 0.5f + uniform(0.05);
    if (a.layer2 == 0) {
        for (std::size_t i = 0; i < f.w2.size(); ++i)
            f.w2[i] = float(i % (2 * h) < h ? u : -u) + uniform(0.3 / std::sqrt(double(h)));
        for (float& x : f.b2) x = uniform(0.1);
        return f;
    }
    // With a second layer: each of its units is 0.5 + a quarter of that material output (inside
    // clamp's slope for up to 2 of the output's units either way), and the output sums them
    // back: -2 + 4 / L per unit.
    for (std::size_t i = 0; i < f.w2.size(); ++i)
        f.w2[i] = float((i % (2 * h) < h ? u : -u) / 4) + uniform(0.075 / std::sqrt(double(h)));
    for (float& x : f.b2) x = 0.5f + uniform(0.025);
    for (float& x : f.w3) x = float(4.0 / a.layer2) + uniform(0.1 / a.layer2);
    for (float& x : f.b3) x = -2.0f + uniform(0.1);
    return f;
}

double evaluate_float(const FloatNetwork& net, const Position& pos) {
    const auto h = std::size_t(net.arch.hidden);
    return nnue_float_output(
        net.arch, pos, [&](int f, int j) { return double(net.w1[std::size_t(f) * h + j]); },
        [&](int j) { return double(net.b1[std::size_t(j)]); },
        [&](int r, int k) { return double(net.w2[std::size_t(r) * 2 * h + std::size_t(k)]); },
        [&](int r) { return double(net.b2[std::size_t(r)]); },
        [&](int b, int i) { return double(net.w3[std::size_t(b * net.arch.layer2 + i)]); },
        [&](int b) { return double(net.b3[std::size_t(b)]); });
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
