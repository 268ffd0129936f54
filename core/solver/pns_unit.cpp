#include "core/solver/pns_unit.h"

namespace fanorona {

namespace {

template <class Searcher>
PnsUnitResult solve_with(Searcher& searcher, const Position& pos, const PnsUnitSettings& settings,
                         PnsQuestion question, PnsLimits limits,
                         const std::function<bool(const ProofSearch&)>& watch) {
    const auto start = std::chrono::steady_clock::now();
    searcher.set_tables(settings.tables);
    if (settings.graph >= 0) searcher.set_graph_limit(std::size_t(settings.graph));
    if (settings.initial)
        for (const ProvenBound& b : *settings.initial) searcher.add_proven(b.key, b.lo, b.hi);
    if (watch) limits.poll = [&] { return watch(searcher); };
    PnsUnitResult r;
    if (question == PnsQuestion::Value) {
        r.value = searcher.value(pos, limits);
    } else {
        const PnAnswer a = searcher.test(pos, 0, limits);
        if (a == PnAnswer::Yes) r.value = {0, 1};
        if (a == PnAnswer::No) r.value = {-1, -1};
    }
    r.nodes = searcher.nodes();
    r.table_hits = searcher.table_hits();
    searcher.for_each_proven([&](Key k, int lo, int hi) { r.proven.push_back({k, lo, hi}); });
    if (r.value.lo > -1 || r.value.hi < 1) r.proven.push_back({pos.hash(), r.value.lo, r.value.hi});
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
}

} // namespace

PnsUnitResult solve_pns_unit(const Position& pos, const PnsUnitSettings& settings,
                             PnsQuestion question, PnsLimits limits,
                             const std::function<bool(const ProofSearch&)>& watch) {
    if (!settings.pn2) {
        PnSearcher searcher(settings.hash_mb);
        return solve_with(searcher, pos, settings, question, limits, watch);
    }
    Pn2Searcher searcher(settings.hash_mb);
    PnsUnitResult r = solve_with(searcher, pos, settings, question, limits, watch);
    r.memory_full = searcher.memory_full();
    r.peak_tree = searcher.peak_tree();
    return r;
}

} // namespace fanorona
