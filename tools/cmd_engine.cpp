// `fanorona engine`: the engine protocol of RULES.md on standard input and output.

#include <iostream>
#include <memory>

#include "tools/commands.h"
#include "tools/protocol/engine_protocol.h"

namespace fanorona::cli {

void add_engine_command(CLI::App& app) {
    auto* cmd = app.add_subcommand(
        "engine", "Speak the engine protocol (RULES.md, UCI-like) on standard input and output");
    auto hash = std::make_shared<std::size_t>(16);
    cmd->add_option("--hash", *hash, "Initial transposition table size in MB (setoption Hash)")
        ->capture_default_str()
        ->check(CLI::Range(1, 65536));
    cmd->callback([hash] {
        std::ios::sync_with_stdio(false);
        EngineProtocol protocol(std::cin, std::cout, *hash);
        protocol.run();
    });
}

} // namespace fanorona::cli
