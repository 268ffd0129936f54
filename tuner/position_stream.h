#pragma once
// The network trainer's data as a stream: the positions of its inputs (positions logs, corpus
// files, folders of corpus files) game after game, read one game at a time in a fixed order (so
// the memory a pass takes does not grow with the data), and the validation split by game, decided
// game by game from a hash.

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "tuner/dataset.h"

namespace fanorona {

// One game of a stream: the file it comes from (an index into PositionStream::files()), its index
// in its run (a positions log's game_index, a corpus game's index), and its records that passed
// the filter, in order (never none).
struct StreamGame {
    std::uint32_t file = 0;
    std::uint64_t index = 0;
    std::span<const PositionRecord> records;
};

// What one pass over a stream read: the filter's counts, the positions and games it yielded, the
// corpus positions without a search score (opening and exploration turns: not read, not used),
// and the warnings (a torn tail that was dropped).
struct StreamPass : FilterCounts {
    std::uint64_t positions = 0, games = 0;
    std::uint64_t unscored = 0;
    std::vector<std::string> warnings;
};

// The positions of some inputs through a DataFilter, cut after `max_positions` (0: all; the last
// game may be cut). A stream read again and again (the trainer's epochs) may hold its pass in
// memory (hold()): its passes then replay the first one's games instead of decoding the files. An
// input is a positions log, a corpus file (docs/formats.md "Corpus file": each position with a
// search score becomes a record, without depth), or a folder: every corpus file (*.fcorpus) in it,
// sorted by name. A pass yields the files in that order, each file's games in order: every pass the
// same games with the same records, for each file is read up to its size when the stream was made
// (a file that grows, a running self-play's, adds nothing after that). Invariant: every file holds
// positions of one board and rules (rules()).
class PositionStream {
public:
    // Reads every file's header now. Throws TuneDataError (or PositionLogError, CorpusError)
    // naming the file for no input, an unreadable file, a bad header, a file given twice, a
    // folder without corpus files, files of different boards or rules, and tables that hold none
    // of the board.
    PositionStream(const std::vector<std::string>& inputs, const DataFilter& filter,
                   std::uint64_t max_positions = 0);

    const Rules& rules() const { return rules_; }
    // The files read, in order: the inputs, each folder replaced by its corpus files.
    const std::vector<std::string>& files() const { return files_; }
    // Each file's identity: a hash of its first record as stored (before the filter; the depth
    // and the rules' spelling left out), 0 for a file without one. The same data has the same
    // identity wherever it lies, and a positions log the same as its corpus conversion.
    const std::vector<std::uint64_t>& identities() const { return identities_; }

    // One pass: on_game for every game with a usable position. Throws PositionLogError or
    // CorpusError for a file that changed into one that is not of its kind since the constructor.
    StreamPass for_each_game(const std::function<void(const StreamGame&)>& on_game) const;

    // Reads one pass and keeps it in memory when its records take at most `max_bytes`: every
    // later pass then gives the same games, records and counts without reading the files. Returns
    // whether it is held (else nothing is kept and passes go on reading the files).
    bool hold(std::uint64_t max_bytes);
    // The bytes the held pass takes (0 when none is held).
    std::uint64_t held_bytes() const;

private:
    // Calls on_game(index, records) for each game of file f as stored (a corpus game: its scored
    // positions, counted in `unscored` otherwise; consecutive corpus games of one index, the
    // chains of a logged game, as one) up to the file's size when the stream was made,
    // until on_game returns false. Returns the problem of a torn tail read ("": none) and adds
    // the intact games read to `games`.
    std::string
    read_file(std::size_t f, std::uint64_t& unscored, std::uint64_t& games,
              const std::function<bool(std::uint64_t, const std::vector<PositionRecord>&)>& on_game)
        const;

    std::vector<std::string> files_;
    std::vector<bool> corpus_; // per file: a corpus file (else a positions log)
    std::vector<PositionLogHeader> headers_;
    std::vector<std::uint64_t> sizes_; // each file's size when the stream was made
    std::vector<std::uint64_t> identities_;
    DataFilter filter_;
    std::uint64_t max_positions_;
    Rules rules_;
    // The held pass (hold()): its counts, every game's records end to end, and each game's file,
    // index and first record there.
    struct HeldGame {
        std::uint32_t file = 0;
        std::uint64_t index = 0;
        std::size_t begin = 0, count = 0;
    };
    std::optional<StreamPass> held_pass_;
    std::vector<PositionRecord> held_records_;
    std::vector<HeldGame> held_games_;
};

// The validation split by game: game g of file f is held out when hash(identity of f, g, seed)
// falls below a threshold, so the split needs no pass over the data and a game's side depends on
// its file's content (PositionStream::identities()), its index and the seed only: not on the
// other inputs, their order or where the file lies. After a pass has seen every game (see
// settle()), at least one game is on each side when the fraction is above 0.
class GameSplit {
public:
    // `files`: each file's identity. Throws TuneDataError when fraction is outside [0, 1).
    GameSplit(std::vector<std::uint64_t> files, double fraction, std::uint64_t seed);

    std::uint64_t hash(std::uint32_t file, std::uint64_t game) const;
    bool validation(std::uint32_t file, std::uint64_t game) const {
        return hash(file, game) < threshold_;
    }
    // Counts one game of the pass that settle() follows (its hash and positions).
    void see(std::uint32_t file, std::uint64_t game, std::uint64_t positions);
    // After a pass that called see() for every game: the counts of each side, with the threshold
    // moved when the fraction is above 0 and a side got no game (the game of the lowest hash is
    // then held out, or the game of the highest kept for training). Throws TuneDataError when
    // the fraction is above 0 and there are fewer than 2 games.
    void settle();

    std::uint64_t train_games = 0, validation_games = 0;
    std::uint64_t train_positions = 0, validation_positions = 0;

private:
    double fraction_;
    std::uint64_t seed_;
    std::uint64_t threshold_ = 0;
    std::vector<std::uint64_t> files_; // per file: its identity
    // The games of the lowest and highest hash, with their positions.
    std::uint64_t low_ = ~std::uint64_t(0), high_ = 0, low_positions_ = 0, high_positions_ = 0;
};

} // namespace fanorona
