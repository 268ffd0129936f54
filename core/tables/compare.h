#pragma once
// `tables compare`: checks that two tables folders give every position the same value, whatever
// their indexes (folded by symmetry or not, format version 1 or 2): each material present in
// both is walked position by position over the whole (unfolded) material.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/tables/tablebase.h"

namespace fanorona::tables {

// One material's comparison. Invariant: differences > 0 only when first_difference is set.
struct CompareResult {
    Variant variant = Variant::Tsivy;
    int mover = 0, other = 0;
    std::uint64_t positions = 0; // positions of the whole material compared
    std::uint64_t differences = 0;
    std::string first_difference; // "position: value in a, value in b"
};

// Compares every material present in both folders; throws FileError when a file is damaged.
std::vector<CompareResult> compare_tables(const Tablebase& a, const Tablebase& b,
                                          const std::function<void(const std::string&)>& progress);

} // namespace fanorona::tables
