#include "core/pns_unit.h"

namespace fanorona {

PnsUnitResult solve_pns_unit(const Position& pos, const PnsUnitSettings& settings,
                             PnsQuestion question, PnsLimits limits,
                             const std::function<bool(const PnSearcher&)>& watch) {
    const auto start = std::chrono::steady_clock::now();
    PnSearcher searcher(settings.hash_mb);
    searcher.set_tables(settings.tables);
    if (settings.initial)
        for (const ProvenBound& b : *settings.initial) searcher.add_proven(b.key, b.lo, b.hi);
    if (watch) limits.poll = [&] { return watch(searcher); };
    PnsUnitResult r;
    if (question == PnsQuestion::Value) {
        r.value = searcher.value(pos, limits);
    } else {
        const PnSearcher::Answer a = searcher.test(pos, 0, limits);
        if (a == PnSearcher::Answer::Yes) r.value = {0, 1};
        if (a == PnSearcher::Answer::No) r.value = {-1, -1};
    }
    r.nodes = searcher.nodes();
    r.table_hits = searcher.table_hits();
    searcher.for_each_proven([&](Key k, int lo, int hi) { r.proven.push_back({k, lo, hi}); });
    if (r.value.lo > -1 || r.value.hi < 1) r.proven.push_back({pos.hash(), r.value.lo, r.value.hi});
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
}

} // namespace fanorona
