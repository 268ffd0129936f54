#pragma once
// The tuner's data: the positions of one or more positions logs, grouped by game, and the
// held-out validation split, chosen by game.

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/endgame.h"
#include "selfplay/formats/position_log.h"

namespace fanorona {

// Bad tuner input (unknown file, mismatched logs, no usable data); what() names the file.
struct TuneDataError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Which logged positions the tuner uses.
struct DataFilter {
    // Skip positions whose search score is decisive (a forced win or loss found by the search,
    // see is_decisive() in search.h): like mate scores in chess, they say nothing about the
    // evaluation and their score target would be saturated.
    bool skip_decisive = true;
    // Skip positions where the side to move can capture (captures are compulsory there, so the
    // position is not quiet: a static evaluation of it is a guess at a sequence of captures).
    bool skip_captures = false;
    // Keep only positions of games played under these rules (a Vela series log holds normal and
    // Vela games; each record says which, see PositionRecord::ruleset). Unset: every position.
    std::optional<RuleSet> only_rules;
    // Positions in these endgame tables (standard rules): kept as they are, skipped, or given
    // the tables' result (with the position's no-capture counter) instead of the game's.
    enum class TablePositions { Keep, Skip, Relabel };
    TablePositions table_positions = TablePositions::Keep;
    std::shared_ptr<const EndgameProbe> tables;
    std::string tables_dir; // for the record of the settings
};

// One game of a dataset: its records are records[first, first + count).
struct GameSpan {
    std::uint32_t file = 0;       // index into Dataset::files
    std::uint32_t game_index = 0; // the game's index in its log
    std::uint64_t first = 0;
    std::uint32_t count = 0;
};

// What reading records through a DataFilter counted.
struct FilterCounts {
    std::uint64_t read = 0;             // records read, before filtering
    std::uint64_t skipped_decisive = 0; // records dropped by DataFilter::skip_decisive
    std::uint64_t skipped_captures = 0; // records dropped by DataFilter::skip_captures
    std::uint64_t table_positions = 0;  // records found in the tables (skipped or relabelled)
    std::uint64_t relabelled = 0;       // ... whose result the tables changed
};

// A DataFilter applied to the records of one log (of the header's board and rules): the one place
// that decides which records the tuners use and relabels them from the tables.
class RecordFilter {
public:
    // Throws TuneDataError naming `path` when the filter would relabel or skip table positions
    // but its tables hold none of the log's board.
    RecordFilter(const DataFilter& filter, const PositionLogHeader& header,
                 const std::string& path);
    // Whether `r` is used; a used record may have been given the tables' result. Counts `r` (read,
    // and why it was dropped or relabelled) in `counts`.
    bool keep(PositionRecord& r, FilterCounts& counts) const;

private:
    const DataFilter& filter_;
    PositionLogHeader header_;
    bool use_tables_ = false;
};

// Throws TuneDataError naming files[f] when an earlier file has the same name.
void check_not_given_twice(const std::vector<std::string>& files, std::size_t f);
// Throws TuneDataError naming both files unless `path`'s header (board and rules) is `first`'s.
void check_same_rules(const std::string& path, const PositionLogHeader& header,
                      const std::string& first_path, const PositionLogHeader& first);

// The error when no position is left: the inputs and the counts of what was dropped.
TuneDataError no_positions_error(const std::vector<std::string>& files, const FilterCounts& counts,
                                 const DataFilter& filter);

// The usable positions of some logs, game after game. Every game holds at least one record,
// all of one chunk (one game) of one file; all files share one variant and rule set.
struct Dataset : FilterCounts {
    Rules rules;
    std::vector<std::string> files;
    std::vector<PositionRecord> records;
    std::vector<GameSpan> games;
    std::vector<std::string> warnings; // e.g. a torn tail that was dropped
};

// Reads the logs. Throws TuneDataError (or PositionLogError) naming the file for an unreadable
// file, a bad header, a file given twice, logs of different variants or rules, and when no
// position is left.
Dataset load_dataset(const std::vector<std::string>& files, const DataFilter& filter = {});

// The rows (indices into Dataset::records) of the training and validation sets. A game's rows
// are all in one set; the training rows are shuffled (seeded), the validation rows keep order.
struct DataSplit {
    std::vector<std::uint32_t> train;
    std::vector<std::uint32_t> validation;
    std::uint64_t train_games = 0;
    std::uint64_t validation_games = 0;
};

// Holds out round(fraction * games) games, chosen at random from `seed` (at least one game
// when fraction > 0). Throws TuneDataError when fraction is outside [0, 1) or leaves no
// training game, or when fraction > 0 and there is only one game.
DataSplit split_by_game(const Dataset& data, double fraction, std::uint64_t seed);

} // namespace fanorona
