#pragma once
// `tables verify`: checks every stored value of a tables folder against the values of its
// successors (forward move generation, independent of the builder's backward steps) and every
// file's checksum.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tables/tablebase.h"

namespace fanorona::tables {

// One material's check: positions checked and values that disagree with their successors.
struct VerifyResult {
    Variant variant = Variant::Tsivy;
    int mover = 0, other = 0;
    std::uint64_t positions = 0;
    std::uint64_t errors = 0;
    std::string first_error; // "position: stored ..., successors give ..."
};

// Verifies every material of `tables` whose successors' tables are present too; `progress` gets
// one line per material.
std::vector<VerifyResult> verify_tables(const Tablebase& tables,
                                        const std::function<void(const std::string&)>& progress);

// The value of a position computed from its successors' table values (standard rules); nullopt
// when a successor's table is missing. The definition every stored value must meet.
std::optional<TableValue> value_from_successors(const EndgameProbe& tables, const Position& pos);

} // namespace fanorona::tables
