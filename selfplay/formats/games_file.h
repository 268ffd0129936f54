#pragma once
// The games file: one finished game per tab-separated line (see docs/formats.md).

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/board/game.h"

namespace fanorona {

// What a game of a games file is: a game under the file's rules, the Vela game of a series (played
// under Vela rules, its White the beneficiary), or the place of a Vela game that was not played
// because the series' normal game was drawn (no moves, result 1/2-1/2, reason `series-over`).
enum class GameKind { Normal, Vela, Skipped };
std::string_view game_kind_name(GameKind k); // "normal", "vela", "skipped"

// The ranges of the numbers a games file holds per move: its reader refuses a number outside them,
// its writer clamps to them, and what enters from outside (an engine's `info` line, read by
// selfplay/engine/protocol_client.h) is clamped to them where it enters. Scores are bounded far
// inside int so that negating or subtracting two of them never overflows.
struct MoveNumberRanges {
    static constexpr std::int64_t kMaxTimeUs = 999999999999999; // version 4: microseconds
    static constexpr std::int64_t kMaxTimeMs = 999999999999;    // version 3: milliseconds
    static constexpr std::int64_t kMaxDepth = 1000000000;
    static constexpr std::int64_t kMaxNodes = 999999999999999999;
    static constexpr std::int64_t kMaxClockMs = 999999999999;      // version 4: clocks
    static constexpr std::int64_t kMaxLatencyUs = 999999999999999; // version 4: latencies
    static constexpr int kMaxScore = 1000000000;                   // |score| in centi-pieces
};

// What a player told of one move: the microseconds it took (the referee's measure for an external
// engine: `go` written to `bestmove` read; the search's own time for the built-in engine), the
// depth it searched and the nodes; -1 where nothing was told (an opening move, a random
// exploration move, a baseline mover, an engine without `info depth` or `info nodes`).
struct MoveStats {
    std::int64_t time_us = -1; // a version-3 file's milliseconds read as 1000 times as many
    int depth = -1;
    std::int64_t nodes = -1;
    // Version 4 also: the milliseconds left on a clocked mover's clock after the move (its
    // increment and any new period added); and for an external engine the referee's time minus
    // the engine's own last `info time`, in microseconds (0 where the engine told more).
    std::int64_t clock_ms = -1;
    std::int64_t latency_us = -1;
    bool known() const {
        return time_us >= 0 || depth >= 0 || nodes >= 0 || clock_ms >= 0 || latency_us >= 0;
    }
    friend bool operator==(const MoveStats&, const MoveStats&) = default;
};

// One finished game as stored in a games file. `moves` are in notation; `scores` has one entry
// per move (std::nullopt where the mover gave no score) or is empty; `stats` likewise has one
// entry per move, at least one of them known(), or is empty (a file of version 1 or 2, or a game
// in which no move told anything).
struct GameRecord {
    std::uint64_t index = 0;
    std::string white;
    std::string black;
    GameResult result = GameResult::Draw;
    std::string reason; // end_reason_name() or a tournament forfeit reason
    int opening_turns = 0;
    std::string start;              // position string
    std::vector<std::string> moves; // in notation
    std::vector<std::optional<int>> scores;
    std::vector<MoveStats> stats;
    GameKind kind = GameKind::Normal; // Normal in a version-1 file
    std::string beneficiary;          // a Vela game's beneficiary (always its White); else ""

    bool played() const { return kind != GameKind::Skipped; }
    // The rules this game was played under, given the file's.
    Rules rules(const Rules& file_rules) const {
        Rules r = file_rules;
        if (kind == GameKind::Vela) r.ruleset = RuleSet::Vela;
        return r;
    }
    friend bool operator==(const GameRecord&, const GameRecord&) = default;
};

// A games file's header values and its columns: the 10 of version 1; with `series` the columns
// kind and beneficiary after them; with `move_stats` the columns times, depths and nodes last
// (and in version 4 clocks and latencies after them). Files are written as version 4
// (move_stats, the times in microseconds; `series=vela` in the header says series); a file of
// version 3 (times, depths, nodes, the times in milliseconds) reads with micro_times false, one of
// version 1 (10 columns) or 2 (series, 12 columns) with move_stats false.
struct GamesHeader {
    Variant variant = Variant::Tsivy;
    RuleSet ruleset = RuleSet::Standard; // the rules of the normal games
    bool series = false;                 // games come in Vela series (`series=vela`)
    bool move_stats = true;              // version 3: the per-move columns times, depths, nodes
    bool micro_times = true;             // version 4: the times in microseconds (3: milliseconds)
    std::size_t columns() const {
        return 10 + (series ? 2 : 0) + (move_stats ? (micro_times ? 5 : 3) : 0);
    }
    std::string_view version() const; // "1", "2", "3" or "4"
    Rules rules() const {
        Rules r;
        r.variant = variant;
        r.ruleset = ruleset;
        return r;
    }
};

// Thrown for a malformed games file; what() is "FILE:LINE: field: problem".
struct GamesFileError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

std::string games_header_lines(const GamesHeader& header);
// One line, ending in '\n', with the columns GamesHeader says for `series` and `move_stats`, the
// times in microseconds (`micro_times` false: in whole milliseconds, as version 3).
std::string format_game_record(const GameRecord& record, bool series = false,
                               bool move_stats = true, bool micro_times = true);

// Parses one data line (without its '\n'): 10 columns (version 1), 12 (version 2), 15 or 17
// (version 4, without and with series) or, with `micro_times` false, 13 or 15 (version 3); `where`
// is "FILE:LINE" for error messages. The times are microseconds (version 4) or, with
// `micro_times` false, milliseconds (version 3), read as microseconds.
GameRecord parse_game_record(const std::string& line, const std::string& where,
                             bool micro_times = true);

// Reads a whole games file; a last line without '\n' (a torn write) is dropped.
struct GamesFile {
    GamesHeader header;
    std::vector<GameRecord> games;
};
GamesFile read_games_file(const std::string& path);

// Replays a record's moves (the first `max_moves` of them) from its start position, checking
// every move is legal (core/board/replay.h); throws GamesFileError "WHERE: start: why" or
// "WHERE: moves: move N 'X': why" on failure.
Game replay_game(const GameRecord& record, const Rules& rules, const std::string& where,
                 std::size_t max_moves = SIZE_MAX);

// The name part of a player's description in a games file: "A(depth=4)" -> "A".
std::string player_name_of(const std::string& description);

} // namespace fanorona
