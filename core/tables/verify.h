#pragma once
// `tables verify`: checks every table file of a folder (its checksum, every block, the header's
// counts against the codes) and every stored value against the values of its successors (forward
// move generation, independent of the builder's backward steps). A material that cannot be
// checked is reported with its reason, never left out.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/tables/tablebase.h"

namespace fanorona::tables {

// How a material came out of verification.
enum class VerifyStatus {
    Verified,  // every value agrees with its successors
    Errors,    // some values disagree (errors > 0, first_error says where)
    Corrupt,   // the file is damaged (reason): its values were not checked
    Unchecked, // a table its moves lead into is missing or corrupt (reason)
    Missing,   // no file, but a present material leads into it (reason names which)
};
const char* verify_status_name(VerifyStatus s); // "verified", "errors", ...

// One material's result. Invariant: errors > 0 only for Errors; reason is set exactly for
// Corrupt, Unchecked and Missing.
struct VerifyResult {
    Variant variant = Variant::Tsivy;
    int mover = 0, other = 0;
    std::string file; // the material's path in the folder
    VerifyStatus status = VerifyStatus::Verified;
    std::uint64_t positions = 0; // positions checked (0 unless Verified or Errors)
    std::uint64_t errors = 0;
    std::string first_error; // "position: stored ..., successors give ..."
    std::string reason;
};

// Verifies every material of `tables` (and lists the missing materials present ones lead into);
// `progress` gets one line per material.
std::vector<VerifyResult> verify_tables(const Tablebase& tables,
                                        const std::function<void(const std::string&)>& progress);

// "win 3", "cursed win 104": a value as messages name it.
std::string describe(const TableValue& v);

// The value of a position computed from its successors' table values (standard rules); nullopt
// when a successor's table is missing. The definition every stored value must meet.
std::optional<TableValue> value_from_successors(const EndgameProbe& tables, const Position& pos);

} // namespace fanorona::tables
