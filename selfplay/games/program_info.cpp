// The program's provenance (program_info.h), from the header CMake writes at configure time.
#include "selfplay/games/program_info.h"

#include <filesystem>

#include "core/builtins.h"
#include "fanorona_build_info.h"

namespace fanorona {

ProgramInfo program_info() {
    return ProgramInfo{FANORONA_VERSION, FANORONA_COMMIT, FANORONA_BUILD_TYPE,
                       FANORONA_BENCH_NODES};
}

nlohmann::json program_json() {
    const ProgramInfo p = program_info();
    return {{"name", "fanorona"},
            {"version", p.version},
            {"commit", p.commit},
            {"build_type", p.build_type},
            {"bench_signature", p.bench_signature}};
}

std::string default_net_file_name() {
    const BuiltinFile* net = find_builtin("net", "default");
    return net ? std::filesystem::path(std::string(net->source)).filename().string() : "none";
}

std::string version_text() {
    const ProgramInfo p = program_info();
    return "fanorona " + p.version + "\ncommit " + p.commit + "\nbuild " + p.build_type +
           "\nbench " + std::to_string(p.bench_signature) + "\nnet " + default_net_file_name() +
           "\n";
}

} // namespace fanorona
