#include "tuner/texel/feature_matrix.h"

#include <algorithm>
#include <array>

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include "core/common/fork_join.h"
#include "core/evaluate.h"

namespace fanorona {

namespace {

// A block's non-zeros while it is being extracted (reused by each worker thread).
struct ExtractScratch {
    std::vector<float> values = std::vector<float>(std::size_t(kBlockRows) * kTermCount);
    std::vector<FeatureStorageIndex> columns =
        std::vector<FeatureStorageIndex>(std::size_t(kBlockRows) * kTermCount);
    std::array<FeatureStorageIndex, kBlockRows + 1> outer{};
};

std::int8_t result_for_mover(GameResult r, Color mover) {
    if (r == GameResult::Draw || r == GameResult::Ongoing) return 0;
    const bool white_won = r == GameResult::WhiteWins;
    return (white_won == (mover == Color::White)) ? 1 : -1;
}

} // namespace

std::size_t FeatureMatrix::nonzeros() const {
    std::size_t n = 0;
    for (const BlockMatrix& b : blocks) n += std::size_t(b.nonZeros());
    return n;
}

std::size_t FeatureMatrix::bytes() const {
    std::size_t n = sizeof(FeatureMatrix) + blocks.size() * sizeof(BlockMatrix);
    for (const BlockMatrix& b : blocks)
        n += std::size_t(b.nonZeros()) * (sizeof(float) + sizeof(FeatureStorageIndex)) +
             std::size_t(b.outerSize() + 1) * sizeof(FeatureStorageIndex);
    n += phase.size() * sizeof(phase[0]) + result.size() * sizeof(result[0]) +
         score.size() * sizeof(score[0]) + std::size_t(target.size()) * sizeof(float) +
         patterns.size() * sizeof(patterns[0]) + std::size_t(offset.size()) * sizeof(float);
    return n;
}

std::array<std::size_t, kFeatureCount> FeatureMatrix::feature_counts() const {
    std::array<std::size_t, kFeatureCount> counts{};
    for (std::size_t b = 0; b < blocks.size(); ++b) {
        const BlockMatrix& block = blocks[b];
        for (Eigen::Index r = 0; r < block.outerSize(); ++r) {
            // Whether a non-zero raw value gives non-zero _mg and _eg features at this phase.
            const auto unit = taper(1, int(phase[block_begin(b) + std::size_t(r)]));
            for (BlockMatrix::InnerIterator it(block, r); it; ++it) {
                counts[feature_of(int(it.col()), false)] += unit.mg != 0;
                counts[feature_of(int(it.col()), true)] += unit.eg != 0;
            }
        }
    }
    return counts;
}

FeatureMatrix build_feature_matrix(const Dataset& data, std::span<const std::uint32_t> rows,
                                   bool patterns) {
    if (patterns && !patterns_apply(data.rules.variant))
        throw TuneDataError((data.files.empty() ? std::string("data") : data.files.front()) +
                            ": patterns need 5x9 (tsivy) positions, the log holds " +
                            std::string(variant_name(data.rules.variant)) + " ones");
    FeatureMatrix m;
    const std::size_t n = rows.size();
    const std::size_t n_blocks = (n + kBlockRows - 1) / kBlockRows;
    m.blocks.resize(n_blocks);
    m.phase.resize(n);
    m.result.resize(n);
    m.score.resize(n);
    m.target = Eigen::VectorXf::Zero(Eigen::Index(n));
    if (patterns) {
        m.patterns.resize(n * kPatternWindows);
        m.offset = Eigen::VectorXf::Zero(Eigen::Index(n));
    }
    const Rules rules = data.rules;
    tbb::enumerable_thread_specific<ExtractScratch> scratch;
    const ForkJoin fork_join; // what TSan cannot see inside libtbb (core/common/fork_join.h)
    tbb::parallel_for(
        tbb::blocked_range<std::size_t>(0, n_blocks), fork_join.body([&](const auto& range) {
            ExtractScratch& s = scratch.local();
            std::array<int, kTermCount> raw;
            PatternIndices indices;
            for (std::size_t b = range.begin(); b != range.end(); ++b) {
                const std::size_t first = b * kBlockRows;
                const std::size_t count = std::min<std::size_t>(kBlockRows, n - first);
                int nnz = 0;
                for (std::size_t i = 0; i < count; ++i) {
                    const PositionRecord& rec = data.records[rows[first + i]];
                    const Position pos = rec.position(rules.variant);
                    Rules own = rules; // a Vela series log: each position under its game's rules
                    own.ruleset = rec.rules_or(rules.ruleset);
                    extract_terms(pos, own, raw);
                    s.outer[i] = FeatureStorageIndex(nnz);
                    for (int t = 0; t < kTermCount; ++t)
                        if (raw[t]) {
                            s.values[nnz] = float(raw[t]);
                            s.columns[nnz] = FeatureStorageIndex(t);
                            ++nnz;
                        }
                    m.phase[first + i] = std::uint8_t(game_phase(pos));
                    m.result[first + i] = result_for_mover(rec.result, rec.side_to_move);
                    m.score[first + i] = rec.score;
                    if (patterns) {
                        pattern_indices(pos.player(), pos.opponent(), indices);
                        std::uint16_t* out = m.patterns.data() + (first + i) * kPatternWindows;
                        for (int w = 0; w < kPatternWindows; ++w)
                            out[w] = std::uint16_t(indices[w] % kPatternConfigs);
                    }
                }
                s.outer[count] = FeatureStorageIndex(nnz);
                BlockMatrix& block = m.blocks[b];
                block.resize(Eigen::Index(count), kTermCount);
                block.resizeNonZeros(nnz);
                std::copy_n(s.values.begin(), nnz, block.valuePtr());
                std::copy_n(s.columns.begin(), nnz, block.innerIndexPtr());
                std::copy_n(s.outer.begin(), count + 1, block.outerIndexPtr());
            }
        }));
    fork_join.joined();
    return m;
}

void block_evaluation(const FeatureMatrix& m, std::size_t b,
                      const Eigen::Matrix<float, kTermCount, 2>& w, EvalScratch& s) {
    const BlockMatrix& block = m.blocks[b];
    const Eigen::Index rows = block.rows();
    // Two columns: R w_mg and R w_eg, Eigen's row-major sparse * dense kernel.
    s.two.resize(rows, 2);
    s.two.noalias() = block * w;
    const auto phase = Eigen::Map<const Eigen::Array<std::uint8_t, Eigen::Dynamic, 1>>(
                           m.phase.data() + m.block_begin(b), rows)
                           .cast<float>();
    s.e.resize(rows);
    s.e.array() = eval_of_sum(blend(s.two.col(0).array(), s.two.col(1).array(), phase));
    if (m.offset.size()) s.e += m.offset.segment(Eigen::Index(m.block_begin(b)), rows);
}

Eigen::VectorXd evaluate_rows(const FeatureMatrix& m, const WeightVector& w, bool with_offset) {
    const TermWeights tw = Eigen::Map<const TermWeights>(w.data());
    Eigen::VectorXd out(Eigen::Index(m.rows()));
    const ForkJoin fork_join;
    tbb::parallel_for(std::size_t(0), m.block_count(), fork_join.body([&](std::size_t b) {
        const BlockMatrix& block = m.blocks[b];
        const Eigen::Matrix<double, Eigen::Dynamic, 2> two = block.cast<double>() * tw;
        const auto phase = Eigen::Map<const Eigen::Array<std::uint8_t, Eigen::Dynamic, 1>>(
                               m.phase.data() + m.block_begin(b), block.rows())
                               .cast<double>();
        out.segment(Eigen::Index(m.block_begin(b)), block.rows()).array() =
            eval_of_sum(blend(two.col(0).array(), two.col(1).array(), phase));
        if (with_offset && m.offset.size())
            out.segment(Eigen::Index(m.block_begin(b)), block.rows()) +=
                m.offset.segment(Eigen::Index(m.block_begin(b)), block.rows()).cast<double>();
    }));
    fork_join.joined();
    return out;
}

} // namespace fanorona
