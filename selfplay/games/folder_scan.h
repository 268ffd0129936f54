#pragma once
// Read-only scans of a run folder's appended files (games.tsv, positions.bin, the live stream):
// where each whole record ends, and whether the file's header belongs to this run. Nothing is
// changed; RunFolder decides from the scans what to keep.

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "selfplay/formats/corpus_file.h"
#include "selfplay/formats/games_file.h"
#include "selfplay/formats/position_log.h"

namespace fanorona {

// A run folder that cannot be used as asked: in use, inconsistent, or not this run's. what() is
// one line naming the file (and line) and the problem.
struct RunFolderError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The games file: its header and its whole lines. Invariant: ends[k] is the offset just after
// game k's line, index[k] its index and line[k] its line number; bytes after the last end (or
// after header_end when there are no games) are a torn tail.
struct GamesScan {
    bool exists = false;
    bool has_header = false;      // false: empty, or a torn header (a prefix of the expected one)
    std::uint64_t header_end = 0; // offset after the header lines
    std::uint64_t size = 0;
    std::vector<std::uint64_t> ends, index;
    std::vector<int> line;
    // The file's columns: false for a file of this run begun by an older build (version 1 or 2,
    // without the per-move columns), which goes on in its own layout.
    bool move_stats = true;
    bool micro_times = true; // false: version 3 (the times in milliseconds), goes on so
};
// Throws RunFolderError (FILE:LINE: field: problem) for a header of another format, version,
// board or rules than `expected` (a header of version 1 or 2 of the same board, rules and series
// is `expected` without move_stats: accepted), and for a malformed whole line.
GamesScan scan_games(const std::string& path, const GamesHeader& expected);

// The positions log: its intact chunks. Invariant: ends[k] is the offset after chunk k, and
// first_game[k] the game index of its first record (none for an empty chunk).
struct PositionsScan {
    bool exists = false;
    bool has_header = false; // false: empty, or a torn header
    std::uint64_t size = 0;
    std::vector<std::uint64_t> ends;
    std::vector<std::optional<std::uint32_t>> first_game;
    std::string tail_problem; // why bytes after the last chunk are not a chunk
};
// Throws RunFolderError for a file that is not a positions log of this version, board and rules.
PositionsScan scan_positions(const std::string& path, const PositionLogHeader& expected);

// The corpus (scan_corpus: its intact blocks). Throws RunFolderError for a file that is not a
// corpus of this version, board and rules.
CorpusScan scan_run_corpus(const std::string& path, const Rules& expected);

// The live stream: one JSON object per finished game pair. Invariant: ends[k] is the offset after
// line k, and lines 0..valid-1 are the objects of pairs 0..valid-1 (`pair` k, `games` 2k+2).
struct LiveScan {
    bool exists = false;
    std::uint64_t size = 0;
    std::vector<std::uint64_t> ends; // every whole line
    std::size_t valid = 0;           // leading lines that are the right pair's object
    std::string problem;             // why line `valid` (1-based: valid+1) is not, if it exists
};
LiveScan scan_live(const std::string& path);

} // namespace fanorona
