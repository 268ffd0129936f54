#pragma once
// The endgame tables `fanorona solve` finds or builds by itself: one folder per board in a cache
// folder ($XDG_CACHE_HOME/fanorona/tables, else ~/.cache/fanorona/tables, or --tables-cache),
// built on first use by the tables' public builder (resumable, under a folder lock) and reused.

#include <functional>
#include <memory>
#include <string>

#include "core/tables/tablebase.h"

namespace fanorona::cli {

// The default cache folder; throws std::invalid_argument when neither XDG_CACHE_HOME nor HOME
// is set.
std::string default_tables_cache();

// Positions in the tables of board v up to `pieces` pieces (both sides to move).
std::uint64_t table_positions(Variant v, int pieces);

// The piece count solve builds tables for by itself: on boards of at most 25 points the largest
// N whose tables hold at most kAutoTablePositions positions, and below the root's `pieces`; 0
// (no tables) on larger boards and Fanoron-telo.
inline constexpr std::uint64_t kAutoTablePositions = 100'000'000;
int auto_table_pieces(Variant v, int pieces);

// How `fanorona solve` proves a position of board `v` with `pieces` pieces when its options do
// not say: the recipe docs/solved_boards.md solved those boards with. On boards of 26 to 35 points
// (5x7, 7x5, 3x9, 9x3, 3x11, 11x3) df-pn ("pns") with the largest tables of at most
// kRecipeTablePositions positions below the root's pieces (7 on 5x7 and 7x5, 8 on 3x9 and 9x3)
// and 1024 MB a searcher; elsewhere alpha-beta ("search"), auto_table_pieces() and 64 MB.
struct SolveRecipe {
    const char* method;
    int table_pieces;
    int hash_mb;
};
inline constexpr std::uint64_t kRecipeTablePositions = 1'000'000'000;
SolveRecipe solve_recipe(Variant v, int pieces);

// The tables of board v up to `pieces` pieces in `cache`/<board>: opened when already there
// (with at least that many pieces), else built (each line of the build to `progress`) and opened.
// `built_seconds` is set to the build's time (0 when nothing was built).
std::shared_ptr<const tables::Tablebase>
cached_tables(const std::string& cache, Variant v, int pieces, double& built_seconds,
              const std::function<void(const std::string&)>& progress);

} // namespace fanorona::cli
