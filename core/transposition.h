#pragma once
// The transposition table: a power-of-two array of two-entry buckets sized in megabytes.
// Entries hold the full 64-bit key, so a hit is the same position (up to the rare 64-bit
// collision); the move is still only used after matching it against the generated moves.
// clear() is O(1): it starts a new epoch, and an entry of another epoch is an empty one (the
// memory is wiped once every 255 clears), so a table behaves exactly as if freshly zeroed.

#include <cstdint>
#include <cstdlib>
#include <memory>

#include "core/board/types.h"

namespace fanorona {

enum Bound : std::uint8_t { BoundNone = 0, BoundUpper = 1, BoundLower = 2, BoundExact = 3 };

// One stored search result. depth may be negative (forced-capture plies past the horizon).
struct TTEntry {
    Key key = 0;
    Bitboard captured = 0; // the best move: captured set, from, to
    std::int16_t score = 0;
    std::int8_t depth = 0;
    std::uint8_t bound : 2 = BoundNone;
    std::uint8_t has_move : 1 = 0;
    std::uint8_t from = 0;
    std::uint8_t to = 0;
    std::uint8_t generation = 0; // the search that wrote it (ages entries within a game)
    std::uint8_t epoch = 0;      // the clear() it belongs to: other epochs are empty entries

    Move move() const { return Move{captured, from, to}; }
};

class TranspositionTable {
public:
    explicit TranspositionTable(std::size_t mb = 16) { resize(mb); }

    // At least one bucket; clears. Strongly exception-safe: on std::bad_alloc the table is
    // unchanged (the new memory is allocated before the old is freed, so both exist briefly).
    void resize(std::size_t mb);
    void clear(); // every entry empty again, in O(1) (see above)
    void new_search() { ++generation_; }
    std::size_t size_mb() const { return mb_; }

    // The entry for `key`, or nullptr.
    const TTEntry* probe(Key key) const {
        const Bucket& b = buckets_[key & mask_];
        for (const TTEntry& e : b.entries)
            if (e.key == key && live(e)) return &e;
        return nullptr;
    }

    // Starts loading the bucket of `key` into the cache.
    void prefetch(Key key) const { __builtin_prefetch(&buckets_[key & mask_]); }

    void store(Key key, int score, int depth, Bound bound, const Move* move);

    // Permille of the first 1000 buckets' entries written in this search (for `hashfull`).
    int hashfull() const;

private:
    bool live(const TTEntry& e) const { return e.epoch == epoch_ && e.bound != BoundNone; }
    void wipe(); // zeroes the memory; epoch 1 begins

    struct Bucket {
        TTEntry entries[2];
    };
    struct Free {
        void operator()(Bucket* p) const { std::free(p); }
    };
    std::unique_ptr<Bucket[], Free> buckets_; // 2 MB aligned, so it can use huge pages
    std::size_t count_ = 0;
    std::size_t mask_ = 0;
    std::size_t mb_ = 0;
    std::uint8_t generation_ = 0;
    std::uint8_t epoch_ = 1; // never 0, the epoch of zeroed memory
};
static_assert(sizeof(TTEntry) == 24, "two entries per 48-byte bucket");

} // namespace fanorona
