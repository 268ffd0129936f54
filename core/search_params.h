#pragma once
// The search's tunable parameters: one named table (name, value, min, max) that the command
// line, the engine protocol's setoption and tuners set by name, and that the search reads by id.

#include <array>
#include <span>
#include <string_view>

namespace fanorona {

// One tunable integer. Invariant: min <= value <= max.
struct SearchParam {
    const char* name;
    int value, min, max;
};

// The ids of the parameters, in table order.
enum class Param : int {
    AspWindow,       // aspiration half-window around the last score, centi-pieces
    AspMinDepth,     // first iteration that uses an aspiration window
    SingleReplyExt,  // extend (1) a node with one legal move by a ply
    QsMaxDepth,      // forced captures searched past the horizon, at most this many plies
    QsMaxMoves,      // ... trying at most this many captures (best ordered first) per node
    QsCutMargin,     // ... stopping when the static score beats beta by this margin (-1: never)
    LmrMinDepth,     // late move reductions from this depth
    LmrMinMoves,     // ... after this many moves
    LmrBase,         // reduction = (base + ln(depth) ln(move) * 100 / div) / 100 plies
    LmrDiv,          // ...
    LmrCaptures,     // reduce (1) late captures too
    NmpMinDepth,     // null-move pruning from this depth (a high value turns it off)
    NmpReduction,    // null-move depth reduction: base + depth / 4
    NmpMinPieces,    // ... only with at least this many own pieces
    RfpMaxDepth,     // reverse futility pruning up to this depth (0: off)
    RfpMargin,       // ... margin per ply, centi-pieces
    FutMaxDepth,     // futility pruning of quiet moves up to this depth (0: off)
    FutMargin,       // ... margin per ply, centi-pieces
    LmpMaxDepth,     // late move pruning of quiet moves up to this depth (0: off)
    LmpBase,         // ... keep base + depth * depth moves
    Contempt,        // score of a draw for the side to move at the root, negated (centi-pieces)
    MoveOverheadMs,  // time kept back per move for communication
    IirMinDepth,     // internal iterative reduction: a node without a table move loses a ply
                     // from this depth (a high value turns it off)
    LmrHistoryDiv,   // late move reductions shrink by a quiet move's history / this (0: off)
    CounterMoves,    // order (1) the quiet move that last refuted the previous move after killers
    RfpCaptures,     // reverse futility pruning (1) of capture nodes too, from the static score
                     // that counts the largest capture
    QsLowMargin,     // past the horizon, stop when the static score (with the largest capture)
                     // stays below alpha by this margin (-1: never)
    HistPruneDepth,  // prune quiet moves with a bad history up to this depth (0: off) ...
    HistPruneMargin, // ... when their history is below -margin * depth
    UnsafePenalty,   // order quiet moves that leave their piece capturable this much lower (0: off)
    CorrHistory,     // add the correction history (core/correction.h) to the static score: 0 off,
                     // 1 in the pruning of quiet nodes, 2 there and at the horizon
    SeMinDepth,      // singular extension of the table move from this depth (64: off; at least 4,
                     // so that the search without it has a ply) ...
    SeMargin,        // ... when every other move stays below the table score - margin * depth / 8
                     // at half depth (centi-pieces); beyond beta, the node is cut (multi-cut)
    TmMaxPercent,    // on a clock: the deadline inside an iteration, in percent of the clock's
                     // share of this move (100: the share; a movetime is always the deadline) ...
    TmStablePercent, // ... no new iteration after this percent of the share once the best move has
                     // stayed the same over the last 4 iterations ...
    TmChangePercent, // ... nor after this percent when the last iteration changed it
    Count,
};

inline constexpr int kParamCount = int(Param::Count);

// The whole table. Default-constructed with the defaults; set() checks names and ranges.
class SearchParams {
public:
    SearchParams();

    int operator[](Param p) const { return table_[int(p)].value; }
    // Sets a parameter by name (case-insensitive). Returns false for an unknown name; throws
    // std::out_of_range (naming the parameter and its range) for a value outside [min, max].
    bool set(std::string_view name, int value);
    void set(Param p, int value);
    // The value of a named parameter; throws std::out_of_range for an unknown name.
    int get(std::string_view name) const;
    // Finds a parameter by name (case-insensitive), or nullptr.
    const SearchParam* find(std::string_view name) const;
    // A view of the table (so not on a temporary SearchParams).
    std::span<const SearchParam> list() const& { return table_; }
    std::span<const SearchParam> list() const&& = delete;

    friend bool operator==(const SearchParams& a, const SearchParams& b);

private:
    std::array<SearchParam, kParamCount> table_;
};

} // namespace fanorona
