#pragma once
// The games file: one finished game per tab-separated line (see docs/formats.md).

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/board/game.h"

namespace fanorona {

// What a game of a games file is: a game under the file's rules, the Vela game of a series (played
// under Vela rules, its White the beneficiary), or the place of a Vela game that was not played
// because the series' normal game was drawn (no moves, result 1/2-1/2, reason `series-over`).
enum class GameKind { Normal, Vela, Skipped };
std::string_view game_kind_name(GameKind k); // "normal", "vela", "skipped"

// One finished game as stored in a games file. `moves` are in notation; `scores` has one entry
// per move (std::nullopt where the mover gave no score) or is empty.
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

// A games file's header values. A file of Vela series (series == true) is format version 2, with
// the columns kind and beneficiary; every other file is version 1 (10 columns), as before.
struct GamesHeader {
    Variant variant = Variant::Tsivy;
    RuleSet ruleset = RuleSet::Standard; // the rules of the normal games
    bool series = false;                 // games come in Vela series (`series=vela`)
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
// One line, ending in '\n'; with `series` the two columns of version 2 are added.
std::string format_game_record(const GameRecord& record, bool series = false);

// Parses one data line (without its '\n'): 10 columns (version 1) or 12 (version 2); `where` is
// "FILE:LINE" for error messages.
GameRecord parse_game_record(const std::string& line, const std::string& where);

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

} // namespace fanorona
