#pragma once
// Reading and writing weights files (the text format is parsed and formatted by core/weights.h).

#include <fstream>
#include <sstream>
#include <string>

#include "evaluate.h"
#include "weights.h"

namespace fanorona::cli {

// The weights in `path`, or the compiled-in defaults when `path` is empty or "default".
// Errors are one line naming the file (and the line, for malformed content).
inline Weights load_weights_file(const std::string& path) {
    if (path.empty() || path == "default") return default_weights();
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error(path + ": cannot open the weights file");
    std::stringstream buffer;
    buffer << in.rdbuf();
    return parse_weights(buffer.str(), path);
}

// A short name for a weights file in records: "default" or the file's name.
inline std::string weights_display_name(const std::string& path) {
    if (path.empty() || path == "default") return "default";
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

} // namespace fanorona::cli
