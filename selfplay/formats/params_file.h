#pragma once
// The parameters file: named integer values for an engine (search parameters and evaluation
// weights), the form `fanorona spsa` writes and every engine setting reads (--params FILE,
// params=FILE in a --player spec, setoption name Params). See docs/formats.md.
//
//   fanorona-params 1
//   # comment lines and blank lines are ignored
//   LmrBase 53
//   material_mg 104
//
// This file parses the lines (header, syntax, duplicates); what a name means and which values it
// takes is EngineSpec::set's one validation (EngineSpec::set("params", FILE) applies each line).

#include <string>
#include <string_view>
#include <vector>

#include "selfplay/formats/formats.h"

namespace fanorona {

// One NAME VALUE line of a parameters file, with its line number (for errors).
struct ParamsLine {
    std::string name;
    std::string value;
    int line = 0;
};

// The NAME VALUE lines of a parameters text. Throws std::invalid_argument "SOURCE:LINE: why" for
// a missing or wrong header, a line that is not NAME VALUE, or a name given twice
// (case-insensitive).
std::vector<ParamsLine> parse_params_text(std::string_view text, const std::string& source);

// The lines of the parameters file `path`, or of the built-in parameters of that name
// (core/builtins.h: handset, no lines; tuned; "default"); errors name the file (and the
// line).
std::vector<ParamsLine> read_params_file(const std::string& path);

// The text of a parameters file: the header, each comment line as a `# ` line, then one NAME
// VALUE line per entry.
std::string format_params(const std::vector<std::pair<std::string, int>>& values,
                          const std::vector<std::string>& comment_lines = {});

} // namespace fanorona
