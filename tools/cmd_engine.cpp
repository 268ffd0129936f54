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
    auto log_path = std::make_shared<std::string>();
    add_engine_log_option(*cmd, *log_path,
                          "every line this engine reads and writes (game and player '-'); "
                          "added to, never emptied, since a referee may start the engine again");
    cmd->footer("--depth, --nodes and --movetime are the limits of a bare 'go'.");
    cmd->callback([engine, log_path] {
        EngineSpec spec;
        engine->apply(spec);
        std::shared_ptr<EngineLog> log;
        // That the log is no input of the engine's, and a log of ours when it holds bytes, the
        // option layer checked before this ran (tools/paths.h).
        if (!log_path->empty()) log = std::make_shared<EngineLog>(*log_path, true);
        std::ios::sync_with_stdio(false);
        // Reading std::cin must not flush std::cout from the reading thread while the search
        // thread writes (torn or doubled lines): every line goes out through one locked write.
        std::cin.tie(nullptr);
        std::unique_ptr<EngineProtocol> protocol;
        allocate_for(
            "--hash " + std::to_string(spec.hash_mb), std::uint64_t(spec.hash_mb) << 20,
            [&] { protocol = std::make_unique<EngineProtocol>(std::cin, std::cout, spec); });
        protocol->set_log(log.get());
        protocol->run();
    });
}

} // namespace fanorona::cli
