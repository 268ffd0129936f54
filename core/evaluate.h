#pragma once
// The linear evaluation: the features of features.h dotted with integer weights.
//
// The exact relation, which a tuner reproduces in floating point:
//   S = sum over the entries of extract_features(pos) of value_i * w_i   (exact, 64-bit)
//   evaluate(pos) = trunc(S / kEvalScale)                                 (C++ integer division)
//   clamped to +-(kWinScore - kMaxPly - 1), which only weights near kMaxWeight (weights.h) reach;
// both written once in core/taper.h (taper(), eval_of_sum()). kEvalScale equals kPhaseScale, so a
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
    friend bool operator==(const Weights& a, const Weights& b) {
        if (a.values != b.values) return false;
        const bool za = !a.patterns || *a.patterns == PatternWeights{};
        const bool zb = !b.patterns || *b.patterns == PatternWeights{};
        if (za || zb) return za && zb;
        return *a.patterns == *b.patterns;
    }
};

// The position's score for the side to move; allocates nothing. Not meant for positions where
// the game is over (the search handles those).
// `largest_capture` is as for extract_terms(): -1, or the known value of the capture_now term.
int evaluate(const Position& pos, const Rules& rules, const Weights& w, int largest_capture = -1);

// The same score from already extracted features (what the tuner reproduces).
int evaluate_features(const Features& f, const Weights& w);

// The weights compiled into the program (data/weights/default.txt at build time).
Weights default_weights();
// The text of data/weights/default.txt as compiled in.
const char* default_weights_text();

} // namespace fanorona
