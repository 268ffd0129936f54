#include "tables/verify.h"

#include <atomic>
#include <cstdio>
#include <mutex>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "core/movegen.h"
#include "tables/table_code.h"

namespace fanorona::tables {

namespace {

std::string describe(const TableValue& v) {
    static const char* names[] = {"draw", "win", "loss", "cursed win", "blessed loss"};
    return std::string(names[int(v.cls)]) + " " + std::to_string(v.distance);
}

// A material's codes and distances in memory.
struct Loaded {
    std::vector<std::uint8_t> codes;
    const std::vector<DistanceException>* exceptions = nullptr;
    std::unique_ptr<MaterialIndex> index;
};

// EndgameProbe over fully loaded materials (verification reads every position many times).
class LoadedProbe final : public EndgameProbe {
public:
    explicit LoadedProbe(const Tablebase& tables) : tables_(tables) {}
    int max_pieces(Variant v) const override { return tables_.max_pieces(v); }
    int turn_limit() const override { return tables_.turn_limit(); }
    std::optional<TableValue> probe(const Position& pos) const override {
        const int a = popcount(pos.player()), b = popcount(pos.opponent());
        const Loaded* l = loaded_[int(pos.variant())][a][b].get();
        if (!l) return std::nullopt;
        const std::uint64_t i = l->index->index(pos.player(), pos.opponent());
        return value_with_exceptions(l->codes[i], i, *l->exceptions);
    }
    bool load(Variant v, int a, int b) {
        if (a < 1 || b < 1 || a > 16 || b > 16) return false;
        auto& slot = loaded_[int(v)][a][b];
        if (slot) return true;
        const TableFile* f = tables_.file(v, a, b);
        if (!f) return false;
        slot = std::make_unique<Loaded>();
        slot->codes = f->load_codes();
        slot->exceptions = &f->exceptions();
        slot->index = std::make_unique<MaterialIndex>(v, a, b);
        return true;
    }

private:
    const Tablebase& tables_;
    std::unique_ptr<Loaded> loaded_[kVariantCount][17][17];
};

} // namespace

std::optional<TableValue> value_from_successors(const EndgameProbe& tables, const Position& pos) {
    const Rules rules{pos.variant()};
    MoveList list;
    generate_moves(pos, rules, list);
    if (list.empty()) return TableValue{TableClass::Loss, 0};
    TableValue best;
    long best_rank = 0;
    bool first = true;
    for (const Move& m : list) {
        const auto value = table_value_of_move(tables, pos, m);
        if (!value) return std::nullopt;
        const TableValue mv = *value;
        if (first || table_rank(mv) > best_rank) {
            best = mv;
            best_rank = table_rank(mv);
            first = false;
        }
    }
    return best;
}

std::vector<VerifyResult> verify_tables(const Tablebase& tables,
                                        const std::function<void(const std::string&)>& progress) {
    std::vector<VerifyResult> out;
    LoadedProbe probe(tables);
    for (const TableFile* f : tables.files()) {
        const TableHeader& h = f->header();
        VerifyResult r{h.variant, h.mover, h.other, h.positions, 0, ""};
        const std::string name =
            std::string(variant_name(h.variant)) + " " + material_name(h.mover, h.other);
        f->check_file_checksum();
        bool complete =
            probe.load(h.variant, h.mover, h.other) && probe.load(h.variant, h.other, h.mover);
        for (int k = 1; k < h.other; ++k) complete = complete && probe.load(h.variant, k, h.mover);
        if (!complete) {
            if (progress) progress(name + ": skipped (a successor's table is missing)");
            continue;
        }
        const MaterialIndex index(h.variant, h.mover, h.other);
        std::atomic<std::uint64_t> errors{0};
        std::mutex first_mutex;
        std::uint64_t first_index = ~std::uint64_t(0);
        tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, h.positions, 4096),
                          [&](const tbb::blocked_range<std::uint64_t>& range) {
                              for (std::uint64_t i = range.begin(); i != range.end(); ++i) {
                                  Bitboard mover, other;
                                  index.decode(i, mover, other);
                                  const Position pos =
                                      Position::from_pieces(h.variant, mover, other, Color::White);
                                  const TableValue stored = *probe.probe(pos);
                                  const auto expected = value_from_successors(probe, pos);
                                  if (expected && *expected == stored) continue;
                                  ++errors;
                                  const std::lock_guard lock(first_mutex);
                                  if (i < first_index) {
                                      first_index = i;
                                      r.first_error = pos.to_string() + ": stored " +
                                                      describe(stored) + ", successors give " +
                                                      (expected ? describe(*expected) : "no value");
                                  }
                              }
                          });
        r.errors = errors;
        if (progress)
            progress(name + ": " + std::to_string(r.positions) + " positions, " +
                     std::to_string(r.errors) + " errors" +
                     (r.errors ? " (first: " + r.first_error + ")" : ""));
        out.push_back(r);
    }
    return out;
}

} // namespace fanorona::tables
