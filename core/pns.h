#pragma once
// Proof-number search for exact values (`fanorona solve --method pns`): depth-first proof-number
// search (df-pn, Nagai 2002, with the 1 + epsilon threshold trick of Pawlewicz and Lew) over the
// same game as the alpha-beta solver (core/solve.h): standard rules, no no-capture limit,
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

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <vector>

#include "core/endgame.h"
#include "core/solve.h"

namespace fanorona {

// What the df-pn table knows about one position. Invariants: -1 <= lo <= hi <= 1 are proven,
// path-independent bounds on the value for the side to move; pn[t] / dn[t] (t = 0, 1) are the
// last proof and disproof numbers of "value >= t" (0 when never searched; never 0 for a
// threshold the bounds do not decide); work counts the nodes spent below it (replacement).
struct PnsEntry {
    Key key = 0;
    std::uint32_t pn[2] = {0, 0};
    std::uint32_t dn[2] = {0, 0};
    std::uint32_t work = 0;
    std::int8_t lo = -1;
    std::int8_t hi = 1;

    bool proven() const { return lo > -1 || hi < 1; }
};

// One proven bound: lo <= value <= hi for the side to move of the position whose hash is key.
// Invariant: -1 <= lo <= hi <= 1, not both -1 and 1 (a bound that says nothing is not kept).
struct ProvenBound {
    Key key = 0;
    int lo = -1;
    int hi = 1;
    friend bool operator==(const ProvenBound&, const ProvenBound&) = default;
};

// Budgets and the caller's hook. `poll` is called about every `poll_seconds` (checked every 1024
// nodes) and stops the search when it returns true (a shared budget, a proof file snapshot).
struct PnsLimits {
    std::uint64_t max_nodes = 0; // 0: no limit
    double max_seconds = 0;      // 0: no limit
    double poll_seconds = 1;
    std::function<bool()> poll;
};

// Searches with df-pn; owns its table (four-entry buckets, a fixed size) and buffers. One
// thread; several searchers may share one EndgameProbe.
class PnSearcher {
public:
    enum class Answer : std::uint8_t { No, Yes, Unknown };

    explicit PnSearcher(std::size_t hash_mb = 64);
    void set_tables(std::shared_ptr<const EndgameProbe> tables) { tables_ = std::move(tables); }
    // As Solver::set_graph_limit: a position with fewer pieces than the smallest graph that did
    // not fit (the first root's included) gets its graph solved whole when it has at most this
    // many positions (solve_graph.h), its values kept; 0: df-pn only. Default: 4096 per MB of
    // hash, at least 10,000.
    void set_graph_limit(std::size_t positions) { graph_limit_ = positions; }
    std::uint64_t graphs() const { return graphs_; }

    // "value >= t" (t = 0 or 1) for the side to move in `pos` (searched as a root: no history).
    Answer test(const Position& pos, int t, const PnsLimits& limits = {});
    // The value of `pos` by the tests (exact unless a budget ran out: then the bounds proven).
    ValueBounds value(const Position& pos, const PnsLimits& limits = {});

    // Nodes (positions searched) and table hits since construction.
    std::uint64_t nodes() const { return nodes_; }
    std::uint64_t table_hits() const { return table_hits_; }
    // Every proven, path-independent bound the table holds.
    void for_each_proven(const std::function<void(Key, int lo, int hi)>& f) const;
    // Adds a proven bound (e.g. from a proof file): lo <= value <= hi for the position `key`.
    void add_proven(Key key, int lo, int hi);
    std::size_t capacity() const { return buckets_.size() * kWays; }

private:
    static constexpr int kWays = 4;
    struct Bucket {
        PnsEntry e[kWays];
    };
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

    const PnsEntry* probe(Key key) const;
    PnsEntry& slot(Key key);
    Result mid(int t, std::uint64_t th_pn, std::uint64_t th_dn, int ply);
    // The ply of a position on the path that `key` (at ply `ply`, entered by a capture when
    // `capture`) repeats, or -1.
    int repetition(Key key, int ply, bool capture) const;
    void poll();

    std::vector<Bucket> buckets_;
    std::size_t mask_ = 0;
    std::size_t graph_limit_;
    int graph_pieces_ = -1; // -1: not set yet (the first root's pieces + 1)
    std::uint64_t graphs_ = 0;
    std::shared_ptr<const EndgameProbe> tables_;
    Rules rules_;
    int table_pieces_ = 0;
    Position pos_;
    std::vector<Key> path_;
    std::vector<std::uint8_t> reset_;
    std::deque<MoveList> lists_;
    std::deque<std::vector<Child>> children_;
    std::uint64_t nodes_ = 0, table_hits_ = 0, start_nodes_ = 0;
    const PnsLimits* limits_ = nullptr;
    bool stopped_ = false;
    std::chrono::steady_clock::time_point start_, last_poll_;
};

} // namespace fanorona
