// `fanorona perft`: counts move sequences to check (and time) the move generator.

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/board/notation.h"
#include "core/board/perft.h"
#include "core/common/clock.h"
#include "selfplay/formats/json_text.h"
#include "selfplay/formats/rules_json.h"
#include "tools/commands.h"
#include "tools/options.h"

namespace fanorona::cli {

namespace {

struct PerftOptions {
    BoardOptions board;
    int depth = 1;
    bool divide = false;
    bool json = false;
};

void run_perft(const PerftOptions& o) {
    const Rules rules = o.board.make_rules();
    Position pos = o.board.make_position();
    nlohmann::json depths = nlohmann::json::array();
    const auto t0 = std::chrono::steady_clock::now();
    std::uint64_t total = 0;
    for (int d = 1; d <= o.depth; ++d) {
        const auto t = std::chrono::steady_clock::now();
        const std::uint64_t n = perft(pos, rules, d);
        const double secs = seconds_since(t);
        total += n;
        if (o.json) {
            depths.push_back({{"depth", d},
                              {"nodes", n},
                              {"seconds", secs},
                              {"moves_per_second", secs > 0 ? double(n) / secs : 0.0}});
        } else {
            std::printf("depth %d nodes %llu\n", d, static_cast<unsigned long long>(n));
            std::fflush(stdout);
        }
    }
    const double secs = seconds_since(t0);
    const double rate = secs > 0 ? double(total) / secs : 0.0;
    if (!o.json) std::printf("time %.3f s, %.1f million moves per second\n", secs, rate / 1e6);
    nlohmann::json divide = nlohmann::json::array();
    if (o.divide) {
        MoveList list;
        generate_moves(pos, rules, list);
        if (!o.json) std::printf("divide at depth %d:\n", o.depth);
        for (const Move& m : list) {
            const std::string name = move_to_string(pos, rules, m);
            const UndoInfo undo = pos.make_move(m);
            const std::uint64_t n = perft(pos, rules, o.depth - 1);
            pos.unmake_move(m, undo);
            if (o.json)
                divide.push_back({{"move", name}, {"nodes", n}});
            else
                std::printf("%s %llu\n", name.c_str(), static_cast<unsigned long long>(n));
        }
    }
    if (o.json) {
        nlohmann::json j = {{"position", pos.to_string()},
                            {"depths", depths},
                            {"total_nodes", total},
                            {"seconds", secs},
                            {"moves_per_second", rate}};
        put_rules(j, rules);
        if (o.divide) j["divide"] = divide;
        std::printf("%s\n", to_json_text(j, 1).c_str());
    }
}

} // namespace

void add_perft_command(CLI::App& app) {
    auto opts = std::make_shared<PerftOptions>();
    auto* cmd = app.add_subcommand(
        "perft", "Count the move sequences of 1..N whole turns from a position: the move "
                 "generator's correctness check and speed benchmark");
    opts->board.add_to(*cmd);
    cmd->add_option("--depth", opts->depth,
                    "Count the sequences of 1, 2, ... up to this many turns (a turn is a whole "
                    "capture chain); required")
        ->required()
        ->check(CLI::Range(1, 12));
    cmd->add_flag("--divide", opts->divide,
                  "Then list every legal move of the position with the number of sequences of "
                  "depth - 1 turns after it");
    cmd->add_flag("--json", opts->json,
                  "Print one JSON object instead of text: position, per-depth nodes, seconds and "
                  "moves_per_second, totals, and the divide list");
    cmd->footer(
        "Output: one line 'depth D nodes N' per depth, then 'time T s, R million moves per "
        "second' (all depths together), then with --divide one line '<move> <count>' per move.\n"
        "Reference values from the start positions are in docs/rules.md (tsivy: 5, 39, 724, 18026, "
        "431830, 9204447, 175212423).\n"
        "Example: fanorona perft --depth 6 --rules firstturn\n"
        "         fanorona perft --depth 3 --divide --fen \"9/9/2W1BB3/9/9 w\"");
    cmd->callback([opts] { run_perft(*opts); });
}

} // namespace fanorona::cli
