#include "core/weights.h"

#include <charconv>

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

} // namespace

Weights parse_weights(std::string_view text, std::string_view source) {
    Weights w;
    std::array<int, kFeatureCount> seen_at{}; // line of each weight, 0 if not yet seen
    bool header = false;
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
        const std::string_view value = next_word(rest);
        if (!header) {
            if (name != kWeightsMagic)
                fail(source, line_no,
                     "expected the header '" + std::string(kWeightsMagic) + " " +
                         std::to_string(kWeightsFormatVersion) + "', found '" + std::string(line) +
                         "'");
            if (value != std::to_string(kWeightsFormatVersion) || !rest.empty())
                fail(source, line_no,
                     "unsupported weights format version '" + std::string(value) +
                         "' (this program reads version " + std::to_string(kWeightsFormatVersion) +
                         ")");
            header = true;
            continue;
        }
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
        std::int32_t v = 0;
        const char* first = value.data();
        if (*first == '+') ++first;
        const auto [ptr, ec] = std::from_chars(first, value.data() + value.size(), v);
        if (ec == std::errc::result_out_of_range)
            fail(source, line_no,
                 "weight '" + std::string(name) + "' value '" + std::string(value) +
                     "' is out of range");
        if (ec != std::errc() || ptr != value.data() + value.size() || first == ptr ||
            (first != value.data() && *first == '-'))
            fail(source, line_no,
                 "weight '" + std::string(name) + "' value '" + std::string(value) +
                     "' is not an integer");
        if (v > kMaxWeight || v < -kMaxWeight)
            fail(source, line_no,
                 "weight '" + std::string(name) + "' value '" + std::string(value) +
                     "' is outside the range [" + std::to_string(-kMaxWeight) + ", " +
                     std::to_string(kMaxWeight) + "]");
        w.values[index] = v;
        seen_at[index] = line_no;
    }
    line_no = line_no > 0 ? line_no : 1;
    if (!header)
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
    return w;
}

std::string format_weights(const Weights& w, const std::vector<std::string>& comment_lines) {
    std::string out =
        std::string(kWeightsMagic) + " " + std::to_string(kWeightsFormatVersion) + "\n";
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
    return out;
}

} // namespace fanorona
