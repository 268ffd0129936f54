#include "core/tables/compare.h"

#include <atomic>
#include <mutex>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "core/tables/builder.h"
#include "core/tables/table_code.h"
#include "core/tables/verify.h"

namespace fanorona::tables {

namespace {

// A material's codes in memory with the index they are stored by.
struct Side {
    std::vector<std::uint8_t> codes;
    const std::vector<DistanceException>* exceptions;
    MaterialIndex index;
    explicit Side(const TableFile& f)
        : codes(f.load_checked_codes()), exceptions(&f.exceptions()), index(index_of(f.header())) {}
    TableValue value(Bitboard mover, Bitboard other) const {
        const std::uint64_t i = index.index(mover, other);
        return value_with_exceptions(codes[i], i, *exceptions);
    }
};

CompareResult compare_material(const TableFile& fa, const TableFile& fb) {
    const TableHeader& h = fa.header();
    CompareResult r{h.variant, h.mover, h.other, 0, 0, ""};
    const Side a(fa), b(fb);
    const MaterialIndex whole(h.variant, h.mover, h.other);
    std::atomic<std::uint64_t> differences{0};
    std::mutex first_mutex;
    std::uint64_t first = ~std::uint64_t(0);
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, whole.mover_sets(), 16),
                      [&](const tbb::blocked_range<std::uint64_t>& range) {
                          for (std::uint64_t m = range.begin(); m != range.end(); ++m) {
                              const std::uint64_t dm = whole.mover_set(m);
                              const Bitboard mover = whole.mover_board(dm);
                              std::uint64_t d_o = (std::uint64_t(1) << h.other) - 1;
                              for (std::uint64_t j = 0; j < whole.other_sets(); ++j) {
                                  const Bitboard other = whole.other_board(dm, d_o);
                                  d_o = next_combination(d_o);
                                  const TableValue va = a.value(mover, other);
                                  const TableValue vb = b.value(mover, other);
                                  if (va == vb) continue;
                                  ++differences;
                                  const std::uint64_t i = m * whole.other_sets() + j;
                                  const std::lock_guard lock(first_mutex);
                                  if (i < first) {
                                      first = i;
                                      r.first_difference =
                                          Position::from_pieces(h.variant, mover, other,
                                                                Color::White)
                                              .to_string() +
                                          ": " + describe(va) + " in " + fa.path() + ", " +
                                          describe(vb) + " in " + fb.path();
                                  }
                              }
                          }
                      });
    r.positions = whole.size();
    r.differences = differences;
    return r;
}

} // namespace

std::vector<CompareResult> compare_tables(const Tablebase& a, const Tablebase& b,
                                          const std::function<void(const std::string&)>& progress) {
    std::vector<CompareResult> out;
    for (int vi = 0; vi < kVariantCount; ++vi) {
        const Variant v = Variant(vi);
        for (auto [m, o] : materials_up_to(v, 16)) {
            const TableFile* fa = a.file(v, m, o);
            const TableFile* fb = b.file(v, m, o);
            if (!fa || !fb) continue;
            out.push_back(compare_material(*fa, *fb));
            const CompareResult& r = out.back();
            if (progress)
                progress(material_label(v, m, o) + ": " + std::to_string(r.positions) +
                         " positions, " + std::to_string(r.differences) + " differences" +
                         (r.differences ? " (first: " + r.first_difference + ")" : ""));
        }
    }
    return out;
}

} // namespace fanorona::tables
