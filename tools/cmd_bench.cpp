// `fanorona bench`: the search benchmark; its node count is the search's signature.

#include <chrono>
#include <cstdio>
#include <memory>

#include <nlohmann/json.hpp>

#include "core/bench.h"
#include "core/notation.h"
#include "tools/commands.h"
#include "tools/options.h"

namespace fanorona::cli {

namespace {

struct BenchOptions {
    EngineOptions engine;
    int depth = kBenchDepth;
    bool json = false;
};

void run_bench_command(const BenchOptions& o) {
    EngineSpec spec;
    o.engine.apply(spec);
    Searcher searcher(spec.hash_mb);
    spec.configure(searcher);
    nlohmann::json positions = nlohmann::json::array();
    const auto t0 = std::chrono::steady_clock::now();
    const std::uint64_t total = run_bench(searcher, o.depth, [&](const BenchEntry& e) {
        Rules rules;
        rules.variant = e.position->variant;
        const Position pos = Position::from_string(e.position->position, rules.variant);
        const std::string best =
            e.result.has_move ? move_to_string(pos, rules, e.result.best) : "(none)";
        if (o.json) {
            positions.push_back({{"position", e.position->position},
                                 {"variant", variant_name(rules.variant)},
                                 {"nodes", e.result.nodes},
                                 {"seconds", e.result.seconds},
                                 {"score", e.result.score},
                                 {"bestmove", best}});
        } else {
            std::printf("%2d %-5s nodes %10llu time %6.3f score %6d best %-14s %s\n", e.index + 1,
                        std::string(variant_name(rules.variant)).c_str(),
                        static_cast<unsigned long long>(e.result.nodes), e.result.seconds,
                        e.result.score, best.c_str(), std::string(e.position->position).c_str());
            std::fflush(stdout);
        }
    });
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double nps = secs > 0 ? double(total) / secs : 0;
    if (o.json) {
        nlohmann::json j = {{"depth", o.depth},
                            {"nodes", total},
                            {"seconds", secs},
                            {"nps", std::llround(nps)},
                            {"positions", positions}};
        std::printf("%s\n", j.dump(1).c_str());
    } else {
        std::printf("depth %d: %llu nodes in %.3f s, %.0f nodes per second\n", o.depth,
                    static_cast<unsigned long long>(total), secs, nps);
    }
}

} // namespace

void add_bench_command(CLI::App& app) {
    auto o = std::make_shared<BenchOptions>();
    auto* cmd = app.add_subcommand(
        "bench", "Search a fixed set of positions (both boards) to a fixed depth; print the "
                 "total node count (the search's signature), the time and nodes per second");
    cmd->add_option("--depth", o->depth, "Search depth")
        ->capture_default_str()
        ->check(CLI::Range(1, kMaxPly - 1));
    o->engine.add_to(*cmd, false);
    cmd->add_flag("--json", o->json, "Print the results as JSON");
    cmd->footer("The signature (node count with the default settings) is kept in "
                "data/bench_signature.txt and checked by the tests.");
    cmd->callback([o] { run_bench_command(*o); });
}

} // namespace fanorona::cli
