#pragma once
// The one JSON form of Rules, for every file and message that holds the rules of its games:
//   {"variant": "tsivy", "rules": "standard"}
// "variant" is variant_name(), "rules" ruleset_name(); "repetition_count" and
// "no_capture_limit" appear only when they differ from Rules' defaults (no command changes them
// yet, so every file written before keeps its text). A file whose top level holds the rules
// among its other members (settings.json, tune.json, openings.json, ...) adds these members with
// put_rules() and reads them back with rules_from_json().

#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "core/board/rules.h"

namespace fanorona {

// The rules as a JSON object, for nlohmann::json and nlohmann::ordered_json (found by ADL:
// `nlohmann::json j = rules;`).
template <class BasicJson> void to_json(BasicJson& j, const Rules& r) {
    const Rules defaults;
    j = BasicJson::object();
    j["variant"] = std::string(variant_name(r.variant));
    j["rules"] = std::string(ruleset_name(r.ruleset));
    if (r.repetition_count != defaults.repetition_count) j["repetition_count"] = r.repetition_count;
    if (r.no_capture_limit != defaults.no_capture_limit) j["no_capture_limit"] = r.no_capture_limit;
}

// The rules of an object holding the members above (others are ignored). Throws
// std::invalid_argument naming the member: `"variant": unknown variant 'x'`, `missing "rules"`,
// `"no_capture_limit": expected a whole number from 0`.
void from_json(const nlohmann::json& j, Rules& r);
Rules rules_from_json(const nlohmann::json& j);

// Adds the rules' members to the object `j`, after its members so far (in an ordered_json).
template <class BasicJson> void put_rules(BasicJson& j, const Rules& r) {
    j.update(BasicJson(r));
}

} // namespace fanorona
