#pragma once
// `fanorona solve --method pns|pn2` at the root: every first move's resulting position solved by
// its own proof-number searcher (df-pn, core/solver/pns.h, or PN2, core/solver/pn2.h) on oneTBB
// workers, so each move's value and node count are the same on any number of threads; proven bounds
// shared through a proof file (selfplay/formats/proof_file.h) that is read first, written
// atomically at intervals and at the end, and extended by later runs.

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/solver/pns.h"
#include "core/solver/solve.h"

namespace fanorona::cli {

// What a proof-number solve of a root runs with. max_nodes / max_seconds bound the whole solve
// (all first moves; the node budget is exact with one thread, checked every poll with more).
// Without all_moves, a first move is searched only as far as the root's value needs: once a
// move wins, the moves not yet proven stop (they are "not needed"); once a move draws, the
// later moves are tested only for a win ("at most a draw" is then enough).
struct PnsRootConfig {
    bool pn2 = false;         // PN2 searchers (else df-pn)
    std::size_t hash_mb = 64; // per searcher (one per worker at a time)
    bool all_moves = false;   // every first move's exact value
    long long graph = -1;     // the searchers' graph limit (set_graph_limit; -1: their default)
    std::uint64_t max_nodes = 0;
    double max_seconds = 0;
    std::shared_ptr<const EndgameProbe> tables;
    std::string tables_dir;     // the folder `tables` came from, opened by other machines ("" none)
    int remote_threads = 0;     // searchers each other machine runs at once (0: all its cores)
    std::string proof;          // proof file ("" none)
    double proof_interval = 60; // seconds between snapshots of the proof file
    double progress_interval = 5;
    std::function<void(const std::string&)> progress; // one line every progress_interval
};

// A first move's value for the mover and what its searcher did.
struct PnsMoveResult {
    SolvedMove move; // bounds -1..1 in a complete result: not needed (another move won)
    std::uint64_t nodes = 0;
    double seconds = 0;
};

// The root's value (exact when complete), every first move in generation order, the totals, and
// the proof file's bounds (loaded at the start, written at the end).
struct PnsRootResult {
    ValueBounds value;
    bool complete = false;
    std::vector<PnsMoveResult> moves;
    std::uint64_t nodes = 0;
    std::uint64_t table_hits = 0;
    double seconds = 0;
    std::size_t proof_loaded = 0;
    std::size_t proof_written = 0;
    bool memory_full = false;  // PN2: a first-level tree filled its memory (moves left unknown)
    std::size_t peak_tree = 0; // PN2: the largest first-level tree (nodes)
};

// Solves `root`; threads from the caller's ThreadLimit. With a remote solver installed
// (remote_pns.h) other machines take units too; each move's value and nodes stay the same. Throws
// FileError for a proof file that cannot be read (or is of another board) or written.
PnsRootResult solve_root_pns(const Position& root, const PnsRootConfig& cfg);

} // namespace fanorona::cli
