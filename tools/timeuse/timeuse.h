#pragma once
// The time an engine takes per move, measured from outside as a referee would: `fanorona
// timeuse` starts the engine program, sends `position fen ...` and `isready`, and times from the
// moment `go movetime T` is written until its `bestmove` line is read. Or, given games files,
// the time, depth and nodes per move their players used (their per-move columns).

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/board/movegen.h"
#include "selfplay/formats/time_use.h"

namespace fanorona {

// What to measure. measure_time_use() refuses an empty argv, a movetime or repeat below 1, and a
// given position that is not a position string of the rules' variant with more than one legal
// move. The engine is told the variant and rule set (the Variant and Rules options) when they
// are not tsivy and standard, and has TimeMargins::kMeasureGraceMs (core/timeman.h) past each
// movetime to answer.
struct TimeUseConfig {
    std::vector<std::string> argv;                            // the engine program and arguments
    std::vector<std::pair<std::string, std::string>> options; // sent with setoption at start
    Rules rules;                                              // the board and rule set
    std::vector<int> movetimes_ms = {20, 50, 200, 1000};
    // Empty: the variant's positions of `fanorona bench` that offer a choice (its start
    // position when the bench has none).
    std::vector<std::string> positions;
    int repeat = 2; // times each position is searched per movetime
};

// The moves timed at one movetime. Times in milliseconds, from `go` written to `bestmove` read.
struct TimeUseRow {
    int movetime_ms = 0;
    int moves = 0;
    double mean_ms = 0, min_ms = 0, max_ms = 0;
    double mean_ratio = 0; // mean_ms / movetime_ms
    int over = 0;          // moves that took longer than movetime_ms
    double mean_depth = 0; // the engine's last `info depth` per move, averaged
};

// Measures every movetime in order (one warm-up move first, not counted); `on_row` sees each
// row as it is done. Talks to the engine through the protocol client
// (selfplay/engine/protocol_client.h). Throws std::runtime_error naming the step when the engine
// cannot be started, stops answering, exits or sends an illegal move.
std::vector<TimeUseRow> measure_time_use(const TimeUseConfig& config,
                                         const std::function<void(const TimeUseRow&)>& on_row = {});

// The rows and the configuration (with the variant and rule set) as JSON ("format":
// "fanorona-timeuse 1").
nlohmann::json time_use_json(const TimeUseConfig& config, const std::vector<TimeUseRow>& rows);

// The players of games files (each a games file or a run folder holding games.tsv), their moves
// summed up by player name over all the files (selfplay/formats/time_use.h). Throws
// std::runtime_error naming the file that cannot be read.
std::vector<PlayerTimeUse> games_time_use(const std::vector<std::string>& paths);

// The players as a table for people: player, moves, timed moves, mean/max ms, mean depth, mean
// nodes, nodes per second ('-' for what no move told).
std::string games_time_use_table(const std::vector<PlayerTimeUse>& players);

// The same as JSON ("format": "fanorona-timeuse-games 1"), with the files read.
nlohmann::json games_time_use_json(const std::vector<std::string>& paths,
                                   const std::vector<PlayerTimeUse>& players);

} // namespace fanorona
