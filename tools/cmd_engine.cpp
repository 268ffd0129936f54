// `fanorona engine`: the engine protocol of docs/rules.md on standard input and output.

#include <iostream>
#include <memory>

#include "core/common/memory.h"
#include "selfplay/engine/protocol_server.h"
#include "tools/commands.h"
#include "tools/options.h"

namespace fanorona::cli {

void add_engine_command(CLI::App& app) {
    auto* cmd = app.add_subcommand(
        "engine",
        "Speak the engine protocol (docs/rules.md, UCI-like) on standard input and output");
    auto engine = std::make_shared<EngineOptions>();
    engine->add_to(*cmd); // the start settings; setoption Hash / Weights / NAME change them
    cmd->footer("--depth, --nodes and --movetime are the limits of a bare 'go'.");
    cmd->callback([engine] {
        EngineSpec spec;
        engine->apply(spec);
        std::ios::sync_with_stdio(false);
        // Reading std::cin must not flush std::cout from the reading thread while the search
        // thread writes (torn or doubled lines): every line goes out through one locked write.
        std::cin.tie(nullptr);
        std::unique_ptr<EngineProtocol> protocol;
        allocate_for(
            "--hash " + std::to_string(spec.hash_mb), std::uint64_t(spec.hash_mb) << 20,
            [&] { protocol = std::make_unique<EngineProtocol>(std::cin, std::cout, spec); });
        protocol->run();
    });
}

} // namespace fanorona::cli
