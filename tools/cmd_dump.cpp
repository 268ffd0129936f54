// `fanorona dump`: a positions log as text or CSV, so it can be loaded anywhere.

#include <cstdio>
#include <memory>

#include "selfplay/formats/position_log.h"
#include "tools/commands.h"

namespace fanorona::cli {

namespace {

struct DumpOptions {
    std::string file;
    bool csv = false;
    std::uint64_t limit = 0;
};

void run(const DumpOptions& o) {
    const Variant variant = read_position_log_header(o.file).variant;
    std::uint64_t shown = 0;
    if (o.csv) std::printf("game,turn,side,score,depth,result,turns_since_capture,position\n");
    const PositionLog log = scan_position_log(o.file, [&](const std::vector<PositionRecord>& recs) {
        for (const PositionRecord& r : recs) {
            if (o.limit && shown >= o.limit) return;
            ++shown;
            const std::string fen = r.position(variant).to_string();
            const std::string result(result_name(r.result));
            if (o.csv)
                std::printf("%u,%u,%c,%d,%u,%s,%u,%s\n", r.game_index, r.turn,
                            r.side_to_move == Color::White ? 'w' : 'b', r.score, r.depth,
                            result.c_str(), r.turns_since_capture, fen.c_str());
            else
                std::printf("game %u turn %u score %d depth %u result %s  %s\n", r.game_index,
                            r.turn, r.score, r.depth, result.c_str(), fen.c_str());
        }
    });
    if (!log.tail_problem.empty())
        std::fprintf(stderr, "fanorona: %s: %s; the %llu intact games before it were read\n",
                     o.file.c_str(), log.tail_problem.c_str(),
                     static_cast<unsigned long long>(log.chunks));
}

} // namespace

void add_dump_command(CLI::App& app) {
    auto o = std::make_shared<DumpOptions>();
    auto* cmd = app.add_subcommand("dump", "Print a positions log (positions.bin) as text or CSV");
    cmd->add_option("file", o->file, "The positions log")->required();
    cmd->add_flag("--csv", o->csv, "CSV with a header line instead of text");
    cmd->add_option("--limit", o->limit, "Print at most this many positions (0: all)");
    cmd->callback([o] { run(*o); });
}

} // namespace fanorona::cli
