#include "core/rules.h"

namespace fanorona {

std::string_view variant_name(Variant v) {
    return v == Variant::Tsivy ? "tsivy" : "dimy";
}

std::string_view ruleset_name(RuleSet r) {
    switch (r) {
    case RuleSet::Standard:
        return "standard";
    case RuleSet::FirstTurn:
        return "firstturn";
    case RuleSet::Vela:
        return "vela";
    }
    return "standard";
}

std::optional<Variant> parse_variant(std::string_view s) {
    if (s == "tsivy") return Variant::Tsivy;
    if (s == "dimy") return Variant::Dimy;
    return std::nullopt;
}

std::optional<RuleSet> parse_ruleset(std::string_view s) {
    if (s == "standard") return RuleSet::Standard;
    if (s == "firstturn") return RuleSet::FirstTurn;
    if (s == "vela") return RuleSet::Vela;
    return std::nullopt;
}

} // namespace fanorona
