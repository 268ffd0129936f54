#pragma once
// A unit of work of a proof-number solve of a root (`solve --method pns`, tools/solve/pns_root.h):
// one position (a first move's) solved by a df-pn (or PN2) searcher of its own, started from the
// proven bounds the solve began with (a proof file's). Its value and node count depend on nothing
// else, so a unit gives the same result on any thread, in any process, on any machine (cluster/
// solves units on the other ranks of an MPI job).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/solver/pn2.h"
#include "core/solver/pns.h"

namespace fanorona {

// What every unit of a solve is searched with. `initial` may be null (no bounds to start from).
struct PnsUnitSettings {
    std::size_t hash_mb = 64;
    bool pn2 = false;     // PN2 searchers (core/solver/pn2.h), else df-pn
    long long graph = -1; // the searchers' graph limit (set_graph_limit; -1: their default)
    std::shared_ptr<const EndgameProbe> tables;
    const std::vector<ProvenBound>* initial = nullptr;
};

// A unit's value for the side to move at its position (exact unless its budget ran out), what
// its searcher did, and every proven bound the searcher's table held at the end (the position's
// own bounds last, when they say something).
struct PnsUnitResult {
    ValueBounds value;
    std::uint64_t nodes = 0;
    std::uint64_t table_hits = 0;
    double seconds = 0;
    std::vector<ProvenBound> proven;
    bool memory_full = false;  // PN2: the first-level tree filled its memory
    std::size_t peak_tree = 0; // PN2: the largest first-level tree (nodes)
};

// What a unit is asked: its exact value, or only whether the side to move there avoids losing
// ("value >= 0": enough once the root has a draw, the unit's move then mattering only if it
// wins; a yes is the bounds 0..1, a no the loss).
enum class PnsQuestion : std::uint8_t { Value, AvoidsLoss };

// Solves `pos` with a fresh searcher. `watch` (may be empty) is called at every poll of `limits`
// with the searcher (for shared budgets and snapshots) and stops it by returning true.
PnsUnitResult solve_pns_unit(const Position& pos, const PnsUnitSettings& settings,
                             PnsQuestion question, PnsLimits limits,
                             const std::function<bool(const ProofSearch&)>& watch = {});

// The units of a solve as another process needs them: their positions, the settings (the
// tables are not sent: `tables_dir`, "" for none, is opened there), and the searchers each
// process runs at once (0: all its cores).
struct PnsUnitJob {
    std::vector<Position> units;
    PnsUnitSettings settings;
    std::string tables_dir;
    int threads = 0;
};

// A unit handed out: which (an index into PnsUnitJob::units), its question, and its budget
// (what the solve has left when it is handed out).
struct PnsTask {
    std::size_t unit = 0;
    PnsQuestion question = PnsQuestion::Value;
    PnsLimits limits;
};

// The solve's side of the units, for whoever solves them (threads here, other machines):
// `claim` hands out the next unit (false when none is left or the solve stops), `deliver` takes
// a unit's result (from whichever thread or process solved it), and `stopped` says whether the
// units running should stop now (a first move won, a budget ran out).
struct PnsUnitSource {
    std::function<bool(PnsTask&)> claim;
    std::function<void(std::size_t unit, PnsUnitResult result)> deliver;
    std::function<bool()> stopped;
};

} // namespace fanorona
