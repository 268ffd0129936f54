#include "selfplay/formats/rules_json.h"

namespace fanorona {

namespace {

const nlohmann::json& rules_member(const nlohmann::json& j, const char* key) {
    if (!j.is_object()) throw std::invalid_argument("rules: expected a JSON object");
    const auto it = j.find(key);
    if (it == j.end()) throw std::invalid_argument(std::string("missing \"") + key + "\"");
    return *it;
}

std::string rules_text(const nlohmann::json& j, const char* key) {
    const nlohmann::json& v = rules_member(j, key);
    if (!v.is_string())
        throw std::invalid_argument(std::string("\"") + key + "\": expected a string");
    return v.get<std::string>();
}

int rules_count(const nlohmann::json& j, const char* key, int fallback) {
    if (!j.is_object() || !j.contains(key)) return fallback;
    const nlohmann::json& v = j.at(key);
    if (!v.is_number_integer() || v.get<long long>() < 0 || v.get<long long>() > 1000000)
        throw std::invalid_argument(std::string("\"") + key +
                                    "\": expected a whole number from 0 to 1000000");
    return v.get<int>();
}

} // namespace

void from_json(const nlohmann::json& j, Rules& r) {
    Rules out;
    const std::string variant = rules_text(j, "variant");
    const auto v = parse_variant(variant);
    if (!v) throw std::invalid_argument("\"variant\": unknown variant '" + variant + "'");
    const std::string ruleset = rules_text(j, "rules");
    const auto s = parse_ruleset(ruleset);
    if (!s) throw std::invalid_argument("\"rules\": unknown rules '" + ruleset + "'");
    out.variant = *v;
    out.ruleset = *s;
    out.repetition_count = rules_count(j, "repetition_count", out.repetition_count);
    out.no_capture_limit = rules_count(j, "no_capture_limit", out.no_capture_limit);
    r = out;
}

Rules rules_from_json(const nlohmann::json& j) {
    Rules r;
    from_json(j, r);
    return r;
}

} // namespace fanorona
