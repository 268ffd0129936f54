#pragma once
// The trainer's passes over the float model (nnue::FloatNetwork, NNUE_SPEC.md): its random start,
// one position's forward and backward pass, and the clipping that keeps it quantisable. The
// inputs are core's feature function (nnue::active_features), so the trainer and the engine
// cannot disagree on what a position activates; the parameters are the model's one vector, in
// nnue::ParamLayout's order:
//   w1[f * H + j] | b1[j] | w2[r * 2H + k] | b2[r] | w3[b * L + i] | b3[b]
// (rows r: the buckets, or the second layer's L units; w3 and b3 only with a second layer).

#include <cstddef>
#include <cstdint>

#include <Eigen/Core>

#include "core/nnue/features.h"
#include "core/nnue/network.h"

namespace fanorona {

// One position as the model sees it: the active inputs of both perspectives (side to move
// first) and the output bucket.
struct NetSample {
    nnue::ActiveFeatures own, other;
    int bucket = 0;
};
void make_sample(const nnue::Architecture& a, const Position& pos, NetSample& out);

// Buffers of one pass, reused so that a pass allocates nothing (one per thread or per chunk).
struct NetScratch {
    Eigen::VectorXd acc_own, acc_other; // accumulators a_stm, a_other
    Eigen::VectorXd act_own, act_other; // their activations (forward's, read by backward)
    Eigen::VectorXd d_own, d_other;     // d loss / d a
    Eigen::VectorXd z, h2, dz; // the second layer's sums, their clamp (forward's) and d loss / d z
};

// Random start parameters for training, a pure function of (a, seed): W1 uniform in
// +-1/sqrt(cells) (an accumulator of ~half a board of pieces then spreads over about +-0.5; with
// lines, +-1/sqrt(cells + lines)), b1 = 0.25 (most hidden units start inside clamp's slope), W2
// uniform in +-1/sqrt(2H), b2 = 0; with a second layer of L units b2 = 0.5 (inside its clamp's
// slope), W3 uniform in +-1/sqrt(L), b3 = 0. (nnue::random_float_network, for tests and speed
// measurements, draws a material count plus noise instead.)
nnue::FloatNetwork random_start_network(const nnue::Architecture& a, std::uint64_t seed);

// A start for a wider network from a trained narrower one (`train --init` with a larger
// --hidden): `wide`, a random start of the wider architecture (random_start_network), with
// `narrow`'s hidden units as its first ones in both halves and `narrow`'s b2, W3 and b3. The new
// units keep `wide`'s random inputs and bias, and their output weights (W2) are 0: the widened
// network computes what `narrow` does, float and quantised alike, while the gradient of each new
// unit's output weights is its (non-zero) activation, so training grows them from there.
// Requires the two architectures equal but for hidden, narrow's the smaller.
nnue::FloatNetwork widened_network(const nnue::FloatNetwork& narrow, nnue::FloatNetwork wide);

// y (the float output, before the scale) of a sample; fills s's buffers for net_backward.
double net_forward(const nnue::FloatNetwork& net, const NetSample& x, NetScratch& s);

// Adds d loss / d params of one sample to `grad` (ParamLayout's order) given dy = d loss / d y,
// after net_forward(net, x, s).
void net_backward(const nnue::FloatNetwork& net, const NetSample& x, double dy, NetScratch& s,
                  double* grad);

// W1 and b1 into [-limit, limit] (quantised int16 accumulators cannot overflow); with SCReLU also
// W2 into +-kScreluMaxW2q / QB (the integer kernel's int16 products); with a second layer W2 into
// +-max_w2q / w2_scale (kLayer2MaxW2q / kQL2, or kLayer2Int8MaxW2q / kQL2Int8 in int8) and W3 into
// int16's range at QB.
void clip_network(nnue::FloatNetwork& net, double limit);

// Quantisation-aware training of an int8 second layer: `to` becomes `from` with W2 rounded to the
// values the integer network will hold (nnue::quantise()'s rounding at kQL2Int8, dequantised), so
// that the passes see the int8 layer while the steps go to `from`'s unrounded weights (the
// straight-through estimator). For other architectures `to` is `from`. Allocates only when `to`
// has another size.
void rounded_for_training(const nnue::FloatNetwork& from, nnue::FloatNetwork& to);

// The clip range of W1 and b1 (NNUE_SPEC.md): 1.98 * QA = 505 per weight, 44 pieces of one
// perspective plus the bias stay inside int16.
inline constexpr double kNetWeightClip = 1.98;
// The clip range of an architecture: kNetWeightClip, or less when its most active inputs plus the
// bias could leave int16 (points+lines on tsivy: 44 pieces + 84 lines + 1, 0.996).
double net_weight_clip(const nnue::Architecture& a);

} // namespace fanorona
