#pragma once
// Two-level proof-number search (PN2, Allis 1994; as Schadd et al. used it for Fanorona) for
// exact values (`fanorona solve --method pn2`), over the same game as df-pn (core/solver/pns.h) and
// the alpha-beta solver (core/solver/solve.h): standard rules, no no-capture limit, endless play a
// draw; the value by the two tests "value >= 1" and "value >= 0", each a PN2 run.
//
// The first level is a best-first proof-number tree held in memory. Its most-proving leaf is
// expanded by a second-level proof-number search rooted there, bounded to a number of nodes that
// grows with the first-level tree (Breuker's fraction, pn2_second_level_limit); the leaf's
// children keep the proof and disproof numbers the second level gave them, and the rest of the
// second-level tree is discarded. A proven or disproven subtree is freed (its root keeps its
// numbers). What the two levels share with df-pn (core/solver/pn_shared.h): the leaves (no move, no
// piece, a repetition of a position on the current path is a draw, the endgame tables), the
// small graphs solved whole, and the table of path-independent proofs: a proof that used a
// repetition of a position above its node depends on the path; it stays in the tree (whose
// nodes each have one path) and never enters the table.
//
// Memory: `hash_mb` bounds the whole searcher: a quarter for the table, the rest for the two
// trees (each at most 3/8 of it). A first-level tree that fills its share stops the test as
// unknown (memory_full()).

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "core/board/movegen.h"
#include "core/solver/pn_shared.h"

namespace fanorona {

// Breuker's fraction f(x) = 1 / (1 + exp((a - x) / b)) of the first-level tree's size x that the
// second level may use, at least `min_nodes` nodes.
struct Pn2Params {
    double a = 20000;
    double b = 5000;
    std::size_t min_nodes = 1000;
};

// The second level's size limit (nodes) for a first-level tree of `x` nodes.
std::size_t pn2_second_level_limit(std::size_t x, const Pn2Params& p);

// Searches with PN2; owns its table, its two trees and its buffers. One thread; several
// searchers may share one EndgameProbe.
class Pn2Searcher : public ProofSearch {
public:
    using Answer = PnAnswer;

    explicit Pn2Searcher(std::size_t hash_mb = 64, const Pn2Params& params = {});
    void set_tables(std::shared_ptr<const EndgameProbe> tables) {
        game_.set_tables(std::move(tables));
    }
    // As PnSearcher::set_graph_limit.
    void set_graph_limit(std::size_t positions) { game_.set_graph_limit(positions); }
    std::uint64_t graphs() const { return game_.graphs(); }

    // "value >= t" (t = 0 or 1) for the side to move in `pos` (searched as a root: no history).
    Answer test(const Position& pos, int t, const PnsLimits& limits = {});
    // The value of `pos` by the tests (exact unless a budget ran out: then the bounds proven).
    ValueBounds value(const Position& pos, const PnsLimits& limits = {});

    // Nodes (positions whose moves were generated, at either level, and positions of the small
    // graphs) and table hits since construction.
    std::uint64_t nodes() const override { return nodes_; }
    std::uint64_t table_hits() const { return game_.table_hits(); }
    // The largest first-level tree so far (nodes), and its bound.
    std::size_t peak_tree() const { return peak_; }
    std::size_t tree_capacity() const { return first_.capacity; }
    // True when the last test stopped because the first-level tree was full.
    bool memory_full() const { return full_; }
    // Every proven, path-independent bound the table holds.
    void for_each_proven(const std::function<void(Key, int lo, int hi)>& f) const override {
        table_.for_each_proven(f);
    }
    // Adds a proven bound (e.g. from a proof file): lo <= value <= hi for the position `key`.
    void add_proven(Key key, int lo, int hi) { table_.add_proven(key, lo, hi); }

private:
    static constexpr std::uint32_t kNone = 0xFFFFFFFFu;
    // A tree node: the move into it and its position's key; pn / dn of "value >= t" for its side
    // to move (t alternating with the ply); its children are `count` nodes from `first` (kNone:
    // a leaf, or a decided node whose subtree was freed); rep as PnLeaf's.
    struct Node {
        Move move;
        Key key;
        std::uint64_t pn, dn;
        std::uint32_t parent, first;
        std::int32_t rep;
        std::uint32_t count;
    };
    // Nodes in one vector, children in blocks; freed blocks are reused by blocks of their size.
    // Invariant: nodes.size() <= capacity (the memory bound); live counts the nodes in use.
    struct Tree {
        std::vector<Node> nodes;
        std::vector<std::vector<std::uint32_t>> free;
        std::vector<std::uint32_t> stack; // release's
        std::size_t live = 0;
        std::size_t capacity = 0;

        // The first of `count` new nodes, or kNone when they do not fit.
        std::uint32_t alloc(std::uint32_t count);
        void release(std::uint32_t n); // frees the subtree below node n
        void reset();
    };

    // Grows `tree` (root: node 0, the position pos_ at path ply `root_ply`, "value >= t") until
    // its root is decided, it holds `limit` nodes (second level), it is full, or the budget
    // stops.
    void grow(Tree& tree, bool first_level, int t, int root_ply, std::size_t limit);
    // Expands leaf n (pos_, ply, "value >= t") of the second level: its children with their
    // leaves' values, or its own value (table, graph, no move).
    void expand(Tree& tree, std::uint32_t n, int t, int ply);
    // Expands first-level leaf n by a second-level search.
    void expand_first(std::uint32_t n, int t, int ply);
    // Recomputes node n's numbers from its children; frees them when it is decided.
    void update(Tree& tree, std::uint32_t n, int t, int ply);
    void decide(Node& node, int value, int t, int rep);

    Pn2Params params_;
    PnTable table_;
    PnGame game_;
    Tree first_, second_;
    Position pos_;
    MoveList moves_;
    std::vector<Node> kids_;
    std::vector<UndoInfo> undo_; // undo_[ply]: the move into ply
    std::uint64_t nodes_ = 0;
    std::size_t peak_ = 0;
    bool full_ = false;
    PnBudget budget_;
};

} // namespace fanorona
