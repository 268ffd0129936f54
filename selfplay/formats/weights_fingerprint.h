#pragma once
// A short fingerprint of a weights vector and its pattern weights, recorded in run settings so
// that a resume with other weights (even under the same file name) is refused. Weights without a
// non-zero pattern weight keep the fingerprint they had before patterns existed.

#include <cstdio>
#include <string>

#include "core/common/hash.h"
#include "core/evaluate.h"

namespace fanorona {

inline std::string weights_fingerprint(const Weights& w) {
    std::uint64_t h = kFnv1a64ShortBasis; // FNV-1a over the values' bytes (core/common/hash.h)
    const auto add = [&h](std::int32_t v) {
        for (int i = 0; i < 4; ++i)
            h = (h ^ std::uint8_t(std::uint32_t(v) >> (8 * i))) * kFnv1a64Prime;
    };
    for (std::int32_t v : w.values) add(v);
    if (has_pattern_weights(w)) // then each non-zero pattern: its number, _mg and _eg weights
        for (int p = 0; p < kPatternCount; ++p) {
            const std::int32_t mg = w.patterns->values[std::size_t(2 * p)];
            const std::int32_t eg = w.patterns->values[std::size_t(2 * p + 1)];
            if (!mg && !eg) continue;
            add(p);
            add(mg);
            add(eg);
        }
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return buf;
}

} // namespace fanorona
