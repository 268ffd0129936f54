#pragma once
// The index of a table position: the combinatorial number system over the board's points. A
// material "AvB" is A pieces of the side to move and B of the opponent (colours do not matter:
// the rules treat both sides alike, so one table serves White and Black to move). The index is
// rank(mover's points) * C(n - A, B) + rank(opponent's points among the free points), ranks in
// colexicographic order; every index below size() is a position.

#include <cstdint>
#include <string>

#include "core/bitboard.h"

namespace fanorona::tables {

// C(n, k) for n < 64, k < 64 (0 when k > n).
std::uint64_t binomial(int n, int k);

// Packs the bits of `bb` selected by `mask` into the low bits (BMI2 pext), and the inverse.
Bitboard pack_bits(Bitboard bb, Bitboard mask);
Bitboard unpack_bits(Bitboard dense, Bitboard mask);

// The next larger integer with the same number of set bits (Gosper's hack): colex order.
inline std::uint64_t next_combination(std::uint64_t x) {
    const std::uint64_t c = x & (~x + 1);
    const std::uint64_t r = x + c;
    return (((r ^ x) >> 2) >> std::countr_zero(c)) | r;
}

// The colex rank of a dense k-subset, and the subset of a rank.
std::uint64_t rank_subset(std::uint64_t dense);
std::uint64_t unrank_subset(std::uint64_t rank, int k);

// One material of one board. Holds the sizes; index() and decode() are exact inverses.
class MaterialIndex {
public:
    MaterialIndex(Variant v, int mover, int other);

    Variant variant() const { return variant_; }
    int mover() const { return mover_; }
    int other() const { return other_; }
    int points() const { return points_; }
    std::uint64_t size() const { return movers_ * others_; }
    std::uint64_t mover_sets() const { return movers_; } // C(n, A)
    std::uint64_t other_sets() const { return others_; } // C(n - A, B)

    // The index of the position with these pieces (board bitboards, mover's pieces first).
    std::uint64_t index(Bitboard mover, Bitboard other) const {
        const std::uint64_t m = pack_bits(mover, board_);
        const std::uint64_t o = pack_bits(pack_bits(other, board_), dense_all_ & ~m);
        return rank_subset(m) * others_ + rank_subset(o);
    }
    void decode(std::uint64_t index, Bitboard& mover, Bitboard& other) const;
    // The board bitboard of a dense mover set, and of a dense opponent set given the mover's.
    Bitboard mover_board(std::uint64_t dense_mover) const {
        return unpack_bits(dense_mover, board_);
    }
    Bitboard other_board(std::uint64_t dense_mover, std::uint64_t dense_other) const {
        return unpack_bits(unpack_bits(dense_other, dense_all_ & ~dense_mover), board_);
    }

private:
    Variant variant_;
    int mover_, other_, points_;
    Bitboard board_;
    std::uint64_t dense_all_;
    std::uint64_t movers_, others_;
};

// "3v2".
std::string material_name(int mover, int other);

} // namespace fanorona::tables
