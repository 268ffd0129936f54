#pragma once
// The games file: one finished game per tab-separated line (see docs/formats.md).

#include <iosfwd>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/game.h"

namespace fanorona {

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

    friend bool operator==(const GameRecord&, const GameRecord&) = default;
};

// A games file's header values.
struct GamesHeader {
    Variant variant = Variant::Tsivy;
    RuleSet ruleset = RuleSet::Standard;
};

// Thrown for a malformed games file; what() is "FILE:LINE: field: problem".
struct GamesFileError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

std::string games_header_lines(const GamesHeader& header);
std::string format_game_record(const GameRecord& record); // one line, ending in '\n'

// Parses one data line (without its '\n'); `where` is "FILE:LINE" for error messages.
GameRecord parse_game_record(const std::string& line, const std::string& where);

// Reads a whole games file; a last line without '\n' (a torn write) is dropped.
struct GamesFile {
    GamesHeader header;
    std::vector<GameRecord> games;
};
GamesFile read_games_file(const std::string& path);

// Replays a record's moves from its start position, checking every move is legal; throws
// GamesFileError naming `where` and the move on failure.
Game replay_game(const GameRecord& record, const Rules& rules, const std::string& where);

} // namespace fanorona
