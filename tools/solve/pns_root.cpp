// The proof-number solve of a root on oneTBB workers, with its proof file (see pns_root.h).

#include "tools/solve/pns_root.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <unordered_map>

#include <tbb/parallel_for.h>

#include "common/files.h"
#include "core/pn2.h"
#include "records/proof_file.h"

namespace fanorona::cli {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// The proven bounds of a solve (the proof file's and every searcher's), behind a mutex, and
// their snapshots into the proof file.
class ProofStore {
public:
    ProofStore(std::string path, Variant v, double interval)
        : path_(std::move(path)), variant_(v), interval_(interval),
          last_(std::chrono::steady_clock::now()) {
        if (path_.empty() || !std::filesystem::exists(path_)) return;
        const ProofFile f = read_proof_file(path_);
        if (f.variant != v)
            throw FileError(path_ + ": a proof file of another board (variant " +
                            std::to_string(int(f.variant)) + ")");
        initial_ = f.bounds;
        for (const ProvenBound& b : f.bounds) bounds_[b.key] = {b.lo, b.hi};
    }

    const std::vector<ProvenBound>& initial() const { return initial_; }

    void add(Key key, int lo, int hi) {
        std::lock_guard lock(mutex_);
        add_locked(key, lo, hi);
    }
    // Takes every proven bound of `s` (a PnSearcher or a Pn2Searcher), and writes the file when
    // the interval has passed.
    template <class Searcher> void merge(const Searcher& s) {
        std::lock_guard lock(mutex_);
        s.for_each_proven([this](Key k, int lo, int hi) { add_locked(k, lo, hi); });
        if (!path_.empty() && seconds_since(last_) >= interval_) write_locked();
    }
    std::size_t write() {
        std::lock_guard lock(mutex_);
        if (!path_.empty()) write_locked();
        return bounds_.size();
    }

private:
    void add_locked(Key key, int lo, int hi) {
        auto [it, fresh] = bounds_.try_emplace(key, std::int8_t(lo), std::int8_t(hi));
        if (fresh) return;
        it->second.first = std::int8_t(std::max<int>(it->second.first, lo));
        it->second.second = std::int8_t(std::min<int>(it->second.second, hi));
    }
    void write_locked() {
        ProofFile f;
        f.variant = variant_;
        f.bounds.reserve(bounds_.size());
        for (const auto& [k, b] : bounds_)
            if (b.first <= b.second) f.bounds.push_back({k, b.first, b.second});
        write_proof_file(path_, std::move(f));
        last_ = std::chrono::steady_clock::now();
    }

    std::string path_;
    Variant variant_;
    double interval_;
    std::chrono::steady_clock::time_point last_;
    std::vector<ProvenBound> initial_;
    std::unordered_map<Key, std::pair<std::int8_t, std::int8_t>> bounds_;
    std::mutex mutex_;
};

} // namespace

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
    for (const Move& m : moves) res.moves.push_back({{m, {}}, 0, 0});
    std::atomic<std::uint64_t> total_nodes{0};
    std::atomic<std::uint64_t> hits{0};
    std::atomic<bool> stop{false};
    std::mutex report_mutex;
    auto last_report = start;
    // The best value for the mover proven so far (a first move's exact value or lower bound).
    std::atomic<int> best_lo{-1};
    const auto decided = [&] { return !cfg.all_moves && best_lo.load() == 1; };
    std::atomic<bool> memory_full{false};
    std::atomic<std::size_t> peak_tree{0};
    const auto solve_move = [&](int i, auto& searcher) {
        const auto job_start = std::chrono::steady_clock::now();
        searcher.set_tables(cfg.tables);
        if (cfg.graph >= 0) searcher.set_graph_limit(std::size_t(cfg.graph));
        // Only the bounds the run started with: a move's search does not depend on the others'.
        for (const ProvenBound& b : store.initial()) searcher.add_proven(b.key, b.lo, b.hi);
        Position child = root;
        child.make_move(res.moves[i].move.move);
        PnsLimits limits;
        const std::uint64_t used = total_nodes.load();
        if (cfg.max_nodes) {
            if (used >= cfg.max_nodes) return (void)(stop = true);
            limits.max_nodes = cfg.max_nodes - used;
        }
        if (cfg.max_seconds > 0) {
            limits.max_seconds = cfg.max_seconds - seconds_since(start);
            if (limits.max_seconds <= 0) return (void)(stop = true);
        }
        limits.poll_seconds = std::min(0.25, cfg.proof_interval);
        std::uint64_t counted = 0; // this searcher's nodes already in total_nodes
        auto last_merge = job_start;
        limits.poll = [&] {
            total_nodes += searcher.nodes() - counted;
            counted = searcher.nodes();
            if (!cfg.proof.empty() && seconds_since(last_merge) >= cfg.proof_interval) {
                store.merge(searcher);
                last_merge = std::chrono::steady_clock::now();
            }
            if (cfg.progress) {
                std::lock_guard lock(report_mutex);
                if (seconds_since(last_report) >= cfg.progress_interval) {
                    last_report = std::chrono::steady_clock::now();
                    int proven = 0;
                    for (const PnsMoveResult& m : res.moves) proven += m.move.value.exact();
                    char line[160];
                    std::snprintf(line, sizeof line,
                                  "solve: %.0f s, %llu nodes, %d of %zu first moves proven",
                                  seconds_since(start), (unsigned long long)total_nodes.load(),
                                  proven, res.moves.size());
                    cfg.progress(line);
                }
            }
            return stop.load() || decided() ||
                   (cfg.max_nodes && total_nodes.load() >= cfg.max_nodes);
        };
        // With a draw proven for the mover, this move only matters if it wins: "can the
        // opponent avoid losing after it?" (yes: at most a draw for the mover).
        ValueBounds child_value;
        if (!cfg.all_moves && best_lo.load() >= 0) {
            const PnAnswer a = searcher.test(child, 0, limits);
            if (a == PnAnswer::Yes) child_value.lo = 0;
            if (a == PnAnswer::No) child_value.hi = -1, child_value.lo = -1;
        } else {
            child_value = searcher.value(child, limits);
        }
        total_nodes += searcher.nodes() - counted;
        hits += searcher.table_hits();
        store.merge(searcher);
        if (child_value.exact() || child_value.lo > -1 || child_value.hi < 1)
            store.add(child.hash(), child_value.lo, child_value.hi);
        const ValueBounds move_value{-child_value.hi, -child_value.lo};
        // Enough for the root: exact, or a bound that cannot beat the best move proven.
        const bool enough = move_value.exact() || (!cfg.all_moves && move_value.hi <= best_lo);
        {
            std::lock_guard lock(report_mutex);
            res.moves[i].move.value = move_value;
            res.moves[i].nodes = searcher.nodes();
            res.moves[i].seconds = seconds_since(job_start);
        }
        int seen = best_lo.load();
        while (move_value.lo > seen && !best_lo.compare_exchange_weak(seen, move_value.lo)) {
        }
        if (!enough && !decided()) stop = true; // out of budget: the others would be too
    };
    tbb::parallel_for(0, int(res.moves.size()), 1, [&](int i) {
        if (stop || decided()) return;
        if (!cfg.pn2) {
            PnSearcher searcher(cfg.hash_mb);
            return solve_move(i, searcher);
        }
        Pn2Searcher searcher(cfg.hash_mb);
        solve_move(i, searcher);
        if (searcher.memory_full()) memory_full = true;
        for (std::size_t p = peak_tree.load(); p < searcher.peak_tree();)
            peak_tree.compare_exchange_weak(p, searcher.peak_tree());
    });
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
