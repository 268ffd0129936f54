#pragma once
// What the two proof-number searchers (df-pn, core/solver/pns.h; PN2, core/solver/pn2.h) share: the
// game they search (standard rules, no no-capture limit, endless play a draw), its leaves (no move,
// no piece, a repetition of a position on the current path, the endgame tables, a small graph
// solved whole), the table of path-independent proofs, the budget, and the value by the two
// threshold tests "value >= 1" and "value >= 0".

#include <chrono>
#include <climits>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "core/endgame.h"
#include "core/solver/solve.h"

namespace fanorona {

inline constexpr std::uint64_t kPnInf = std::uint64_t(1) << 40; // proof number "infinite"
inline constexpr int kPnNoRep = INT_MAX; // a proof that used no repetition above it
inline constexpr int kPnMaxPly = 3000;   // deeper lines are left unsearched (never proven)

// Sums stay finite (a sum of proof numbers is infinite only with an infinite term, and then a
// child is disproven and decides the node first).
inline std::uint64_t pn_add(std::uint64_t a, std::uint64_t b) {
    return std::min(kPnInf - 1, a + b);
}
inline std::uint32_t pn_store(std::uint64_t n) {
    return n >= kPnInf ? 0xFFFFFFFFu : std::uint32_t(std::min<std::uint64_t>(n, 0xFFFFFFFEu));
}
inline std::uint64_t pn_load(std::uint32_t n) {
    return n == 0xFFFFFFFFu ? kPnInf : n;
}

// What the table knows about one position. Invariants: -1 <= lo <= hi <= 1 are proven,
// path-independent bounds on the value for the side to move; pn[t] / dn[t] (t = 0, 1) are the
// last proof and disproof numbers of "value >= t" (df-pn only; 0 when never searched; never 0
// for a threshold the bounds do not decide); work counts the nodes spent below it (replacement).
struct PnsEntry {
    Key key = 0;
    std::uint32_t pn[2] = {0, 0};
    std::uint32_t dn[2] = {0, 0};
    std::uint32_t work = 0;
    std::int8_t lo = -1;
    std::int8_t hi = 1;

    bool proven() const { return lo > -1 || hi < 1; }
};

// The searchers' table: four-entry buckets, a fixed size; a missing entry replaces the least
// valuable of its bucket (empty first, then the one with the least proven and the least work).
class PnTable {
public:
    explicit PnTable(std::size_t bytes);
    const PnsEntry* probe(Key key) const;
    PnsEntry& slot(Key key);
    // Every proven, path-independent bound the table holds.
    void for_each_proven(const std::function<void(Key, int lo, int hi)>& f) const;
    // Adds a proven bound (e.g. from a proof file): lo <= value <= hi for the position `key`.
    void add_proven(Key key, int lo, int hi);
    // Stores a proof of "value >= t" (yes) or of "value < t" (no), `work` nodes below it.
    void prove(Key key, int t, bool yes, std::uint64_t work);
    std::size_t capacity() const { return buckets_.size() * kWays; }

private:
    static constexpr int kWays = 4;
    struct Bucket {
        PnsEntry e[kWays];
    };
    std::vector<Bucket> buckets_;
    std::size_t mask_ = 0;
};

// Budgets and the caller's hook. `poll` is called about every `poll_seconds` (checked every 1024
// nodes) and stops the search when it returns true (a shared budget, a proof file snapshot).
struct PnsLimits {
    std::uint64_t max_nodes = 0; // 0: no limit
    double max_seconds = 0;      // 0: no limit
    double poll_seconds = 1;
    std::function<bool()> poll;
};

enum class PnAnswer : std::uint8_t { No, Yes, Unknown };

// What a caller watching a proof-number searcher (df-pn or PN2) sees of it while it runs: its
// nodes and the proven, path-independent bounds its table holds (a shared budget, proof file
// snapshots).
class ProofSearch {
public:
    virtual ~ProofSearch() = default;
    virtual std::uint64_t nodes() const = 0;
    virtual void for_each_proven(const std::function<void(Key, int lo, int hi)>& f) const = 0;
};

// A test's budget as it runs: `check` (every 1024 nodes) sets `stopped` when a limit is reached.
struct PnBudget {
    const PnsLimits* limits = nullptr;
    std::uint64_t start_nodes = 0;
    std::chrono::steady_clock::time_point start, last_poll;
    bool stopped = false;

    void begin(const PnsLimits& l, std::uint64_t nodes);
    void check(std::uint64_t nodes);
};

// A leaf's value for its side to move, and the smallest path ply a repetition it used refers to.
struct PnLeaf {
    int value;
    int rep;
};

// The searched game and its leaves, with the path of positions from the test's root (for the
// repetition rule). One searcher's; `tables` may be shared.
class PnGame {
public:
    explicit PnGame(std::size_t graph_limit) : graph_limit_(graph_limit) {}
    void set_tables(std::shared_ptr<const EndgameProbe> tables) { tables_ = std::move(tables); }
    void set_graph_limit(std::size_t positions) { graph_limit_ = positions; }
    std::uint64_t graphs() const { return graphs_; }
    std::uint64_t table_hits() const { return table_hits_; }
    const Rules& rules() const { return rules_; }

    // Starts a test at `root` (ply 0 of the path).
    void start(const Position& root);
    // The root's value from the tables, when they hold it.
    std::optional<int> root_table_value(const Position& root);
    // Puts `key` at path ply `ply`, entered by a capture when `capture`.
    void enter(int ply, Key key, bool capture);
    // The value of `pos`, just entered at ply `ply` by `m` (not yet on the path), when it is a
    // leaf: a repetition of a position on the path (a draw), no piece left (a loss), or a
    // position of the tables.
    std::optional<PnLeaf> leaf(const Position& pos, int ply, const Move& m);
    // With fewer pieces than any graph that did not fit: `pos`'s graph solved whole and every
    // value of it stored in `table` (exact, path-independent: cycles are draws there); its
    // value, or nullopt (too large, now remembered, or `budget` stopped). `nodes` counts the
    // positions enumerated.
    std::optional<int> small_graph(const Position& pos, PnTable& table, std::uint64_t& nodes,
                                   PnBudget& budget);

private:
    // The ply of a position on the path that `key` (at ply `ply`, entered by a capture when
    // `capture`) repeats, or -1.
    int repetition(Key key, int ply, bool capture) const;

    std::size_t graph_limit_;
    int graph_pieces_ = -1; // -1: not set yet (the first root's pieces + 1)
    std::uint64_t graphs_ = 0, table_hits_ = 0;
    std::shared_ptr<const EndgameProbe> tables_;
    Rules rules_;
    int table_pieces_ = 0;
    std::vector<Key> path_;
    std::vector<std::uint8_t> reset_; // reset_[i]: the move into ply i captured
};

// The value by the two tests, "value >= 1" then (when not) "value >= 0", the second with what
// the first left of the budget; bounds when a test ran out of it.
ValueBounds pn_value(const PnsLimits& limits, const std::function<std::uint64_t()>& nodes,
                     const std::function<PnAnswer(int t, const PnsLimits&)>& test);

// The default graph limit of a searcher with a `hash_mb` table: 4096 positions per MB, at least
// 10,000.
inline std::size_t pn_default_graph_limit(std::size_t hash_mb) {
    return std::max<std::size_t>(10000, hash_mb * 4096);
}

} // namespace fanorona
