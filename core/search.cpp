#include "core/search.h"

#include <algorithm>
#include <atomic>
#include <cmath>

#include "core/correction.h"
#include "core/movepick.h"
#include "core/nnue/accumulator.h"
#include "core/timeman.h"
#include "core/transposition.h"
#include "core/weights.h"

namespace fanorona {

namespace {

// Static scores stay inside +-kEvalLimit, below the table scores.
constexpr int kEvalLimit = kTableWinScore - kTableBand;
static_assert(nnue::kMaxNetEval == kEvalLimit, "network_problem() refuses nets beyond kEvalLimit");
constexpr int kTableMaxDistance = kTableBand - kMaxPly - 1;
constexpr int kLmrSize = 64;

// Win, loss and table scores count plies from the root; the table stores them from the node.
int score_to_tt(int s, int ply) {
    return s > kEvalLimit ? s + ply : s < -kEvalLimit ? s - ply : s;
}
// True when the side to move has a paika move (a piece next to an empty point on a line); in
// Fanoron-telo, when it has any move.
bool has_paika(const Position& pos, const Rules& rules) {
    if (is_telo(pos.variant())) return count_moves(pos, rules) != 0;
    const Geometry& g = pos.geo();
    const Bitboard empty = pos.empty();
    for (int d = 0; d < kDirections; ++d)
        if (pos.player() & g.shift(empty, opposite(Direction(d)))) return true;
    return false;
}

// Positions this close to the no-capture limit (or closer) are stored in the table under a key
// that includes the counter: their scores depend on it (a draw within reach), so a score found
// with a lower counter must not be used, nor the other way round. Farther from the limit no
// search line reaches it, and the same position shares one entry whatever its counter.
constexpr int kNoCaptureWindow = 40;

// A key for each counter value, mixed into the position's key (SplitMix64 of the counter).
constexpr Key counter_key(int counter) {
    std::uint64_t z = 0xD1B54A32D192ED03ULL * std::uint64_t(counter + 1);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

int score_from_tt(int s, int ply) {
    return s > kEvalLimit ? s - ply : s < -kEvalLimit ? s + ply : s;
}

static_assert(nnue::AccumulatorStack::kCapacity >= kMaxPly + 3);

} // namespace

// Everything a search needs, allocated once per Searcher: nothing is allocated per node.
struct Searcher::Impl {
    // Per-ply scratch space. Invariant: only plies [0, ply] are in use during a search.
    struct Ply {
        MoveList moves;
        MoveOrder order;                            // the ordering scores of `moves`
        std::array<int, kInlineMoves> quiets_tried; // the first kInlineMoves only
        Killers killers;
        Move played{0, 0, 0}; // the move made from this ply (a null move: {0, 0, 0})
        int plies_from_null = 0;
        // While a singular-extension search runs at this ply: the table move it leaves out.
        Move excluded{0, 0, 0};
        bool excluding = false;
    };

    Weights weights = handset_weights();
    // The network (null: none) and whether this search uses it (it plays the game's board); the
    // accumulators of the search path, one per ply (acc.size() == ply + 1 while use_net).
    std::shared_ptr<const nnue::Network> net;
    bool use_net = false;
    nnue::AccumulatorStack acc;
    SearchParams params;
    TranspositionTable tt;
    std::vector<Ply> plies = std::vector<Ply>(kMaxPly + 2);
    std::vector<std::array<Move, kMaxPly + 1>> pv =
        std::vector<std::array<Move, kMaxPly + 1>>(kMaxPly + 2);
    std::array<int, kMaxPly + 2> pv_length{};
    History history;
    CorrectionHistory correction;
    CounterMoveTable counter_moves;
    std::array<std::array<std::uint8_t, kLmrSize>, kLmrSize> lmr{};
    std::vector<Key> keys; // game history then search path; keys.back() is the current position
    std::atomic<bool> stop_flag{false};
    // Static evaluations by position key: the upper 32 bits of the key, checked, and the score.
    // Small enough to stay in the L2 cache (an evaluation costs about as much as a memory load).
    struct EvalCacheEntry {
        std::uint32_t check = 0;
        bool filled = false;
        std::int32_t score = 0;
    };
    static constexpr std::size_t kEvalCacheSize = std::size_t(1) << 14;
    std::vector<EvalCacheEntry> eval_cache = std::vector<EvalCacheEntry>(kEvalCacheSize);
    Rules eval_cache_rules; // the rules the cached evaluations were computed under
    void clear_eval_cache() { std::fill(eval_cache.begin(), eval_cache.end(), EvalCacheEntry{}); }

    // The current search.
    Rules rules;
    Position pos;
    int root_index = 0; // index in `keys` of the root position
    std::uint64_t nodes = 0;
    std::uint64_t node_limit = 0;
    bool stopped = false;
    TimeManager time;
    int seldepth = 0;
    // The best root move of the current iteration so far: set once a root move has been searched
    // fully and beaten alpha (the first move, or a later one that proved better), so usable when
    // the iteration is stopped. Cleared when an iteration starts.
    Move root_best{0, 0, 0};
    int root_best_score = 0;
    bool root_has_best = false;
    std::shared_ptr<const EndgameProbe> tables;
    int table_pieces = 0; // probe positions with at most this many pieces (0: off)
    std::uint64_t table_hits = 0;
    MoveList root_allowed; // with tables at the root: the moves the tables rank best
    bool root_filtered = false;

    explicit Impl(std::size_t mb) : tt(mb) {}

    // The table's key of the current position (see kNoCaptureWindow).
    Key tt_key() const {
        const int counter = pos.turns_since_capture();
        return rules.no_capture_limit > 0 && counter >= rules.no_capture_limit - kNoCaptureWindow
                   ? pos.hash() ^ counter_key(counter)
                   : pos.hash();
    }

    int draw_score(int ply) const {
        return ply % 2 == 0 ? -params[Param::Contempt] : params[Param::Contempt];
    }

    // The evaluation, clamped below decisive scores; `largest_capture` as for evaluate(). A
    // pure function of the position, its no-capture counter, the rules and the weights, so
    // looked up first in the evaluation cache (cleared when the rules or the weights change).
    int static_eval(int largest_capture = -1) {
        const Key key = pos.hash() ^ counter_key(pos.turns_since_capture());
        EvalCacheEntry& e = eval_cache[key & (kEvalCacheSize - 1)];
        const auto check = std::uint32_t(key >> 32);
        if (e.check == check && e.filled) return e.score;
        const int raw = use_net ? nnue::evaluate(*net, acc.current(*net), pos.side_to_move(),
                                                 popcount(pos.player() | pos.opponent()))
                                : evaluate(pos, rules, weights, largest_capture);
        const int score = std::clamp(raw, -kEvalLimit, kEvalLimit);
        e = {check, true, score};
        return score;
    }

    // The static score of a quiet position with its correction (core/correction.h).
    int corrected_eval() {
        return std::clamp(static_eval(0) + correction.correction(pos), -kEvalLimit, kEvalLimit);
    }

    // True when the current position (keys.back()) repeats: within the search path, or often
    // enough counting the game's history to be a draw by rule.
    bool is_repetition(int ply) const {
        if (rules.repetition_count <= 0) return false;
        const int top = int(keys.size()) - 1;
        const int reach = std::min({pos.turns_since_capture(), plies[ply].plies_from_null, top});
        const Key k = keys[top];
        int count = 1;
        for (int i = top - 2; i >= top - reach; i -= 2)
            if (keys[i] == k) {
                if (i >= root_index) return true;
                if (++count >= rules.repetition_count) return true;
            }
        return false;
    }

    bool check_stop() {
        if (stopped) return true;
        if (node_limit && nodes >= node_limit) return stopped = true;
        if ((nodes & (kTimeCheckNodes - 1)) == 0) {
            if (stop_flag.load(std::memory_order_relaxed)) return stopped = true;
            if (time.deadline_passed()) return stopped = true;
        }
        return false;
    }

    void init_lmr() {
        const double base = params[Param::LmrBase] / 100.0, div = params[Param::LmrDiv] / 100.0;
        for (int d = 1; d < kLmrSize; ++d)
            for (int m = 1; m < kLmrSize; ++m)
                lmr[d][m] =
                    std::uint8_t(std::clamp(base + std::log(d) * std::log(m) / div, 0.0, 32.0));
    }

    void push(const Move& m, UndoInfo& undo, int ply) {
        plies[ply].played = m;
        if (use_net) acc.push(pos, m);
        undo = pos.make_move(m);
        tt.prefetch(tt_key());
        keys.push_back(pos.hash());
        plies[ply + 1].plies_from_null = plies[ply].plies_from_null + 1;
    }
    void pop(const Move& m, const UndoInfo& undo) {
        keys.pop_back();
        if (use_net) acc.pop();
        pos.unmake_move(m, undo);
    }

    // The score of a table value at this node (see search.h).
    int table_score(const TableValue& v, int ply) const {
        const int outcome = table_outcome(v, rules, pos.turns_since_capture());
        const int d = std::min(v.distance, kTableMaxDistance);
        if (outcome > 0) return kTableWinScore - ply - d;
        if (outcome < 0) return -(kTableWinScore - ply - d);
        const bool winning = v.cls == TableClass::Win || v.cls == TableClass::CursedWin;
        const bool losing = v.cls == TableClass::Loss || v.cls == TableClass::BlessedLoss;
        return draw_score(ply) + (winning ? 1 : losing ? -1 : 0);
    }
    // Restricts the root moves to the best-ranked ones when the root is in the tables.
    void filter_root_moves(MoveList& moves);

    int negamax(int alpha, int beta, int depth, int ply, bool allow_null);
    SearchResult run(const Game& game, const SearchLimits& limits,
                     const std::function<void(const IterationInfo&)>& on_iteration);
};

int Searcher::Impl::negamax(int alpha, int beta, int depth, int ply, bool allow_null) {
    const bool pv_node = beta - alpha > 1;
    pv_length[ply] = ply;
    if (stopped) return 0;
    ++nodes;
    if (ply > seldepth) seldepth = ply;
    if (check_stop()) return 0;

    // Step 1. The game's end and draws by rule.
    if (wiped_out(pos)) return -(kWinScore - ply);
    // As Game::outcome(): no legal move loses before a repetition or the no-capture limit draws.
    Ply& p = plies[ply];
    const bool excluding = p.excluding;
    if (ply > 0 && (is_repetition(ply) || (rules.no_capture_limit > 0 &&
                                           pos.turns_since_capture() >= rules.no_capture_limit))) {
        generate_moves(pos, rules, p.moves);
        return p.moves.empty() ? -(kWinScore - ply) : draw_score(ply);
    }
    // Step 2. The endgame tables.
    if (ply > 0 && table_pieces && popcount(pos.player() | pos.opponent()) <= table_pieces) {
        if (const auto v = tables->probe(pos)) {
            ++table_hits;
            return table_score(*v, ply);
        }
    }
    if (ply >= kMaxPly) return static_eval();

    // Step 3. Mate distance pruning.
    if (ply > 0) {
        alpha = std::max(alpha, -(kWinScore - ply));
        beta = std::min(beta, kWinScore - ply - 1);
        if (alpha >= beta) return alpha;
    }

    // Step 4. The horizon: a quiet position gets its static score (corrected by the correction
    // history when CorrHistory is 2); forced captures go on (no stand pat: capturing is
    // compulsory) for at most QsMaxDepth plies.
    const TurnRights rights = turn_rights(pos, rules);
    const Bitboard capturers = rights.may_capture ? capturing_pieces(pos) : 0;
    const bool captures = capturers != 0;
    if (depth <= 0 && !captures) {
        if (!has_paika(pos, rules)) return -(kWinScore - ply);
        return params[Param::CorrHistory] >= 2 ? corrected_eval() : static_eval(0);
    }

    // Step 5. Transposition table.
    // A singular-extension search of this node (excluding) neither reads nor writes the table.
    const Key key = tt_key();
    const TTEntry* entry = excluding ? nullptr : tt.probe(key);
    Move tt_move{0, 0, 0};
    bool has_tt_move = false;
    int tt_score = 0, tt_depth = 0;
    Bound tt_bound = BoundNone;
    if (entry) {
        has_tt_move = entry->has_move;
        tt_move = entry->move();
        tt_score = score_from_tt(entry->score, ply);
        tt_depth = entry->depth;
        tt_bound = Bound(entry->bound);
        if (!pv_node && tt_depth >= depth &&
            (tt_bound == BoundExact || (tt_bound == BoundLower && tt_score >= beta) ||
             (tt_bound == BoundUpper && tt_score <= alpha)))
            return tt_score;
    }

    // Step 6. Internal iterative reduction: without a table move to try first, a deep node is
    // searched a ply shallower (its ordering is a guess; the re-visit at the next iteration has the
    // move).
    if (depth >= params[Param::IirMinDepth] && !has_tt_move && !excluding) --depth;

    // Step 6b. Singular extension: when the table move's lower bound was found at nearly this
    // depth and every other move stays below it by a margin at half depth, the table move is
    // extended by a ply; when even the other moves beat beta, the node is cut (multi-cut).
    int singular_ext = 0;
    if (ply > 0 && !excluding && has_tt_move && depth >= params[Param::SeMinDepth] &&
        (tt_bound == BoundLower || tt_bound == BoundExact) && tt_depth >= depth - 3 &&
        !is_decisive(tt_score)) {
        const int singular_beta = tt_score - params[Param::SeMargin] * depth / 8;
        p.excluded = tt_move;
        p.excluding = true;
        const int s = negamax(singular_beta - 1, singular_beta, (depth - 1) / 2, ply, false);
        p.excluding = false;
        if (stopped) return 0;
        if (s < singular_beta)
            singular_ext = 1;
        else if (!pv_node && singular_beta >= beta)
            return singular_beta;
    }

    generate_moves(pos, rights, capturers, p.moves);
    if (p.moves.empty()) return -(kWinScore - ply);
    if (ply == 0 && root_filtered) filter_root_moves(p.moves);
    const int move_count = p.moves.count;

    // Step 7. Past the horizon in a capture position: stop at QsMaxDepth, or when the static score
    // (which counts the largest capture) beats beta by QsCutMargin.
    if (depth <= 0) {
        const int largest = largest_capture(p.moves);
        if (depth <= -params[Param::QsMaxDepth]) return static_eval(largest);
        if (!pv_node && (params[Param::QsCutMargin] >= 0 || params[Param::QsLowMargin] >= 0)) {
            const int e = static_eval(largest);
            if (params[Param::QsCutMargin] >= 0 && e - params[Param::QsCutMargin] >= beta) return e;
            if (params[Param::QsLowMargin] >= 0 && e + params[Param::QsLowMargin] <= alpha)
                return e;
        }
    } else if (captures && params[Param::RfpCaptures] && !pv_node && !is_decisive(beta) &&
               depth <= params[Param::RfpMaxDepth]) {
        // Reverse futility pruning of a capture node, from the score after its largest capture.
        const int e = static_eval(largest_capture(p.moves));
        if (e - params[Param::RfpMargin] * depth >= beta) return e;
    }

    // Step 8. Pruning of quiet nodes from the static score: reverse futility, then null move.
    const bool prune_ok = !pv_node && !captures && depth > 0 && !is_decisive(beta);
    int eval = 0;
    if (prune_ok) {
        eval = params[Param::CorrHistory] ? corrected_eval() : static_eval(0);
        if (!excluding && depth <= params[Param::RfpMaxDepth] &&
            eval - params[Param::RfpMargin] * depth >= beta)
            return eval;
        if (allow_null && !excluding && depth >= params[Param::NmpMinDepth] && eval >= beta &&
            !is_telo(pos.variant()) && // zugzwang is the rule in telo: a pass proves nothing
            popcount(pos.player()) >= params[Param::NmpMinPieces]) {
            const Position saved = pos;
            if (use_net) acc.push_null();
            pos = Position::from_pieces(pos.variant(), pos.pieces(Color::White),
                                        pos.pieces(Color::Black), ~pos.side_to_move(),
                                        pos.turns_since_capture() + 1, pos.turn() + 1);
            keys.push_back(pos.hash());
            plies[ply].played = Move{0, 0, 0};
            plies[ply + 1].plies_from_null = 0;
            const int r = params[Param::NmpReduction] + depth / 4;
            const int s = -negamax(-beta, -beta + 1, depth - 1 - r, ply + 1, false);
            keys.pop_back();
            if (use_net) acc.pop();
            pos = saved;
            if (stopped) return 0;
            if (s >= beta) return is_decisive(s) ? beta : s;
        }
    }

    // Step 9. Move ordering, and the limits of futility, late-move and history pruning.
    const Color us = pos.side_to_move();
    const Move* counter = nullptr;
    if (params[Param::CounterMoves] && ply > 0 &&
        plies[ply - 1].played.from != plies[ply - 1].played.to)
        counter = &counter_moves.at(us, plies[ply - 1].played);
    p.order.score(p.moves, has_tt_move ? &tt_move : nullptr, p.killers, history, us, counter, &pos,
                  params[Param::UnsafePenalty]);
    const int ext = (move_count == 1 && params[Param::SingleReplyExt]) ? 1 : 0;
    const int alpha_orig = alpha;
    int best_score = -kInfiniteScore;
    Move best_move{0, 0, 0};
    bool has_best = false;
    int searched = 0, quiets = 0;
    const bool fut_ok = prune_ok && depth <= params[Param::FutMaxDepth] &&
                        eval + params[Param::FutMargin] * depth <= alpha;
    const int lmp_limit = prune_ok && depth <= params[Param::LmpMaxDepth]
                              ? params[Param::LmpBase] + depth * depth
                              : move_count;
    const int history_floor = prune_ok && depth <= params[Param::HistPruneDepth]
                                  ? -params[Param::HistPruneMargin] * depth
                                  : -kHistoryMax - 1;

    // Step 10. The moves: pruning of late quiet moves, then principal variation search with
    // late-move reductions.
    for (int i = 0; i < move_count; ++i) {
        p.order.pick(p.moves, i);
        const Move m = p.moves[i];
        if (excluding && m == p.excluded) continue;
        const bool quiet = !m.is_capture();
        const bool is_tt_move = has_tt_move && m == tt_move;
        const bool special = is_tt_move || p.killers.contains(m);
        if (depth <= 0 && searched >= params[Param::QsMaxMoves]) break;
        if (searched > 0 && quiet && !special && !is_decisive(best_score)) {
            if (fut_ok) continue;
            if (searched >= lmp_limit) continue;
            if (history.at(us, m) < history_floor) continue;
        }
        const int new_depth = depth - 1 + (is_tt_move ? std::max(ext, singular_ext) : ext);
        UndoInfo undo;
        push(m, undo, ply);
        int score;
        if (searched == 0) {
            score = -negamax(-beta, -alpha, new_depth, ply + 1, true);
        } else {
            int r = 0;
            if (depth >= params[Param::LmrMinDepth] && searched >= params[Param::LmrMinMoves] &&
                (quiet || params[Param::LmrCaptures]) && !special) {
                r = lmr[std::min(depth, kLmrSize - 1)][std::min(searched, kLmrSize - 1)];
                if (pv_node && r > 0) --r;
                if (quiet && params[Param::LmrHistoryDiv])
                    r -= history.at(us, m) / params[Param::LmrHistoryDiv];
                r = std::clamp(r, 0, std::max(new_depth - 1, 0));
            }
            score = -negamax(-alpha - 1, -alpha, new_depth - r, ply + 1, true);
            if (score > alpha && r > 0)
                score = -negamax(-alpha - 1, -alpha, new_depth, ply + 1, true);
            if (score > alpha && score < beta)
                score = -negamax(-beta, -alpha, new_depth, ply + 1, true);
        }
        pop(m, undo);
        if (stopped) return 0;
        ++searched;
        if (score > best_score) {
            best_score = score;
            if (score > alpha) {
                alpha = score;
                best_move = m;
                has_best = true;
                pv[ply][ply] = m;
                for (int j = ply + 1; j < pv_length[ply + 1]; ++j) pv[ply][j] = pv[ply + 1][j];
                pv_length[ply] = std::max(pv_length[ply + 1], ply + 1);
                if (ply == 0) {
                    root_best = m;
                    root_best_score = score;
                    root_has_best = true;
                }
                if (alpha >= beta) break;
            }
        }
        if (quiet && quiets < kInlineMoves) p.quiets_tried[quiets++] = i;
    }

    // Every move was left out: the table move was the only one (a singular-extension search fails
    // low); pruning keeps the first move searched.
    if (searched == 0) return excluding ? alpha : static_eval();

    // Step 11. History, killers and counter moves; the correction history; the table entry.
    if (best_score >= beta && depth > 0) {
        // A cut-off: reward the move, punish the quiet moves tried before it.
        update_on_cutoff(history, p.killers, us, p.moves,
                         std::span<const int>(p.quiets_tried.data(), std::size_t(quiets)),
                         best_move, depth);
        if (counter && !best_move.is_capture())
            counter_moves.set(us, plies[ply - 1].played, best_move);
    }

    const Bound bound = best_score >= beta   ? BoundLower
                        : alpha > alpha_orig ? BoundExact
                                             : BoundUpper;
    // The correction history learns from quiet nodes whose score says more than a bound on the
    // same side of the static score.
    if (excluding) return best_score; // a search without the table move: nothing to learn or store
    if (params[Param::CorrHistory] && !captures && depth > 0 && !is_decisive(best_score)) {
        const int e = prune_ok ? eval : corrected_eval();
        if (!(bound == BoundLower && best_score <= e) && !(bound == BoundUpper && best_score >= e))
            correction.update(pos, best_score - e, depth);
    }
    tt.store(key, score_to_tt(best_score, ply), depth, bound, has_best ? &best_move : nullptr);
    return best_score;
}

void Searcher::Impl::filter_root_moves(MoveList& moves) {
    int kept = 0;
    for (int i = 0; i < moves.count; ++i)
        if (root_allowed.contains(moves[i])) moves[kept++] = moves[i];
    moves.count = kept;
}

SearchResult Searcher::Impl::run(const Game& game, const SearchLimits& limits,
                                 const std::function<void(const IterationInfo&)>& on_iteration) {
    time.start(limits, game.position().side_to_move(), params[Param::MoveOverheadMs],
               params[Param::TmMaxPercent]);
    rules = game.rules();
    if (!(rules == eval_cache_rules)) {
        clear_eval_cache();
        eval_cache_rules = rules;
    }
    pos = game.position();
    use_net = net && nnue::plays(net->arch, pos);
    if (use_net) acc.reset(*net, pos);
    keys.clear();
    keys.reserve(game.hashes().size() + kMaxPly + 8);
    keys.assign(game.hashes().begin(), game.hashes().end());
    root_index = int(keys.size()) - 1;
    plies[0].plies_from_null = root_index;
    for (Ply& p : plies) p.killers.clear();
    nodes = 0;
    node_limit = limits.nodes;
    stopped = false;
    seldepth = 0;
    root_has_best = false;
    table_hits = 0;
    root_filtered = false;
    table_pieces = tables && tables->serve(rules) ? tables->max_pieces(rules.variant) : 0;
    tt.new_search();
    init_lmr();

    SearchResult result;
    MoveList& root_moves = plies[0].moves;
    generate_moves(pos, rules, root_moves);
    if (root_moves.empty()) {
        result.score = -kWinScore;
        stop_flag.store(false);
        return result;
    }
    result.has_move = true;
    if (table_pieces && popcount(pos.player() | pos.opponent()) <= table_pieces) {
        // Progress by the tables' distance: only the best-ranked moves are searched.
        if (const auto ranked = rank_table_moves(*tables, pos)) {
            root_allowed.count = 0;
            for (const TableMove& m : *ranked)
                if (table_rank(m.value) == table_rank(ranked->front().value))
                    root_allowed.push(m.move);
            root_filtered = true;
            filter_root_moves(root_moves);
        }
    }
    result.best = root_moves[0];

    const int side = int(pos.side_to_move());
    const bool no_limit = limits.depth <= 0 && limits.nodes == 0 && limits.movetime_ms <= 0 &&
                          limits.time_ms[side] <= 0 && !limits.infinite;
    const int max_depth = std::min(limits.depth > 0 ? limits.depth
                                   : no_limit       ? SearchLimits::kDefaultDepth
                                                    : kMaxPly - 1,
                                   kMaxPly - 1);
    int score = 0;
    int same_best = 0; // completed iterations in a row whose best move was the one before's
    for (int depth = 1; depth <= max_depth; ++depth) {
        int window = params[Param::AspWindow];
        int alpha = -kInfiniteScore, beta = kInfiniteScore;
        if (depth >= params[Param::AspMinDepth] && !is_decisive(score)) {
            alpha = std::max(score - window, -kInfiniteScore);
            beta = std::min(score + window, kInfiniteScore);
        }
        int s = 0;
        root_has_best = false; // kept across the aspiration re-searches of this iteration
        while (true) {
            s = negamax(alpha, beta, depth, 0, false);
            if (stopped) break;
            if (s <= alpha) {
                beta = (alpha + beta) / 2;
                alpha = std::max(s - window, -kInfiniteScore);
            } else if (s >= beta) {
                beta = std::min(s + window, kInfiniteScore);
            } else {
                break;
            }
            window *= 2;
            if (window > 1000) alpha = -kInfiniteScore, beta = kInfiniteScore;
        }
        if (stopped) {
            // An unfinished iteration gives its best move so far once a root move has been
            // searched fully; otherwise the last completed iteration's move stands.
            if (root_has_best) {
                result.partial = true;
                result.best = root_best;
                result.score = root_best_score;
                result.pv.assign(pv[0].begin(), pv[0].begin() + pv_length[0]);
                if (result.pv.empty() || result.pv[0] != root_best) result.pv = {root_best};
            }
            break;
        }
        score = s;
        same_best = depth > 1 && pv[0][0] == result.best ? same_best + 1 : 0;
        result.best = pv[0][0];
        result.score = s;
        result.depth = depth;
        result.pv.assign(pv[0].begin(), pv[0].begin() + pv_length[0]);
        result.seldepth = seldepth;
        if (on_iteration) {
            IterationInfo info{depth, s, nodes, time.elapsed(), result.pv, seldepth, tt.hashfull()};
            on_iteration(info);
        }
        if (limits.infinite) continue;
        // On a clock, a settled best move ends the search early and a new one lets it run on.
        const int share_percent = same_best >= 4   ? params[Param::TmStablePercent]
                                  : same_best == 0 ? params[Param::TmChangePercent]
                                                   : 100;
        if (time.stop_after_iteration(root_moves.count, share_percent)) break;
        if (is_decisive(s) && depth > plies_to_end(s) + 2 && limits.depth <= 0) break;
    }
    result.nodes = nodes;
    result.table_hits = table_hits;
    result.seconds = time.elapsed();
    stop_flag.store(false);
    return result;
}

Searcher::Searcher(std::size_t hash_mb) : impl_(std::make_unique<Impl>(hash_mb)) {}
Searcher::~Searcher() = default;
Searcher::Searcher(Searcher&&) noexcept = default;
Searcher& Searcher::operator=(Searcher&&) noexcept = default;

void Searcher::set_weights(const Weights& w) {
    impl_->weights = w;
    impl_->clear_eval_cache();
}
void Searcher::set_network(std::shared_ptr<const nnue::Network> net) {
    impl_->net = std::move(net);
    impl_->clear_eval_cache();
}
const std::shared_ptr<const nnue::Network>& Searcher::network() const {
    return impl_->net;
}
const Weights& Searcher::weights() const {
    return impl_->weights;
}
SearchParams& Searcher::params() {
    return impl_->params;
}
const SearchParams& Searcher::params() const {
    return impl_->params;
}
void Searcher::set_hash_mb(std::size_t mb) {
    impl_->tt.resize(mb);
}
std::size_t Searcher::hash_mb() const {
    return impl_->tt.size_mb();
}
void Searcher::clear() {
    impl_->tt.clear();
    impl_->history.clear();
    impl_->correction.clear();
    impl_->counter_moves.clear();
    for (auto& p : impl_->plies) p.killers.clear();
}
void Searcher::set_tables(std::shared_ptr<const EndgameProbe> tables) {
    impl_->tables = std::move(tables);
}
const std::shared_ptr<const EndgameProbe>& Searcher::tables() const {
    return impl_->tables;
}
SearchResult Searcher::search(const Game& game, const SearchLimits& limits,
                              const std::function<void(const IterationInfo&)>& on_iteration) {
    return impl_->run(game, limits, on_iteration);
}
void Searcher::stop() {
    impl_->stop_flag.store(true);
}
void Searcher::clear_stop() {
    impl_->stop_flag.store(false);
}

} // namespace fanorona
