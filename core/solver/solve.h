#pragma once
// Exact solving by search (`fanorona solve`): the game-theoretic value of a position under the
// standard rules with endless play a draw and no no-capture limit (Schadd et al., "Best Play in
// Fanorona Leads to Draw"; the endgame tables' primary value: win / cursed-win a win, loss /
// blessed-loss a loss, see docs/formats.md), with an optimal line.
//
// Method: alpha-beta over the values {-1, 0, +1} as null-window tests "value >= t" for t = 1
// ("can the side to move win?") and t = 0 ("can it avoid losing?"), each answering yes, no or
// unknown (the depth horizon, or the budget, was reached), under iterative deepening. A position
// repeated on the current path is a draw (with endless play a draw this gives every position its
// true value when searched as a root: a winner never needs to repeat, and a side that can hold
// the draw can do so by repeating). A result that used such a repetition of a position above the
// node (graph-history interaction) depends on the path and is not stored; everything stored in
// the table is a proven, path-independent bound. Captures are irreversible, so only positions
// since the last capture are compared. With endgame tables, positions they cover are leaves.
// First, when every position reachable from the root (through captures too, table positions as
// leaves) fits in a graph of about 4096 positions per MB of --hash, the graph is enumerated and
// solved by retrograde analysis (solve_graph.h): exact, cycles included. Otherwise the search:
// the root's moves are solved one by one, each from its own position (a move's value is then
// its true value, independent of the root), so a budget that runs out leaves every proven move
// with its value and bounds on the root's value.

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/endgame.h"
#include "core/solver/solve_table.h"

namespace fanorona {

struct GameGraph;

// Bounds on a value for the side to move (-1 loss, 0 draw, +1 win): lo <= value <= hi.
struct ValueBounds {
    int lo = -1;
    int hi = 1;
    bool exact() const { return lo == hi; }
    friend bool operator==(const ValueBounds&, const ValueBounds&) = default;
};

// "win", "draw", "loss", or "unknown" (bounds not exact: e.g. "at least a draw").
std::string value_text(const ValueBounds& b);

// When to stop; 0 is no limit.
struct SolveLimits {
    std::uint64_t max_nodes = 0;
    double max_seconds = 0;
};

// A root move and what is proven about its value for the mover.
struct SolvedMove {
    Move move{0, 0, 0};
    ValueBounds value;
};

// Where an optimal line ends.
enum class LineEnd : std::uint8_t { None, NoMoves, Repetition, Length, Unproven };
std::string_view line_end_name(LineEnd e); // "no-moves", "repetition", "length", ...

// A report during a long solve.
struct SolveProgress {
    std::uint64_t nodes = 0;
    double seconds = 0;
    int depth = 0;        // the iteration under way
    int proven_moves = 0; // root moves with an exact value
    int moves = 0;
    ValueBounds root;
};

// What a solve proved. `value` is exact when `complete`; then `line` is an optimal line (the
// winner reaches the end, the loser resists longest, a draw runs until a repetition or
// kMaxLine turns) and `line_end` says how it ends.
struct SolveResult {
    ValueBounds value;
    bool complete = false;
    std::vector<SolvedMove> moves; // every legal root move, in generation order
    std::vector<Move> line;
    LineEnd line_end = LineEnd::None;
    std::uint64_t nodes = 0; // the proof's (the line's own proofs not counted)
    std::uint64_t table_hits = 0;
    double seconds = 0;           // the proof's
    std::uint64_t line_nodes = 0; // the line's own proofs
    double line_seconds = 0;
    int depth = 0;                   // the deepest iteration started
    bool graph = false;              // solved by enumerating the whole graph (solve_graph.h)
    std::size_t graph_positions = 0; // the positions of that graph
    std::uint64_t graphs = 0;        // graphs the search solved whole (their values kept)
};

// Solves positions; owns its table and buffers (one thread). The variant's standard rules.
class Solver {
public:
    static constexpr int kMaxLine = 200;

    explicit Solver(std::size_t hash_mb = 64);
    // Positions the tables hold become leaves (nullptr: search to the end).
    void set_tables(std::shared_ptr<const EndgameProbe> tables) { tables_ = std::move(tables); }
    // The largest graph solved whole (positions); 0: search only. Default: 4096 per MB of hash
    // (at least 10,000).
    void set_graph_limit(std::size_t positions) { graph_limit_ = positions; }
    // `progress` is called about every `interval` seconds.
    SolveResult solve(const Position& pos, const SolveLimits& limits = {},
                      const std::function<void(const SolveProgress&)>& progress = {},
                      double interval = 5);

private:
    enum class Answer : std::uint8_t { No, Yes, Unknown };
    struct TestResult {
        Answer answer;
        int height;  // the proof's height in turns (yes / no)
        int rep_ply; // the smallest path ply a repetition used by the proof refers to
    };

    // Runs the test "value >= t" on the position `pos_` at path index `ply`, root of a fresh
    // path when ply is 0.
    TestResult test(int t, int depth, int ply);
    // Tightens `b` (bounds for the side to move in pos_) by tests to `depth`; returns the
    // proof heights of the final bounds.
    void tighten(ValueBounds& b, int depth, int heights[2]);
    // The steps of solve(): `res` from the whole game graph when it is small enough (true), the
    // iterative deepening over the root moves (each decisive proof's height in `root_height`),
    // and the optimal line of a complete solve within `limits`.
    bool solve_by_graph(const Position& root, SolveResult& res);
    void deepen(const Position& root, const MoveList& root_moves, SolveResult& res,
                std::vector<int>& root_height);
    void prove_line(const Position& root, const MoveList& root_moves, const SolveLimits& limits,
                    const std::vector<int>& root_height, SolveResult& res);
    bool out_of_budget();
    void order(MoveList& moves);
    // The move an optimal line plays at `p` (its legal `moves`, `turn` turns into the line), or
    // nullopt when none is proven.
    using LineChooser =
        std::function<std::optional<Move>(const Position& p, const MoveList& moves, int turn)>;
    // The walk of both optimal lines: from `root` (the positions in `seen` counting for
    // repetitions), each turn the tables' best move when they hold the position, else
    // `choose`'s. Ends after kMaxLine turns (Length), with no legal move (NoMoves), no proven
    // move (Unproven) or at a repeated position (Repetition), and says which in `end`.
    std::vector<Move> walk_line(const Position& root, std::vector<Key> seen, LineEnd& end,
                                const LineChooser& choose);
    std::vector<Move> graph_line(const GameGraph& g, const Position& root, LineEnd& end);
    // The line from `root` (of `value` for its side to move), the position `before` it
    // counting for repetitions.
    std::vector<Move> optimal_line(const Position& root, int value, int depth, Key before,
                                   LineEnd& end);

    SolveTable table_;
    std::size_t graph_limit_;
    int graph_pieces_ = 0; // positions with fewer pieces get their graphs solved whole
    std::uint64_t graphs_ = 0;
    std::shared_ptr<const EndgameProbe> tables_;
    Rules rules_;
    int table_pieces_ = 0;
    Position pos_;
    std::vector<Key> path_;           // path_[i]: the hash at ply i
    std::vector<std::uint8_t> reset_; // reset_[i]: 1 when the move into ply i captured
    std::deque<MoveList> lists_;
    std::vector<int> scores_;
    std::uint64_t nodes_ = 0, table_hits_ = 0;
    SolveLimits limits_;
    bool stopped_ = false;
    std::chrono::steady_clock::time_point start_, last_report_;
    double interval_ = 5;
    const std::function<void(const SolveProgress&)>* progress_ = nullptr;
    SolveProgress report_;
};

} // namespace fanorona
