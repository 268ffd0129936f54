#pragma once
// The feature matrix: every position's evaluation terms, extracted once with the evaluation's
// own code (extract_terms and game_phase of core/features.h), as row-major Eigen sparse blocks,
// so that evaluations, gradients and curvature are matrix products.
//
// Storage is the untapered form: one column per raw term (kTermCount columns) and the phase per
// row, instead of the two tapered features per term. For row i with phase p_i and a = p_i / 32:
//   S_i = sum_t raw(i,t) * (p_i * w_mg(t) + (32 - p_i) * w_eg(t))       (evaluate.h, exact)
//   e_i = S_i / kEvalScale = a * (R w_mg)_i + (1 - a) * (R w_eg)_i       (centi-pieces)
// (blend() and eval_of_sum() of core/taper.h, the evaluation's own formula) so the tapered
// features are never stored: this halves the non-zeros (about 11 a row).
// evaluate() is trunc(e_i); the tuner fits e_i itself.

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include "core/features.h"
#include "core/patterns.h"
#include "tuner/dataset.h"

namespace fanorona {

// Rows per block. A block is the unit of parallel work and of mini-batches, and small enough
// (at most kBlockRows * kTermCount non-zeros) for 16-bit sparse indices: 1024 rows while there
// are at most 31 terms.
using FeatureStorageIndex = std::int16_t;
inline constexpr int kBlockRows = std::min(1024, int(std::bit_floor(unsigned(32767 / kTermCount))));
static_assert(kBlockRows * kTermCount <= 32767, "block too large for 16-bit indices");

using BlockMatrix = Eigen::SparseMatrix<float, Eigen::RowMajor, FeatureStorageIndex>;
// Weights as kTermCount rows of (mg, eg): a row-major view of the weight vector, whose feature
// 2t is term t's _mg weight and 2t+1 its _eg weight.
using TermWeights = Eigen::Matrix<double, kTermCount, 2, Eigen::RowMajor>;
using WeightVector = Eigen::Matrix<double, kFeatureCount, 1>;

// The positions of one set (training or validation) as sparse raw-term rows plus what the loss
// needs per row. Row r lives in blocks[r / kBlockRows]; every per-row vector has rows() entries.
struct FeatureMatrix {
    std::vector<BlockMatrix> blocks; // kBlockRows rows each (the last may be shorter)
    std::vector<std::uint8_t> phase; // game_phase(position), 0..kPhaseScale
    std::vector<std::int8_t> result; // the game's result for the side to move: 1, 0 or -1
    std::vector<std::int16_t> score; // the search score for the side to move, centi-pieces
    Eigen::VectorXf target;          // what the loss fits, in [0, 1] (see loss.h set_targets)
    // With patterns (5x9 only, see tuner/texel/pattern_fit.h), else both empty:
    // each row's kPatternWindows window configurations (window w of row r at
    // r * kPatternWindows + w; its class is pattern_windows()[w].cls), and
    // the pattern part of each row's evaluation in centi-pieces, a fixed offset
    // that every evaluation of the terms adds.
    std::vector<std::uint16_t> patterns;
    Eigen::VectorXf offset;

    bool has_patterns() const { return !patterns.empty(); }

    std::size_t rows() const { return phase.size(); }
    std::size_t block_count() const { return blocks.size(); }
    std::size_t block_begin(std::size_t b) const { return b * kBlockRows; }
    std::size_t nonzeros() const;
    // Bytes held by the matrix and the per-row vectors (the training data in memory).
    std::size_t bytes() const;
    // For each feature (2t: term t's _mg, 2t+1: _eg), the rows where its tapered value
    // raw * phase (or raw * (32 - phase)) is non-zero.
    std::array<std::size_t, kFeatureCount> feature_counts() const;
};

// Extracts rows[i] of data.records into row i, in parallel on oneTBB (blocks are independent);
// with `patterns` also each row's window configurations (offsets 0). Throws TuneDataError for
// patterns on a board other than 5x9.
FeatureMatrix build_feature_matrix(const Dataset& data, std::span<const std::uint32_t> rows,
                                   bool patterns = false);

// Per-thread buffers of block_evaluation, reused so that evaluations allocate nothing.
struct EvalScratch {
    Eigen::Matrix<float, Eigen::Dynamic, 2> two; // R w_mg and R w_eg
    Eigen::VectorXf e;                           // the block's evaluations
};

// s.e = a * (R w_mg) + (1 - a) * (R w_eg) (+ the offsets) for the rows of block b, in
// centi-pieces; `w` is the weights as float.
void block_evaluation(const FeatureMatrix& m, std::size_t b,
                      const Eigen::Matrix<float, kTermCount, 2>& w, EvalScratch& s);

// Every row's evaluation in double precision (exact S / kEvalScale for integer weights), with
// the offsets when `with_offset`.
Eigen::VectorXd evaluate_rows(const FeatureMatrix& m, const WeightVector& w,
                              bool with_offset = true);

} // namespace fanorona
