#include "tables/material_index.h"

#include <array>
#include <stdexcept>
#if defined(__BMI2__)
#include <immintrin.h>
#endif

namespace fanorona::tables {

namespace {

constexpr std::array<std::array<std::uint64_t, 64>, 65> make_binomials() {
    std::array<std::array<std::uint64_t, 64>, 65> c{};
    for (int n = 0; n <= 64; ++n) {
        c[n][0] = 1;
        for (int k = 1; k < 64 && n > 0; ++k) c[n][k] = c[n - 1][k - 1] + c[n - 1][k];
    }
    return c;
}
constexpr auto kBinomial = make_binomials();

} // namespace

std::uint64_t binomial(int n, int k) {
    if (n < 0 || k < 0 || k > n || n > 64 || k >= 64) return 0;
    return kBinomial[n][k];
}

Bitboard pack_bits(Bitboard bb, Bitboard mask) {
#if defined(__BMI2__)
    return _pext_u64(bb, mask);
#else
    Bitboard out = 0;
    for (Bitboard bitpos = 1; mask; mask &= mask - 1, bitpos <<= 1)
        if (bb & mask & (~mask + 1)) out |= bitpos;
    return out;
#endif
}

Bitboard unpack_bits(Bitboard dense, Bitboard mask) {
#if defined(__BMI2__)
    return _pdep_u64(dense, mask);
#else
    Bitboard out = 0;
    for (Bitboard bitpos = 1; mask; mask &= mask - 1, bitpos <<= 1)
        if (dense & bitpos) out |= mask & (~mask + 1);
    return out;
#endif
}

std::uint64_t rank_subset(std::uint64_t dense) {
    std::uint64_t r = 0;
    for (int i = 1; dense; ++i) r += kBinomial[pop_lsb(dense)][i];
    return r;
}

std::uint64_t unrank_subset(std::uint64_t rank, int k) {
    std::uint64_t out = 0;
    int c = 63;
    for (int i = k; i >= 1; --i) {
        while (kBinomial[c][i] > rank) --c;
        rank -= kBinomial[c][i];
        out |= std::uint64_t(1) << c;
        --c;
    }
    return out;
}

MaterialIndex::MaterialIndex(Variant v, int mover, int other)
    : variant_(v), mover_(mover), other_(other), points_(geometry(v).points),
      board_(geometry(v).board), dense_all_((std::uint64_t(1) << points_) - 1),
      movers_(binomial(points_, mover)), others_(binomial(points_ - mover, other)) {
    if (mover < 1 || other < 1 || mover + other > points_)
        throw std::invalid_argument("material " + material_name(mover, other) +
                                    " does not fit the board");
}

void MaterialIndex::decode(std::uint64_t index, Bitboard& mover, Bitboard& other) const {
    const std::uint64_t m = unrank_subset(index / others_, mover_);
    const std::uint64_t o = unrank_subset(index % others_, other_);
    mover = mover_board(m);
    other = other_board(m, o);
}

std::string material_name(int mover, int other) {
    return std::to_string(mover) + "v" + std::to_string(other);
}

} // namespace fanorona::tables
