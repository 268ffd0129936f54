// The proof-number solve of a root on oneTBB workers, with its proof file (see pns_root.h).

#include "tools/solve/pns_root.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <unordered_map>

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "core/common/clock.h"
#include "core/common/files.h"
#include "core/common/fork_join.h"
#include "selfplay/formats/proof_file.h"
#include "tools/solve/proof_store.h"
#include "tools/solve/remote_pns.h"

namespace fanorona::cli {

namespace {} // namespace

PnsRootResult solve_root_pns(const Position& root, const PnsRootConfig& cfg) {
    const auto start = std::chrono::steady_clock::now();
    ProofStore store(cfg.proof, root.variant(), cfg.proof_interval);
    PnsRootResult res;
    res.proof_loaded = store.initial().size();
    Rules rules{root.variant()};
    rules.repetition_count = 0;
    rules.no_capture_limit = 0;
    MoveList moves;
    generate_moves(root, rules, moves);
    PnsUnitJob job;
    for (const Move& m : moves) {
        res.moves.push_back({{m, {}}, 0, 0});
        job.units.push_back(root);
        job.units.back().make_move(m);
    }
    // Only the bounds the run started with: a move's search does not depend on the others'.
    job.settings.hash_mb = cfg.hash_mb;
    job.settings.pn2 = cfg.pn2;
    job.settings.graph = cfg.graph;
    job.settings.tables = cfg.tables;
    job.settings.initial = &store.initial();
    job.tables_dir = cfg.tables_dir;
    job.threads = cfg.remote_threads;
    std::atomic<std::uint64_t> total_nodes{0};
    std::atomic<std::uint64_t> hits{0};
    std::atomic<bool> stop{false};
    std::mutex claim_mutex, report_mutex;
    std::size_t next = 0;
    auto last_report = start;
    // The best value for the mover proven so far (a first move's exact value or lower bound).
    std::atomic<int> best_lo{-1};
    const auto decided = [&] { return !cfg.all_moves && best_lo.load() == 1; };
    std::atomic<bool> memory_full{false};
    std::atomic<std::size_t> peak_tree{0};
    PnsUnitSource source;
    // Units in order, to this process's workers and to other machines alike, each with what is
    // left of the solve's budgets. With a draw proven for the mover, a move only matters if it
    // wins: "can the opponent avoid losing after it?" (yes: at most a draw for the mover).
    source.claim = [&](PnsTask& task) {
        std::lock_guard lock(claim_mutex);
        if (stop || decided() || next == job.units.size()) return false;
        task.limits = {};
        if (cfg.max_nodes) {
            const std::uint64_t used = total_nodes.load();
            if (used >= cfg.max_nodes) return !(stop = true);
            task.limits.max_nodes = cfg.max_nodes - used;
        }
        if (cfg.max_seconds > 0) {
            task.limits.max_seconds = cfg.max_seconds - seconds_since(start);
            if (task.limits.max_seconds <= 0) return !(stop = true);
        }
        task.question =
            !cfg.all_moves && best_lo.load() >= 0 ? PnsQuestion::AvoidsLoss : PnsQuestion::Value;
        task.unit = next++;
        return true;
    };
    source.deliver = [&](std::size_t i, PnsUnitResult r) {
        hits += r.table_hits;
        if (r.memory_full) memory_full = true;
        for (std::size_t p = peak_tree.load(); p < r.peak_tree;)
            peak_tree.compare_exchange_weak(p, r.peak_tree);
        store.merge(r.proven);
        const ValueBounds move_value{-r.value.hi, -r.value.lo};
        // Enough for the root: exact, or a bound that cannot beat the best move proven.
        const bool enough = move_value.exact() || (!cfg.all_moves && move_value.hi <= best_lo);
        {
            std::lock_guard lock(report_mutex);
            res.moves[i].move.value = move_value;
            res.moves[i].nodes = r.nodes;
            res.moves[i].seconds = r.seconds;
        }
        int seen = best_lo.load();
        while (move_value.lo > seen && !best_lo.compare_exchange_weak(seen, move_value.lo)) {
        }
        if (!enough && !decided()) stop = true; // out of budget: the others would be too
    };
    source.stopped = [&] { return stop.load() || decided(); };
    // A progress line when the interval has passed (`searching`: the caller is a searcher's
    // poll, not the delivery of a unit).
    const auto report = [&](bool searching) {
        if (!cfg.progress) return;
        std::lock_guard lock(report_mutex);
        if (seconds_since(last_report) < cfg.progress_interval) return;
        last_report = std::chrono::steady_clock::now();
        int proven = 0;
        for (const PnsMoveResult& m : res.moves) proven += m.move.value.exact();
        char line[160];
        std::snprintf(line, sizeof line,
                      "solve: %.0f s, %llu nodes%s, %d of %zu first moves proven",
                      seconds_since(start), (unsigned long long)total_nodes.load(),
                      searching ? "" : " (units finished)", proven, res.moves.size());
        cfg.progress(line);
    };
    const auto solve_here = [&](const PnsTask& task) {
        PnsLimits limits = task.limits;
        limits.poll_seconds = std::min(0.25, cfg.proof_interval);
        std::uint64_t counted = 0; // this searcher's nodes already in total_nodes
        auto last_merge = std::chrono::steady_clock::now();
        PnsUnitResult r = solve_pns_unit(
            job.units[task.unit], job.settings, task.question, limits,
            [&](const ProofSearch& searcher) {
                total_nodes += searcher.nodes() - counted;
                counted = searcher.nodes();
                if (!cfg.proof.empty() && seconds_since(last_merge) >= cfg.proof_interval) {
                    store.merge(searcher);
                    last_merge = std::chrono::steady_clock::now();
                }
                report(true);
                return source.stopped() || (cfg.max_nodes && total_nodes.load() >= cfg.max_nodes);
            });
        total_nodes += r.nodes - counted;
        source.deliver(task.unit, std::move(r));
    };
    const ForkJoin fork_join; // what TSan cannot see inside libtbb (core/common/fork_join.h)
    if (const RemotePnsSolver& remote = remote_pns_solver();
        remote.available && remote.available()) {
        // The other machines solve every unit; this process hands them out and keeps the proof
        // file (a remote unit's nodes count towards the budget when it comes back).
        if (cfg.progress)
            cfg.progress("solve: the " + std::to_string(job.units.size()) +
                         " first moves are solved by the other ranks of the MPI job");
        PnsUnitSource remote_source = source;
        remote_source.deliver = [&](std::size_t i, PnsUnitResult r) {
            total_nodes += r.nodes;
            source.deliver(i, std::move(r));
            report(false);
        };
        remote.solve(job, remote_source);
    } else {
        tbb::parallel_for(0, tbb::this_task_arena::max_concurrency(), 1, fork_join.body([&](int) {
            PnsTask task;
            while (source.claim(task)) solve_here(task);
        }));
        fork_join.joined();
    }
    ValueBounds v{-1, -1};
    for (const PnsMoveResult& m : res.moves) {
        v.lo = std::max(v.lo, m.move.value.lo);
        v.hi = std::max(v.hi, m.move.value.hi);
    }
    res.value = v;
    res.complete = v.exact();
    if (res.complete) store.add(root.hash(), v.lo, v.hi);
    res.nodes = 0;
    for (const PnsMoveResult& m : res.moves) res.nodes += m.nodes;
    res.table_hits = hits.load();
    res.seconds = seconds_since(start);
    res.proof_written = store.write();
    res.memory_full = memory_full.load();
    res.peak_tree = peak_tree.load();
    return res;
}

} // namespace fanorona::cli
