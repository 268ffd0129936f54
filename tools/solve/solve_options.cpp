// The opening of the tables and the early checks of `fanorona solve` and `fanorona frontier`
// (see solve_options.h).

#include "tools/solve/solve_options.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <thread>

#include "core/common/files.h"
#include "core/common/memory.h"
#include "core/common/thread_limit.h"
#include "selfplay/formats/proof_file.h"
#include "tools/solve/tables_cache.h"

namespace fanorona::cli {

std::shared_ptr<const tables::Tablebase> solve_tables(const SolveCommonOptions& o,
                                                      const Position& root, std::string& note) {
    note = "none (searched to the end)";
    const Rules rules{root.variant()};
    std::shared_ptr<const tables::Tablebase> tb;
    if (!o.tables.empty()) {
        try {
            tb = tables::open_tables(o.tables);
        } catch (const std::exception& e) {
            throw std::invalid_argument("--tables: " + std::string(e.what()));
        }
        note = o.tables;
    } else {
        const int pieces =
            o.table_pieces >= 0
                ? o.table_pieces
                : auto_table_pieces(root.variant(), popcount(root.player() | root.opponent()));
        if (pieces < 2 || root.variant() == Variant::Telo) return nullptr;
        const std::string cache = o.tables_cache.empty() ? default_tables_cache() : o.tables_cache;
        double built = 0;
        const ThreadLimit limit(o.threads);
        try {
            tb = cached_tables(cache, root.variant(), pieces, built, [&o](const std::string& l) {
                if (!o.quiet) std::fprintf(stderr, "tables: %s\n", l.c_str());
            });
        } catch (const std::exception& e) {
            throw std::invalid_argument("--tables-cache: " + std::string(e.what()));
        }
        note =
            tb->dir() + (built > 0 ? " (built now in " + std::to_string(std::lround(built)) + " s)"
                                   : " (cached)");
    }
    Rules endless = rules; // the solver's game: endless play a draw, no turn limit
    endless.no_capture_limit = 0;
    if (const std::string why = tb->unusable_for(endless); !why.empty())
        throw std::invalid_argument("--tables: " + why);
    note += " (" + std::string(variant_name(root.variant())) + " up to " +
            std::to_string(tb->max_pieces(root.variant())) + " pieces)";
    return tb;
}

void check_solve_files(const SolveCommonOptions& o, Variant v) {
    if (!o.json_out.empty()) {
        try {
            check_writable(o.json_out);
        } catch (const FileError& e) {
            throw std::invalid_argument("--json-out: " + std::string(e.what()));
        }
    }
    if (o.proof.empty()) return;
    try {
        check_writable(o.proof);
        // A damaged file or one of another board is refused before anything is printed.
        if (std::filesystem::exists(o.proof) && read_proof_file(o.proof).variant != v)
            throw FileError(o.proof + ": a proof file of another board");
    } catch (const FileError& e) {
        throw std::invalid_argument("--proof: " + std::string(e.what()));
    }
}

void check_searchers_memory(const SolveCommonOptions& o) {
    const unsigned threads =
        o.threads > 0 ? unsigned(o.threads) : std::max(1u, std::thread::hardware_concurrency());
    check_memory("--hash " + std::to_string(o.hash_mb) + " per thread",
                 (std::uint64_t(o.hash_mb) << 20) * threads);
}

} // namespace fanorona::cli
