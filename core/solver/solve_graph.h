#pragma once
// Exact values of a small game graph: every position reachable from a root (through captures
// too) enumerated, then solved by retrograde analysis (endless play a draw). The solver uses it
// first: when the graph fits, it settles draws in cycles that a depth-first search with
// repetition draws could only prove path by path.

#include <cstdint>
#include <functional>
#include <optional>
#include <unordered_map>
#include <vector>

#include "core/endgame.h"

namespace fanorona {

// Every reachable position's value and level. Invariants: value[i] is -1, 0 or +1 for the side
// to move at node i; level[i] is the number of turns to the end of the game (or into the
// tables) on a line where the winner hurries and the loser delays (0 for draws and leaves).
struct GameGraph {
    std::unordered_map<Key, int> index; // position hash -> node
    std::vector<std::int8_t> value;
    std::vector<int> level;

    // The node of a position, or -1.
    int find(Key k) const {
        const auto it = index.find(k);
        return it == index.end() ? -1 : it->second;
    }
};

// Enumerates and solves the graph of `root` under `rules` (the standard rules, no limits), with
// positions `tables` holds (at most `table_pieces` pieces) as leaves; nullopt when more than
// `max_positions` positions are reachable, or when `stop` (called every kGraphStopInterval
// positions expanded, and between the phases) returns true: the caller's budget is spent.
// `nodes` counts the positions expanded.
inline constexpr std::uint64_t kGraphStopInterval = 256;
// An upper estimate of the memory a graph takes per position while it is enumerated and solved
// (the position, its index entry, its successors and predecessors, the retrograde arrays).
inline constexpr std::uint64_t kGraphBytesPerPosition = 256;
std::optional<GameGraph> solve_graph(const Position& root, const Rules& rules,
                                     const EndgameProbe* tables, int table_pieces,
                                     std::size_t max_positions, std::uint64_t& nodes,
                                     const std::function<bool()>& stop = {});

} // namespace fanorona
