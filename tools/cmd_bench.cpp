// `fanorona bench`: the search benchmark; its node count is the search's signature.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>

#include <nlohmann/json.hpp>

#include "core/bench.h"
#include "core/board/baseline.h"
#include "core/board/game.h"
#include "core/board/notation.h"
#include "core/board/playout.h"
#include "core/nnue/network.h"
#include "selfplay/formats/json_text.h"
#include "tools/commands.h"
#include "tools/options.h"

namespace fanorona::cli {

namespace {

struct BenchOptions {
    EngineOptions engine;
    int depth = kBenchDepth;
    bool json = false;
    long long evals = 0; // > 0: time the static evaluation instead of searching
};

// `--evals N`: the static evaluation timed on positions of seeded random tsivy games, each
// evaluated as the search does (the capture_now term known), and the pattern part alone.
// With a network of the tsivy board: its evaluation by full refresh too (the search updates its
// accumulators incrementally, so this is an upper bound of its cost per evaluation).
void run_eval_bench(const BenchOptions& o, const Weights& w, const nnue::Network* net) {
    const Rules rules; // tsivy, standard rules: the board of the pattern windows
    std::vector<std::pair<Position, int>> positions; // with its largest capture
    for (std::uint64_t game = 0; game < 64; ++game) {
        Game g(rules, Position::start(rules.variant));
        const auto choose = [game](const Game& at, const MoveList& moves) {
            return random_move_index(at.position(), game * 1000 + at.moves().size(), moves.size());
        };
        random_playout(g, {.max_turns = 80}, choose, [&](const Game& at) {
            std::array<int, kTermCount> raw;
            extract_terms(at.position(), rules, raw);
            positions.emplace_back(at.position(), raw[term_id("capture_now")]);
        });
    }
    const long long rounds = std::max<long long>(1, o.evals / std::ssize(positions));
    // Best of three timings of `rounds` passes over the positions; `f` returns a checksum.
    const auto time_ns = [&](const auto& f) {
        double best = 0;
        for (int trial = 0; trial < 3; ++trial) {
            const auto t0 = std::chrono::steady_clock::now();
            std::int64_t checksum = 0;
            for (long long r = 0; r < rounds; ++r)
                for (const auto& [pos, capture] : positions) checksum += f(pos, capture);
            const double s =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            volatile std::int64_t sink = checksum; // keeps the loop from being dropped
            (void)sink;
            const double ns = s * 1e9 / double(rounds * std::ssize(positions));
            best = trial ? std::min(best, ns) : ns;
        }
        return best;
    };
    const double eval_ns =
        time_ns([&](const Position& p, int capture) { return evaluate(p, rules, w, capture); });
    const double pattern_ns = time_ns([&](const Position& p, int) { return pattern_sum(p, w); });
    const double indices_ns = time_ns([&](const Position& p, int) {
        PatternIndices idx;
        pattern_indices(p.player(), p.opponent(), idx);
        return std::int64_t(idx[0]) + idx[kPatternWindows - 1];
    });
    const bool with_net = net && net->arch.variant == rules.variant;
    const double net_ns =
        with_net ? time_ns([&](const Position& p, int) { return nnue::evaluate(*net, p); }) : 0;
    const long long n = rounds * std::ssize(positions);
    if (o.json) {
        nlohmann::json j = {{"evals", n},
                            {"positions", positions.size()},
                            {"patterns", has_pattern_weights(w)},
                            {"ns_per_evaluate", eval_ns},
                            {"ns_per_pattern_sum", pattern_ns},
                            {"ns_per_pattern_indices", indices_ns}};
        if (with_net) j["ns_per_net_evaluate"] = net_ns;
        std::printf("%s\n", to_json_text(j, 1).c_str());
        return;
    }
    std::printf(
        "%lld evaluations of %zu tsivy positions (%s pattern weights), best of 3: "
        "evaluate %.1f ns, pattern part alone %.1f ns, of which the windows' indices %.1f ns\n",
        n, positions.size(), has_pattern_weights(w) ? "with" : "without", eval_ns, pattern_ns,
        indices_ns);
    if (with_net) std::printf("network evaluate by full refresh %.1f ns\n", net_ns);
}

void run_bench_command(const BenchOptions& o) {
    EngineSpec spec;
    o.engine.apply(spec);
    if (o.evals > 0) return run_eval_bench(o, spec.weights, spec.net.get());
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
        std::printf("%s\n", to_json_text(j, 1).c_str());
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
    cmd->add_option("--evals", o->evals,
                    "Instead of searching, time about N static evaluations (positions of 64 "
                    "seeded random tsivy games, evaluated as the search does) and the pattern "
                    "part alone, in ns each (best of 3; tools/bench/patterns.sh)")
        ->check(CLI::Range(1LL, 1000000000LL));
    cmd->footer("The signature (node count with the default settings: the default network on "
                "the 5x9 positions, the tuned weights on the others) is kept in "
                "data/bench_signature.txt and checked by the tests; --net none or --weights "
                "tuned benches the linear engine.");
    cmd->callback([o] { run_bench_command(*o); });
}

} // namespace fanorona::cli
