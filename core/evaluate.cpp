#include "core/evaluate.h"

#include "core/weights.h"

namespace fanorona {

int evaluate(const Position& pos, const Rules& rules, const Weights& w, int largest_capture) {
    std::array<int, kTermCount> raw;
    extract_terms(pos, rules, raw, largest_capture);
    const std::int64_t phase = game_phase(pos);
    std::int64_t sum = 0;
    for (int t = 0; t < kTermCount; ++t)
        if (raw[t])
            sum += raw[t] * blend(std::int64_t(w.values[feature_of(t, false)]),
                                  std::int64_t(w.values[feature_of(t, true)]), phase);
    return eval_of_sum(sum);
}

int evaluate_features(const Features& f, const Weights& w) {
    std::int64_t sum = 0;
    for (int i = 0; i < f.count; ++i)
        sum += std::int64_t(f.entries[i].value) * w.values[f.entries[i].index];
    return eval_of_sum(sum);
}

Weights default_weights() {
    static_assert(kFeatureCount > 0);
    return parse_weights(default_weights_text(), "default weights (compiled in)");
}

} // namespace fanorona
