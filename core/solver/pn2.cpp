// PN2: a first-level proof-number tree whose leaves are expanded by bounded second-level
// proof-number searches (see pn2.h).

#include "core/solver/pn2.h"

#include <algorithm>
#include <cmath>

namespace fanorona {

std::size_t pn2_second_level_limit(std::size_t x, const Pn2Params& p) {
    const double f = 1.0 / (1.0 + std::exp((p.a - double(x)) / p.b));
    return std::max(p.min_nodes, std::size_t(f * double(x)));
}

std::uint32_t Pn2Searcher::Tree::alloc(std::uint32_t count) {
    if (free.size() > count && !free[count].empty()) {
        const std::uint32_t n = free[count].back();
        free[count].pop_back();
        live += count;
        return n;
    }
    if (nodes.size() + count > capacity) return kNone;
    const auto n = std::uint32_t(nodes.size());
    nodes.resize(nodes.size() + count);
    live += count;
    return n;
}

void Pn2Searcher::Tree::release(std::uint32_t n) {
    // Iteratively: a subtree may be deep.
    stack.assign(1, n);
    while (!stack.empty()) {
        Node& x = nodes[stack.back()];
        stack.pop_back();
        if (x.first == kNone) continue;
        for (std::uint32_t i = 0; i < x.count; ++i) stack.push_back(x.first + i);
        if (free.size() <= x.count) free.resize(x.count + 1);
        free[x.count].push_back(x.first);
        live -= x.count;
        x.first = kNone;
        x.count = 0;
    }
}

void Pn2Searcher::Tree::reset() {
    nodes.clear();
    for (auto& f : free) f.clear();
    live = 0;
}

Pn2Searcher::Pn2Searcher(std::size_t hash_mb, const Pn2Params& params)
    : params_(params), table_(hash_mb * 1024 * 1024 / 4), game_(pn_default_graph_limit(hash_mb)) {
    const std::size_t tree_nodes = hash_mb * 1024 * 1024 * 3 / 8 / sizeof(Node);
    for (Tree* t : {&first_, &second_}) {
        t->capacity = std::max<std::size_t>(tree_nodes, 1024);
        t->nodes.reserve(t->capacity); // address space only: pages are used as the tree grows
    }
}

void Pn2Searcher::decide(Node& node, int value, int t, int rep) {
    node.pn = value >= t ? 0 : kPnInf;
    node.dn = value >= t ? kPnInf : 0;
    node.rep = rep;
}

void Pn2Searcher::expand(Tree& tree, std::uint32_t n, int t, int ply) {
    ++nodes_;
    if ((nodes_ & 1023) == 0) budget_.check(nodes_);
    if (budget_.stopped) return;
    const Key key = tree.nodes[n].key;
    if (const PnsEntry* e = table_.probe(key)) {
        if (e->lo >= t) return decide(tree.nodes[n], 1, t, kPnNoRep);
        if (e->hi < t) return decide(tree.nodes[n], -1, t, kPnNoRep);
    }
    const auto graph = game_.small_graph(pos_, table_, nodes_, budget_);
    if (budget_.stopped) return;
    if (graph) return decide(tree.nodes[n], *graph, t, kPnNoRep);
    generate_moves(pos_, game_.rules(), moves_);
    if (moves_.empty()) { // no move (or no piece): lost
        table_.add_proven(key, -1, -1);
        return decide(tree.nodes[n], -1, t, kPnNoRep);
    }
    const int tc = 1 - t; // the children's threshold, for their side to move
    kids_.clear();
    for (const Move& m : moves_) {
        const UndoInfo undo = pos_.make_move(m);
        Node c{m, pos_.hash(), 1, 1, n, kNone, kPnNoRep, 0};
        if (const auto leaf = game_.leaf(pos_, ply + 1, m)) {
            decide(c, leaf->value, tc, leaf->rep);
        } else if (const PnsEntry* e = table_.probe(c.key); e && e->lo >= tc) {
            decide(c, 1, tc, kPnNoRep);
        } else if (e && e->hi < tc) {
            decide(c, -1, tc, kPnNoRep);
        } else if (ply + 1 >= kPnMaxPly) {
            c.pn = c.dn = kPnInf - 1; // beyond the horizon: never proven through
        }
        pos_.unmake_move(m, undo);
        kids_.push_back(c);
    }
    // Captures first (more pieces first), so ties in the selection prefer them.
    std::stable_sort(kids_.begin(), kids_.end(), [](const Node& a, const Node& b) {
        return popcount(a.move.captured) > popcount(b.move.captured);
    });
    const std::uint32_t first = tree.alloc(std::uint32_t(kids_.size()));
    if (first == kNone) return; // full: the caller stops
    std::copy(kids_.begin(), kids_.end(), tree.nodes.begin() + first);
    tree.nodes[n].first = first;
    tree.nodes[n].count = std::uint32_t(kids_.size());
}

void Pn2Searcher::expand_first(std::uint32_t n, int t, int ply) {
    second_.reset();
    second_.alloc(1);
    second_.nodes[0] = first_.nodes[n];
    second_.nodes[0].parent = kNone;
    const std::size_t limit =
        std::min(pn2_second_level_limit(first_.live, params_), second_.capacity / 2);
    grow(second_, false, t, ply, limit);
    if (budget_.stopped) return;
    const Node& r = second_.nodes[0];
    Node& leaf = first_.nodes[n];
    if (r.pn == 0 || r.dn == 0) {
        leaf.pn = r.pn, leaf.dn = r.dn, leaf.rep = r.rep;
        return;
    }
    if (r.first == kNone) { // the second level could not expand it (its tree full)
        full_ = true;
        return;
    }
    const std::uint32_t first = first_.alloc(r.count);
    if (first == kNone) {
        full_ = true;
        return;
    }
    for (std::uint32_t i = 0; i < r.count; ++i) {
        Node c = second_.nodes[r.first + i];
        c.parent = n, c.first = kNone, c.count = 0;
        first_.nodes[first + i] = c;
    }
    first_.nodes[n].first = first;
    first_.nodes[n].count = r.count;
    peak_ = std::max(peak_, first_.live);
}

void Pn2Searcher::update(Tree& tree, std::uint32_t n, int t, int ply) {
    Node& x = tree.nodes[n];
    if (x.first == kNone) return; // a leaf: its numbers are set
    std::uint64_t phi = kPnInf, delta = 0;
    for (std::uint32_t i = 0; i < x.count; ++i) {
        const Node& c = tree.nodes[x.first + i];
        phi = std::min(phi, c.dn);
        delta = pn_add(delta, c.pn);
    }
    x.pn = phi, x.dn = delta;
    if (phi != 0 && delta != 0) return;
    // Decided: the proof's repetitions are those of the deciding children (as in df-pn).
    int rep = kPnNoRep;
    if (phi == 0) { // the least path-dependent of the disproven children
        rep = -1;
        for (std::uint32_t i = 0; i < x.count; ++i) {
            const Node& c = tree.nodes[x.first + i];
            if (c.dn == 0) rep = std::max<int>(rep, c.rep);
        }
    } else {
        for (std::uint32_t i = 0; i < x.count; ++i)
            rep = std::min<int>(rep, tree.nodes[x.first + i].rep);
    }
    x.rep = rep;
    if (rep >= ply) table_.prove(x.key, t, phi == 0, x.count);
    tree.release(n);
}

void Pn2Searcher::grow(Tree& tree, bool first_level, int t, int root_ply, std::size_t limit) {
    while (!budget_.stopped && !full_) {
        const Node& root = tree.nodes[0];
        if (root.pn == 0 || root.dn == 0) break;
        if (root.pn >= kPnInf - 1 || root.dn >= kPnInf - 1) break; // only the horizon is left
        if (!first_level && tree.live >= limit) break;
        // The most-proving leaf: at every node the child whose disproof number is its proof
        // number (the first of the smallest).
        std::uint32_t n = 0;
        int ply = root_ply, tn = t;
        if (undo_.size() < std::size_t(root_ply) + 2) undo_.resize(root_ply + 2);
        while (tree.nodes[n].first != kNone) {
            const Node& x = tree.nodes[n];
            std::uint32_t best = x.first;
            for (std::uint32_t i = 1; i < x.count; ++i)
                if (tree.nodes[x.first + i].dn < tree.nodes[best].dn) best = x.first + i;
            const Node& c = tree.nodes[best];
            ++ply;
            if (undo_.size() <= std::size_t(ply)) undo_.resize(ply + 1);
            undo_[ply] = pos_.make_move(c.move);
            game_.enter(ply, c.key, c.move.is_capture());
            tn = 1 - tn;
            n = best;
        }
        if (ply >= kPnMaxPly) {
            tree.nodes[n].pn = tree.nodes[n].dn = kPnInf - 1;
        } else if (first_level) {
            expand_first(n, tn, ply);
        } else {
            expand(tree, n, tn, ply);
            if (tree.nodes[n].first == kNone && tree.nodes[n].pn != 0 && tree.nodes[n].dn != 0 &&
                !budget_.stopped)
                limit = 0; // the second level is full: stop after the update
        }
        // Back up the numbers along the path, undoing its moves.
        for (;;) {
            update(tree, n, tn, ply);
            if (n == 0) break;
            pos_.unmake_move(tree.nodes[n].move, undo_[ply]);
            n = tree.nodes[n].parent;
            --ply;
            tn = 1 - tn;
        }
    }
}

Pn2Searcher::Answer Pn2Searcher::test(const Position& pos, int t, const PnsLimits& limits) {
    budget_.begin(limits, nodes_);
    game_.start(pos);
    pos_ = pos;
    full_ = false;
    if (const auto v = game_.root_table_value(pos)) return *v >= t ? Answer::Yes : Answer::No;
    if (const PnsEntry* e = table_.probe(pos.hash())) {
        if (e->lo >= t) return Answer::Yes;
        if (e->hi < t) return Answer::No;
    }
    first_.reset();
    first_.alloc(1);
    first_.nodes[0] = Node{{0, 0, 0}, pos.hash(), 1, 1, kNone, kNone, kPnNoRep, 0};
    grow(first_, true, t, 0, 0);
    peak_ = std::max(peak_, first_.live);
    const Node& root = first_.nodes[0];
    Answer answer = Answer::Unknown;
    if (!budget_.stopped && root.pn == 0) answer = Answer::Yes;
    if (!budget_.stopped && root.dn == 0) answer = Answer::No;
    first_.reset();
    return answer;
}

ValueBounds Pn2Searcher::value(const Position& pos, const PnsLimits& limits) {
    return pn_value(
        limits, [this] { return nodes_; },
        [&](int t, const PnsLimits& rest) { return test(pos, t, rest); });
}

} // namespace fanorona
