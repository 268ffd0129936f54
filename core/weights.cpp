#include "core/weights.h"

#include <algorithm>
#include <charconv>
#include <memory>
#include <optional>
#include <stdexcept>

#include "core/builtins.h"

namespace fanorona {

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

// Splits off the first whitespace-separated word of `s`.
std::string_view next_word(std::string_view& s) {
    s = trim(s);
    std::size_t n = 0;
    while (n < s.size() && s[n] != ' ' && s[n] != '\t') ++n;
    const std::string_view word = s.substr(0, n);
    s.remove_prefix(n);
    s = trim(s);
    return word;
}

[[noreturn]] void fail(std::string_view source, int line, const std::string& problem) {
    throw WeightsError(std::string(source) + ":" + std::to_string(line) + ": " + problem);
}

constexpr std::string_view kPatternKeyword = "pattern";

// The integer `value` of the weight `what` ("weight 'material_mg'"), within +-kMaxWeight.
std::int32_t parse_value(std::string_view value, std::string_view source, int line_no,
                         const std::string& what) {
    std::int32_t v = 0;
    const char* first = value.data();
    if (*first == '+') ++first;
    const auto [ptr, ec] = std::from_chars(first, value.data() + value.size(), v);
    if (ec == std::errc::result_out_of_range)
        fail(source, line_no, what + " value '" + std::string(value) + "' is out of range");
    if (ec != std::errc() || ptr != value.data() + value.size() || first == ptr ||
        (first != value.data() && *first == '-'))
        fail(source, line_no, what + " value '" + std::string(value) + "' is not an integer");
    if (v > kMaxWeight || v < -kMaxWeight)
        fail(source, line_no,
             what + " value '" + std::string(value) + "' is outside the range [" +
                 std::to_string(-kMaxWeight) + ", " + std::to_string(kMaxWeight) + "]");
    return v;
}

// The rest of a `pattern <class> <configuration> <mg> <eg>` line (after the keyword).
void parse_pattern_line(std::string_view rest, std::string_view source, int line_no,
                        PatternWeights& patterns, std::vector<int>& seen_at) {
    const std::string_view cls = next_word(rest);
    const std::string_view config = next_word(rest);
    const std::string_view mg = next_word(rest);
    const std::string_view eg = next_word(rest);
    if (cls.empty()) fail(source, line_no, "pattern line has no class");
    const std::optional<int> c = parse_pattern_class(cls);
    if (!c) {
        std::string names;
        for (int i = 0; i < kPatternClasses; ++i)
            names += (i ? ", " : "") + std::string(pattern_class_name(i));
        fail(source, line_no,
             "unknown pattern class '" + std::string(cls) + "' (the classes: " + names + ")");
    }
    if (config.empty())
        fail(source, line_no, "pattern " + std::string(cls) + " has no configuration");
    const std::optional<int> k = parse_pattern_config(config);
    if (!k)
        fail(source, line_no,
             "pattern " + std::string(cls) + " configuration '" + std::string(config) +
                 "' is malformed (three rows of '.', 'x', 'o' separated by '/', top row first, "
                 "e.g. 'x.o/.x./...')");
    if (!pattern_config_canonical(*c, *k))
        fail(source, line_no,
             "pattern " + std::string(cls) + " configuration '" + std::string(config) +
                 "' is not canonical: write its mirror image '" +
                 pattern_config_string(pattern_canonical_config(*c, *k)) + "'");
    const std::string what = "pattern " + std::string(cls) + " " + std::string(config);
    const int p = *c * kPatternConfigs + *k;
    if (seen_at[std::size_t(p)])
        fail(source, line_no,
             "duplicate " + what + " (first given on line " +
                 std::to_string(seen_at[std::size_t(p)]) + ")");
    if (mg.empty()) fail(source, line_no, what + " has no _mg value");
    if (eg.empty()) fail(source, line_no, what + " has no _eg value");
    if (!rest.empty())
        fail(source, line_no,
             "unexpected text '" + std::string(rest) + "' after the weights of " + what);
    patterns.values[std::size_t(2 * p)] = parse_value(mg, source, line_no, what + " _mg");
    patterns.values[std::size_t(2 * p + 1)] = parse_value(eg, source, line_no, what + " _eg");
    seen_at[std::size_t(p)] = line_no;
}

} // namespace

Weights parse_weights(std::string_view text, std::string_view source) {
    Weights w;
    std::array<int, kFeatureCount> seen_at{}; // line of each weight, 0 if not yet seen
    std::shared_ptr<PatternWeights> patterns; // made at the first pattern line
    std::vector<int> pattern_seen_at;         // line of each pattern, 0 if not yet seen
    int version = 0;                          // 0 until the header
    int line_no = 0;
    std::size_t at = 0;
    while (at < text.size()) {
        const auto end = text.find('\n', at);
        std::string_view line = text.substr(at, end == std::string_view::npos ? end : end - at);
        at = end == std::string_view::npos ? text.size() : end + 1;
        ++line_no;
        line = trim(line);
        if (line.empty() || line.front() == '#') continue;
        std::string_view rest = line;
        const std::string_view name = next_word(rest);
        if (!version) {
            const std::string_view value = next_word(rest);
            if (name != kWeightsMagic)
                fail(source, line_no,
                     "expected the header '" + std::string(kWeightsMagic) + " " +
                         std::to_string(kWeightsFormatVersion) + "', found '" + std::string(line) +
                         "'");
            if (value == std::to_string(kWeightsFormatVersion) && rest.empty())
                version = kWeightsFormatVersion;
            else if (value == std::to_string(kWeightsPatternsFormatVersion) && rest.empty())
                version = kWeightsPatternsFormatVersion;
            else
                fail(source, line_no,
                     "unsupported weights format version '" + std::string(value) +
                         "' (this program reads versions " + std::to_string(kWeightsFormatVersion) +
                         " and " + std::to_string(kWeightsPatternsFormatVersion) + ")");
            continue;
        }
        if (name == kPatternKeyword) {
            if (version < kWeightsPatternsFormatVersion)
                fail(source, line_no,
                     "pattern lines need weights format version " +
                         std::to_string(kWeightsPatternsFormatVersion) + " (the header says " +
                         std::to_string(version) + ")");
            if (!patterns) {
                patterns = std::make_shared<PatternWeights>();
                pattern_seen_at.assign(kPatternCount, 0);
            }
            parse_pattern_line(rest, source, line_no, *patterns, pattern_seen_at);
            continue;
        }
        const std::string_view value = next_word(rest);
        const int index = feature_index(name);
        if (index < 0) fail(source, line_no, "unknown weight name '" + std::string(name) + "'");
        if (seen_at[index])
            fail(source, line_no,
                 "duplicate weight '" + std::string(name) + "' (first given on line " +
                     std::to_string(seen_at[index]) + ")");
        if (value.empty()) fail(source, line_no, "weight '" + std::string(name) + "' has no value");
        if (!rest.empty())
            fail(source, line_no,
                 "unexpected text '" + std::string(rest) + "' after the weight of '" +
                     std::string(name) + "'");
        w.values[index] = parse_value(value, source, line_no, "weight '" + std::string(name) + "'");
        seen_at[index] = line_no;
    }
    line_no = line_no > 0 ? line_no : 1;
    if (!version)
        fail(source, line_no,
             "empty weights text: no '" + std::string(kWeightsMagic) + "' header line");
    std::string missing;
    int n_missing = 0;
    for (int f = 0; f < kFeatureCount; ++f)
        if (!seen_at[f]) {
            if (n_missing++ < 5)
                missing += (missing.empty() ? "" : ", ") + std::string(feature_name(f));
        }
    if (n_missing)
        fail(source, line_no,
             std::to_string(n_missing) + " weight" + (n_missing > 1 ? "s" : "") +
                 " missing at end of text: " + missing + (n_missing > 5 ? ", ..." : ""));
    w.patterns = std::move(patterns);
    if (!has_pattern_weights(w)) w.patterns = nullptr; // all zero: the evaluation skips them
    return w;
}

std::string format_weights(const Weights& w, const std::vector<std::string>& comment_lines) {
    const bool patterns = has_pattern_weights(w);
    std::string out =
        std::string(kWeightsMagic) + " " +
        std::to_string(patterns ? kWeightsPatternsFormatVersion : kWeightsFormatVersion) + "\n";
    for (const std::string& c : comment_lines) {
        std::string_view rest = c;
        while (true) { // one comment line per line of the text
            const auto end = rest.find('\n');
            out += "# ";
            out += rest.substr(0, end);
            out += "\n";
            if (end == std::string_view::npos) break;
            rest.remove_prefix(end + 1);
        }
    }
    for (int f = 0; f < kFeatureCount; ++f)
        out += std::string(feature_name(f)) + " " + std::to_string(w.values[f]) + "\n";
    if (!patterns) return out;
    const std::vector<std::int32_t>& v = w.patterns->values;
    for (int p = 0; p < kPatternCount; ++p) {
        const std::int32_t mg = v[std::size_t(2 * p)], eg = v[std::size_t(2 * p + 1)];
        if (!mg && !eg) continue;
        const int c = p / kPatternConfigs, k = p % kPatternConfigs;
        if (!pattern_config_canonical(c, k))
            throw std::logic_error("format_weights: pattern " + std::string(pattern_class_name(c)) +
                                   " " + pattern_config_string(k) +
                                   " is not canonical but has a non-zero weight");
        out += std::string(kPatternKeyword) + " " + std::string(pattern_class_name(c)) + " " +
               pattern_config_string(k) + " " + std::to_string(mg) + " " + std::to_string(eg) +
               "\n";
    }
    return out;
}

Weights handset_weights() {
    static_assert(kFeatureCount > 0);
    return parse_weights(find_builtin("weights", "handset")->text, "handset weights (compiled in)");
}

} // namespace fanorona
