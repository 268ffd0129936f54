#pragma once
// `fanorona frontier`: how far proofs reach from a board's start. Two sets of positions, each
// solved by a df-pn searcher of its own (tools/solve/pns_root.h) with a budget per position: the
// tree of the positions after 1..N turns from the start, and positions sampled from games files
// after given turns. The CSV of the results per position grows as they are solved and lets a
// rerun with the same settings skip them.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/board/position.h"
#include "core/common/append_file.h"
#include "core/solver/solve.h"
#include "tools/solve/pns_root.h"
#include "tools/solve/proof_store.h"

namespace fanorona::cli {

// One position of a frontier and what its own solve proved: value is for its side to move,
// {-1, 1} (nothing) and 0 nodes until solved. group is "tree" (source: the moves from the root,
// parent: the index of the position before the last move, -1 for the root's children) or
// "turn" (source: "FILE#INDEX", the game it was taken from; parent -1).
struct FrontierPosition {
    std::string group;
    int turns = 0;
    std::string source;
    int parent = -1;
    Position pos;
    ValueBounds value;
    std::uint64_t nodes = 0;
    double seconds = 0;
    bool solved = false; // here or in an earlier run (reused)
    bool reused = false; // its result came from the CSV of an earlier run
};

// The positions after 1..depth turns from `root`, depth first in move generation order (each
// position before the ones after it). A position with no move has no positions after it.
std::vector<FrontierPosition> tree_positions(const Position& root, int depth);

// The tree's values with what the positions after them prove (a position is won when a move
// leads to a lost one, and its value is at most the best of its moves when all are there):
// out[i] combines tree[i].value with its children's; `root` gets the bound of the root.
std::vector<ValueBounds> back_up(const std::vector<FrontierPosition>& tree, ValueBounds& root);

// The positions after `turns` turns of `samples` games drawn (by `seed`, the same draw for a
// turn whatever the other turns are) among the normal games of `files` that went on past that
// turn. Throws std::invalid_argument, one line naming the file or option: unreadable or
// malformed files, games of another board than `v` or under other rules than the standard ones,
// a turn no game goes past.
struct TurnSample {
    int turns = 0;
    std::size_t eligible = 0; // games that went on past `turns`
    std::vector<FrontierPosition> positions;
};
std::vector<TurnSample> sample_positions(const std::vector<std::string>& files, Variant v,
                                         const std::vector<int>& turns, int samples,
                                         std::uint64_t seed);

// Solves every position of `todo` not solved yet on oneTBB workers (the caller's ThreadLimit),
// each by a searcher of its own with cfg's budget per position (the same result on every run with
// a node budget alone); `finished` is called, one call at a time, as each ends.
void solve_positions(const std::vector<FrontierPosition*>& todo, const PnsRootConfig& cfg,
                     ProofStore& store, const std::function<void(FrontierPosition&)>& finished);

// The counts of a set of results: proven ones by value (for the side to move), and the median
// and largest time and nodes of the proven ones.
struct FrontierSummary {
    std::size_t positions = 0, proven = 0, wins = 0, draws = 0, losses = 0;
    double median_seconds = 0, max_seconds = 0;
    std::uint64_t median_nodes = 0, max_nodes = 0;
};
FrontierSummary summarize(const std::vector<const FrontierPosition*>& positions,
                          const std::vector<ValueBounds>& values);

// The rows of a frontier CSV (the results of an earlier run, pos not set) and their position
// strings, one per row.
struct FrontierCsvRows {
    std::vector<FrontierPosition> rows;
    std::vector<std::string> positions;
};

// The rows of `text`, the content of the CSV `path` written with `settings` (a torn last line
// already dropped): its '#' settings line must be `settings`', then the header line, then rows of 9
// fields. Throws std::invalid_argument, one line "--csv-out: PATH:LINE: why".
FrontierCsvRows parse_frontier_csv(const std::string& text, const std::string& path,
                                   const std::string& settings);

// The per-position CSV (--csv-out, docs/solve.md): a '#' line of the settings, a header line,
// then a row per solved position, appended (and flushed) as it is solved. Opening an existing
// file checks its settings line (another budget, board or tables: refused), reads its rows and
// drops a torn last line.
class FrontierCsv {
public:
    FrontierCsv() = default;
    FrontierCsv(const std::string& path, const std::string& settings);
    // Fills the result of `p` from a row of an earlier run with the same group, turns, source and
    // position; false when there is none.
    bool reuse(FrontierPosition& p) const;
    void append(const FrontierPosition& p);
    std::size_t rows() const { return rows_.size(); }

private:
    std::string path_;
    std::vector<FrontierPosition> rows_; // an earlier run's results (pos not set)
    std::vector<std::string> positions_; // their position strings
    AppendFile file_;
};

} // namespace fanorona::cli
