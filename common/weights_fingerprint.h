#pragma once
// A short fingerprint of a weights vector, recorded in run settings so that a resume with other
// weights (even under the same file name) is refused.

#include <cstdio>
#include <string>

#include "core/evaluate.h"

namespace fanorona {

inline std::string weights_fingerprint(const Weights& w) {
    std::uint64_t h = 1469598103934665603ULL; // FNV-1a over the values' bytes
    for (std::int32_t v : w.values)
        for (int i = 0; i < 4; ++i)
            h = (h ^ std::uint8_t(std::uint32_t(v) >> (8 * i))) * 1099511628211ULL;
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return buf;
}

} // namespace fanorona
