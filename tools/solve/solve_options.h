#pragma once
// The options `fanorona solve` and `fanorona frontier` share (the tables, the budgets, the df-pn
// searchers' table, threads, the proof file, the JSON file, --quiet): one declaration, so each
// name has one meaning and one help text in both commands, and the checks made before the long
// work and the opening of the tables are the same code.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/board/position.h"
#include "core/common/files.h"
#include "core/tables/tablebase.h"

namespace fanorona::cli {

// The shared options as typed (tools/solve_cli.h adds them to a command). max_nodes /
// max_seconds bound one solve: `fanorona solve`'s whole solve, each position's solve in
// `fanorona frontier`.
struct SolveCommonOptions {
    std::string tables;
    std::string tables_cache;
    int table_pieces = -1; // -1: auto_table_pieces (solve: solve_recipe)
    std::uint64_t max_nodes = 0;
    double max_seconds = 0;
    int hash_mb = 64;
    int threads = 0;
    std::string proof;
    double proof_interval = 60;
    std::string json_out;
    bool quiet = false;
};

// Opens --tables, or finds or builds the cached tables (unless --table-pieces 0) for positions
// of `root`'s board with at most its pieces; sets `note` (what the output says of the tables).
// nullptr: no tables. Throws std::invalid_argument naming the option.
std::shared_ptr<const tables::Tablebase> solve_tables(const SolveCommonOptions& o,
                                                      const Position& root, std::string& note);

// What can fail before the long work, checked first (that no output is an input or another
// output the option layer checked before the command ran: tools/paths.h): --json-out writable,
// and --proof writable, readable and of board `v` when it exists (a damaged file is refused with
// one line). Throws std::invalid_argument naming the option.
void check_solve_files(const SolveCommonOptions& o, Variant v);

// Refuses (before any allocation) a --hash per searcher that `searchers` at a time would not fit.
void check_searchers_memory(const SolveCommonOptions& o);

} // namespace fanorona::cli
