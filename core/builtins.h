#pragma once
// The engine's built-in configurations: files of data/ compiled into the program, selectable by
// name wherever a file is expected (--weights NAME, weights=NAME, --params NAME, params=NAME,
// --net NAME, net=NAME, setoption name Weights / Params / Net, net info NAME), and the engine's
// defaults, what plays with no options. The list and the defaults are written once, in
// core/CMakeLists.txt (FANORONA_BUILTINS, FANORONA_DEFAULTS):
//   weights handset   the hand-set weights, data/weights/handset.txt (also core's
//                     handset_weights())
//   weights tuned     the tuned weights, data/weights/tuned.txt                  (the default)
//   params  handset   every search parameter at its core value (core/search_params.h)
//   params  tuned     the tuned search parameters, data/params/tuned.txt         (the default)
//   net     tsivy     the 5x9 network, a file of data/nets/ (FANORONA_BUILTINS)  (the default)
// The name "default" names the default of its kind. A name is looked up before a file of that
// name: `--weights ./tuned` reads a file called tuned. The default network plays on its board
// only, and only while no weights are chosen explicitly (selfplay/engine/engine_spec.h).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fanorona {

// One compiled-in file: its kind ("weights", "params", "net"), its name, the repository file it
// was compiled from ("-" for none) and its bytes (text, or a network file's header and binary
// parameters).
struct BuiltinFile {
    std::string_view kind, name, source, text;
};

// The kind's default: the name of the built-in file that plays with no options.
struct BuiltinDefault {
    std::string_view kind, name;
};

// Every built-in file and every kind's default (generated: core/builtins_data.cpp.in).
const std::vector<BuiltinFile>& builtin_files();
const std::vector<BuiltinDefault>& builtin_defaults();

// The name of the default of `kind` ("tuned"); throws std::logic_error for a kind without one.
std::string default_builtin(std::string_view kind);

// The built-in file of `kind` called `name` ("default": the kind's default), or nullptr.
const BuiltinFile* find_builtin(std::string_view kind, std::string_view name);

// A short name for a file of `kind` in records: the built-in's name ("tuned" for "default"; an
// empty path is the default) or the file's name without its folder.
std::string builtin_display_name(std::string_view kind, const std::string& path);

// The names of `kind` for help texts and errors: "handset, tuned (the default)".
std::string builtin_names(std::string_view kind);

} // namespace fanorona
