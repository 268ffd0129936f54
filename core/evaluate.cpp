#include "core/evaluate.h"

#include <algorithm>

#include "core/search.h"
#include "core/weights.h"

namespace fanorona {

namespace {

// The largest evaluation magnitude: below every win or loss score, so that no weights (not even
// kMaxWeight everywhere) make a quiet position look decided, and inside the table's 16 bits.
constexpr std::int64_t kMaxEvalScore = kWinScore - kMaxPly - 1;
static_assert(kMaxEvalScore < 32767);
static_assert(30LL * 360 * kPhaseScale * kMaxWeight < (std::int64_t(1) << 62),
              "the evaluation sum cannot overflow");

int clamp_score(std::int64_t sum) {
    return int(std::clamp<std::int64_t>(eval_of_sum(sum), -kMaxEvalScore, kMaxEvalScore));
}

} // namespace

int evaluate(const Position& pos, const Rules& rules, const Weights& w, int largest_capture) {
    std::array<int, kTermCount> raw;
    extract_terms(pos, rules, raw, largest_capture);
    const std::int64_t phase = game_phase(pos);
    std::int64_t sum = 0;
    for (int t = 0; t < kTermCount; ++t)
        if (raw[t])
            sum += raw[t] * blend(std::int64_t(w.values[feature_of(t, false)]),
                                  std::int64_t(w.values[feature_of(t, true)]), phase);
    return clamp_score(sum);
}

int evaluate_features(const Features& f, const Weights& w) {
    std::int64_t sum = 0;
    for (int i = 0; i < f.count; ++i)
        sum += std::int64_t(f.entries[i].value) * w.values[f.entries[i].index];
    return clamp_score(sum);
}

Weights default_weights() {
    static_assert(kFeatureCount > 0);
    return parse_weights(default_weights_text(), "default weights (compiled in)");
}

} // namespace fanorona
