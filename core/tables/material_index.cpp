#include "core/tables/material_index.h"

#include <array>
#include <map>
#include <mutex>
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

// Built once per board and mover count. Invariants: canonical[f] is the dense set of canonical
// mover set number f, in increasing rank; code[r] for every rank r holds (the canonical number of
// r's smallest image) << 3 | a symmetry mapping r's set onto it; keep[f] the symmetries (a bit
// each) that map canonical set f onto itself.
struct MoverFold {
    std::vector<std::uint32_t> code;
    std::vector<std::uint64_t> canonical;
    std::vector<std::uint8_t> keep;
};

namespace {

std::shared_ptr<const MoverFold> make_fold(Variant v, int pieces) {
    const Geometry& geo = geometry(v);
    const BoardSymmetries& sym = board_symmetries(v);
    const std::uint64_t total = binomial(geo.points, pieces);
    if (total >= (std::uint64_t(1) << 29))
        throw std::invalid_argument("a folded index of " + std::to_string(pieces) +
                                    " pieces a side on this board is too large");
    auto f = std::make_shared<MoverFold>();
    f->code.resize(total);
    std::uint64_t dense = (std::uint64_t(1) << pieces) - 1;
    for (std::uint64_t r = 0; r < total; ++r, dense = next_combination(dense)) {
        const Bitboard bb = unpack_bits(dense, geo.board);
        std::uint64_t best = r;
        int best_g = 0;
        std::uint8_t keep = 1;
        for (int g = 1; g < sym.count; ++g) {
            const std::uint64_t rg = rank_subset(pack_bits(sym.apply(g, bb), geo.board));
            if (rg == r) keep |= std::uint8_t(1u << g);
            if (rg < best) {
                best = rg;
                best_g = g;
            }
        }
        if (best == r) {
            f->code[r] = std::uint32_t(f->canonical.size() << 3);
            f->canonical.push_back(dense);
            f->keep.push_back(keep);
        } else {
            f->code[r] = (f->code[best] & ~7u) | std::uint32_t(best_g);
        }
    }
    return f;
}

// The folds made so far, shared by the indexes of every material with the same board and mover
// count, and kept for the process (a build and a folder's probing open the same ones many times;
// 5x9 up to 6 pieces a side takes some 70 MB).
std::shared_ptr<const MoverFold> shared_fold(Variant v, int pieces) {
    static std::mutex mutex;
    static std::map<std::pair<int, int>, std::shared_ptr<const MoverFold>> folds;
    const std::lock_guard lock(mutex);
    auto& slot = folds[{int(v), pieces}];
    if (!slot) slot = make_fold(v, pieces);
    return slot;
}

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

MaterialIndex::MaterialIndex(Variant v, int mover, int other, bool folded)
    : variant_(v), mover_(mover), other_(other), points_(geometry(v).points),
      board_(geometry(v).board), dense_all_((std::uint64_t(1) << points_) - 1),
      movers_(binomial(points_, mover)), others_(binomial(points_ - mover, other)) {
    if (mover < 1 || other < 1 || mover + other > points_)
        throw std::invalid_argument("material " + material_name(mover, other) +
                                    " does not fit the board");
    if (folded && board_symmetries(v).count > 1) {
        sym_ = &board_symmetries(v);
        symmetries_ = sym_->count;
        fold_ = shared_fold(v, mover);
        movers_ = fold_->canonical.size();
    }
}

std::uint64_t MaterialIndex::folded_index(Bitboard mover, Bitboard other, int& stabilizer) const {
    const std::uint32_t c = fold_->code[rank_subset(pack_bits(mover, board_))];
    const std::uint64_t f = c >> 3;
    const std::uint64_t free = dense_all_ & ~fold_->canonical[f];
    const Bitboard o = sym_->apply(int(c & 7), other);
    std::uint64_t best = rank_subset(pack_bits(pack_bits(o, board_), free));
    stabilizer = 1;
    for (unsigned keep = fold_->keep[f] & ~1u; keep; keep &= keep - 1) {
        const int g = std::countr_zero(keep);
        const std::uint64_t r = rank_subset(pack_bits(pack_bits(sym_->apply(g, o), board_), free));
        if (r < best) {
            best = r;
            stabilizer = 1;
        } else if (r == best) {
            ++stabilizer;
        }
    }
    return f * others_ + best;
}

std::uint64_t MaterialIndex::mover_set(std::uint64_t m) const {
    return fold_ ? fold_->canonical[m] : unrank_subset(m, mover_);
}

int MaterialIndex::slot_stabilizer(std::uint64_t i) const {
    if (!fold_) return 1;
    const std::uint64_t f = i / others_;
    const unsigned keep = fold_->keep[f] & ~1u;
    if (!keep) return 1;
    const std::uint64_t dm = fold_->canonical[f];
    const std::uint64_t own = i % others_;
    const Bitboard o = other_board(dm, unrank_subset(own, other_));
    const std::uint64_t free = dense_all_ & ~dm;
    int stabilizer = 1;
    for (unsigned k = keep; k; k &= k - 1) {
        const std::uint64_t r =
            rank_subset(pack_bits(pack_bits(sym_->apply(std::countr_zero(k), o), board_), free));
        if (r < own) return 0;
        if (r == own) ++stabilizer;
    }
    return stabilizer;
}

void MaterialIndex::decode(std::uint64_t index, Bitboard& mover, Bitboard& other) const {
    const std::uint64_t m = mover_set(index / others_);
    const std::uint64_t o = unrank_subset(index % others_, other_);
    mover = mover_board(m);
    other = other_board(m, o);
}

std::string material_name(int mover, int other) {
    return std::to_string(mover) + "v" + std::to_string(other);
}

} // namespace fanorona::tables
