#pragma once
// The index of a table position: the combinatorial number system over the board's points. A
// material "AvB" is A pieces of the side to move and B of the opponent (colours do not matter:
// the rules treat both sides alike, so one table serves White and Black to move). The index is
// rank(mover's points) * C(n - A, B) + rank(opponent's points among the free points), ranks in
// colexicographic order; every index below size() is a position.
//
// A folded index (docs/formats.md "Endgame tables", version 2) counts each class of positions
// that a symmetry of the board maps onto one another once: the mover's set is replaced by the
// smallest-ranked of its images, and when that set is symmetric itself the opponent's set by the
// smallest of its images under the symmetries that keep the mover's set. The index is then
// (the canonical mover set's number among canonical sets) * C(n - A, B) + rank(opponent's
// points); slots whose opponent set is not the smallest of its images are unused (no position
// maps to them).

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/board/bitboard.h"
#include "core/board/symmetry.h"

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

// The board's symmetries (core/board/symmetry.h), by which a folded index folds.
using fanorona::board_symmetries;
using fanorona::BoardSymmetries;

// The canonical mover sets of one board and piece count (shared by every index that uses them).
struct MoverFold;

// One material of one board, folded by the board's symmetries or not. Holds the sizes;
// decode(index(p)) is p or a symmetric image of it, index(decode(i)) == i for every used slot.
class MaterialIndex {
public:
    MaterialIndex(Variant v, int mover, int other, bool folded = false);

    Variant variant() const { return variant_; }
    int mover() const { return mover_; }
    int other() const { return other_; }
    int points() const { return points_; }
    bool folded() const { return fold_ != nullptr; }
    // The symmetries the index folds by (1 when not folded).
    int symmetries() const { return symmetries_; }
    std::uint64_t size() const { return movers_ * others_; }
    std::uint64_t mover_sets() const { return movers_; } // C(n, A), or the canonical sets
    std::uint64_t other_sets() const { return others_; } // C(n - A, B)
    // The positions of the whole (unfolded) material.
    std::uint64_t full_size() const { return binomial(points_, mover_) * others_; }

    // The index of the position with these pieces (board bitboards, mover's pieces first).
    std::uint64_t index(Bitboard mover, Bitboard other) const {
        if (fold_) {
            int stabilizer;
            return folded_index(mover, other, stabilizer);
        }
        const std::uint64_t m = pack_bits(mover, board_);
        const std::uint64_t o = pack_bits(pack_bits(other, board_), dense_all_ & ~m);
        return rank_subset(m) * others_ + rank_subset(o);
    }
    // The same, and how many symmetries keep the position (1 when not folded).
    std::uint64_t index(Bitboard mover, Bitboard other, int& stabilizer) const {
        if (fold_) return folded_index(mover, other, stabilizer);
        stabilizer = 1;
        return index(mover, other);
    }
    void decode(std::uint64_t index, Bitboard& mover, Bitboard& other) const;
    // The dense mover set of mover number m (m < mover_sets()).
    std::uint64_t mover_set(std::uint64_t m) const;
    // How many symmetries keep the position at slot i; 0 for an unused slot.
    int slot_stabilizer(std::uint64_t i) const;
    bool used(std::uint64_t i) const { return !fold_ || slot_stabilizer(i) > 0; }
    // How many positions of the whole material slot i stands for (0: unused).
    std::uint64_t orbit(std::uint64_t i) const {
        const int s = slot_stabilizer(i);
        return s ? std::uint64_t(symmetries_ / s) : 0;
    }
    // The board bitboard of a dense mover set, and of a dense opponent set given the mover's.
    Bitboard mover_board(std::uint64_t dense_mover) const {
        return unpack_bits(dense_mover, board_);
    }
    Bitboard other_board(std::uint64_t dense_mover, std::uint64_t dense_other) const {
        return unpack_bits(unpack_bits(dense_other, dense_all_ & ~dense_mover), board_);
    }

private:
    std::uint64_t folded_index(Bitboard mover, Bitboard other, int& stabilizer) const;

    Variant variant_;
    int mover_, other_, points_;
    Bitboard board_;
    std::uint64_t dense_all_;
    std::uint64_t movers_, others_;
    int symmetries_ = 1;
    const BoardSymmetries* sym_ = nullptr;
    std::shared_ptr<const MoverFold> fold_;
};

// "3v2".
std::string material_name(int mover, int other);

} // namespace fanorona::tables
