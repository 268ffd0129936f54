#pragma once
// Proof-number search for exact values (`fanorona solve --method pns`): depth-first proof-number
// search (df-pn, Nagai 2002, with the 1 + epsilon threshold trick of Pawlewicz and Lew) over the
// same game as the alpha-beta solver (core/solver/solve.h): standard rules, no no-capture limit,
// endless play a draw. The value comes from two boolean tests, "value >= 1" (can the side to
// move win?) and "value >= 0" (can it avoid losing?), each a df-pn run.
//
// Repetitions (graph-history interaction): a position that repeats one on the current path
// (same side to move, no capture since) is a draw leaf. A proof that used a repetition of a
// position above the node depends on the path: it is kept only by the parent's own list of
// children while the parent's search runs, never stored in the table. Everything the table
// holds as proven is a path-independent bound on the true value; the pn/dn numbers it also holds
// are estimates only. Endgame tables, through EndgameProbe, are leaves with their exact value.
// Draws in long paika phases are proved path by path (each repetition a leaf), which is costly:
// as in the alpha-beta solver, small graphs are solved whole by retrograde analysis instead.

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <vector>

#include "core/solver/pn_shared.h"

namespace fanorona {

// One proven bound: lo <= value <= hi for the side to move of the position whose hash is key.
// Invariant: -1 <= lo <= hi <= 1, not both -1 and 1 (a bound that says nothing is not kept).
struct ProvenBound {
    Key key = 0;
    int lo = -1;
    int hi = 1;
    friend bool operator==(const ProvenBound&, const ProvenBound&) = default;
};

// Searches with df-pn; owns its table (four-entry buckets, a fixed size) and buffers. One
// thread; several searchers may share one EndgameProbe.
class PnSearcher : public ProofSearch {
public:
    using Answer = PnAnswer;

    explicit PnSearcher(std::size_t hash_mb = 64);
    void set_tables(std::shared_ptr<const EndgameProbe> tables) {
        game_.set_tables(std::move(tables));
    }
    // As Solver::set_graph_limit: a position with fewer pieces than the smallest graph that did
    // not fit (the first root's included) gets its graph solved whole when it has at most this
    // many positions (solve_graph.h), its values kept; 0: df-pn only. Default: 4096 per MB of
    // hash, at least 10,000.
    void set_graph_limit(std::size_t positions) { game_.set_graph_limit(positions); }
    std::uint64_t graphs() const { return game_.graphs(); }

    // "value >= t" (t = 0 or 1) for the side to move in `pos` (searched as a root: no history).
    Answer test(const Position& pos, int t, const PnsLimits& limits = {});
    // The value of `pos` by the tests (exact unless a budget ran out: then the bounds proven).
    ValueBounds value(const Position& pos, const PnsLimits& limits = {});

    // Nodes (positions searched) and table hits since construction.
    std::uint64_t nodes() const override { return nodes_; }
    std::uint64_t table_hits() const { return game_.table_hits(); }
    // Every proven, path-independent bound the table holds.
    void for_each_proven(const std::function<void(Key, int lo, int hi)>& f) const override {
        table_.for_each_proven(f);
    }
    // Adds a proven bound (e.g. from a proof file): lo <= value <= hi for the position `key`.
    void add_proven(Key key, int lo, int hi) { table_.add_proven(key, lo, hi); }
    std::size_t capacity() const { return table_.capacity(); }

private:
    // A child as its parent's search sees it: `done` when its answer is known (a leaf, a proof
    // in the table, or a proof returned by its search, possibly path-dependent: rep).
    struct Child {
        Move move;
        Key key;
        std::uint64_t pn, dn;
        int rep;
        bool done;
    };
    struct Result {
        std::uint64_t pn, dn;
        int rep; // the smallest path ply a repetition used by a proof refers to
    };

    // The children's numbers summed as their parent's: phi (the least disproof number), delta
    // (the proof numbers added), the child of the least disproof number and the second least.
    struct Selection {
        std::uint64_t phi, delta;
        std::size_t best;
        std::uint64_t second_dn;
    };

    Result mid(int t, std::uint64_t th_pn, std::uint64_t th_dn, int ply);
    // The steps of mid(): the children of pos_ at `ply` into children_[ply] (false: no legal
    // move), refreshed from the table and summed for threshold `tc`, and the answer of a node
    // its children decide (proven or disproven, with the repetitions the proof relies on).
    bool expand(int t, int ply);
    Selection select(std::vector<Child>& children, int tc);
    Result decided(const std::vector<Child>& children, const Selection& s, Key key, int t, int ply,
                   std::uint64_t work);

    PnTable table_;
    PnGame game_;
    Position pos_;
    std::deque<MoveList> lists_;
    std::deque<std::vector<Child>> children_;
    std::uint64_t nodes_ = 0;
    PnBudget budget_;
};

} // namespace fanorona
