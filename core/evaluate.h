#pragma once
// The linear evaluation: the features of features.h dotted with integer weights.
//
// The exact relation, which a tuner reproduces in floating point:
//   S = sum over the entries of extract_features(pos) of value_i * w_i   (exact, 64-bit)
//     + pattern_sum(pos, w)                    (the 21 pattern windows, tsivy only; see below)
//   evaluate(pos) = trunc(S / kEvalScale)                                 (C++ integer division)
//   clamped to +-(kWinScore - kMaxPly - 1), which only weights near kMaxWeight (below) reach;
// both written once in core/taper.h (taper(), eval_of_sum()).
// The pattern part: with the phase p = game_phase(pos) and the windows' pattern weight numbers
// k_j (pattern_indices() of the side to move), each window is a tapered feature of raw value 1:
//   pattern_sum = sum over the 21 windows j of blend(mg(k_j), eg(k_j), p)
//               = p * sum_j mg(k_j) + (kPhaseScale - p) * sum_j eg(k_j)
// It is 0 when w.patterns is null and on every board but tsivy (the 5x9 board: dimy, telo and
// the other sizes have no pattern windows; patterns_apply()). kEvalScale equals kPhaseScale, so a
// weight is in centi-pieces: with material_mg = material_eg = 100, each extra piece adds exactly
// 100 whatever the phase. Scores are for the side to move.

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/features.h"
#include "core/patterns.h"

namespace fanorona {

// The weights of the pattern features (core/patterns.h), in centi-pieces: pattern p's _mg weight
// is values[2p] and its _eg weight values[2p + 1]; values.size() == 2 * kPatternCount.
struct PatternWeights {
    std::vector<std::int32_t> values = std::vector<std::int32_t>(2 * kPatternCount, 0);
    friend bool operator==(const PatternWeights&, const PatternWeights&) = default;
};

// One integer weight per feature, in centi-pieces (material about 100), and the pattern weights.
// The pattern weights are shared, never changed once made (so copies of Weights stay cheap);
// null means every pattern weight is 0, and the evaluation then skips the patterns.
struct Weights {
    std::array<std::int32_t, kFeatureCount> values{};
    std::shared_ptr<const PatternWeights> patterns;
    // Equal values, and equal pattern weights (null equals all zero).
    friend bool operator==(const Weights& a, const Weights& b);
};

// The largest weight magnitude a weights text may hold (core/weights.h checks it): |w| <=
// kMaxWeight for every weight. With it the evaluation's sum cannot overflow (every raw term is at
// most 45 points x 8 directions = 360 in magnitude and every pattern window's raw value is 1, so
// |sum| <= (33 terms x 360 + 21 windows) x kPhaseScale x kMaxWeight < 1.2e10, far inside the 64-bit
// sum; pattern weights obey the same bound), and evaluate() clamps the result to +-kMaxEvalScore
// (core/evaluate.cpp), so no weights can make a position look like a won or lost game. See
// docs/formats.md.
inline constexpr std::int32_t kMaxWeight = 30000;

// The position's score for the side to move; allocates nothing. Not meant for positions where
// the game is over (the search handles those).
// `largest_capture` is as for extract_terms(): -1, or the known value of the capture_now term.
int evaluate(const Position& pos, const Rules& rules, const Weights& w, int largest_capture = -1);

// The same score from already extracted features (what the tuner reproduces) and the position's
// pattern part (pattern_sum(pos, w); 0 for weights without patterns).
int evaluate_features(const Features& f, const Weights& w, std::int64_t pattern_part = 0);

// Whether the pattern windows apply to boards of variant `v`: tsivy (the 5x9 board) only.
constexpr bool patterns_apply(Variant v) {
    return v == Variant::Tsivy;
}

// The pattern weight numbers of the position's 21 windows, for the side to move (what
// pattern_sum() reads). False, leaving `out` unchanged, when patterns do not apply to its board.
// Allocates nothing.
bool position_pattern_indices(const Position& pos, PatternIndices& out);

// The pattern part of the exact sum S (see above), in the units of S (kEvalScale x centi-pieces):
// 0 when w.patterns is null or the board is not tsivy. Allocates nothing.
std::int64_t pattern_sum(const Position& pos, const Weights& w);

// Whether `w` has a non-zero pattern weight (format_weights() then writes version 2).
bool has_pattern_weights(const Weights& w);

} // namespace fanorona
