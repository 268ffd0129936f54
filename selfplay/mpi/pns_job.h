#pragma once
// What travels between the ranks of an MPI job for `solve --method pns` (core/solver/pns_unit.h):
// the units' positions and settings as JSON, then, after a zero byte, the proven bounds every unit
// starts from; and finished units as bytes (value, nodes, table hits, seconds and every proven
// bound of the unit's searcher). Encoding then decoding gives back the same job and results.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/solver/pns_unit.h"
#include "selfplay/mpi/identity.h"

namespace fanorona {

// What a pns job reads on each rank: its tables (their folder and fingerprint, "-" for none).
Fingerprints pns_fingerprints(const PnsUnitJob& job);

// The job (its tables as their folder, with rank 0's fingerprints, "fingerprints":
// selfplay/mpi/identity.h) with rank 0's job number.
std::string encode_pns_job(const PnsUnitJob& job, std::uint64_t number);
// Decodes a job; its settings' initial bounds are `initial` (which must outlive the job); the
// tables are not opened (settings.tables stays null). Throws std::runtime_error when damaged.
PnsUnitJob decode_pns_job(const std::string& bytes, std::uint64_t& number,
                          std::vector<ProvenBound>& initial);

// A finished unit: [unit u64][lo i8][hi i8][nodes u64][table hits u64][seconds f64]
// [bounds u64][bounds x (key u64, lo i8, hi i8)], repeated.
void append_pns_result(std::string& out, std::uint64_t unit, const PnsUnitResult& r);
std::vector<std::pair<std::uint64_t, PnsUnitResult>> decode_pns_results(const std::string& bytes);

} // namespace fanorona
