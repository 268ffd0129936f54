#pragma once
// Weights files: the one load/save API (the text format is parsed and formatted by
// core/weights.h; core's evaluation and search read no files: in core only the endgame tables,
// core/tables, read and write files, with core/common's file helpers).

#include <string>
#include <vector>

#include "core/evaluate.h"

namespace fanorona {

// The weights in `path`, or the built-in weights of that name (core/builtins.h:
// handset, tuned; "default" or an empty path: the default, tuned). Errors are one line naming the
// file (and the line, for malformed content).
Weights load_weights_file(const std::string& path);

// Writes `w` to `path` atomically in the versioned format, each comment line as a `# ` line.
void save_weights_file(const std::string& path, const Weights& w,
                       const std::vector<std::string>& comment_lines = {});

// A short name for a weights file in records: the built-in's name ("tuned" for "default") or the
// file's name.
std::string weights_display_name(const std::string& path);

} // namespace fanorona
