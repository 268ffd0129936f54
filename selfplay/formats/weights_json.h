#pragma once
// The one JSON form of Weights (everything they hold), for messages between the ranks of an MPI
// job and any file that holds weights as values:
//   {"terms": {"material_mg": 100, "material_eg": 100, ...},
//    "patterns": [[number, mg, eg], ...]}
// "terms" has every feature's weight by its name (core/features.h); "patterns" lists each pattern
// weight number (class * kPatternConfigs + configuration, core/patterns.h) whose _mg or _eg
// weight is not 0, in number order ([] for weights without pattern weights). Reading back gives
// weights equal (operator==) to those written.

#include <nlohmann/json.hpp>

#include "core/evaluate.h"

namespace fanorona {

void to_json(nlohmann::json& j, const Weights& w);
// Throws std::invalid_argument naming the member: an unknown, missing or repeated term, a weight
// that is not a whole number within +-kMaxWeight, a pattern number out of range or listed twice.
void from_json(const nlohmann::json& j, Weights& w);

} // namespace fanorona
