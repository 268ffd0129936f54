#pragma once
// The positions log: a compact binary file of searched positions for the tuner (docs/formats.md).
// A 16-byte header, then one checksummed chunk per game, each holding fixed 24-byte records.

#include <array>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "core/board/game.h"

namespace fanorona {

inline constexpr std::uint16_t kPositionLogVersion = 1;
inline constexpr int kPositionRecordBytes = 24;
inline constexpr int kPositionLogHeaderBytes = 16;   // the file header
inline constexpr int kPositionChunkHeaderBytes = 12; // each chunk: magic, record count, CRC

// One logged position. Bitboards by colour; `score` is the search score for the side to move;
// `result` is the game's final result from White's view; `ruleset`, when set, the rules of the
// position's game (set in Vela series, where normal and Vela games share a log; unset: the log
// header's rules).
struct PositionRecord {
    Bitboard white = 0;
    Bitboard black = 0;
    std::uint32_t game_index = 0;
    std::uint16_t turn = 1;
    std::int16_t score = 0;
    std::uint8_t depth = 0;
    std::uint8_t turns_since_capture = 0;
    Color side_to_move = Color::White;
    GameResult result = GameResult::Draw;
    std::optional<RuleSet> ruleset;

    // The record of `pos` in game `game` with its search `score` and `depth`, each clamped to
    // its field (turn, score, depth, turns since capture); the result is for the caller to set.
    static PositionRecord of(const Position& pos, std::uint64_t game, int score = 0, int depth = 0);
    Position position(Variant v) const;
    RuleSet rules_or(RuleSet header) const { return ruleset ? *ruleset : header; }
    friend bool operator==(const PositionRecord&, const PositionRecord&) = default;
};

std::array<std::uint8_t, kPositionRecordBytes> encode_record(const PositionRecord& r);
PositionRecord decode_record(const std::uint8_t* bytes);

struct PositionLogHeader {
    Variant variant = Variant::Tsivy;
    RuleSet ruleset = RuleSet::Standard;
    friend bool operator==(const PositionLogHeader&, const PositionLogHeader&) = default;
};

// Thrown when a log cannot be read or written; what() names the file and the problem.
struct PositionLogError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

std::string encode_log_header(const PositionLogHeader& h);
// One chunk (one game's records) as bytes, checksum included.
std::string encode_chunk(const std::vector<PositionRecord>& records);

// The readable part of a log: every record of every intact chunk, in order.
struct PositionLog {
    PositionLogHeader header;
    std::vector<PositionRecord> records;
    std::uint64_t chunks = 0;      // intact chunks (one per game)
    std::uint64_t valid_bytes = 0; // file offset where the intact part ends
    std::string tail_problem;      // empty, or why the bytes after valid_bytes were dropped
};

// The header alone (the same checks as a full read).
PositionLogHeader read_position_log_header(const std::string& path);

// Reads a whole log; a torn or corrupted tail is dropped (and described in tail_problem), a bad
// header is a PositionLogError.
PositionLog read_position_log(const std::string& path);

// Calls on_chunk(records) for each intact chunk; returns the same summary without records.
template <class OnChunk> PositionLog scan_position_log(const std::string& path, OnChunk&& on_chunk);

namespace detail {
PositionLog scan_log(const std::string& path,
                     void (*callback)(void*, const std::vector<PositionRecord>&), void* context);
}

template <class OnChunk>
PositionLog scan_position_log(const std::string& path, OnChunk&& on_chunk) {
    return detail::scan_log(
        path,
        [](void* ctx, const std::vector<PositionRecord>& recs) {
            (*static_cast<std::remove_reference_t<OnChunk>*>(ctx))(recs);
        },
        &on_chunk);
}

} // namespace fanorona
