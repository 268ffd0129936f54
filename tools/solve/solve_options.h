#pragma once
// The options `fanorona solve` and `fanorona frontier` share (the tables, the budgets, the df-pn
// searchers' table, threads, the proof file, the JSON file, --quiet): one declaration, so each
// name has one meaning and one help text in both commands, and the checks made before the long
// work and the opening of the tables are the same code.

#include <cstdint>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "core/position.h"
#include "tables/tablebase.h"
#include "tools/options.h"

namespace fanorona::cli {

// The shared options as typed. max_nodes / max_seconds bound one solve: `fanorona solve`'s whole
// solve, each position's solve in `fanorona frontier` (`budget_of` in add_to says which).
struct SolveCommonOptions {
    std::string tables;
    std::string tables_cache;
    int table_pieces = -1; // -1: auto_table_pieces
    std::uint64_t max_nodes = 0;
    double max_seconds = 0;
    int hash_mb = 64;
    int threads = 0;
    std::string proof;
    double proof_interval = 60;
    std::string json;
    bool quiet = false;

    // Adds --tables, --max-nodes, --max-seconds, --hash, --tables-cache, --table-pieces.
    void add_search_options(CLI::App& cmd, const std::string& budget_of);
    // Adds --threads, --proof (`proof_note`: when it applies), --proof-interval, --json-out (with
    // its old spelling --json) and --quiet (`quiet_help`).
    void add_output_options(CLI::App& cmd, const std::string& proof_note,
                            const std::string& quiet_help);
};

// Opens --tables, or finds or builds the cached tables (unless --table-pieces 0) for positions
// of `root`'s board with at most its pieces; sets `note` (what the output says of the tables).
// nullptr: no tables. Throws std::invalid_argument naming the option.
std::shared_ptr<const tables::Tablebase> solve_tables(const SolveCommonOptions& o,
                                                      const Position& root, std::string& note);

// What can fail before the long work, checked first: --json-out writable, and --proof writable,
// readable and of board `v` when it exists (a damaged file is refused with one line). Throws
// std::invalid_argument naming the option.
void check_solve_files(const SolveCommonOptions& o, Variant v);

// Refuses (before any allocation) a --hash per searcher that `searchers` at a time would not fit.
void check_searchers_memory(const SolveCommonOptions& o);

inline void SolveCommonOptions::add_search_options(CLI::App& cmd, const std::string& budget_of) {
    cmd.add_option("--tables", tables,
                   "Endgame tables folder: positions they hold are leaves with their exact value "
                   "(default: search to the end)");
    cmd.add_option("--max-nodes", max_nodes,
                   "Stop " + budget_of + " after this many nodes (0: no limit)")
        ->capture_default_str();
    cmd.add_option("--max-seconds", max_seconds,
                   "Stop " + budget_of + " after this many seconds (0: no limit)")
        ->capture_default_str()
        ->check(CLI::Range(0.0, 1e9));
    cmd.add_option("--hash", hash_mb, "The solver's table, MB")
        ->capture_default_str()
        ->check(CLI::Range(1, 65536));
    cmd.add_option("--tables-cache", tables_cache,
                   "Without --tables: the folder where solve finds, or builds, the tables "
                   "(one folder per board; default $XDG_CACHE_HOME/fanorona/tables, else "
                   "~/.cache/fanorona/tables)");
    cmd.add_option("--table-pieces", table_pieces,
                   "Without --tables: the tables' piece count to find or build in the cache (0: "
                   "no tables, search to the end; default: boards of at most 25 points get the "
                   "largest size of at most 100 million positions below the position's pieces "
                   "(5x5: 7, 3x7: 8), larger boards none)")
        ->check(CLI::Range(0, 32));
}

inline void SolveCommonOptions::add_output_options(CLI::App& cmd, const std::string& proof_note,
                                                   const std::string& quiet_help) {
    add_threads_option(cmd, threads);
    cmd.add_option("--proof", proof,
                   proof_note + (proof_note.empty() ? "R" : "r") +
                       "ead the proven bounds of this proof file first (when it exists), and "
                       "write every bound proven into it, atomically, at intervals and at the end "
                       "(a killed run resumes from it)");
    cmd.add_option("--proof-interval", proof_interval, "Seconds between the proof file's snapshots")
        ->capture_default_str()
        ->check(CLI::Range(0.01, 1e6));
    cmd.add_option("--json-out", json,
                   "Also write the result as JSON to this file (a summary line on stdout)");
    add_old_spelling(cmd, "--json", json, "--json-out FILE (--json is a flag, JSON on stdout)");
    cmd.add_flag("--quiet", quiet, quiet_help);
}

} // namespace fanorona::cli
