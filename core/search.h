#pragma once
// The game-tree search: negamax alpha-beta with principal-variation search, iterative deepening,
// aspiration windows, a transposition table, move ordering (movepick.h: table move, capture size,
// killers, history), forced-capture quiescence, the pruning of search_params.h, and time
// management (timeman.h).
//
// Scores are centi-pieces for the side to move at the root (core/score.h: the win, table and
// infinite scores). Draws by repetition and by the no-capture limit score 0 (see the Contempt
// parameter).
//
// Time: under a movetime or clocks the search goes on until the deadline of timeman.h (the time
// given less the MoveOverheadMs parameter) and stops there, inside an iteration if need be.
//
// Determinism: with only depth and node limits, a search from the same Searcher state (fresh, or
// after clear()) with the same game, weights and parameters returns the same move, score, PV and
// node count every time. Only movetime, clocks, infinite and stop() depend on timing.

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "core/board/game.h"
#include "core/endgame.h"
#include "core/evaluate.h"
#include "core/nnue/network.h"
#include "core/score.h"
#include "core/search_params.h"

namespace fanorona {

// When to stop. All zero (and not infinite) means a default depth of kDefaultDepth. Limits
// combine: the search stops at the first one reached. time_ms/inc_ms are indexed by Color.
struct SearchLimits {
    int depth = 0;
    std::uint64_t nodes = 0;
    int movetime_ms = 0;
    int time_ms[2] = {0, 0};
    int inc_ms[2] = {0, 0};
    int movestogo = 0; // the side to move's turns left to its next time control (0: unknown)
    bool infinite = false;
    // When the limits were given (e.g. when a `go` command was read): movetime and clocks count
    // from it. Default (the epoch): from the start of search().
    std::chrono::steady_clock::time_point given{};

    static constexpr int kDefaultDepth = 4; // the one default of every engine (EngineSpec)
};

// One completed iteration of iterative deepening.
struct IterationInfo {
    int depth;
    int score;
    std::uint64_t nodes; // total for the search so far
    double seconds;      // since the search started
    std::vector<Move> pv;
    int seldepth = 0; // deepest ply reached
    int hashfull = 0; // permille of a sample of the table written in this search
};

// The answer of a search. has_move is false only when the side to move has no legal move.
// A search stopped inside an iteration (deadline, node limit, stop()) answers with that
// iteration's best move so far once a root move has been searched fully in it (partial is then
// true, and score and pv are that move's); otherwise with the last completed iteration's.
struct SearchResult {
    Move best{0, 0, 0};
    bool has_move = false;
    bool partial = false; // best, score and pv come from the unfinished iteration depth + 1
    int score = 0;
    int depth = 0; // last completed iteration
    std::uint64_t nodes = 0;
    std::vector<Move> pv;
    double seconds = 0;
    int seldepth = 0;
    std::uint64_t table_hits = 0; // positions answered by the endgame tables
};

// A search engine: owns its transposition table, killers and history. Not copyable; one search
// at a time. stop() may be called from another thread while search() runs.
class Searcher {
public:
    explicit Searcher(std::size_t hash_mb = 16);
    ~Searcher();
    Searcher(Searcher&&) noexcept;
    Searcher& operator=(Searcher&&) noexcept;

    void set_weights(const Weights& w);
    const Weights& weights() const;
    // The network to evaluate with (nullptr: none). A search of a game on the network's board
    // evaluates with it (clamped like the linear evaluation); other boards use the weights.
    void set_network(std::shared_ptr<const nnue::Network> net);
    const std::shared_ptr<const nnue::Network>& network() const;
    SearchParams& params();
    const SearchParams& params() const;
    // Clears the table; on std::bad_alloc the searcher keeps its old table (strong guarantee).
    void set_hash_mb(std::size_t mb);
    std::size_t hash_mb() const;
    void clear(); // new game: table, killers, history
    // Endgame tables to probe (nullptr: none). Used only for games they serve (standard rules).
    void set_tables(std::shared_ptr<const EndgameProbe> tables);
    const std::shared_ptr<const EndgameProbe>& tables() const;

    SearchResult search(const Game& game, const SearchLimits& limits,
                        const std::function<void(const IterationInfo&)>& on_iteration = {});
    // Thread-safe: the running search returns soon with its best move so far. A stop() with no
    // search running makes the next search return at once, unless clear_stop() comes first.
    // Every search clears the request when it returns.
    void stop();
    void clear_stop();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace fanorona
