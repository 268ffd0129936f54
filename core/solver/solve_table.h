#pragma once
// The solver's transposition table: proven, path-independent bounds on a position's value (win /
// draw / loss for the side to move, endless play a draw) with the height of their proofs, and how
// deep a test of each threshold was searched without an answer. Fixed size, owned by a Solver.

#include <cstdint>
#include <vector>

#include "core/board/types.h"

namespace fanorona {

// What the solver knows about one position. Invariants: -1 <= lo <= hi <= 1 (the value lies in
// [lo, hi]); lo_height / hi_height are the heights (in turns) of proofs of lo and hi (0 when
// the bound is trivial); unknown[t] is the largest remaining depth at which "value >= t" (t = 0,
// 1) came back without an answer, -1 when never.
struct SolveEntry {
    Key key = 0;
    std::int8_t lo = -1;
    std::int8_t hi = 1;
    std::uint8_t from = 0, to = 0; // the last move that decided a test here (ordering hint)
    std::uint16_t lo_height = 0, hi_height = 0;
    std::int16_t unknown[2] = {-1, -1};
    bool has_move = false;

    bool proven() const { return lo > -1 || hi < 1; }
};

// Two-entry buckets: the first keeps entries with proven bounds against entries that have none,
// the second is always replaced.
class SolveTable {
public:
    explicit SolveTable(std::size_t mb) {
        std::size_t n = 1;
        while ((n * 2) * sizeof(Bucket) <= mb * 1024 * 1024) n *= 2;
        buckets_.assign(n, Bucket{});
        mask_ = n - 1;
    }

    const SolveEntry* probe(Key key) const {
        const Bucket& b = buckets_[key & mask_];
        for (const SolveEntry& e : b.e)
            if (e.key == key && key != 0) return &e;
        return nullptr;
    }
    // The entry for `key`, made (and replacing another) when missing.
    SolveEntry& slot(Key key) {
        Bucket& b = buckets_[key & mask_];
        for (SolveEntry& e : b.e)
            if (e.key == key) return e;
        SolveEntry& chosen = (b.e[0].key == 0 || !b.e[0].proven()) ? b.e[0] : b.e[1];
        chosen = SolveEntry{};
        chosen.key = key;
        return chosen;
    }
    std::size_t entries() const { return buckets_.size() * 2; }

private:
    struct Bucket {
        SolveEntry e[2];
    };
    std::vector<Bucket> buckets_;
    std::size_t mask_ = 0;
};

} // namespace fanorona
