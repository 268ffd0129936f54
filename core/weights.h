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

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/evaluate.h"

namespace fanorona {

inline constexpr int kWeightsFormatVersion = 1;
inline constexpr std::string_view kWeightsMagic = "fanorona-weights";

// The largest weight magnitude a weights text may hold: |w| <= kMaxWeight for every weight. With
// it the evaluation's sum cannot overflow (every raw term is at most 45 points x 8 directions =
// 360 in magnitude, so |sum| <= 30 terms x 360 x kPhaseScale x kMaxWeight < 1.1e10, far inside
// the 64-bit sum), and evaluate() clamps the result to +-kMaxEvalScore (core/evaluate.cpp), so
// no weights can make a position look like a won or lost game. See docs/formats.md.
inline constexpr std::int32_t kMaxWeight = 30000;

// A malformed weights text; what() is "SOURCE:LINE: problem".
struct WeightsError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Parses a weights text; `source_name` (a file name) prefixes error messages. Unknown names,
// missing names, duplicates, values that are not integers or outside [-kMaxWeight, kMaxWeight],
// a missing or wrong header are errors.
Weights parse_weights(std::string_view text, std::string_view source_name);

// The weights as text, with each of `comment_lines` as a `# ` line after the header.
// parse_weights(format_weights(w, c), any) == w.
std::string format_weights(const Weights& w, const std::vector<std::string>& comment_lines);

} // namespace fanorona
