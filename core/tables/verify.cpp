#include "core/tables/verify.h"

#include <atomic>
#include <cstdio>
#include <map>
#include <mutex>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "core/board/movegen.h"
#include "core/common/files.h"
#include "core/tables/builder.h"
#include "core/tables/table_code.h"

namespace fanorona::tables {

std::string describe(const TableValue& v) {
    static const char* names[] = {"draw", "win", "loss", "cursed win", "blessed loss"};
    return std::string(names[int(v.cls)]) + " " + std::to_string(v.distance);
}

namespace {

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
        if (a < 1 || b < 1 || a > 16 || b > 16) return std::nullopt;
        const Loaded* l = loaded_[int(pos.variant())][a][b].get();
        if (!l) return std::nullopt;
        const std::uint64_t i = l->index->index(pos.player(), pos.opponent());
        return value_with_exceptions(l->codes[i], i, *l->exceptions);
    }
    // Loads a material's codes after checking its file; throws FileError when it is damaged.
    void load(const TableFile& f) {
        const TableHeader& h = f.header();
        auto l = std::make_unique<Loaded>();
        l->codes = f.load_checked_codes();
        l->exceptions = &f.exceptions();
        l->index = std::make_unique<MaterialIndex>(index_of(h));
        loaded_[int(h.variant)][h.mover][h.other] = std::move(l);
    }

private:
    const Tablebase& tables_;
    std::unique_ptr<Loaded> loaded_[kVariantCount][17][17];
};

// Checks every position of a loaded material against its successors.
void check_values(const LoadedProbe& probe, const TableHeader& h, VerifyResult& r) {
    const MaterialIndex index = index_of(h);
    std::atomic<std::uint64_t> errors{0};
    std::mutex first_mutex;
    std::uint64_t first_index = ~std::uint64_t(0);
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, h.positions, 4096),
                      [&](const tbb::blocked_range<std::uint64_t>& range) {
                          for (std::uint64_t i = range.begin(); i != range.end(); ++i) {
                              if (!index.used(i)) continue;
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
                                  r.first_error = pos.to_string() + ": stored " + describe(stored) +
                                                  ", successors give " +
                                                  (expected ? describe(*expected) : "no value");
                              }
                          }
                      });
    r.positions = h.stored();
    r.errors = errors;
    r.status = r.errors ? VerifyStatus::Errors : VerifyStatus::Verified;
}

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

const char* verify_status_name(VerifyStatus s) {
    static const char* names[] = {"verified", "errors", "corrupt", "unchecked", "missing"};
    return names[int(s)];
}

std::vector<VerifyResult> verify_tables(const Tablebase& tables,
                                        const std::function<void(const std::string&)>& progress) {
    LoadedProbe probe(tables);
    // Every file first: its checksum, blocks and header against its codes.
    std::map<const TableFile*, std::string> corrupt;
    for (const TableFile* f : tables.files()) {
        try {
            probe.load(*f);
        } catch (const FileError& e) {
            corrupt[f] = e.what();
        }
    }
    std::vector<VerifyResult> out;
    for (int vi = 0; vi < kVariantCount; ++vi) {
        const Variant v = Variant(vi);
        const auto materials = materials_up_to(v, 16);
        // The missing materials present ones lead into, with the materials that need them.
        std::map<std::pair<int, int>, std::string> needed_by;
        for (auto [a, b] : materials)
            if (tables.file(v, a, b))
                for (auto [m, o] : successor_materials(a, b))
                    if (!tables.file(v, m, o)) {
                        std::string& who = needed_by[{m, o}];
                        who += (who.empty() ? "" : ", ") + material_name(a, b);
                    }
        for (auto [a, b] : materials) {
            const TableFile* f = tables.file(v, a, b);
            VerifyResult r{v, a, b, tables.path_of(v, a, b), VerifyStatus::Verified, 0, 0, "", ""};
            if (!f) {
                const auto it = needed_by.find({a, b});
                if (it == needed_by.end()) continue;
                r.status = VerifyStatus::Missing;
                r.reason = r.file + " is missing (" + it->second + " lead" +
                           (it->second.find(',') == std::string::npos ? "s" : "") + " into it)";
            } else if (const auto it = corrupt.find(f); it != corrupt.end()) {
                r.status = VerifyStatus::Corrupt;
                r.reason = it->second;
            } else {
                for (auto [m, o] : successor_materials(a, b)) {
                    const TableFile* s = tables.file(v, m, o);
                    if (s && !corrupt.count(s)) continue;
                    r.status = VerifyStatus::Unchecked;
                    r.reason = material_label(v, a, b) + " leads into " + material_label(v, m, o) +
                               ", whose table " + tables.path_of(v, m, o) + " is " +
                               (s ? "corrupt" : "missing");
                    break;
                }
                if (r.status != VerifyStatus::Unchecked) check_values(probe, f->header(), r);
            }
            if (progress) {
                const std::string name = material_label(v, a, b);
                if (r.status == VerifyStatus::Verified || r.status == VerifyStatus::Errors)
                    progress(name + ": " + std::to_string(r.positions) + " positions, " +
                             std::to_string(r.errors) + " errors" +
                             (r.errors ? " (first: " + r.first_error + ")" : ""));
                else
                    progress(name + ": " + verify_status_name(r.status) + ": " + r.reason);
            }
            out.push_back(std::move(r));
        }
    }
    return out;
}

} // namespace fanorona::tables
