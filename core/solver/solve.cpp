// The solver: null-window tests over {-1, 0, +1} with repetition draws and a table of
// path-independent bounds (see solve.h for the method and why it is sound).

#include "core/solver/solve.h"

#include "core/common/clock.h"
#include "core/solver/solve_graph.h"

#include <algorithm>
#include <climits>

namespace fanorona {

namespace {

constexpr int kNoRep = INT_MAX; // a proof that used no repetition
constexpr int kMaxDepth = 30000;

std::uint16_t clamp_height(int h) {
    return std::uint16_t(std::min(h, 65535));
}

} // namespace

std::string value_text(const ValueBounds& b) {
    static const char* names[3] = {"loss", "draw", "win"};
    if (b.exact()) return names[b.lo + 1];
    if (b.lo == -1 && b.hi == 1) return "unknown";
    if (b.lo == 0) return "at least a draw";
    if (b.hi == 0) return "at most a draw";
    if (b.lo == -1) return "not a win"; // unreachable: hi 0 handled above
    return "unknown";
}

std::string_view line_end_name(LineEnd e) {
    switch (e) {
    case LineEnd::NoMoves:
        return "no-moves";
    case LineEnd::Repetition:
        return "repetition";
    case LineEnd::Length:
        return "length";
    case LineEnd::Unproven:
        return "unproven";
    case LineEnd::None:
        break;
    }
    return "none";
}

Solver::Solver(std::size_t hash_mb)
    : table_(hash_mb), graph_limit_(std::max<std::size_t>(10000, hash_mb * 4096)) {}

bool Solver::out_of_budget() {
    const double s = seconds_since(start_);
    if (progress_ && *progress_ &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - last_report_).count() >=
            interval_) {
        last_report_ = std::chrono::steady_clock::now();
        report_.nodes = nodes_;
        report_.seconds = s;
        (*progress_)(report_);
    }
    if (limits_.max_nodes && nodes_ >= limits_.max_nodes) return true;
    return limits_.max_seconds > 0 && s >= limits_.max_seconds;
}

// The move that decided a test here last, then captures (more pieces first), then paika moves
// that leave the opponent no capture.
void Solver::order(MoveList& moves) {
    const SolveEntry* e = table_.probe(pos_.hash());
    if (scores_.size() < std::size_t(moves.count)) scores_.resize(moves.count);
    for (int i = 0; i < moves.count; ++i) {
        const Move& m = moves[i];
        int s = 0;
        if (e && e->has_move && m.from == e->from && m.to == e->to)
            s = 1 << 20;
        else if (m.captured)
            s = 1000 + 10 * popcount(m.captured);
        else {
            Position next = pos_;
            next.make_move(m);
            s = capturing_pieces(next) ? -100 : 0;
        }
        scores_[i] = s;
    }
    // Insertion sort, stable: generation order breaks ties.
    for (int i = 1; i < moves.count; ++i) {
        const Move m = moves[i];
        const int s = scores_[i];
        int j = i - 1;
        for (; j >= 0 && scores_[j] < s; --j) {
            moves[j + 1] = moves[j];
            scores_[j + 1] = scores_[j];
        }
        moves[j + 1] = m;
        scores_[j + 1] = s;
    }
}

Solver::TestResult Solver::test(int t, int depth, int ply) {
    ++nodes_;
    if ((nodes_ & 1023) == 0 && out_of_budget()) stopped_ = true;
    if (stopped_) return {Answer::Unknown, 0, kNoRep};
    const auto answer = [t](int value) { return value >= t ? Answer::Yes : Answer::No; };
    const Key h = pos_.hash();
    if (path_.size() <= std::size_t(ply) + 1) {
        path_.resize(ply + 2);
        reset_.resize(ply + 2);
    }
    path_[ply] = h;
    // A repetition on the path since the last capture: a draw.
    for (int i = ply - 1; i >= 0 && !reset_[i + 1]; --i)
        if (((ply - i) & 1) == 0 && path_[i] == h) return {answer(0), 0, i};
    if (table_pieces_ && pos_.player() && pos_.opponent() &&
        popcount(pos_.player() | pos_.opponent()) <= table_pieces_) {
        if (const auto v = tables_->probe(pos_)) {
            ++table_hits_;
            return {answer(table_outcome(*v, rules_, 0)), 0, kNoRep};
        }
    }
    if (const SolveEntry* e = table_.probe(h)) {
        if (e->lo >= t) return {Answer::Yes, e->lo_height, kNoRep};
        if (e->hi < t) return {Answer::No, e->hi_height, kNoRep};
        if (e->unknown[t] >= depth) return {Answer::Unknown, 0, kNoRep};
    }
    // Fewer pieces than any graph that did not fit: solve this position's graph whole and keep
    // every value in it.
    if (const int pieces = popcount(pos_.player() | pos_.opponent()); pieces < graph_pieces_) {
        const auto g = solve_graph(pos_, rules_, tables_.get(), table_pieces_, graph_limit_, nodes_,
                                   [this] { return stopped_ = out_of_budget(); });
        if (stopped_) return {Answer::Unknown, 0, kNoRep};
        if (!g) {
            graph_pieces_ = pieces;
        } else {
            ++graphs_;
            for (const auto& [key, i] : g->index) {
                SolveEntry& e = table_.slot(key);
                e.lo = e.hi = g->value[i];
                e.lo_height = e.hi_height = clamp_height(g->level[i]);
            }
            return {answer(g->value[0]), g->level[0], kNoRep};
        }
    }
    if (lists_.size() <= std::size_t(ply)) lists_.resize(ply + 1);
    MoveList& moves = lists_[ply];
    generate_moves(pos_, rules_, moves);
    if (moves.empty()) return {answer(-1), 0, kNoRep}; // no move (or no piece): lost
    if (depth <= 0) return {Answer::Unknown, 0, kNoRep};
    order(moves);
    bool unknown = false;
    int height = 0, rep = kNoRep;
    for (int i = 0; i < moves.count; ++i) {
        const Move m = moves[i];
        const UndoInfo undo = pos_.make_move(m);
        reset_[ply + 1] = m.is_capture();
        const TestResult r = test(1 - t, depth - 1, ply + 1);
        pos_.unmake_move(m, undo);
        if (stopped_) return {Answer::Unknown, 0, kNoRep};
        if (r.answer == Answer::No) { // this move reaches the threshold
            if (r.rep_ply >= ply) {
                SolveEntry& e = table_.slot(h);
                if (e.lo < t) e.lo = std::int8_t(t), e.lo_height = clamp_height(r.height + 1);
                e.from = m.from, e.to = m.to, e.has_move = true;
            }
            return {Answer::Yes, r.height + 1, r.rep_ply};
        }
        if (r.answer == Answer::Unknown) {
            unknown = true;
            continue;
        }
        height = std::max(height, r.height + 1);
        rep = std::min(rep, r.rep_ply);
    }
    SolveEntry& e = table_.slot(h);
    if (unknown) {
        e.unknown[t] = std::int16_t(std::max<int>(e.unknown[t], depth));
        return {Answer::Unknown, 0, kNoRep};
    }
    if (rep >= ply && e.hi >= t) e.hi = std::int8_t(t - 1), e.hi_height = clamp_height(height);
    return {Answer::No, height, rep};
}

void Solver::tighten(ValueBounds& b, int depth, int heights[2]) {
    for (int t : {0, 1}) {
        if (b.exact() || b.lo >= t || b.hi < t) continue;
        const TestResult r = test(t, depth, 0);
        if (r.answer == Answer::Yes) b.lo = t, heights[0] = r.height;
        if (r.answer == Answer::No) b.hi = t - 1, heights[1] = r.height;
    }
}

SolveResult Solver::solve(const Position& root, const SolveLimits& limits,
                          const std::function<void(const SolveProgress&)>& progress,
                          double interval) {
    // Step 1. The run's state: budget, rules without repetition or no-capture draws, tables.
    start_ = last_report_ = std::chrono::steady_clock::now();
    limits_ = limits;
    stopped_ = false;
    nodes_ = table_hits_ = 0;
    progress_ = &progress;
    interval_ = interval;
    rules_ = Rules{root.variant()};
    rules_.repetition_count = 0;
    rules_.no_capture_limit = 0;
    table_pieces_ = tables_ && tables_->serve(rules_) ? tables_->max_pieces(root.variant()) : 0;

    // Step 2. The root moves, unsolved.
    SolveResult res;
    MoveList root_moves;
    generate_moves(root, rules_, root_moves);
    for (const Move& m : root_moves) res.moves.push_back({m, {}});
    std::vector<int> root_height(root_moves.count, 0); // the decisive proofs' heights
    report_ = {};
    report_.moves = root_moves.count;
    if (root_moves.empty()) res.value = {-1, -1};
    // Step 3. A graph small enough to enumerate is solved whole (draws in cycles included).
    if (solve_by_graph(root, res)) return res;
    // Step 4. Iterative deepening, then the optimal line of a complete solve.
    deepen(root, root_moves, res, root_height);
    res.complete = res.value.exact();
    res.nodes = nodes_;
    res.table_hits = table_hits_;
    res.seconds = seconds_since(start_);
    if (res.complete) prove_line(root, root_moves, limits, root_height, res);
    res.graphs = graphs_;
    res.line_nodes = nodes_ - res.nodes;
    res.line_seconds = seconds_since(start_) - res.seconds;
    progress_ = nullptr;
    return res;
}

bool Solver::solve_by_graph(const Position& root, SolveResult& res) {
    const auto g = graph_limit_
                       ? solve_graph(root, rules_, tables_.get(), table_pieces_, graph_limit_,
                                     nodes_, [this] { return stopped_ = out_of_budget(); })
                       : std::nullopt;
    graph_pieces_ = graph_limit_ ? popcount(root.player() | root.opponent()) : 0;
    graphs_ = 0;
    if (!g) return false;
    for (SolvedMove& sm : res.moves) {
        Position next = root;
        next.make_move(sm.move);
        const int v = -g->value[g->find(next.hash())];
        sm.value = {v, v};
    }
    res.value = {g->value[0], g->value[0]};
    res.complete = true;
    res.graph = true;
    res.graph_positions = g->value.size();
    res.nodes = nodes_;
    res.line = graph_line(*g, root, res.line_end);
    res.seconds = seconds_since(start_);
    progress_ = nullptr;
    return true;
}

void Solver::deepen(const Position& root, const MoveList& root_moves, SolveResult& res,
                    std::vector<int>& root_height) {
    for (int depth = 1; !res.value.exact() && depth < kMaxDepth && !stopped_; ++depth) {
        res.depth = report_.depth = depth;
        for (int i = 0; i < root_moves.count && !stopped_; ++i) {
            SolvedMove& sm = res.moves[i];
            if (sm.value.exact()) continue;
            pos_ = root;
            pos_.make_move(sm.move);
            ValueBounds child{-sm.value.hi, -sm.value.lo};
            int heights[2] = {0, 0};
            tighten(child, depth - 1, heights);
            sm.value = {-child.hi, -child.lo};
            if (sm.value.lo == 1) root_height[i] = heights[1];
            if (sm.value.hi == -1) root_height[i] = heights[0];
            ValueBounds rb{-1, -1};
            report_.proven_moves = 0;
            for (const SolvedMove& x : res.moves) {
                rb.lo = std::max(rb.lo, x.value.lo);
                rb.hi = std::max(rb.hi, x.value.hi);
                report_.proven_moves += x.value.exact();
            }
            res.value = report_.root = rb;
            if (rb.exact()) break;
        }
    }
}

void Solver::prove_line(const Position& root, const MoveList& root_moves, const SolveLimits& limits,
                        const std::vector<int>& root_height, SolveResult& res) {
    // The line's own proofs: a quarter of the budget again (at least 2 million nodes), within
    // the limits given.
    limits_.max_nodes = nodes_ + std::max<std::uint64_t>(nodes_ / 4, 2000000);
    if (limits.max_nodes) limits_.max_nodes = std::min(limits_.max_nodes, limits.max_nodes);
    limits_.max_seconds =
        limits.max_seconds > 0
            ? std::min(seconds_since(start_) + limits.max_seconds / 4, limits.max_seconds)
            : 0;
    // The first move from what the root's solve proved (the table may have lost it since).
    int first = -1;
    for (int i = 0; i < root_moves.count; ++i) {
        const ValueBounds& v = res.moves[i].value;
        if (!v.exact() || v.lo != res.value.lo) continue;
        if (first < 0 || (v.lo == 1 && root_height[i] < root_height[first]) ||
            (v.lo == -1 && root_height[i] > root_height[first]))
            first = i;
    }
    if (first < 0) {
        res.line_end = LineEnd::NoMoves;
    } else {
        Position next = root;
        next.make_move(root_moves[first]);
        res.line =
            optimal_line(next, -res.value.lo, std::max(res.depth, 1), root.hash(), res.line_end);
        res.line.insert(res.line.begin(), root_moves[first]);
    }
}

// The walk both optimal lines take (see walk_line in solve.h).
std::vector<Move> Solver::walk_line(const Position& root, std::vector<Key> seen, LineEnd& end,
                                    const LineChooser& choose) {
    std::vector<Move> line;
    Position p = root;
    end = LineEnd::Length;
    MoveList moves;
    for (int turn = 0; turn < kMaxLine; ++turn) {
        generate_moves(p, rules_, moves);
        if (moves.empty()) {
            end = LineEnd::NoMoves;
            return line;
        }
        std::optional<Move> best;
        const Bitboard all = p.player() | p.opponent();
        if (table_pieces_ && p.opponent() && popcount(all) <= table_pieces_)
            if (const auto ranked = rank_table_moves(*tables_, p)) best = ranked->front().move;
        if (!best) best = choose(p, moves, turn);
        if (!best) {
            end = LineEnd::Unproven;
            return line;
        }
        line.push_back(*best);
        p.make_move(*best);
        if (std::find(seen.begin(), seen.end(), p.hash()) != seen.end()) {
            end = LineEnd::Repetition;
            return line;
        }
        seen.push_back(p.hash());
    }
    return line;
}

// The optimal line from `root` by the graph's values and levels.
std::vector<Move> Solver::graph_line(const GameGraph& g, const Position& root, LineEnd& end) {
    return walk_line(root, {root.hash()}, end,
                     [&](const Position& p, const MoveList& moves, int) -> std::optional<Move> {
                         const int node = g.find(p.hash());
                         if (node < 0) return std::nullopt;
                         const int value = g.value[node];
                         int best = -1, best_level = 0;
                         for (int i = 0; i < moves.count; ++i) {
                             Position next = p;
                             next.make_move(moves[i]);
                             const int c = g.find(next.hash());
                             if (g.value[c] != -value) continue;
                             const int level = g.level[c];
                             if (best < 0 || (value == 1 && level < best_level) ||
                                 (value == -1 && level > best_level))
                                 best = i, best_level = level;
                             if (value == 0) break;
                         }
                         if (best < 0) return std::nullopt;
                         return moves[best];
                     });
}

// The optimal line from `root` of value `value` for its side to move (see SolveResult).
std::vector<Move> Solver::optimal_line(const Position& root, int value, int depth, Key before,
                                       LineEnd& end) {
    return walk_line(
        root, {before, root.hash()}, end,
        [&](const Position& p, const MoveList& moves, int turn) -> std::optional<Move> {
            const int v = turn % 2 == 0 ? value : -value; // for the side to move at p
            std::optional<Move> best;
            int best_height = 0;
            for (int i = 0; i < moves.count; ++i) {
                // Each move's child solved as a root, deepening until exact or out of budget.
                ValueBounds child;
                int heights[2] = {0, 0};
                for (int d = depth; !child.exact() && !stopped_ && d < kMaxDepth; d *= 2) {
                    pos_ = p;
                    pos_.make_move(moves[i]);
                    tighten(child, d, heights);
                }
                if (stopped_) break;
                if (child.lo != -v) continue;
                if (v == 0) {
                    return moves[i];
                } else if (v == 1) { // the winner: the shortest proof
                    if (best_height == 0 || heights[1] < best_height)
                        best = moves[i], best_height = std::max(heights[1], 1);
                } else if (heights[0] + 1 > best_height) { // the loser: the longest
                    best = moves[i], best_height = heights[0] + 1;
                }
            }
            return best;
        });
}

} // namespace fanorona
