#pragma once
// An engines file (`--engines FILE`, docs/formats.md): named engine configurations, written once
// and played by name (`--player conf=NAME[,key=value...]`). Each entry maps onto the spec's own
// settings (EngineSpec::from_settings, the one parser), so its keys, ranges and errors are the
// --player language's:
//   {"engines": [
//     {"name": "A", "cmd": "./a", "args": "-x", "options": {"Hash": 32}, "tc": "10+0.1"},
//     {"name": "B", "weights": "new.txt", "depth": 6, "LmrBase": 80}]}
// A member's value is a string or a number (written as given: 0.1 is "0.1"); "options" is an
// object of the external engine's setoption values (option.NAME=VALUE); "arg" may be an array
// of arguments (each an arg=).

#include <string>
#include <utility>
#include <vector>

#include "selfplay/engine/engine_spec.h"

namespace fanorona {

// The entries of an engines file. Invariants after read_engine_file: names are unique, and each
// entry's settings make a valid spec on their own.
struct EngineFile {
    std::string path;
    std::vector<std::pair<std::string, SpecSettings>> engines; // (name, settings), file order

    // The settings of the entry called `name`, or nullptr.
    const SpecSettings* find(const std::string& name) const;
};

// Reads and checks an engines file. Throws std::invalid_argument with one line naming the file,
// the entry and the member: "FILE: engines[1] (B): \"depth\": depth=0: expected ...".
EngineFile read_engine_file(const std::string& path);

// One player's spec from its --player text: "conf=NAME,key=value,..." is the settings of entry
// NAME of `file` with the other settings applied over them (a later value of a key wins); text
// without conf= is EngineSpec::parse's. `file` may be null (no engines file): then conf= is an
// error. `each` (the settings of --each) come first, under the file's and the text's own: a
// player's own keys override them; an error of one of them says "(from --each)". Throws
// std::invalid_argument.
EngineSpec player_spec(const std::string& text, const EngineFile* file,
                       const SpecSettings& each = {});

} // namespace fanorona
