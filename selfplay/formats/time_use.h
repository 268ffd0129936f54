#pragma once
// The per-move columns of games files (times, depths, nodes) summed up by player: what
// `fanorona timeuse GAMES...` prints and the report's time-use chart and table show.

#include <cstdint>
#include <string>
#include <vector>

#include "selfplay/formats/games_file.h"

namespace fanorona {

// One player's moves over some games, by the name part of its description (player_name_of), so
// that the stages of an SPSA run count as one player. Counts are of the moves that told the
// value; `ms_by_turn[t]` is the mean time of its timed moves at turn t + 1 of their games (turns
// counted from each game's start, the opening's turns included), of `timed_by_turn[t]` moves
// (0 and 0 where it has none).
struct PlayerTimeUse {
    std::string name;
    std::uint64_t moves = 0; // moves played by the player (not the opening's)
    std::uint64_t timed = 0; // ... that have a time
    double total_ms = 0;     // from the moves' microseconds (version-3 files: whole milliseconds)
    double max_ms = 0;
    std::uint64_t with_depth = 0;
    double depth_sum = 0;
    std::uint64_t with_nodes = 0;
    double nodes_sum = 0;
    double timed_nodes = 0;        // the nodes of the moves that have both nodes and a time ...
    double nodes_time_ms = 0;      // ... and their time: nodes per second = timed_nodes / seconds
    std::uint64_t nodes_timed = 0; // those moves ...
    std::uint64_t nodes_zero = 0;  // ... and how many of them took 0 (under the clock's step)
    std::vector<double> ms_by_turn, timed_by_turn;
    std::uint64_t with_latency = 0; // moves with a latency (an external engine's `info time`)
    double latency_sum_ms = 0;
    std::int64_t min_clock_ms = -1; // the least clock left after a move; -1: never clocked

    double mean_latency_ms() const {
        return with_latency ? latency_sum_ms / double(with_latency) : -1;
    }

    double mean_ms() const { return timed ? total_ms / double(timed) : -1; }
    double mean_depth() const { return with_depth ? depth_sum / double(with_depth) : -1; }
    double mean_nodes() const { return with_nodes ? nodes_sum / double(with_nodes) : -1; }
    // Nodes per second, -1 (shown "-") when too few moves were timed: fewer than
    // kMinTimedMoves, or more than half of them timed 0 (a version-3 file's whole milliseconds,
    // in which most fast moves read 0 ms and the rate would be many times the real one).
    static constexpr std::uint64_t kMinTimedMoves = 10;
    double nodes_per_second() const {
        if (nodes_timed < kMinTimedMoves || 2 * nodes_zero > nodes_timed || nodes_time_ms <= 0)
            return -1;
        return timed_nodes / (nodes_time_ms / 1000);
    }
};

// The players of `games` (played games only; skipped Vela places have no moves) in the order
// they first appear, each move counted for its mover: the start position's side to move plays the
// first move, then the sides alternate. A game whose start is not a position of `variant` counts
// no move.
std::vector<PlayerTimeUse> time_use_by_player(const std::vector<GameRecord>& games,
                                              Variant variant);

} // namespace fanorona
