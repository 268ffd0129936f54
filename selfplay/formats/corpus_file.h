#pragma once
// The corpus file: finished games chained turn by turn (the start, then each turn as its index
// among the position's legal turns, the mover's search score, the result) in checksummed zstd
// blocks, about 1.5 bytes a position; written a block at a time and read as a stream with bounded
// memory (docs/formats.md "Corpus file"). The one reader and writer of the format.

#include <cstdint>
#include <fstream>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/board/game.h"

namespace fanorona {

inline constexpr std::uint16_t kCorpusVersion = 1;
inline constexpr int kCorpusHeaderBytes = 16;      // the file header
inline constexpr int kCorpusBlockHeaderBytes = 32; // each block's header
// The uncompressed size a writer fills a block to (a game never spans blocks, so a block may end
// a little past it), and the largest block (either size) a reader accepts.
inline constexpr std::size_t kCorpusBlockBytes = std::size_t(1) << 20;
inline constexpr std::size_t kCorpusMaxBlockBytes = std::size_t(64) << 20;

// One game of a corpus: its start, every turn played with the mover's search score, its end.
// Invariant (the writer checks it, the reader guarantees it): `start` is a position of the
// corpus's board; each move is a legal turn, in order, under the game's rules (the corpus's with
// `ruleset`); `scores` has one entry per move; `result` is not Ongoing.
struct CorpusGame {
    std::uint64_t index = 0; // the game's index in its run (several chains of one
                             // logged game converted from a positions log share it)
    RuleSet ruleset =
        RuleSet::Standard; // the rules it was played under (a series' Vela game: vela)
    Position start = Position::start(Variant::Tsivy);
    std::vector<Move> moves;
    std::vector<std::optional<int>> scores; // per turn: the mover's score (none: it did not search)
    // The score of the position after the last turn, for its side to move, when that position
    // was searched but its turn is not known (a positions log's chain cut short); else none.
    std::optional<int> end_score;
    GameResult result = GameResult::Draw; // White's view
    std::string reason;                   // as in games files ("capture-all", ...); "": unknown
    int opening_turns = 0;                // the first turns, given by the opening

    // The positions the game holds: one per turn, and the end position when it has a score.
    std::size_t positions() const { return moves.size() + (end_score ? 1 : 0); }
    friend bool operator==(const CorpusGame&, const CorpusGame&) = default;
};

// One position of a corpus: a position of a game in which a turn was played (or the scored end
// of a chain), with what the corpus knows about it.
struct CorpusPosition {
    Position position;        // before the turn: pieces, side to move, turn, turns since capture
    std::optional<Move> move; // the turn played there (none only for a game's end_score)
    std::optional<int> score; // the search score for the side to move, when it searched
    GameResult result = GameResult::Draw; // the game's, White's view
    RuleSet ruleset = RuleSet::Standard;  // the game's rules
    std::uint64_t game = 0;               // the game's index
    int ply = 0;                          // turns since the game's start (0: its start position)
};

// Calls on_position(const CorpusPosition&) for each position of `game`, in order.
template <class OnPosition>
void for_each_position(const CorpusGame& game, OnPosition&& on_position);

// A corpus that cannot be read or written; what() is one line naming the file and where.
struct CorpusError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The rules of the corpus's games, as its header holds them: the board, the rules of its normal
// games (a game may say vela) and the draw limits.
std::string encode_corpus_header(const Rules& rules);

// Receives a writer's bytes in order: the file header, then whole blocks.
using CorpusSink = std::function<void(const std::string& bytes)>;

// Writes a corpus: add() checks and encodes a game into the current block, which goes to the sink
// once it holds block_bytes (uncompressed) or on flush(). Invariant: every game added before the
// last flush() (or in a block already handed over) has reached the sink; games are written in
// the order they were added.
class CorpusWriter {
public:
    // Hands the file header to `sink` now, unless `header_written` (appending to a corpus whose
    // header is there). Throws std::invalid_argument for rules the header cannot hold.
    CorpusWriter(const Rules& rules, CorpusSink sink, bool header_written = false,
                 std::size_t block_bytes = kCorpusBlockBytes);

    // Encodes `game` into the current block (writing the block when full). Throws
    // std::invalid_argument naming the game's index and the turn for a game that breaks
    // CorpusGame's invariant; nothing of it is added then.
    void add(const CorpusGame& game);
    // Writes the current block, if it holds a game.
    void flush();

    const Rules& rules() const { return rules_; }
    std::uint64_t games() const { return games_; }               // added
    std::uint64_t positions() const { return positions_; }       // added
    std::uint64_t pending_games() const { return block_games_; } // not handed over yet
    std::uint64_t bytes_written() const { return bytes_; }       // handed to the sink
    std::uint64_t blocks_written() const { return blocks_; }

private:
    Rules rules_;
    CorpusSink sink_;
    std::size_t block_bytes_;
    std::string games_part_, turns_part_, scores_part_; // the current block's sections
    std::uint64_t block_first_ = 0, last_index_ = 0, block_games_ = 0, block_positions_ = 0;
    std::uint64_t games_ = 0, positions_ = 0, bytes_ = 0, blocks_ = 0;
};

// Reads a corpus game by game, one block in memory at a time. A torn or corrupted tail (a block
// cut short, a bad marker, a wrong checksum) ends the intact part: next() returns false and
// tail_problem() says why and where. A bad file header, or an intact block whose content no
// writer of ours made, is a CorpusError naming the file and the byte offset.
class CorpusReader {
public:
    explicit CorpusReader(const std::string& path); // reads and checks the header
    const Rules& rules() const { return rules_; }

    // The next game; false after the last game of the intact part.
    bool next(CorpusGame& game);

    const std::string& path() const { return path_; }
    const std::string& tail_problem() const { return tail_problem_; } // "": none (yet)
    std::uint64_t valid_bytes() const { return valid_bytes_; }        // the intact part read so far
    std::uint64_t blocks() const { return blocks_; }                  // intact blocks read so far
    std::uint64_t games() const { return games_; }                    // games returned so far

private:
    bool load_block();
    // The steps of next(). The game's header: index, result, rule set, reason, turns and
    // opening turns onto `g`; its flags, turns (`count`) and positions (the end score's included).
    std::uint8_t read_game_head(CorpusGame& g, std::uint64_t& count, std::uint64_t& positions);
    // The game's start: given in the header (kExplicitStart), else the board's.
    void read_start(CorpusGame& g, std::uint8_t flags);
    // The game's `count` turns and their scores, and the end score when flagged.
    void read_turns(CorpusGame& g, std::uint64_t count, std::uint8_t flags);
    [[noreturn]] void corrupt(const std::string& what) const;
    [[noreturn]] void corrupt_game(const std::string& what) const; // names the game too

    std::string path_;
    std::ifstream in_;
    Rules rules_;
    std::string raw_;                                         // the current block, uncompressed
    std::size_t games_at_ = 0, turns_at_ = 0, scores_at_ = 0; // section cursors in raw_
    std::size_t games_end_ = 0, turns_end_ = 0;
    std::uint64_t block_offset_ = 0, block_games_left_ = 0, block_positions_ = 0;
    std::uint64_t block_positions_seen_ = 0, next_index_ = 0;
    std::uint64_t valid_bytes_ = 0, blocks_ = 0, games_ = 0;
    std::string tail_problem_;
    bool done_ = false;
};

// Reads a corpus position by position (CorpusReader underneath): each position is rebuilt by
// replaying the game's turns.
class CorpusPositionReader {
public:
    explicit CorpusPositionReader(const std::string& path) : games_(path) {}
    // The next position; false after the last one of the intact part.
    bool next(CorpusPosition& position);
    CorpusReader& games() { return games_; }

private:
    CorpusReader games_;
    CorpusGame game_;
    Position pos_;
    std::size_t ply_ = 0;
    bool have_game_ = false;
};

// `inputs` with each folder replaced by its corpus files: every regular file named *.fcorpus in it
// (not in its subfolders), in natural order (natural_less: s9 before s10), as paths under the
// folder. Other inputs stay as given.
// Throws CorpusError naming a folder that cannot be listed or holds none.
std::vector<std::string> corpus_input_files(const std::vector<std::string>& inputs);

// A corpus's intact blocks, from their headers and checksums (nothing decompressed): what a run
// folder's resume needs. Invariant: blocks[k] ends at ends[k]; bytes after valid_bytes are a torn
// or corrupted tail (tail_problem says which).
struct CorpusScan {
    bool exists = false;
    bool has_header = false; // false: empty, or a torn header (shorter than kCorpusHeaderBytes)
    Rules rules;
    std::uint64_t size = 0, valid_bytes = 0;
    std::vector<std::uint64_t> ends, first_game, games, positions; // per intact block
    std::string tail_problem;
};
// Throws CorpusError for a header that is not a corpus's (a torn header only when it is not a
// prefix of `expected`'s, when given).
CorpusScan scan_corpus(const std::string& path, const std::optional<Rules>& expected = {});

template <class OnPosition>
void for_each_position(const CorpusGame& game, OnPosition&& on_position) {
    CorpusPosition p;
    p.position = game.start;
    p.result = game.result;
    p.ruleset = game.ruleset;
    p.game = game.index;
    for (std::size_t i = 0; i < game.moves.size(); ++i) {
        p.move = game.moves[i];
        p.score = game.scores[i];
        p.ply = int(i);
        on_position(static_cast<const CorpusPosition&>(p));
        p.position.make_move(game.moves[i]);
    }
    if (game.end_score) {
        p.move.reset();
        p.score = game.end_score;
        p.ply = int(game.moves.size());
        on_position(static_cast<const CorpusPosition&>(p));
    }
}

} // namespace fanorona
