#pragma once
// A network with its parameters, in its two shapes: the float model (FloatNetwork: what the trainer
// fits, `net random` draws and fine-tuning starts from) and the integer network the engine runs
// and a file holds (Network); quantise() makes the second of the first. Also the evaluations of a
// position by either.
//
// Float output (NNUE_SPEC.md), with a_P[j] = b1[j] + sum over P's active inputs f of W1[f][j]:
//   y = b2[b] + sum_j crelu(a_stm[j]) W2[b][j] + sum_j crelu(a_other[j]) W2[b][H + j],
//   crelu(x) = clamp(x, 0, 1), b = output_bucket(pieces, B, start_pieces)
//   evaluation = y * scale (centi-pieces, side to move).
//   With Activation::SCReLU, crelu(x) is replaced by clamp(x, 0, 1)^2.
// With a second hidden layer of L units (Architecture::layer2), the same sums make its inputs
// and a bucketed output reads them:
//   z_i = b2[i] + sum_j crelu(a_stm[j]) W2[i][j] + sum_j crelu(a_other[j]) W2[i][H + j],
//   y = b3[b] + sum_i clamp(z_i, 0, 1) W3[b][i].
// Integer: W1q = round(W1 QA), b1q = round(b1 QA), W2q = round(W2 QB) (int16, SCReLU: within
// +-kScreluMaxW2q), b2q = round(b2 QA QB) (int32); out = b2q + sum clamp(aq, 0, QA) W2q
// (64-bit; SCReLU: b2q + (sum clamp(aq, 0, QA)^2 W2q) / QA, truncated toward zero),
// evaluation = out * scale / (QA QB), truncated toward zero.
// With layer2 (CReLU only): W2q = round(W2 QL2), b2q = round(b2 QA QL2) (QL2 = kQL2, finer than
// QB; kQL2Int8 for an int8 second layer), zq_i = b2q[i] + sum clamp(aq, 0, QA) W2q[i] over both
// halves, h_i = clamp((zq_i + QL2 / 2) / QL2, 0, QA) (truncated: z_i rounded to 1 / QA), W3q =
// round(W3 QB) (int16), b3q = round(b3 QA QB) (int32), out = b3q[b] + sum_i h_i W3q[b][i].

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/board/position.h"
#include "core/nnue/architecture.h"

namespace fanorona::nnue {

// The weights w2 (int16) and, for an int8 second layer, the 8-bit kernel's copy of them (each
// weight saturated to int8): one set of values in two layouts, equal by construction, since the
// constructor and set() write both. Reads are those of a const vector.
class Layer2Weights {
public:
    Layer2Weights() = default;
    // w2 = `w`, with the 8-bit copy when `int8` (Architecture::layer2_int8).
    Layer2Weights(std::vector<std::int16_t> w, bool int8);
    // w2[k] = v, and its 8-bit copy.
    void set(std::size_t k, std::int16_t v);

    std::int16_t operator[](std::size_t k) const { return w_[k]; }
    std::size_t size() const { return w_.size(); }
    bool empty() const { return w_.empty(); }
    const std::int16_t* data() const { return w_.data(); }
    const std::vector<std::int16_t>& values() const { return w_; }
    std::vector<std::int16_t>::const_iterator begin() const { return w_.begin(); }
    std::vector<std::int16_t>::const_iterator end() const { return w_.end(); }
    // Whether the 8-bit copy is kept, and the copy (w2's size when kept, else empty).
    bool has_int8() const { return int8_; }
    const std::vector<std::int8_t>& int8() const { return w8_; }
    friend bool operator==(const Layer2Weights&, const Layer2Weights&) = default;

private:
    std::vector<std::int16_t> w_;
    std::vector<std::int8_t> w8_;
    bool int8_ = false;
};

// The quantised parameters. Layouts: w1[f * H + j] (input f, hidden j), b1[j], w2[r * 2H + k]
// (row r; k < H: side to move's half, k >= H: the other side's), b2[r], where the rows are the
// output buckets b, or with layer2 L > 0 the second layer's units i; then w3[b * L + i] and b3[b]
// (empty without layer2). Valid when network_problem() is "": the sizes match the architecture,
// every w2 lies within +-max_w2q(arch), and w2 keeps its 8-bit copy exactly when the second
// layer is int8 (arch.layer2_int8).
struct Network {
    Architecture arch;
    std::vector<std::int16_t> w1;
    std::vector<std::int16_t> b1;
    Layer2Weights w2;
    std::vector<std::int32_t> b2;
    std::vector<std::int16_t> w3;
    std::vector<std::int32_t> b3;
    friend bool operator==(const Network&, const Network&) = default;
};

// The rows of w2 and b2: the output buckets, or the second layer's units.
inline int w2_rows(const Architecture& a) {
    return a.layer2 > 0 ? a.layer2 : a.buckets;
}

// Where each of Network's arrays starts when they lie one after the other, w1 | b1 | w2 | b2 | w3 |
// b3 (each in its layout above; w3 and b3 empty without layer2), and `size`, the total: fixed by
// the architecture. The arrays' sizes are the differences (w1: b1 - w1, ..., b3: size - b3).
struct ParamLayout {
    std::size_t w1 = 0, b1 = 0, w2 = 0, b2 = 0, w3 = 0, b3 = 0, size = 0;
    explicit ParamLayout(const Architecture& a);
};

// The float model: every parameter of the network as a double, in one vector laid out by
// ParamLayout (so a trainer steps it as one vector). Valid when network_problem() is "".
struct FloatNetwork {
    Architecture arch;
    std::vector<double> params;

    ParamLayout layout() const { return ParamLayout(arch); }
    // params[from, to): one array, e.g. slice(l.w2, l.b2) for w2 with l = layout().
    std::span<double> slice(std::size_t from, std::size_t to) {
        return std::span(params).subspan(from, to - from);
    }
    std::span<const double> slice(std::size_t from, std::size_t to) const {
        return std::span(params).subspan(from, to - from);
    }
};

// Why `net` cannot be run ("" when it can): architecture_problem(), a parameter array (the float
// model: the parameter vector) whose size does not match the architecture, or (the integer
// network) an output weight beyond +-max_w2q(arch), which the SCReLU kernel cannot multiply in
// int16, or parameters whose integer inference could overflow or score beyond +-kMaxNetEval in
// some position: an accumulator (b1[j] plus the max_active(arch) most positive, or most negative,
// w1[.][j]) outside int16, a second-layer sum (b2[i] + QA times its positive, or negative, w2)
// outside int32, or an output (b2, or b3 with layer2, + QA times the positive, or negative,
// weights of its row) whose evaluation exceeds +-kMaxNetEval centi-pieces (network.cpp's
// nnue_range_problem).
std::string network_problem(const Network& net);
std::string network_problem(const FloatNetwork& net);

// Networks of zeros of the right sizes.
Network make_network(const Architecture& a);
FloatNetwork make_float_network(const Architecture& a);

// The conversion from the float model to the integer network: each parameter rounded to float
// (single precision), scaled as above, rounded to nearest (halves away from zero) and saturated
// to the type's range (w2 also to +-max_w2q(arch)).
Network quantise(const FloatNetwork& net);
// The float model of an integer network (to fine-tune it): each parameter divided by its scale
// and rounded to float, the precision quantise() reads, so quantise(dequantise(q)) == q.
FloatNetwork dequantise(const Network& net);

// A network with random weights for tests and speed measurements, a pure function of (a, seed):
// a material count plus noise (each hidden unit about 0.5 + 0.01 x (own - other pieces), the
// output about 100 centi-pieces a piece), so that a search with it behaves like one with a real
// evaluation (pure noise makes the forced-capture search explode).
FloatNetwork random_float_network(const Architecture& a, std::uint64_t seed);

// Whether `net` is meant for positions of `pos`'s board.
inline bool plays(const Architecture& a, const Position& pos) {
    return a.variant == pos.variant();
}

// The float reference evaluation of `pos` (centi-pieces for the side to move, unclamped).
double evaluate_float(const FloatNetwork& net, const Position& pos);
// The same formula on the dequantised parameters of `net` (no quantisation of intermediate values).
double evaluate_float(const Network& net, const Position& pos);

// The integer evaluation by full refresh (centi-pieces for the side to move). Allocates nothing.
int evaluate(const Network& net, const Position& pos);

} // namespace fanorona::nnue
