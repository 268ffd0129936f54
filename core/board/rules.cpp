#include "core/board/rules.h"

#include "core/board/bitboard.h"

namespace fanorona {

namespace {

// The printed name of each variant: "tsivy", "dimy", "telo", else "RxC" (ranks x files).
struct VariantNames {
    char text[kVariantCount][8] = {};
    int length[kVariantCount] = {};
};

constexpr VariantNames make_variant_names() {
    VariantNames t;
    for (int v = 0; v < kVariantCount; ++v) {
        std::string_view fixed = v == 0 ? "tsivy" : v == 1 ? "dimy" : v == 2 ? "telo" : "";
        int n = 0;
        auto put_number = [&](int x) {
            if (x >= 10) t.text[v][n++] = char('0' + x / 10);
            t.text[v][n++] = char('0' + x % 10);
        };
        if (!fixed.empty()) {
            for (char c : fixed) t.text[v][n++] = c;
        } else {
            put_number(kBoardShapes[std::size_t(v)].ranks);
            t.text[v][n++] = 'x';
            put_number(kBoardShapes[std::size_t(v)].files);
        }
        t.length[v] = n;
    }
    return t;
}

constexpr VariantNames kVariantNames = make_variant_names();

} // namespace

std::string_view variant_name(Variant v) {
    const int i = int(v) < kVariantCount ? int(v) : 0;
    return {kVariantNames.text[i], std::size_t(kVariantNames.length[i])};
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

std::string rules_name(const Rules& r) {
    return std::string(variant_name(r.variant)) + ", " + std::string(ruleset_name(r.ruleset));
}

std::optional<Variant> parse_variant(std::string_view s) {
    if (s == "5x9") return Variant::Tsivy;
    if (s == "5x5") return Variant::Dimy;
    for (int v = 0; v < kVariantCount; ++v)
        if (s == variant_name(Variant(v))) return Variant(v);
    return std::nullopt;
}

std::optional<RuleSet> parse_ruleset(std::string_view s) {
    if (s == "standard") return RuleSet::Standard;
    if (s == "firstturn") return RuleSet::FirstTurn;
    if (s == "vela") return RuleSet::Vela;
    return std::nullopt;
}

} // namespace fanorona
