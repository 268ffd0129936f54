#pragma once
// Builds endgame tables by retrograde analysis (docs/formats.md "Endgame tables"): every
// material with at most N pieces in all (each side at least one), smaller totals first, a
// material and its colour-swapped twin (paika moves lead from one to the other) solved together.
// Finished materials are kept as files; a build started again skips them (resumable per
// material).

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/endgame.h"

namespace fanorona::tables {

// What to build. Threads come from the caller's oneTBB limit.
struct BuildConfig {
    Variant variant = Variant::Tsivy;
    int pieces = 3; // at most this many pieces on the board
    std::string dir;
    int turn_limit = kTableTurnLimit; // the no-capture limit the values count with (1..100)
    bool fold = true; // index one position per class of symmetric positions (format version 2)
};

// One material of a build: its size, what it took, and whether it was already there.
struct MaterialReport {
    int mover = 0, other = 0;
    std::uint64_t positions = 0;      // positions stored (one per class when folded)
    std::uint64_t full_positions = 0; // positions of the whole material
    std::uint64_t file_bytes = 0;
    double seconds = 0; // the pair's solving time (shared by both materials of a pair)
    int levels = 0;     // retrograde levels (distances) the pair needed
    bool reused = false;
};

// Builds (or completes) the tables in cfg.dir; `progress` gets one line per step. Throws
// FileError / std::invalid_argument with a one-line message.
std::vector<MaterialReport> build_tables(const BuildConfig& cfg,
                                         const std::function<void(const std::string&)>& progress);

// The materials (mover, other) of tables up to `pieces`, in build order.
std::vector<std::pair<int, int>> materials_up_to(Variant v, int pieces);

// The materials the moves of a material (mover, other) lead into: its colour-swapped twin (a
// paika move) and (k, mover) for every k < other (a capture leaving the opponent k pieces). A
// material's values follow from these tables' values.
std::vector<std::pair<int, int>> successor_materials(int mover, int other);

} // namespace fanorona::tables
