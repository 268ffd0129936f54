// The game, leaves, table and budget of the proof-number searchers (see pn_shared.h).

#include "core/solver/pn_shared.h"

#include <algorithm>

#include "core/common/clock.h"
#include "core/solver/solve_graph.h"

namespace fanorona {

namespace {} // namespace

PnTable::PnTable(std::size_t bytes) {
    std::size_t n = 1;
    while ((n * 2) * sizeof(Bucket) <= bytes) n *= 2;
    buckets_.assign(n, Bucket{});
    mask_ = n - 1;
}

const PnsEntry* PnTable::probe(Key key) const {
    if (key == 0) return nullptr;
    const Bucket& b = buckets_[key & mask_];
    for (const PnsEntry& e : b.e)
        if (e.key == key) return &e;
    return nullptr;
}

PnsEntry& PnTable::slot(Key key) {
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

void PnTable::for_each_proven(const std::function<void(Key, int, int)>& f) const {
    for (const Bucket& b : buckets_)
        for (const PnsEntry& e : b.e)
            if (e.key != 0 && e.proven()) f(e.key, e.lo, e.hi);
}

void PnTable::add_proven(Key key, int lo, int hi) {
    if (key == 0 || lo > hi || lo < -1 || hi > 1) return;
    PnsEntry& e = slot(key);
    e.lo = std::int8_t(std::max<int>(e.lo, lo));
    e.hi = std::int8_t(std::min<int>(e.hi, hi));
    e.work = std::max<std::uint32_t>(e.work, 1u << 20);
}

void PnTable::prove(Key key, int t, bool yes, std::uint64_t work) {
    PnsEntry& e = slot(key);
    if (yes)
        e.lo = std::int8_t(std::max<int>(e.lo, t));
    else
        e.hi = std::int8_t(std::min<int>(e.hi, t - 1));
    e.work = pn_store(std::uint64_t(e.work) + work);
}

void PnBudget::begin(const PnsLimits& l, std::uint64_t nodes) {
    limits = &l;
    start_nodes = nodes;
    start = last_poll = std::chrono::steady_clock::now();
    stopped = false;
}

void PnBudget::check(std::uint64_t nodes) {
    if (limits->max_nodes && nodes - start_nodes >= limits->max_nodes) stopped = true;
    if (limits->max_seconds > 0 && seconds_since(start) >= limits->max_seconds) stopped = true;
    if (limits->poll && seconds_since(last_poll) >= limits->poll_seconds) {
        last_poll = std::chrono::steady_clock::now();
        if (limits->poll()) stopped = true;
    }
}

void PnGame::start(const Position& root) {
    rules_ = Rules{root.variant()};
    rules_.repetition_count = 0;
    rules_.no_capture_limit = 0;
    table_pieces_ = tables_ && tables_->serve(rules_) ? tables_->max_pieces(root.variant()) : 0;
    if (graph_limit_ == 0)
        graph_pieces_ = 0;
    else if (graph_pieces_ < 0)
        graph_pieces_ = popcount(root.player() | root.opponent()) + 1;
    path_.assign(2, 0);
    reset_.assign(2, 0);
    path_[0] = root.hash();
    reset_[0] = 1;
}

std::optional<int> PnGame::root_table_value(const Position& root) {
    const Bitboard all = root.player() | root.opponent();
    if (!table_pieces_ || !root.player() || !root.opponent() || popcount(all) > table_pieces_)
        return std::nullopt;
    const auto v = tables_->probe(root);
    if (!v) return std::nullopt;
    ++table_hits_;
    return table_outcome(*v, rules_, 0);
}

void PnGame::enter(int ply, Key key, bool capture) {
    if (path_.size() <= std::size_t(ply) + 1) {
        path_.resize(ply + 2);
        reset_.resize(ply + 2);
    }
    path_[ply] = key;
    reset_[ply] = capture;
}

int PnGame::repetition(Key key, int ply, bool capture) const {
    if (capture) return -1;
    // reset_[j]: the move into ply j captured; positions before a capture cannot come back.
    for (int i = ply - 1; i >= 0 && (i + 1 == ply || !reset_[i + 1]); --i)
        if (((ply - i) & 1) == 0 && path_[i] == key) return i;
    return -1;
}

std::optional<PnLeaf> PnGame::leaf(const Position& pos, int ply, const Move& m) {
    if (const int r = repetition(pos.hash(), ply, m.is_capture()); r >= 0) return PnLeaf{0, r};
    if (!pos.player()) return PnLeaf{-1, kPnNoRep}; // every piece captured
    const Bitboard all = pos.player() | pos.opponent();
    if (table_pieces_ && pos.opponent() && popcount(all) <= table_pieces_) {
        if (const auto v = tables_->probe(pos)) {
            ++table_hits_;
            return PnLeaf{table_outcome(*v, rules_, 0), kPnNoRep};
        }
    }
    return std::nullopt;
}

std::optional<int> PnGame::small_graph(const Position& pos, PnTable& table, std::uint64_t& nodes,
                                       PnBudget& budget) {
    const int pieces = popcount(pos.player() | pos.opponent());
    if (pieces >= graph_pieces_) return std::nullopt;
    const auto g = solve_graph(pos, rules_, tables_.get(), table_pieces_, graph_limit_, nodes,
                               [&budget, &nodes] {
                                   budget.check(nodes);
                                   return budget.stopped;
                               });
    if (!g) {
        if (!budget.stopped) graph_pieces_ = pieces;
        return std::nullopt;
    }
    ++graphs_;
    for (const auto& [k, i] : g->index) {
        PnsEntry& e = table.slot(k);
        e.lo = e.hi = g->value[i];
        e.work = std::max<std::uint32_t>(e.work, 1u << 16);
    }
    return g->value[0];
}

ValueBounds pn_value(const PnsLimits& limits, const std::function<std::uint64_t()>& nodes,
                     const std::function<PnAnswer(int t, const PnsLimits&)>& test) {
    ValueBounds b;
    const auto started = std::chrono::steady_clock::now();
    const std::uint64_t nodes_before = nodes();
    PnsLimits rest = limits;
    for (int t : {1, 0}) {
        if (b.exact() || b.lo >= t || b.hi < t) continue;
        if (limits.max_nodes) {
            const std::uint64_t used = nodes() - nodes_before;
            if (used >= limits.max_nodes) break;
            rest.max_nodes = limits.max_nodes - used;
        }
        if (limits.max_seconds > 0) {
            rest.max_seconds = limits.max_seconds - seconds_since(started);
            if (rest.max_seconds <= 0) break;
        }
        const PnAnswer a = test(t, rest);
        if (a == PnAnswer::Yes) b.lo = t;
        if (a == PnAnswer::No) b.hi = t - 1;
        if (a == PnAnswer::Unknown) break;
    }
    return b;
}

} // namespace fanorona
