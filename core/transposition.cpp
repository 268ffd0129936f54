#include "core/transposition.h"

#include <algorithm>
#include <cstring>
#include <new>
#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace fanorona {

void TranspositionTable::resize(std::size_t mb) {
    // Strongly exception-safe: the new table is allocated before the old one is freed, so a
    // failed allocation (std::bad_alloc) leaves the table as it was.
    constexpr std::size_t kAlign = std::size_t(2) << 20;
    constexpr std::size_t kMaxMb = std::size_t(1) << 40; // beyond any address space
    const std::size_t bytes = std::min(std::max<std::size_t>(mb, 1), kMaxMb) << 20;
    std::size_t count = 1;
    while (count * 2 * sizeof(Bucket) <= bytes) count *= 2;
    const std::size_t size = (count * sizeof(Bucket) + kAlign - 1) / kAlign * kAlign;
    std::unique_ptr<Bucket[], Free> fresh(static_cast<Bucket*>(std::aligned_alloc(kAlign, size)));
    if (!fresh) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    madvise(fresh.get(), size, MADV_HUGEPAGE); // fewer TLB misses; a hint only
#endif
    buckets_ = std::move(fresh);
    mb_ = mb;
    count_ = count;
    mask_ = count - 1;
    wipe();
}

void TranspositionTable::wipe() {
    std::memset(static_cast<void*>(buckets_.get()), 0, count_ * sizeof(Bucket));
    epoch_ = 1;
    generation_ = 0;
}

void TranspositionTable::clear() {
    if (++epoch_ == 0) return wipe(); // the epoch byte wrapped: old entries could come back
    generation_ = 0;
}

void TranspositionTable::store(Key key, int score, int depth, Bound bound, const Move* move) {
    Bucket& b = buckets_[key & mask_];
    TTEntry* slot = nullptr;
    for (TTEntry& e : b.entries)
        if (e.key == key && live(e)) slot = &e;
    if (slot) {
        // Same position: keep a deeper result from this search unless the new one is exact.
        if (bound != BoundExact && slot->generation == generation_ && slot->depth > depth + 2)
            return;
    } else {
        // Replace the entry that is oldest, then shallowest.
        auto worth = [&](const TTEntry& e) {
            return !live(e) ? -1000 : int(e.depth) - (e.generation != generation_ ? 256 : 0);
        };
        slot = worth(b.entries[0]) <= worth(b.entries[1]) ? &b.entries[0] : &b.entries[1];
    }
    const bool keep_move = !move && slot->key == key && live(*slot) && slot->has_move;
    slot->key = key;
    slot->score = std::int16_t(score);
    slot->depth = std::int8_t(std::clamp(depth, -128, 127));
    slot->bound = bound;
    slot->generation = generation_;
    slot->epoch = epoch_;
    if (move) {
        slot->captured = move->captured;
        slot->from = move->from;
        slot->to = move->to;
        slot->has_move = 1;
    } else if (!keep_move) {
        slot->has_move = 0;
    }
}

int TranspositionTable::hashfull() const {
    const std::size_t n = std::min<std::size_t>(count_, 500);
    int used = 0;
    for (std::size_t i = 0; i < n; ++i)
        for (const TTEntry& e : buckets_[i].entries) used += live(e) && e.generation == generation_;
    return n ? int(used * 1000 / (2 * n)) : 0;
}

} // namespace fanorona
