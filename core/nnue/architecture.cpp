#include "core/nnue/architecture.h"

#include "core/common/hash.h"

#include "core/board/bitboard.h"
#include "core/board/movegen.h"
#include "core/board/rules.h"
#include "core/nnue/features.h"

namespace fanorona::nnue {

std::string_view feature_set_name(FeatureSet f) {
    switch (f) {
    case FeatureSet::Points:
        return "points";
    case FeatureSet::PointsLines:
        return "points+lines";
    }
    return "?";
}

std::optional<FeatureSet> parse_feature_set(std::string_view name) {
    if (name == "points") return FeatureSet::Points;
    if (name == "points+lines") return FeatureSet::PointsLines;
    return std::nullopt;
}

std::string_view activation_name(Activation a) {
    switch (a) {
    case Activation::CReLU:
        return "crelu";
    case Activation::SCReLU:
        return "screlu";
    }
    return "?";
}

std::optional<Activation> parse_activation(std::string_view name) {
    if (name == "crelu") return Activation::CReLU;
    if (name == "screlu") return Activation::SCReLU;
    return std::nullopt;
}

int max_w2q(const Architecture& a) {
    if (a.layer2 > 0) return a.layer2_int8 ? kLayer2Int8MaxW2q : kLayer2MaxW2q;
    return a.activation == Activation::SCReLU ? kScreluMaxW2q : 32767;
}

std::string architecture_problem(const Architecture& a) {
    if (int(a.variant) >= kVariantCount) return "unknown variant";
    if (a.features != FeatureSet::Points && a.features != FeatureSet::PointsLines)
        return "unknown feature set";
    if (a.activation != Activation::CReLU && a.activation != Activation::SCReLU)
        return "unknown activation";
    if (a.hidden < kHiddenStep || a.hidden > kMaxHidden || a.hidden % kHiddenStep != 0)
        return "hidden size " + std::to_string(a.hidden) + " is not a multiple of " +
               std::to_string(kHiddenStep) + " in [" + std::to_string(kHiddenStep) + ", " +
               std::to_string(kMaxHidden) + "]";
    if (a.layer2 < 0 || a.layer2 > kMaxLayer2)
        return "layer2 " + std::to_string(a.layer2) + " not in [0, " + std::to_string(kMaxLayer2) +
               "]";
    if (a.layer2 > 0 && a.activation != Activation::CReLU)
        return "a second layer (layer2) needs the crelu activation";
    if (a.layer2_int8 && a.layer2 == 0) return "int8 second-layer weights need a second layer";
    if (a.buckets < 1 || a.buckets > kMaxBuckets)
        return "buckets " + std::to_string(a.buckets) + " not in [1, " +
               std::to_string(kMaxBuckets) + "]";
    if (a.qa != kQA) return "qa " + std::to_string(a.qa) + " is not " + std::to_string(kQA);
    if (a.qb != kQB) return "qb " + std::to_string(a.qb) + " is not " + std::to_string(kQB);
    if (a.scale < 1 || a.scale > kMaxScale)
        return "scale " + std::to_string(a.scale) + " not in [1, " + std::to_string(kMaxScale) +
               "]";
    return "";
}

int cell_count(Variant v) {
    return geometry(v).points;
}

int line_count(Variant v) {
    return line_table(v).count;
}

int input_count(const Architecture& a) {
    const int points = 2 * cell_count(a.variant);
    if (a.features == FeatureSet::PointsLines) return points + kLineConfigs * line_count(a.variant);
    return points;
}

int max_active(const Architecture& a) {
    const int pieces = start_pieces(a.variant);
    return a.features == FeatureSet::PointsLines ? pieces + line_count(a.variant) : pieces;
}

int start_pieces(Variant v) {
    // Position::start fills every point but the centre (telo: places them all, none at the
    // start). The evaluation asks for this at every call (its output bucket): no position built.
    return is_telo(v) ? 2 * kTeloPieces : cell_count(v) - 1;
}

std::string architecture_text(const Architecture& a) {
    return "fanorona-net 1 variant=" + std::string(variant_name(a.variant)) +
           " features=" + std::string(feature_set_name(a.features)) +
           " inputs=" + std::to_string(input_count(a)) + " hidden=" + std::to_string(a.hidden) +
           " buckets=" + std::to_string(a.buckets) + " qa=" + std::to_string(a.qa) +
           " qb=" + std::to_string(a.qb) + " scale=" + std::to_string(a.scale) +
           (a.activation == Activation::CReLU
                ? std::string()
                : " activation=" + std::string(activation_name(a.activation))) +
           (a.layer2 == 0 ? std::string() : " layer2=" + std::to_string(a.layer2)) +
           (a.layer2_int8 ? " int8" : "");
}

std::uint64_t architecture_hash(const Architecture& a) {
    return fnv1a64(architecture_text(a), kFnv1a64ShortBasis);
}

} // namespace fanorona::nnue
