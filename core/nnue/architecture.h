#pragma once
// The network's shape ("fanorona-net 1", NNUE_SPEC.md): the board it plays, its feature set, the
// hidden size H, the output buckets B and the quantisation constants. Everything else about a
// network (its parameter counts, its architecture hash, which output bucket a position uses)
// follows from an Architecture.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/board/types.h"

namespace fanorona::nnue {

// The input features of a network. Points: each piece on cell c gives, for perspective P, input
// (owner == P ? 0 : 1) * cells + orient(P, c) (features.h). PointsLines: the Points inputs, then
// for every line of 3 consecutive points along a board line (features.h's LineTable) one input
// per configuration of its points as P sees them (own, other, empty; the all-empty one has none).
enum class FeatureSet : std::uint8_t { Points = 0, PointsLines = 1 };
std::string_view feature_set_name(FeatureSet f);
std::optional<FeatureSet> parse_feature_set(std::string_view name);

// The hidden layer's activation. CReLU: clamp(x, 0, 1). SCReLU: clamp(x, 0, 1) squared (its
// output weights are kept within +-kScreluMaxW2q / QB so that the integer kernel's products fit
// int16, NNUE_SPEC.md).
enum class Activation : std::uint8_t { CReLU = 0, SCReLU = 1 };
std::string_view activation_name(Activation a);
std::optional<Activation> parse_activation(std::string_view name);
inline constexpr int kScreluMaxW2q = 127;
// A second layer's weights lie within +-kLayer2MaxW2q (|W2| < 4 at kQL2), so that the integer
// kernel's sums fit int32 (simd.h's crelu_rows).
inline constexpr int kLayer2MaxW2q = 4095;
// An int8 second layer (Architecture::layer2_int8) keeps its weights at 1/kQL2Int8 within
// +-kLayer2Int8MaxW2q (|W2| <= 2): a pair of products of activations up to QA = 255 then fits
// int16 (2 * 255 * 64 < 32768), which the 8-bit kernel (simd.h's crelu_rows_int8) needs.
inline constexpr int kQL2Int8 = 32;
inline constexpr int kLayer2Int8MaxW2q = 64;

inline constexpr int kQA = 255; // accumulator scale: W1q = round(W1 * QA)
inline constexpr int kQB = 64;  // output weight scale: W2q = round(W2 * QB)
// The second layer's weight scale, when there is one (network.h): W2q = round(W2 * kQL2); finer
// than QB because each of its units sums 2H small products.
inline constexpr int kQL2 = 1024;
inline constexpr int kDefaultScale = 400;  // evaluation = float output * scale (centi-pieces)
inline constexpr int kDefaultHidden = 128; // H
inline constexpr int kDefaultBuckets = 8;  // B
inline constexpr int kHiddenStep = 16;     // H is a multiple of this (the SIMD width)
inline constexpr int kMaxHidden = 512;
inline constexpr int kMaxBuckets = 64;
inline constexpr int kMaxLayer2 = 64; // the second hidden layer's most units
inline constexpr int kMaxScale = 100000;
// The most lines of 3 points a board of at most 64 points has (4 directions a point).
inline constexpr int kMaxLines = 256;
// The configurations of a line's 3 points (own, other, empty) with an input: all but empty.
inline constexpr int kLineConfigs = 26;
// The most inputs active in one perspective at once: one per piece (at most one per point) and
// one per line.
inline constexpr int kMaxActive = 64 + kMaxLines;
// The largest magnitude an integer evaluation may reach (centi-pieces): the search's limit of
// static scores (kTableWinScore - kTableBand, core/search.cpp asserts they agree), below the table
// wins and the forced wins. network_problem() refuses a network whose outputs could exceed it.
inline constexpr int kMaxNetEval = 29171;

// One network's shape. Valid when architecture_problem() is "".
struct Architecture {
    Variant variant = Variant::Tsivy;
    FeatureSet features = FeatureSet::Points;
    Activation activation = Activation::CReLU;
    int hidden = kDefaultHidden;
    // The units of a second, dense hidden layer between the accumulators and the output (0: none,
    // the accumulators' activations feed the output directly). Shared by the buckets; its own
    // activation is clamp(x, 0, 1).
    int layer2 = 0;
    // The second layer's weights in 8 bits (1/kQL2Int8, within +-kLayer2Int8MaxW2q) instead of 16
    // (1/kQL2): half the multiplies. Only with layer2 > 0.
    bool layer2_int8 = false;
    int buckets = kDefaultBuckets;
    int qa = kQA;
    int qb = kQB;
    int scale = kDefaultScale;
    friend bool operator==(const Architecture&, const Architecture&) = default;
};

// Why `a` is not a shape this program can run ("" when it is): H a multiple of kHiddenStep in
// [16, kMaxHidden], layer2 in [0, kMaxLayer2] (and CReLU when it is not 0; layer2_int8 only with
// it), B in [1, kMaxBuckets],
// qa == kQA, qb == kQB, scale in [1, kMaxScale].
std::string architecture_problem(const Architecture& a);

// The points of the board (cells c = y * width + x, 0 .. cells - 1).
int cell_count(Variant v);
// The lines of 3 points of the variant's board (features.h's LineTable).
int line_count(Variant v);
// The number of inputs per perspective: 2 * cells for Points, 2 * cells + 26 * lines for
// PointsLines.
int input_count(const Architecture& a);
// The most inputs one perspective can have active at once: the start position's pieces (pieces
// are never added, except by telo's placements up to the same count) plus one per line.
int max_active(const Architecture& a);
// The pieces on the variant's start position (telo: both sides' kTeloPieces, all placed).
int start_pieces(Variant v);

// Output bucket of a position with `pieces` pieces on the board:
// min(B - 1, (pieces - 1) * B / start_pieces), and 0 for an empty board.
constexpr int output_bucket(int pieces, int buckets, int start) {
    if (pieces <= 0) return 0;
    const int b = (pieces - 1) * buckets / start;
    return b < buckets - 1 ? b : buckets - 1;
}

// The largest magnitude of a quantised w2 weight: int16's for CReLU, kScreluMaxW2q for SCReLU,
// kLayer2MaxW2q for a second layer (kLayer2Int8MaxW2q in int8).
int max_w2q(const Architecture& a);
// The scale of w2 and b2: kQB, or kQL2 for a second layer's weights (kQL2Int8 in int8).
inline int w2_scale(const Architecture& a) {
    if (a.layer2 == 0) return a.qb;
    return a.layer2_int8 ? kQL2Int8 : kQL2;
}

// A 64-bit FNV-1a hash of the architecture's canonical text (architecture_text()): two networks
// with equal hashes have parameters of the same shapes and meanings.
std::uint64_t architecture_hash(const Architecture& a);
// "fanorona-net 1 variant=tsivy features=points inputs=90 hidden=128 buckets=8 qa=255 qb=64
// scale=400": what architecture_hash() hashes; " activation=screlu" follows for SCReLU (CReLU,
// the first activation, is not named, so the hashes of earlier networks stay), then " layer2=L"
// for a second hidden layer of L units (none is not named, for the same reason), then " int8"
// when its weights are in 8 bits.
std::string architecture_text(const Architecture& a);

} // namespace fanorona::nnue
