// `fanorona merge`: joins the folders of a sharded self-play run into one.

#include <cstdio>
#include <memory>

#include "selfplay/selfplay.h"
#include "tools/commands.h"
#include "tools/paths.h"

namespace fanorona::cli {

void add_merge_command(CLI::App& app) {
    struct MergeOptions {
        std::vector<std::string> shards;
        std::string out;
    };
    auto o = std::make_shared<MergeOptions>();
    auto* cmd = app.add_subcommand(
        "merge", "Join the folders of a sharded self-play run (--shard I/N) into the files one "
                 "unsharded run writes");
    declare_path(cmd->add_option("shards", o->shards, "The shard folders")->required(),
                 PathRole::InputFolder);
    declare_path(cmd->add_option("--out", o->out, "The folder to write (must not hold games yet)")
                     ->required(),
                 PathRole::OutputFolder, kRunFolderFiles);
    cmd->callback([o] {
        const SelfplaySummary s = merge_shards(o->shards, o->out);
        std::printf("merged %zu shards into %s: %llu games, %llu positions\n", o->shards.size(),
                    o->out.c_str(), static_cast<unsigned long long>(s.games),
                    static_cast<unsigned long long>(s.positions));
    });
}

} // namespace fanorona::cli
