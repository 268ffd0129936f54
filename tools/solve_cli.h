#pragma once
// The command-line options of `fanorona solve` and `fanorona frontier` that mean the same in
// both (tools/solve/solve_options.h holds them): one declaration, one help text.

#include <string>

#include <CLI/CLI.hpp>

#include "tools/options.h"
#include "tools/paths.h"
#include "tools/solve/solve_options.h"

namespace fanorona::cli {

// Adds --tables, --max-nodes, --max-seconds, --hash, --tables-cache, --table-pieces to `cmd`;
// `budget_of` says what the budgets bound.
inline void add_solve_search_options(CLI::App& cmd, SolveCommonOptions& o,
                                     const std::string& budget_of) {
    declare_path(cmd.add_option("--tables", o.tables,
                                "Endgame tables folder: positions they hold are leaves with their "
                                "exact value (default: search to the end)"),
                 PathRole::InputFolder);
    cmd.add_option("--max-nodes", o.max_nodes,
                   "Stop " + budget_of + " after this many nodes (0: no limit)")
        ->capture_default_str();
    cmd.add_option("--max-seconds", o.max_seconds,
                   "Stop " + budget_of + " after this many seconds (0: no limit)")
        ->capture_default_str()
        ->check(CLI::Range(0.0, 1e9));
    cmd.add_option("--hash", o.hash_mb,
                   "The memory a searcher may use, MB: search's and pns's table; pn2's table "
                   "and trees (pns and pn2: per position solved at a time); solve: 1024 by "
                   "default on boards of 26 to 35 points (its --method)")
        ->capture_default_str()
        ->check(CLI::Range(1, 65536));
    declare_path(
        cmd.add_option("--tables-cache", o.tables_cache,
                       "Without --tables: the folder where solve finds, or builds, the tables "
                       "(one folder per board; default $XDG_CACHE_HOME/fanorona/tables, else "
                       "~/.cache/fanorona/tables)"),
        PathRole::InputFolder); // read, or built into (its own locked files)
    cmd.add_option("--table-pieces", o.table_pieces,
                   "Without --tables: the tables' piece count to find or build in the cache (0: "
                   "no tables, search to the end; default: boards of at most 25 points get the "
                   "largest size of at most 100 million positions below the position's pieces "
                   "(5x5: 7, 3x7: 8), larger boards none)")
        ->check(CLI::Range(0, 32));
}

// Adds --threads, --proof (`proof_note`: when it applies), --proof-interval, --json-out and
// --quiet (`quiet_help`).
inline void add_solve_output_options(CLI::App& cmd, SolveCommonOptions& o,
                                     const std::string& proof_note, const std::string& quiet_help) {
    add_threads_option(cmd, o.threads);
    declare_path(
        cmd.add_option(
            "--proof", o.proof,
            proof_note + (proof_note.empty() ? "R" : "r") +
                "ead the proven bounds of this proof file first (when it exists), and "
                "write every bound proven into it, atomically, at intervals and at the end "
                "(a killed run resumes from it)"),
        PathRole::OutputFile);
    declare_path(cmd.add_option("--proof-interval", o.proof_interval,
                                "Seconds between the proof file's snapshots")
                     ->capture_default_str()
                     ->check(CLI::Range(0.01, 1e6)),
                 PathRole::NotAPath);
    declare_path(cmd.add_option("--json-out", o.json_out,
                                "Also write the result as JSON to this file (a summary line on "
                                "stdout)"),
                 PathRole::OutputFile);
    cmd.add_flag("--quiet", o.quiet, quiet_help);
}

} // namespace fanorona::cli
