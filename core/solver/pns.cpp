// df-pn with repetition draws and a table of path-independent proofs (see pns.h).

#include "core/solver/pns.h"

#include <algorithm>

namespace fanorona {

PnSearcher::PnSearcher(std::size_t hash_mb)
    : table_(hash_mb * 1024 * 1024), game_(pn_default_graph_limit(hash_mb)) {}

// The df-pn node: "value >= t" for the side to move in pos_ at path ply `ply`, searched until
// proven, disproven, or its proof number reaches th_pn or its disproof number th_dn.
PnSearcher::Result PnSearcher::mid(int t, std::uint64_t th_pn, std::uint64_t th_dn, int ply) {
    // Step 1. The budget, the table's proofs, a small graph solved whole.
    ++nodes_;
    if ((nodes_ & 1023) == 0) budget_.check(nodes_);
    if (budget_.stopped) return {1, 1, kPnNoRep};
    const std::uint64_t nodes_before = nodes_;
    const Key key = pos_.hash();
    if (const PnsEntry* e = table_.probe(key)) {
        if (e->lo >= t) return {0, kPnInf, kPnNoRep};
        if (e->hi < t) return {kPnInf, 0, kPnNoRep};
    }
    // Fewer pieces than any graph that did not fit: this position's graph solved whole.
    const auto graph = game_.small_graph(pos_, table_, nodes_, budget_);
    if (budget_.stopped) return {1, 1, kPnNoRep};
    if (graph) return *graph >= t ? Result{0, kPnInf, kPnNoRep} : Result{kPnInf, 0, kPnNoRep};
    // Step 2. The children.
    if (!expand(t, ply)) return {kPnInf, 0, kPnNoRep};
    const int tc = 1 - t; // the children's threshold, for their side to move
    std::vector<Child>& children = children_[ply];
    // Step 3. Search the most proving child until the node is decided or over its thresholds.
    for (;;) {
        const Selection s = select(children, tc);
        if (s.phi == 0 || s.delta == 0)
            return decided(children, s, key, t, ply, nodes_ - nodes_before);
        if (s.phi >= th_pn || s.delta >= th_dn) {
            PnsEntry& e = table_.slot(key);
            e.pn[t] = pn_store(s.phi), e.dn[t] = pn_store(s.delta);
            e.work = pn_store(std::uint64_t(e.work) + (nodes_ - nodes_before));
            return {s.phi, s.delta, kPnNoRep};
        }
        Child& c = children[s.best];
        // The child's proof number counts in this node's disproof number, its disproof number
        // is this node's proof number (1 + epsilon: the second best with a quarter more).
        const std::uint64_t child_th_pn = std::min(kPnInf, th_dn - (s.delta - c.pn));
        const std::uint64_t child_th_dn = std::min(th_pn, pn_add(s.second_dn, s.second_dn / 4 + 1));
        const UndoInfo undo = pos_.make_move(c.move);
        game_.enter(ply + 1, c.key, c.move.is_capture());
        const Result r = mid(tc, child_th_pn, child_th_dn, ply + 1);
        pos_.unmake_move(c.move, undo);
        if (budget_.stopped) return {1, 1, kPnNoRep};
        c.pn = r.pn, c.dn = r.dn;
        if (r.pn == 0 || r.dn == 0) c.done = true, c.rep = r.rep;
    }
}

bool PnSearcher::expand(int t, int ply) {
    if (lists_.size() <= std::size_t(ply)) {
        lists_.resize(ply + 1);
        children_.resize(ply + 1);
    }
    MoveList& moves = lists_[ply];
    generate_moves(pos_, game_.rules(), moves);
    if (moves.empty()) { // no move (or no piece): lost
        PnsEntry& e = table_.slot(pos_.hash());
        e.lo = e.hi = -1;
        return false;
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
        if (const auto leaf = game_.leaf(pos_, ply + 1, m)) {
            c = known(leaf->value, leaf->rep);
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
    return true;
}

PnSearcher::Selection PnSearcher::select(std::vector<Child>& children, int tc) {
    Selection s{kPnInf, 0, 0, kPnInf};
    std::uint64_t best_dn = kPnInf + 1;
    for (std::size_t i = 0; i < children.size(); ++i) {
        Child& c = children[i];
        if (!c.done) {
            if (const PnsEntry* e = table_.probe(c.key)) {
                if (e->lo >= tc) {
                    c.pn = 0, c.dn = kPnInf, c.rep = kPnNoRep, c.done = true;
                } else if (e->hi < tc) {
                    c.pn = kPnInf, c.dn = 0, c.rep = kPnNoRep, c.done = true;
                } else if (e->pn[tc] != 0) {
                    c.pn = pn_load(e->pn[tc]), c.dn = pn_load(e->dn[tc]);
                }
            }
        }
        s.phi = std::min(s.phi, c.dn);
        s.delta = pn_add(s.delta, c.pn);
        if (c.dn < best_dn) {
            s.second_dn = best_dn;
            best_dn = c.dn, s.best = i;
        } else if (c.dn < s.second_dn) {
            s.second_dn = c.dn;
        }
    }
    return s;
}

PnSearcher::Result PnSearcher::decided(const std::vector<Child>& children, const Selection& s,
                                       Key key, int t, int ply, std::uint64_t work) {
    // Proven by a child disproven, or disproven with every child proven: the proof's
    // repetitions are those of the deciding children.
    int rep = kPnNoRep;
    if (s.phi == 0) { // the least path-dependent of the disproven children
        rep = -1;
        for (const Child& c : children)
            if (c.dn == 0) rep = std::max(rep, c.rep);
    } else {
        for (const Child& c : children) rep = std::min(rep, c.rep);
    }
    if (rep >= ply) table_.prove(key, t, s.phi == 0, work);
    return s.phi == 0 ? Result{0, kPnInf, rep} : Result{kPnInf, 0, rep};
}

PnSearcher::Answer PnSearcher::test(const Position& pos, int t, const PnsLimits& limits) {
    budget_.begin(limits, nodes_);
    game_.start(pos);
    pos_ = pos;
    Answer answer = Answer::Unknown;
    if (const auto v = game_.root_table_value(pos)) answer = *v >= t ? Answer::Yes : Answer::No;
    if (const PnsEntry* e = table_.probe(pos.hash()); e && answer == Answer::Unknown) {
        if (e->lo >= t) answer = Answer::Yes;
        if (e->hi < t) answer = Answer::No;
    }
    if (answer == Answer::Unknown) {
        const Result r = mid(t, kPnInf, kPnInf, 0);
        if (!budget_.stopped && r.pn == 0) answer = Answer::Yes;
        if (!budget_.stopped && r.dn == 0) answer = Answer::No;
    }
    return answer;
}

ValueBounds PnSearcher::value(const Position& pos, const PnsLimits& limits) {
    return pn_value(
        limits, [this] { return nodes_; },
        [&](int t, const PnsLimits& rest) { return test(pos, t, rest); });
}

} // namespace fanorona
