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

namespace {

// One root's solve while it runs: its units (the positions after each first move), what is left
// of the budgets, the best value proven so far and the proof store, shared by the workers.
class RootSolve {
public:
    RootSolve(const Position& root, const PnsRootConfig& cfg);
    PnsRootResult run();

private:
    // The unit source's steps: hand out a unit, take back its result.
    bool claim(PnsTask& task);
    void deliver(std::size_t i, PnsUnitResult r);
    // With a win proven for the mover (and not every move asked for): nothing left to do.
    bool decided() const { return !cfg_.all_moves && best_lo_.load() == 1; }
    // A progress line when the interval has passed (`searching`: the caller is a searcher's
    // poll, not the delivery of a unit).
    void report(bool searching);
    // Solves one unit on this process.
    void solve_here(const PnsTask& task);
    // The other machines solve every unit; this process hands them out.
    void solve_remote(const RemotePnsSolver& remote);
    // The root's value and counts from its moves' results; the proof file written.
    void finish();

    const Position& root_;
    const PnsRootConfig& cfg_;
    const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
    ProofStore store_;
    PnsRootResult res_;
    PnsUnitJob job_;
    std::atomic<std::uint64_t> total_nodes_{0};
    std::atomic<std::uint64_t> hits_{0};
    std::atomic<bool> stop_{false};
    std::mutex claim_mutex_, report_mutex_;
    std::size_t next_ = 0;
    std::chrono::steady_clock::time_point last_report_ = start_;
    // The best value for the mover proven so far (a first move's exact value or lower bound).
    std::atomic<int> best_lo_{-1};
    std::atomic<bool> memory_full_{false};
    std::atomic<std::size_t> peak_tree_{0};
    PnsUnitSource source_;
};

RootSolve::RootSolve(const Position& root, const PnsRootConfig& cfg)
    : root_(root), cfg_(cfg), store_(cfg.proof, root.variant(), cfg.proof_interval) {
    res_.proof_loaded = store_.initial().size();
    Rules rules{root.variant()};
    rules.repetition_count = 0;
    rules.no_capture_limit = 0;
    MoveList moves;
    generate_moves(root, rules, moves);
    for (const Move& m : moves) {
        res_.moves.push_back({{m, {}}, 0, 0});
        job_.units.push_back(root);
        job_.units.back().make_move(m);
    }
    // Only the bounds the run started with: a move's search does not depend on the others'.
    job_.settings.hash_mb = cfg.hash_mb;
    job_.settings.pn2 = cfg.pn2;
    job_.settings.graph = cfg.graph;
    job_.settings.tables = cfg.tables;
    job_.settings.initial = &store_.initial();
    job_.tables_dir = cfg.tables_dir;
    job_.threads = cfg.remote_threads;
    source_.claim = [this](PnsTask& task) { return claim(task); };
    source_.deliver = [this](std::size_t i, PnsUnitResult r) { deliver(i, std::move(r)); };
    source_.stopped = [this] { return stop_.load() || decided(); };
}

// Units in order, to this process's workers and to other machines alike, each with what is
// left of the solve's budgets. With a draw proven for the mover, a move only matters if it
// wins: "can the opponent avoid losing after it?" (yes: at most a draw for the mover).
bool RootSolve::claim(PnsTask& task) {
    std::lock_guard lock(claim_mutex_);
    if (stop_ || decided() || next_ == job_.units.size()) return false;
    task.limits = {};
    if (cfg_.max_nodes) {
        const std::uint64_t used = total_nodes_.load();
        if (used >= cfg_.max_nodes) return !(stop_ = true);
        task.limits.max_nodes = cfg_.max_nodes - used;
    }
    if (cfg_.max_seconds > 0) {
        task.limits.max_seconds = cfg_.max_seconds - seconds_since(start_);
        if (task.limits.max_seconds <= 0) return !(stop_ = true);
    }
    task.question =
        !cfg_.all_moves && best_lo_.load() >= 0 ? PnsQuestion::AvoidsLoss : PnsQuestion::Value;
    task.unit = next_++;
    return true;
}

void RootSolve::deliver(std::size_t i, PnsUnitResult r) {
    hits_ += r.table_hits;
    if (r.memory_full) memory_full_ = true;
    for (std::size_t p = peak_tree_.load(); p < r.peak_tree;)
        peak_tree_.compare_exchange_weak(p, r.peak_tree);
    store_.merge(r.proven);
    const ValueBounds move_value{-r.value.hi, -r.value.lo};
    // Enough for the root: exact, or a bound that cannot beat the best move proven.
    const bool enough = move_value.exact() || (!cfg_.all_moves && move_value.hi <= best_lo_);
    {
        std::lock_guard lock(report_mutex_);
        res_.moves[i].move.value = move_value;
        res_.moves[i].nodes = r.nodes;
        res_.moves[i].seconds = r.seconds;
    }
    int seen = best_lo_.load();
    while (move_value.lo > seen && !best_lo_.compare_exchange_weak(seen, move_value.lo)) {
    }
    if (!enough && !decided()) stop_ = true; // out of budget: the others would be too
}

void RootSolve::report(bool searching) {
    if (!cfg_.progress) return;
    std::lock_guard lock(report_mutex_);
    if (seconds_since(last_report_) < cfg_.progress_interval) return;
    last_report_ = std::chrono::steady_clock::now();
    int proven = 0;
    for (const PnsMoveResult& m : res_.moves) proven += m.move.value.exact();
    char line[160];
    std::snprintf(line, sizeof line, "solve: %.0f s, %llu nodes%s, %d of %zu first moves proven",
                  seconds_since(start_), (unsigned long long)total_nodes_.load(),
                  searching ? "" : " (units finished)", proven, res_.moves.size());
    cfg_.progress(line);
}

void RootSolve::solve_here(const PnsTask& task) {
    PnsLimits limits = task.limits;
    limits.poll_seconds = std::min(0.25, cfg_.proof_interval);
    std::uint64_t counted = 0; // this searcher's nodes already in total_nodes_
    auto last_merge = std::chrono::steady_clock::now();
    PnsUnitResult r = solve_pns_unit(
        job_.units[task.unit], job_.settings, task.question, limits,
        [&](const ProofSearch& searcher) {
            total_nodes_ += searcher.nodes() - counted;
            counted = searcher.nodes();
            if (!cfg_.proof.empty() && seconds_since(last_merge) >= cfg_.proof_interval) {
                store_.merge(searcher);
                last_merge = std::chrono::steady_clock::now();
            }
            report(true);
            return source_.stopped() || (cfg_.max_nodes && total_nodes_.load() >= cfg_.max_nodes);
        });
    total_nodes_ += r.nodes - counted;
    source_.deliver(task.unit, std::move(r));
}

// This process keeps the proof file (a remote unit's nodes count towards the budget when it
// comes back).
void RootSolve::solve_remote(const RemotePnsSolver& remote) {
    if (cfg_.progress)
        cfg_.progress("solve: the " + std::to_string(job_.units.size()) +
                      " first moves are solved by the other ranks of the MPI job");
    PnsUnitSource remote_source = source_;
    remote_source.deliver = [&](std::size_t i, PnsUnitResult r) {
        total_nodes_ += r.nodes;
        source_.deliver(i, std::move(r));
        report(false);
    };
    remote.solve(job_, remote_source);
}

void RootSolve::finish() {
    ValueBounds v{-1, -1};
    for (const PnsMoveResult& m : res_.moves) {
        v.lo = std::max(v.lo, m.move.value.lo);
        v.hi = std::max(v.hi, m.move.value.hi);
    }
    res_.value = v;
    res_.complete = v.exact();
    if (res_.complete) store_.add(root_.hash(), v.lo, v.hi);
    res_.nodes = 0;
    for (const PnsMoveResult& m : res_.moves) res_.nodes += m.nodes;
    res_.table_hits = hits_.load();
    res_.seconds = seconds_since(start_);
    res_.proof_written = store_.write();
    res_.memory_full = memory_full_.load();
    res_.peak_tree = peak_tree_.load();
}

PnsRootResult RootSolve::run() {
    const ForkJoin fork_join; // what TSan cannot see inside libtbb (core/common/fork_join.h)
    if (const RemotePnsSolver& remote = remote_pns_solver();
        remote.available && remote.available()) {
        solve_remote(remote);
    } else {
        tbb::parallel_for(0, tbb::this_task_arena::max_concurrency(), 1, fork_join.body([&](int) {
            PnsTask task;
            while (source_.claim(task)) solve_here(task);
        }));
        fork_join.joined();
    }
    finish();
    return std::move(res_);
}

} // namespace

PnsRootResult solve_root_pns(const Position& root, const PnsRootConfig& cfg) {
    return RootSolve(root, cfg).run();
}

} // namespace fanorona::cli
