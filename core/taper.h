#pragma once
// The taper, written once: how a raw term value and the game phase give a term's two feature
// values, and how the weighted sum becomes the evaluation. Used by the evaluation, `fanorona
// eval` and the tuner (whose floating-point arrays go through the same templates).
//
// For a raw term value r and the phase p in [0, kPhaseScale]:
//   _mg feature = r * p,   _eg feature = r * (kPhaseScale - p)
//   S = sum of feature * weight (exact, 64-bit),   evaluate = trunc(S / kEvalScale)

#include <cstdint>
#include <type_traits>

namespace fanorona {

inline constexpr int kPhaseScale = 32; // phase runs from 0 (bare board) to 32 (full)
// The evaluation's divisor: equal to kPhaseScale, so a weight is in centi-pieces (with
// material_mg = material_eg = 100 each extra piece adds exactly 100 whatever the phase). A power
// of two, so dividing floating-point sums by it is exact.
inline constexpr int kEvalScale = kPhaseScale;
static_assert((kEvalScale & (kEvalScale - 1)) == 0);

namespace taper_detail {
template <class T, bool = std::is_arithmetic_v<T>> struct ScalarOf { using type = T; };
template <class T> struct ScalarOf<T, false> { // Eigen arrays and expressions
    using type = typename T::Scalar;
};
} // namespace taper_detail

// The two feature values of a tapered term (types differ only for Eigen expressions).
template <class M, class E = M> struct Tapered {
    M mg; // raw * phase: weighted by the _mg weight
    E eg; // raw * (kPhaseScale - phase): weighted by the _eg weight
};

// kPhaseScale - phase, in phase's scalar type.
template <class P> constexpr auto phase_complement(const P& phase) {
    using S = typename taper_detail::ScalarOf<P>::type;
    return S(kPhaseScale) - phase;
}

// The _mg and _eg feature values of raw term value `raw` at `phase`.
template <class R, class P> constexpr auto taper(const R& raw, const P& phase) {
    auto mg = raw * phase;
    auto eg = raw * phase_complement(phase);
    return Tapered<decltype(mg), decltype(eg)>{mg, eg};
}

// What a term's two weights give per unit of its raw value at `phase`: the dot product of the
// tapered features of 1 with (mg, eg), i.e. mg * phase + eg * (kPhaseScale - phase).
template <class M, class E, class P>
constexpr auto blend(const M& mg, const E& eg, const P& phase) {
    return mg * phase + eg * phase_complement(phase);
}

// S / kEvalScale: the evaluation of an exact integer sum S is truncated (C++ division, what
// evaluate() returns); a floating-point sum (a tuner's) is scaled exactly, without rounding.
template <class T> constexpr auto eval_of_sum(const T& sum) {
    if constexpr (std::is_integral_v<T>)
        return int(sum / kEvalScale);
    else
        return sum * typename taper_detail::ScalarOf<T>::type(1.0 / kEvalScale);
}

} // namespace fanorona
