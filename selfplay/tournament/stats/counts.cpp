#include "selfplay/tournament/stats/counts.h"

#include <charconv>
#include <stdexcept>
#include <vector>

namespace fanorona::stats {

std::uint64_t Pentanomial::pairs() const {
    std::uint64_t n = 0;
    for (const std::uint64_t c : counts) n += c;
    return n;
}

double Pentanomial::points() const {
    double p = 0;
    for (std::size_t k = 0; k < counts.size(); ++k) p += 0.5 * double(k) * double(counts[k]);
    return p;
}

Pentanomial Pentanomial::flipped() const {
    Pentanomial f;
    for (std::size_t k = 0; k < counts.size(); ++k) f.counts[4 - k] = counts[k];
    return f;
}

void Pentanomial::add_pair(const WDL& pair) {
    if (pair.games() != 2) throw std::invalid_argument("a game pair must hold exactly two games");
    ++counts[2 * pair.wins + pair.draws];
}

namespace {

// Splits `text` on commas and reads each field as a non-negative integer.
std::vector<std::uint64_t> parse_counts(std::string_view text, std::size_t expected,
                                        const char* shape) {
    std::vector<std::uint64_t> values;
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = text.find(',', start);
        std::string_view field = text.substr(
            start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
        while (!field.empty() && field.front() == ' ') field.remove_prefix(1);
        while (!field.empty() && field.back() == ' ') field.remove_suffix(1);
        const std::string where = "field " + std::to_string(values.size() + 1) + " of '" +
                                  std::string(text) + "' (expected " + shape + ")";
        if (field.empty()) throw std::invalid_argument(where + ": empty");
        std::uint64_t v = 0;
        const auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), v);
        if (ec == std::errc::result_out_of_range || (ec == std::errc() && v > kMaxCount))
            throw std::invalid_argument(where + ": '" + std::string(field) +
                                        "' is too large (at most " + std::to_string(kMaxCount) +
                                        ")");
        if (ec != std::errc() || end != field.data() + field.size())
            throw std::invalid_argument(where + ": '" + std::string(field) +
                                        "' is not a non-negative integer");
        values.push_back(v);
        if (comma == std::string_view::npos) break;
        start = comma + 1;
    }
    if (values.size() != expected)
        throw std::invalid_argument("'" + std::string(text) + "' has " +
                                    std::to_string(values.size()) + " fields, expected " +
                                    std::to_string(expected) + " (" + shape + ")");
    return values;
}

} // namespace

WDL parse_wdl(std::string_view text) {
    const auto v = parse_counts(text, 3, "W,D,L");
    return {v[0], v[1], v[2]};
}

Pentanomial parse_pentanomial(std::string_view text) {
    const auto v = parse_counts(text, 5, "P0,P1,P2,P3,P4");
    Pentanomial p;
    for (std::size_t k = 0; k < 5; ++k) p.counts[k] = v[k];
    return p;
}

std::string to_string(const WDL& wdl) {
    return std::to_string(wdl.wins) + "," + std::to_string(wdl.draws) + "," +
           std::to_string(wdl.losses);
}

std::string to_string(const Pentanomial& p) {
    std::string s;
    for (std::size_t k = 0; k < p.counts.size(); ++k) {
        if (k) s += ",";
        s += std::to_string(p.counts[k]);
    }
    return s;
}

} // namespace fanorona::stats
