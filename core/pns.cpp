// df-pn with repetition draws and a table of path-independent proofs (see pns.h).

#include "core/pns.h"

#include "core/solve_graph.h"

#include <algorithm>
#include <climits>

namespace fanorona {

namespace {

constexpr std::uint64_t kPnInf = std::uint64_t(1) << 40; // proof / disproof number "infinite"
constexpr int kPnNoRep = INT_MAX;
constexpr int kPnMaxPly = 3000; // deeper lines are left unsearched (unknown, never proven)

// Sums stay finite (a sum of proof numbers is infinite only with an infinite term, and then a
// child is disproven and decides the node first).
std::uint64_t pn_add(std::uint64_t a, std::uint64_t b) {
    return std::min(kPnInf - 1, a + b);
}

std::uint32_t pn_store(std::uint64_t n) {
    return n >= kPnInf ? 0xFFFFFFFFu : std::uint32_t(std::min<std::uint64_t>(n, 0xFFFFFFFEu));
}

std::uint64_t pn_load(std::uint32_t n) {
    return n == 0xFFFFFFFFu ? kPnInf : n;
}

double pn_seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

} // namespace

PnSearcher::PnSearcher(std::size_t hash_mb)
    : graph_limit_(std::max<std::size_t>(10000, hash_mb * 4096)) {
    std::size_t n = 1;
    while ((n * 2) * sizeof(Bucket) <= hash_mb * 1024 * 1024) n *= 2;
    buckets_.assign(n, Bucket{});
    mask_ = n - 1;
}

const PnsEntry* PnSearcher::probe(Key key) const {
    if (key == 0) return nullptr;
    const Bucket& b = buckets_[key & mask_];
    for (const PnsEntry& e : b.e)
        if (e.key == key) return &e;
    return nullptr;
}

// The entry for `key`; when missing, it replaces the least valuable entry of the bucket (empty
// first, then the one with the least proven and the least work).
PnsEntry& PnSearcher::slot(Key key) {
    Bucket& b = buckets_[key & mask_];
    for (PnsEntry& e : b.e)
        if (e.key == key) return e;
    const auto worth = [](const PnsEntry& e) {
        if (e.key == 0) return std::uint64_t(0);
        return (std::uint64_t(e.lo == e.hi) << 34) + (std::uint64_t(e.proven()) << 33) + e.work + 1;
    };
    PnsEntry* chosen = &b.e[0];
    for (PnsEntry& e : b.e)
        if (worth(e) < worth(*chosen)) chosen = &e;
    *chosen = PnsEntry{};
    chosen->key = key;
    return *chosen;
}

void PnSearcher::for_each_proven(const std::function<void(Key, int, int)>& f) const {
    for (const Bucket& b : buckets_)
        for (const PnsEntry& e : b.e)
            if (e.key != 0 && e.proven()) f(e.key, e.lo, e.hi);
}

void PnSearcher::add_proven(Key key, int lo, int hi) {
    if (key == 0 || lo > hi || lo < -1 || hi > 1) return;
    PnsEntry& e = slot(key);
    e.lo = std::int8_t(std::max<int>(e.lo, lo));
    e.hi = std::int8_t(std::min<int>(e.hi, hi));
    e.work = std::max<std::uint32_t>(e.work, 1u << 20);
}

int PnSearcher::repetition(Key key, int ply, bool capture) const {
    if (capture) return -1;
    // reset_[j]: the move into ply j captured; positions before a capture cannot come back.
    for (int i = ply - 1; i >= 0 && !reset_[i + 1]; --i)
        if (((ply - i) & 1) == 0 && path_[i] == key) return i;
    return -1;
}

void PnSearcher::poll() {
    if (limits_->max_nodes && nodes_ - start_nodes_ >= limits_->max_nodes) stopped_ = true;
    if (limits_->max_seconds > 0 && pn_seconds_since(start_) >= limits_->max_seconds)
        stopped_ = true;
    if (limits_->poll && pn_seconds_since(last_poll_) >= limits_->poll_seconds) {
        last_poll_ = std::chrono::steady_clock::now();
        if (limits_->poll()) stopped_ = true;
    }
}

// The df-pn node: "value >= t" for the side to move in pos_ at path ply `ply`, searched until
// proven, disproven, or its proof number reaches th_pn or its disproof number th_dn.
PnSearcher::Result PnSearcher::mid(int t, std::uint64_t th_pn, std::uint64_t th_dn, int ply) {
    ++nodes_;
    if ((nodes_ & 1023) == 0) poll();
    if (stopped_) return {1, 1, kPnNoRep};
    const std::uint64_t nodes_before = nodes_;
    const Key key = pos_.hash();
    if (const PnsEntry* e = probe(key)) {
        if (e->lo >= t) return {0, kPnInf, kPnNoRep};
        if (e->hi < t) return {kPnInf, 0, kPnNoRep};
    }
    // Fewer pieces than any graph that did not fit: this position's graph solved whole, every
    // value in it kept (exact, path-independent: cycles are draws there).
    if (const int pieces = popcount(pos_.player() | pos_.opponent()); pieces < graph_pieces_) {
        const auto g =
            solve_graph(pos_, rules_, tables_.get(), table_pieces_, graph_limit_, nodes_, [this] {
                poll();
                return stopped_;
            });
        if (stopped_) return {1, 1, kPnNoRep};
        if (!g) {
            graph_pieces_ = pieces;
        } else {
            ++graphs_;
            for (const auto& [k, i] : g->index) {
                PnsEntry& e = slot(k);
                e.lo = e.hi = g->value[i];
                e.work = std::max<std::uint32_t>(e.work, 1u << 16);
            }
            return g->value[0] >= t ? Result{0, kPnInf, kPnNoRep} : Result{kPnInf, 0, kPnNoRep};
        }
    }
    if (lists_.size() <= std::size_t(ply)) {
        lists_.resize(ply + 1);
        children_.resize(ply + 1);
    }
    if (path_.size() <= std::size_t(ply) + 1) {
        path_.resize(ply + 2);
        reset_.resize(ply + 2);
    }
    MoveList& moves = lists_[ply];
    generate_moves(pos_, rules_, moves);
    if (moves.empty()) { // no move (or no piece): lost
        PnsEntry& e = slot(key);
        e.lo = e.hi = -1;
        return {kPnInf, 0, kPnNoRep};
    }
    const int tc = 1 - t; // the children's threshold, for their side to move
    const auto known = [tc](int value, int rep) -> Child {
        return value >= tc ? Child{{0, 0, 0}, 0, 0, kPnInf, rep, true}
                           : Child{{0, 0, 0}, 0, kPnInf, 0, rep, true};
    };
    std::vector<Child>& children = children_[ply];
    children.clear();
    for (const Move& m : moves) {
        const UndoInfo undo = pos_.make_move(m);
        const Key k = pos_.hash();
        Child c{m, k, 1, 1, kPnNoRep, false};
        reset_[ply + 1] = m.is_capture();
        const Bitboard all = pos_.player() | pos_.opponent();
        if (const int r = repetition(k, ply + 1, m.is_capture()); r >= 0) {
            c = known(0, r);
        } else if (!pos_.player()) {
            c = known(-1, kPnNoRep); // every piece captured
        } else if (const auto v = table_pieces_ && pos_.opponent() && popcount(all) <= table_pieces_
                                      ? tables_->probe(pos_)
                                      : std::nullopt) {
            ++table_hits_;
            c = known(table_outcome(*v, rules_, 0), kPnNoRep);
        } else if (ply + 1 >= kPnMaxPly) {
            c.pn = c.dn = kPnInf - 1; // beyond the horizon: never proven through
        }
        c.move = m, c.key = k;
        pos_.unmake_move(m, undo);
        children.push_back(c);
    }
    // Captures first (more pieces first), so ties in the selection prefer them.
    std::stable_sort(children.begin(), children.end(), [](const Child& a, const Child& b) {
        return popcount(a.move.captured) > popcount(b.move.captured);
    });
    for (;;) {
        std::uint64_t phi = kPnInf, delta = 0;
        std::size_t best = 0;
        std::uint64_t best_dn = kPnInf + 1, second_dn = kPnInf;
        for (std::size_t i = 0; i < children.size(); ++i) {
            Child& c = children[i];
            if (!c.done) {
                if (const PnsEntry* e = probe(c.key)) {
                    if (e->lo >= tc) {
                        c.pn = 0, c.dn = kPnInf, c.rep = kPnNoRep, c.done = true;
                    } else if (e->hi < tc) {
                        c.pn = kPnInf, c.dn = 0, c.rep = kPnNoRep, c.done = true;
                    } else if (e->pn[tc] != 0) {
                        c.pn = pn_load(e->pn[tc]), c.dn = pn_load(e->dn[tc]);
                    }
                }
            }
            phi = std::min(phi, c.dn);
            delta = pn_add(delta, c.pn);
            if (c.dn < best_dn) {
                second_dn = best_dn;
                best_dn = c.dn, best = i;
            } else if (c.dn < second_dn) {
                second_dn = c.dn;
            }
        }
        if (phi == 0 || delta == 0) {
            // Proven by a child disproven, or disproven with every child proven: the proof's
            // repetitions are those of the deciding children.
            int rep = kPnNoRep;
            if (phi == 0) { // the least path-dependent of the disproven children
                rep = -1;
                for (const Child& c : children)
                    if (c.dn == 0) rep = std::max(rep, c.rep);
            } else {
                for (const Child& c : children) rep = std::min(rep, c.rep);
            }
            if (rep >= ply) {
                PnsEntry& e = slot(key);
                if (phi == 0) e.lo = std::int8_t(std::max<int>(e.lo, t));
                if (delta == 0) e.hi = std::int8_t(std::min<int>(e.hi, t - 1));
                e.work = pn_store(std::uint64_t(e.work) + (nodes_ - nodes_before));
            }
            return phi == 0 ? Result{0, kPnInf, rep} : Result{kPnInf, 0, rep};
        }
        if (phi >= th_pn || delta >= th_dn) {
            PnsEntry& e = slot(key);
            e.pn[t] = pn_store(phi), e.dn[t] = pn_store(delta);
            e.work = pn_store(std::uint64_t(e.work) + (nodes_ - nodes_before));
            return {phi, delta, kPnNoRep};
        }
        Child& c = children[best];
        // The child's proof number counts in this node's disproof number, its disproof number
        // is this node's proof number (1 + epsilon: the second best with a quarter more).
        const std::uint64_t child_th_pn = std::min(kPnInf, th_dn - (delta - c.pn));
        const std::uint64_t child_th_dn = std::min(th_pn, pn_add(second_dn, second_dn / 4 + 1));
        const UndoInfo undo = pos_.make_move(c.move);
        path_[ply + 1] = c.key;
        reset_[ply + 1] = c.move.is_capture();
        const Result r = mid(tc, child_th_pn, child_th_dn, ply + 1);
        pos_.unmake_move(c.move, undo);
        if (stopped_) return {1, 1, kPnNoRep};
        c.pn = r.pn, c.dn = r.dn;
        if (r.pn == 0 || r.dn == 0) c.done = true, c.rep = r.rep;
    }
}

PnSearcher::Answer PnSearcher::test(const Position& pos, int t, const PnsLimits& limits) {
    limits_ = &limits;
    stopped_ = false;
    start_ = last_poll_ = std::chrono::steady_clock::now();
    start_nodes_ = nodes_;
    rules_ = Rules{pos.variant()};
    rules_.repetition_count = 0;
    rules_.no_capture_limit = 0;
    table_pieces_ = tables_ && tables_->serve(rules_) ? tables_->max_pieces(pos.variant()) : 0;
    if (graph_limit_ == 0)
        graph_pieces_ = 0;
    else if (graph_pieces_ < 0)
        graph_pieces_ = popcount(pos.player() | pos.opponent()) + 1;
    pos_ = pos;
    path_.assign(2, 0);
    reset_.assign(2, 0);
    path_[0] = pos.hash();
    reset_[0] = 1;
    Answer answer = Answer::Unknown;
    const Bitboard all = pos.player() | pos.opponent();
    if (table_pieces_ && pos.player() && pos.opponent() && popcount(all) <= table_pieces_) {
        if (const auto v = tables_->probe(pos)) {
            ++table_hits_;
            answer = table_outcome(*v, rules_, 0) >= t ? Answer::Yes : Answer::No;
        }
    }
    if (const PnsEntry* e = probe(pos.hash()); e && answer == Answer::Unknown) {
        if (e->lo >= t) answer = Answer::Yes;
        if (e->hi < t) answer = Answer::No;
    }
    if (answer == Answer::Unknown) {
        const Result r = mid(t, kPnInf, kPnInf, 0);
        if (!stopped_ && r.pn == 0) answer = Answer::Yes;
        if (!stopped_ && r.dn == 0) answer = Answer::No;
    }
    limits_ = nullptr;
    return answer;
}

ValueBounds PnSearcher::value(const Position& pos, const PnsLimits& limits) {
    ValueBounds b;
    const auto started = std::chrono::steady_clock::now();
    const std::uint64_t nodes_before = nodes_;
    PnsLimits rest = limits;
    for (int t : {1, 0}) {
        if (b.exact() || b.lo >= t || b.hi < t) continue;
        // The second test gets what the first left of the budget.
        if (limits.max_nodes) {
            const std::uint64_t used = nodes_ - nodes_before;
            if (used >= limits.max_nodes) break;
            rest.max_nodes = limits.max_nodes - used;
        }
        if (limits.max_seconds > 0) {
            rest.max_seconds = limits.max_seconds - pn_seconds_since(started);
            if (rest.max_seconds <= 0) break;
        }
        const Answer a = test(pos, t, rest);
        if (a == Answer::Yes) b.lo = t;
        if (a == Answer::No) b.hi = t - 1;
        if (a == Answer::Unknown) break;
    }
    return b;
}

} // namespace fanorona
