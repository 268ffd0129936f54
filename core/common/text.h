#pragma once
// Small text helpers shared by the parsers of engine specs, parameters files and the engine
// protocol: words split on white space, ASCII lower case, UTC times as ISO 8601 text, and the
// creation time files record.

#include <cerrno>
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

// `s` with ASCII letters A-Z in lower case; other bytes unchanged.
inline std::string lower(std::string s) {
    for (char& c : s) c = char(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    return s;
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

} // namespace fanorona
