// `fanorona perft`: counts move sequences to check (and time) the move generator.

#include <chrono>
#include <cstdio>
#include <memory>

#include "commands.h"
#include "notation.h"
#include "options.h"
#include "perft.h"

namespace fanorona::cli {

namespace {

struct PerftOptions {
    BoardOptions board;
    int depth = 1;
    bool divide = false;
};

void run_perft(const PerftOptions& o) {
    const Rules rules = o.board.make_rules();
    Position pos = o.board.make_position();
    const auto t0 = std::chrono::steady_clock::now();
    std::uint64_t total = 0;
    for (int d = 1; d <= o.depth; ++d) {
        const std::uint64_t n = perft(pos, rules, d);
        total += n;
        std::printf("depth %d nodes %llu\n", d, static_cast<unsigned long long>(n));
        std::fflush(stdout);
    }
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("time %.3f s, %.1f million moves per second\n", secs,
                secs > 0 ? double(total) / secs / 1e6 : 0.0);
    if (o.divide) {
        MoveList list;
        generate_moves(pos, rules, list);
        std::printf("divide at depth %d:\n", o.depth);
        for (const Move& m : list) {
            const std::string name = move_to_string(pos, rules, m);
            const UndoInfo undo = pos.make_move(m);
            const std::uint64_t n = perft(pos, rules, o.depth - 1);
            pos.unmake_move(m, undo);
            std::printf("%s %llu\n", name.c_str(), static_cast<unsigned long long>(n));
        }
    }
}

} // namespace

void add_perft_command(CLI::App& app) {
    auto opts = std::make_shared<PerftOptions>();
    auto* cmd = app.add_subcommand("perft", "Count the move sequences of 1..N turns (move "
                                            "generator check and benchmark)");
    opts->board.add_to(*cmd);
    cmd->add_option("--depth", opts->depth, "Count sequences of 1 up to this many turns")
        ->required()
        ->check(CLI::Range(1, 12));
    cmd->add_flag("--divide", opts->divide, "Also list each root move with its count");
    cmd->callback([opts] { run_perft(*opts); });
}

} // namespace fanorona::cli
