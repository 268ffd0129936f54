#pragma once
// Proof files (`fanorona solve --method pns --proof FILE`): the proven, path-independent bounds
// on positions' values (standard rules, endless play a draw) a proof-number solve found, so that
// a later run (after a stop, a kill or to go further) starts from them. docs/formats.md "Proof
// files" describes the layout.

#include <string>
#include <vector>

#include "core/solver/pns.h" // ProvenBound

namespace fanorona {

// A proof file's content: the board its positions are on, and its bounds (sorted by key, each
// key once).
struct ProofFile {
    Variant variant = Variant::Tsivy;
    std::vector<ProvenBound> bounds;
};

// Reads a proof file; throws FileError naming the file and what is wrong (magic, version,
// size, a bound out of range, keys out of order, the checksum).
ProofFile read_proof_file(const std::string& path);
// Writes `f` atomically (its bounds sorted by key first).
void write_proof_file(const std::string& path, ProofFile f);

} // namespace fanorona
