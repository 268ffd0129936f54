#pragma once
// The seam (core/common/seam.h) through which `solve --method pns` has other machines solve some
// of its units (the first moves' positions, core/solver/pns_unit.h): the program installs a solver
// at start-up (tools/main.cpp, with selfplay/mpi/cluster.h's functions); without one, as in the
// tests and in every process that is not rank 0 of an MPI job, every unit is solved here. Nothing
// in tools/solve knows MPI.

#include <functional>

#include "core/common/seam.h"
#include "core/solver/pns_unit.h"

namespace fanorona::cli {

// Solves claimed units elsewhere; both functions are set or both empty.
struct RemotePnsSolver {
    std::function<bool()> available; // true when there are other machines to solve on
    // Has them solve the units the source hands out, hands every result to its `deliver` (from
    // the calling thread), stops their running units once it says `stopped`, and returns when
    // every machine is done; throws a machine's error then.
    std::function<void(const PnsUnitJob&, const PnsUnitSource&)> solve;
};

// The installed solver (Seam<RemotePnsSolver>::install); empty until then.
inline const RemotePnsSolver& remote_pns_solver() {
    return Seam<RemotePnsSolver>::get();
}

} // namespace fanorona::cli
