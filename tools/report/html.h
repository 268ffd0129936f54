#pragma once
// Small helpers for writing HTML by hand: escaping, number formatting, tags.

#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>

#include "core/common/text.h"

namespace fanorona::report {

// Text made safe for HTML element content and attribute values (and valid UTF-8: a byte that
// starts no UTF-8 sequence, as in a folder name, becomes U+FFFD).
inline std::string esc(std::string_view text) {
    const std::string s = valid_utf8(text);
    std::string out;
    out.reserve(s.size());
    for (char c : s) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&#39;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

// printf into a std::string: core/common/text.h's format, by the short name the report uses.
template <typename... Args> std::string fmt(const char* f, Args... args) {
    return format(f, args...);
}

// A number with `decimals` decimals, or an en dash for NaN / infinity.
inline std::string num(double x, int decimals = 1) {
    if (!std::isfinite(x)) return "&ndash;";
    std::string s = fmt("%.*f", decimals, x);
    if (s == "-0" || s.find_first_not_of("-0.") == std::string::npos)
        s = fmt("%.*f", decimals, 0.0);
    return s;
}

// Like num() with a sign: "+12.3".
inline std::string signed_num(double x, int decimals = 1) {
    if (!std::isfinite(x)) return "&ndash;";
    const std::string s = num(x, decimals);
    return s[0] == '-' || s.find_first_not_of("0.") == std::string::npos ? s : "+" + s;
}

// A fraction as a percentage in HTML: num()'s digits (no "-0") and a dash when it is not finite
// (core/common/text.h's percent() is the plain-text one).
inline std::string percent(double fraction, int decimals = 1) {
    return std::isfinite(fraction) ? num(100.0 * fraction, decimals) + "%" : "&ndash;";
}

// <tag attrs>body</tag>
inline std::string tag(std::string_view name, std::string_view attrs, std::string_view body) {
    std::string out = "<" + std::string(name);
    if (!attrs.empty()) out += " " + std::string(attrs);
    return out + ">" + std::string(body) + "</" + std::string(name) + ">";
}

// The note a section shows when its input was not given or could not be read.
inline std::string missing_note(std::string_view what) {
    return "<p class=\"missing\">" + esc(what) + "</p>\n";
}

} // namespace fanorona::report
