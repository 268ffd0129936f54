#pragma once
// The weights file: text, versioned (see docs/formats.md). core parses and formats the text;
// reading and writing files is the tools' job.
//
//   fanorona-weights 1
//   # comment lines and blank lines are ignored
//   material_mg 100
//   ...
//
// Every feature's weight appears exactly once, as a decimal integer.

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/evaluate.h"

namespace fanorona {

inline constexpr int kWeightsFormatVersion = 1;
inline constexpr std::string_view kWeightsMagic = "fanorona-weights";

// A malformed weights text; what() is "SOURCE:LINE: problem".
struct WeightsError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Parses a weights text; `source_name` (a file name) prefixes error messages. Unknown names,
// missing names, duplicates, values that are not integers, a missing or wrong header are errors.
Weights parse_weights(std::string_view text, std::string_view source_name);

// The weights as text, with each of `comment_lines` as a `# ` line after the header.
// parse_weights(format_weights(w, c), any) == w.
std::string format_weights(const Weights& w, const std::vector<std::string>& comment_lines);

} // namespace fanorona
