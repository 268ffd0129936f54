#pragma once
// JSON as text for every file and output the program writes: one function, so that no writer
// throws on a string that is not valid UTF-8 (a folder or file name may hold any bytes).

#include <string>

#include <nlohmann/json.hpp>

namespace fanorona {

// `j` as JSON text, `indent` spaces deep (-1: one line), with each byte of a string that is not
// valid UTF-8 written as U+FFFD instead of throwing (nlohmann's type_error 316).
inline std::string to_json_text(const nlohmann::json& j, int indent = -1) {
    return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace fanorona
