#pragma once
// Small text helpers shared by the parsers of engine specs, parameters files and the engine
// protocol: words split on white space and joined again, printf into a string, percentages, ASCII
// lower case, names in natural order, UTC times as ISO 8601 text, the creation time files record,
// and text made valid UTF-8 (folder names may not be). The one home of these helpers.

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace fanorona {

// The words of `text`, split on any white space (none for a blank text).
inline std::vector<std::string> split_words(std::string_view text) {
    std::istringstream in{std::string(text)};
    std::vector<std::string> out;
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

// The items joined by `sep`. An empty item adds the separator before it but nothing itself, and
// no separator precedes the first non-empty item (leading empty items vanish).
inline std::string join(const std::vector<std::string>& items, std::string_view sep = " ") {
    std::string out;
    for (const std::string& s : items) {
        if (!out.empty()) out += sep;
        out += s;
    }
    return out;
}

// printf into a std::string (any length).
template <typename... Args> std::string format(const char* fmt, Args... args) {
    const int n = std::snprintf(nullptr, 0, fmt, args...);
    std::string out(std::size_t(n > 0 ? n : 0), '\0');
    if (n > 0) std::snprintf(out.data(), out.size() + 1, fmt, args...);
    return out;
}

// `fraction` as a percentage with `decimals` decimals, e.g. 0.125 -> "12.5%"; `missing` when it
// is not finite.
inline std::string percent(double fraction, int decimals = 1, std::string_view missing = "-") {
    return std::isfinite(fraction) ? format("%.*f%%", decimals, 100 * fraction)
                                   : std::string(missing);
}

// 100 part / whole: the share of `whole` in percent (0 when whole is 0).
inline double percent_of(std::uint64_t part, std::uint64_t whole) {
    return whole ? 100.0 * double(part) / double(whole) : 0.0;
}

// `s` with ASCII letters A-Z in lower case; other bytes unchanged.
inline std::string lower(std::string s) {
    for (char& c : s) c = char(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    return s;
}

// Natural order of names: runs of digits compare by their value, all else byte by byte, so
// "s9-000" comes before "s10-000"; names equal but for leading zeros are ordered by where the
// first run with fewer zeros is ("s9" before "s09"). A strict weak order.
inline bool natural_less(std::string_view a, std::string_view b) {
    const auto digit = [](char c) { return c >= '0' && c <= '9'; };
    int zeros = 0; // the first difference in leading zeros: -1 when a has fewer, +1 when b has
    std::size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (digit(a[i]) && digit(b[j])) {
            std::size_t ia = i, jb = j;
            while (ia < a.size() && a[ia] == '0') ++ia;
            while (jb < b.size() && b[jb] == '0') ++jb;
            std::size_t ea = ia, eb = jb;
            while (ea < a.size() && digit(a[ea])) ++ea;
            while (eb < b.size() && digit(b[eb])) ++eb;
            if (ea - ia != eb - jb) return ea - ia < eb - jb; // more significant digits: larger
            if (const int c = a.substr(ia, ea - ia).compare(b.substr(jb, eb - jb)); c != 0)
                return c < 0;
            if (zeros == 0 && ia - i != jb - j) zeros = ia - i < jb - j ? -1 : 1;
            i = ea, j = eb;
            continue;
        }
        if (a[i] != b[j]) return (unsigned char)a[i] < (unsigned char)b[j];
        ++i, ++j;
    }
    if (a.size() - i != b.size() - j) return a.size() - i < b.size() - j;
    return zeros < 0;
}

// `t` as UTC in ISO 8601, e.g. "2026-12-03T17:56:39Z".
inline std::string utc_iso8601(std::time_t t) {
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

// The time a file records as its creation: SOURCE_DATE_EPOCH (the reproducible-builds
// convention: seconds since 1970) as UTC ISO 8601 when it is set, so that two runs write
// byte-identical files; the clock's time otherwise. Throws std::invalid_argument for a malformed
// SOURCE_DATE_EPOCH.
inline std::string creation_time() {
    const char* epoch = std::getenv("SOURCE_DATE_EPOCH");
    if (!epoch || !*epoch) return utc_iso8601(std::time(nullptr));
    char* end = nullptr;
    errno = 0;
    const long long seconds = std::strtoll(epoch, &end, 10);
    if (*end != '\0' || seconds < 0 || errno == ERANGE)
        throw std::invalid_argument("SOURCE_DATE_EPOCH: expected seconds since 1970, found '" +
                                    std::string(epoch) + "'");
    return utc_iso8601(std::time_t(seconds));
}

// The length of the valid UTF-8 sequence that starts `s` at `i` (1 to 4), 0 when the bytes there
// are not one (a stray continuation byte, an overlong form, a surrogate, past U+10FFFF, cut short).
inline std::size_t utf8_sequence_length(std::string_view s, std::size_t i) {
    const auto byte = [&](std::size_t k) { return (unsigned char)s[k]; };
    const unsigned char c = byte(i);
    if (c < 0x80) return 1;
    std::size_t n = 0;
    unsigned char lo = 0x80, hi = 0xBF; // the range of the second byte
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        if (c == 0xE0) lo = 0xA0;
        if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        if (c == 0xF0) lo = 0x90;
        if (c == 0xF4) hi = 0x8F;
    } else
        return 0;
    if (i + n > s.size()) return 0;
    if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
    for (std::size_t k = 2; k < n; ++k)
        if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
    return n;
}

// `s` as valid UTF-8: each byte that starts no valid sequence replaced by U+FFFD (the
// replacement character), as JSON writers and HTML pages need; valid text unchanged.
inline std::string valid_utf8(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        const std::size_t n = utf8_sequence_length(s, i);
        if (n == 0) {
            out += "\xEF\xBF\xBD";
            ++i;
        } else {
            out.append(s.substr(i, n));
            i += n;
        }
    }
    return out;
}

} // namespace fanorona
