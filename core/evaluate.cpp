#include "core/evaluate.h"

#include <algorithm>

#include "core/score.h"

namespace fanorona {

namespace {

// The largest evaluation magnitude: below every win or loss score, so that no weights (not even
// kMaxWeight everywhere) make a quiet position look decided, and inside the table's 16 bits.
constexpr std::int64_t kMaxEvalScore = kWinScore - kMaxPly - 1;
static_assert(kMaxEvalScore < 32767);
// |S| <= (terms x 360 + windows x 1) x kPhaseScale x kMaxWeight: every raw term is at most 45
// points x 8 directions = 360 in magnitude, every window's raw value is 1.
static_assert((std::int64_t(kTermCount) * 360 + kPatternWindows) * kPhaseScale * kMaxWeight <
                  (std::int64_t(1) << 62),
              "the evaluation sum cannot overflow");

int clamp_score(std::int64_t sum) {
    return int(std::clamp<std::int64_t>(eval_of_sum(sum), -kMaxEvalScore, kMaxEvalScore));
}

// The pattern part at `phase`; `patterns` non-null, the board tsivy.
std::int64_t pattern_part(const Position& pos, const PatternWeights& patterns, std::int64_t phase) {
    PatternIndices idx;
    pattern_indices(pos.player(), pos.opponent(), idx);
    const std::int32_t* v = patterns.values.data();
    std::int64_t mg = 0, eg = 0; // blend() is linear: sum the windows' weights, blend once
    for (const std::uint32_t k : idx) {
        mg += v[2 * k];
        eg += v[2 * k + 1];
    }
    return blend(mg, eg, phase);
}

} // namespace

int evaluate(const Position& pos, const Rules& rules, const Weights& w, int largest_capture) {
    std::array<int, kTermCount> raw;
    extract_terms(pos, rules, raw, largest_capture);
    const std::int64_t phase = game_phase(pos);
    std::int64_t mg = 0, eg = 0; // blend() is linear: sum each half, blend once
    for (int t = 0; t < kTermCount; ++t) {
        mg += std::int64_t(raw[t]) * w.values[feature_of(t, false)];
        eg += std::int64_t(raw[t]) * w.values[feature_of(t, true)];
    }
    std::int64_t sum = blend(mg, eg, phase);
    if (w.patterns && patterns_apply(pos.variant())) sum += pattern_part(pos, *w.patterns, phase);
    return clamp_score(sum);
}

int evaluate_features(const Features& f, const Weights& w, std::int64_t pattern_part) {
    std::int64_t sum = pattern_part;
    for (int i = 0; i < f.count; ++i)
        sum += std::int64_t(f.entries[i].value) * w.values[f.entries[i].index];
    return clamp_score(sum);
}

bool position_pattern_indices(const Position& pos, PatternIndices& out) {
    if (!patterns_apply(pos.variant())) return false;
    pattern_indices(pos.player(), pos.opponent(), out);
    return true;
}

std::int64_t pattern_sum(const Position& pos, const Weights& w) {
    if (!w.patterns || !patterns_apply(pos.variant())) return 0;
    return pattern_part(pos, *w.patterns, game_phase(pos));
}

bool has_pattern_weights(const Weights& w) {
    return w.patterns && std::any_of(w.patterns->values.begin(), w.patterns->values.end(),
                                     [](std::int32_t v) { return v != 0; });
}

bool operator==(const Weights& a, const Weights& b) {
    if (a.values != b.values) return false;
    const bool pa = has_pattern_weights(a), pb = has_pattern_weights(b);
    if (!pa || !pb) return pa == pb;
    return a.patterns == b.patterns || *a.patterns == *b.patterns;
}

} // namespace fanorona
