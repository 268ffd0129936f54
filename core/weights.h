#pragma once
// The weights file: text, versioned (see docs/formats.md). core parses and formats the text;
// reading and writing files is the tools' job.
//
//   fanorona-weights 2
//   # comment lines and blank lines are ignored
//   material_mg 100
//   ...
//   pattern d2 x.o/.x./... 12 -4
//
// Every feature's weight appears exactly once, as a decimal integer. Version 2 adds optional
// pattern lines `pattern <class> <configuration> <mg> <eg>` (core/patterns.h), each pattern at
// most once and in its canonical configuration; patterns not listed weigh 0. Version 1 (no
// pattern lines) is what weights without pattern weights are written as.

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/evaluate.h"

namespace fanorona {

inline constexpr int kWeightsFormatVersion = 1;         // without pattern lines
inline constexpr int kWeightsPatternsFormatVersion = 2; // with pattern lines
inline constexpr std::string_view kWeightsMagic = "fanorona-weights";

// A malformed weights text; what() is "SOURCE:LINE: problem".
struct WeightsError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Parses a weights text (version 1 or 2); `source_name` (a file name) prefixes error messages.
// Unknown names, missing names, duplicates, values that are not integers or outside
// [-kMaxWeight, kMaxWeight], a missing or wrong header are errors; so are, in pattern lines, an
// unknown class, a malformed or non-canonical configuration, a pattern given twice, and any
// pattern line in a version-1 text. The result's patterns are null unless a weight is non-zero.
Weights parse_weights(std::string_view text, std::string_view source_name);

// The weights as text, with each of `comment_lines` as a `# ` line after the header: version 1
// (byte for byte as before patterns existed) when `w` has no non-zero pattern weight, otherwise
// version 2 with one pattern line per non-zero pattern, in pattern number order.
// parse_weights(format_weights(w, c), any) == w. A non-zero weight of a non-canonical
// configuration (never read by the evaluation) is a programming error: std::logic_error.
std::string format_weights(const Weights& w, const std::vector<std::string>& comment_lines);

// The hand-set weights, compiled into the program (the built-in "weights handset",
// data/weights/handset.txt at build time; core/builtins.h).
Weights handset_weights();

} // namespace fanorona
