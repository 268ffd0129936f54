#pragma once
// The program's provenance: its version, the commit it was built from, the build type and the
// bench signature (the node count `fanorona bench` gives), for `fanorona --version` and the
// run folders' settings.json and results.json; `--version` also names the default network's file.

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace fanorona {

// What `fanorona --version` prints and the run files record.
struct ProgramInfo {
    std::string version;    // e.g. "0.5.0"
    std::string commit;     // short git hash at configure time, or "unknown"
    std::string build_type; // Release, Debug, ...
    std::uint64_t bench_signature = 0;
};

ProgramInfo program_info();
// {"name": "fanorona", "version", "commit", "build_type", "bench_signature"}.
nlohmann::json program_json();
// The file name of the default network (core/builtins.h), "none" without one:
// "tsivy-points-h128-l16-int8-gen6.net".
std::string default_net_file_name();
// The lines of `fanorona --version`.
std::string version_text();

} // namespace fanorona
