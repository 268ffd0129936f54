#include "core/tables/builder.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <stdexcept>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "core/board/movegen.h"
#include "core/common/clock.h"
#include "core/common/files.h"
#include "core/endgame.h"
#include "core/tables/material_index.h"
#include "core/tables/table_code.h"
#include "core/tables/table_file.h"

namespace fanorona::tables {

namespace {

constexpr int kMaxSide = 16;

// Working value of a position during a build: class in the top 3 bits, distance below.
using Work = std::uint16_t;
// kUnused marks a folded index's slots that no position maps to.
enum WorkClass : Work {
    kUnknown = 0,
    kWin = 1,
    kLoss = 2,
    kCursed = 3,
    kBlessed = 4,
    kDraw = 5,
    kUnused = 6
};
constexpr int kDistanceBits = 13;
constexpr int kMaxDistance = (1 << kDistanceBits) - 1;
constexpr Work work(Work cls, int distance) {
    return Work(cls << kDistanceBits | distance);
}
constexpr Work work_class(Work w) {
    return Work(w >> kDistanceBits);
}
constexpr int work_distance(Work w) {
    return w & kMaxDistance;
}
Work work_of(const TableValue& v) {
    switch (v.cls) {
    case TableClass::Win:
        return work(kWin, v.distance);
    case TableClass::Loss:
        return work(kLoss, v.distance);
    case TableClass::CursedWin:
        return work(kCursed, v.distance);
    case TableClass::BlessedLoss:
        return work(kBlessed, v.distance);
    case TableClass::Draw:
        break;
    }
    return work(kDraw, 0);
}

// The codes of finished materials, for the capture successors of larger ones.
struct SolvedTables {
    std::vector<std::uint8_t> codes[kMaxSide][kMaxSide];
    std::unique_ptr<MaterialIndex> index[kMaxSide][kMaxSide];
};

// Solves a material (mover A, other B) together with its twin (B, A): table 0 is (A, B), table 1
// (B, A); when A == B there is one table. Invariant during the retrograde passes: a position's
// Work is kUnknown until its value is final for the pass, and `count` holds the number of its
// paika successors not yet known to be won for the opponent, times the number of symmetries S.
// With a folded index a resolved position R stands for its whole class: the backward steps from
// R reach a predecessor class through |stab(R)| / |stab(Q)| as many steps as Q has moves into
// R's class, so each step takes S * |stab(Q)| / |stab(R)| off Q's count.
class PairSolver {
public:
    PairSolver(Variant v, int a, int b, int limit, bool fold, const SolvedTables& solved)
        : variant_(v), geo_(geometry(v)), solved_(solved), tables_(a == b ? 1 : 2), limit_(limit) {
        index_.emplace_back(v, a, b, fold);
        if (tables_ == 2) index_.emplace_back(v, b, a, fold);
        symmetries_ = index_[0].symmetries();
        for (int t = 0; t < tables_; ++t) {
            value_[t].assign(index_[t].size(), kUnknown);
            count_[t].assign(index_[t].size(), 0);
        }
    }

    int tables() const { return tables_; }
    const MaterialIndex& index(int t) const { return index_[t]; }
    int levels() const { return levels_; }

    void initialise();
    // Stage A: wins and losses counted with the smaller tables' Win and Loss only.
    void solve_within_limit(const std::function<void(const std::string&)>& progress);
    // Stage B: cursed wins and blessed losses, when stage A left any to find.
    bool needs_cursed_pass() const { return cursed_seed_ || max_level_ > limit_; }
    void solve_cursed(const std::function<void(const std::string&)>& progress);
    // The final codes and exception list of table t (frees its working arrays).
    void finish(int t, std::vector<std::uint8_t>& codes, std::vector<DistanceException>& ex);

private:
    int twin(int t) const { return tables_ == 1 ? 0 : 1 - t; }
    template <class F> void for_each_position(int t, F&& f);
    template <class Match, class Visit> std::uint64_t scan(Match&& match, Visit&& visit);
    void init_position(int t, std::uint64_t i, Bitboard mover, Bitboard other, MoveList& list);
    // Applies a resolved position (won or lost for its mover) to its predecessors at `level`.
    void propagate(int t, std::uint64_t i, bool lost, int level, bool cursed);
    int recount(int t, Bitboard mover, Bitboard other) const;

    Variant variant_;
    const Geometry& geo_;
    const SolvedTables& solved_;
    int tables_;
    int limit_;
    std::vector<MaterialIndex> index_;
    std::vector<Work> value_[2];
    std::vector<std::uint16_t> count_[2];
    int symmetries_ = 1;
    std::atomic<bool> cursed_seed_{false};
    int max_level_ = 0;
    int levels_ = 0;
};

template <class F> void PairSolver::for_each_position(int t, F&& f) {
    const MaterialIndex& mi = index_[t];
    const std::uint64_t others = mi.other_sets();
    const int n_other = mi.other();
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, mi.mover_sets(), 16),
                      [&](const tbb::blocked_range<std::uint64_t>& r) {
                          MoveList list;
                          for (std::uint64_t m = r.begin(); m != r.end(); ++m) {
                              const std::uint64_t dm = mi.mover_set(m);
                              const Bitboard mover = mi.mover_board(dm);
                              std::uint64_t d_o = (std::uint64_t(1) << n_other) - 1;
                              for (std::uint64_t j = 0; j < others; ++j) {
                                  f(m * others + j, mover, mi.other_board(dm, d_o), list);
                                  d_o = next_combination(d_o);
                              }
                          }
                      });
}

// Calls visit(t, i, w) for every position of both tables whose Work matches; returns how many.
template <class Match, class Visit> std::uint64_t PairSolver::scan(Match&& match, Visit&& visit) {
    std::atomic<std::uint64_t> hits{0};
    for (int t = 0; t < tables_; ++t) {
        const std::uint64_t size = value_[t].size();
        tbb::parallel_for(
            tbb::blocked_range<std::uint64_t>(0, size, 1 << 14),
            [&](const tbb::blocked_range<std::uint64_t>& r) {
                std::uint64_t local = 0;
                for (std::uint64_t i = r.begin(); i != r.end(); ++i) {
                    const Work w =
                        std::atomic_ref<Work>(value_[t][i]).load(std::memory_order_relaxed);
                    if (!match(w)) continue;
                    ++local;
                    visit(t, i, w);
                }
                hits += local;
            });
    }
    return hits;
}

void PairSolver::init_position(int t, std::uint64_t i, Bitboard mover, Bitboard other,
                               MoveList& list) {
    if (!index_[t].used(i)) {
        value_[t][i] = work(kUnused, 0);
        return;
    }
    const Position pos = Position::from_pieces(variant_, mover, other, Color::White);
    const Rules rules{variant_};
    if (capturing_pieces(pos)) {
        // Captures are compulsory: the value follows from the smaller tables alone.
        generate_moves(pos, rules, list);
        TableValue best{TableClass::Loss, 1};
        long best_rank = table_rank(best) - 1;
        const int a = index_[t].mover();
        for (const Move& m : list) {
            const Bitboard next_mover = other & ~m.captured;
            TableValue after;
            if (next_mover) {
                const Bitboard next_other = mover ^ bit(m.from) ^ bit(m.to);
                const int k = popcount(next_mover);
                const std::uint64_t j = solved_.index[k][a]->index(next_mover, next_other);
                after = TableValue{code_class(solved_.codes[k][a][j]), 0};
            }
            const TableValue v = value_of_move(true, !next_mover, after, limit_);
            if (table_rank(v) > best_rank) {
                best = v;
                best_rank = table_rank(v);
            }
        }
        if (best.cls == TableClass::CursedWin || best.cls == TableClass::BlessedLoss)
            cursed_seed_.store(true, std::memory_order_relaxed);
        value_[t][i] = work_of(best);
        return;
    }
    const Bitboard empty = geo_.board & ~(mover | other);
    int paika = 0;
    for (int d = 0; d < kDirections; ++d)
        paika += popcount(geo_.shift(mover, Direction(d)) & empty);
    if (paika == 0) {
        value_[t][i] = work(kLoss, 0); // no legal move
        return;
    }
    count_[t][i] = std::uint16_t(paika * symmetries_);
}

void PairSolver::initialise() {
    for (int t = 0; t < tables_; ++t)
        for_each_position(t, [&](std::uint64_t i, Bitboard mover, Bitboard other, MoveList& list) {
            init_position(t, i, mover, other, list);
        });
}

void PairSolver::propagate(int t, std::uint64_t i, bool lost, int level, bool cursed) {
    Bitboard mover, other;
    index_[t].decode(i, mover, other);
    const int p = twin(t);
    const MaterialIndex& pi = index_[p];
    const Bitboard occupied = mover | other;
    if (level + 1 > kMaxDistance) throw std::runtime_error("table distance overflow");
    const Work target = lost ? work(kWin, level + 1) : work(kLoss, level + 1);
    const Work cursed_target = lost ? work(kCursed, level + 1) : work(kBlessed, level + 1);
    // The weight of one backward step (see the class comment), S * |stab(Q)| / |stab(R)|.
    const int per_q = lost ? 0 : symmetries_ / index_[t].slot_stabilizer(i);
    for (Bitboard ys = other; ys;) {
        const Square y = pop_lsb(ys);
        for (int d = 0; d < kDirections; ++d) {
            const int q = geo_.neighbor[d][y];
            if (q < 0 || (occupied >> q & 1)) continue;
            // The opponent's last move went from q to y.
            int stab_q = 1;
            const std::uint64_t r = pi.index(other ^ bit(y) ^ bit(q), mover, stab_q);
            std::atomic_ref<Work> v(value_[p][r]);
            if (v.load(std::memory_order_relaxed) != kUnknown) continue;
            const Work set = cursed ? cursed_target : target;
            if (lost) {
                Work expected = kUnknown;
                v.compare_exchange_strong(expected, set, std::memory_order_relaxed);
            } else if (const int step = per_q * stab_q;
                       std::atomic_ref<std::uint16_t>(count_[p][r])
                           .fetch_sub(std::uint16_t(step), std::memory_order_relaxed) == step) {
                Work expected = kUnknown;
                v.compare_exchange_strong(expected, set, std::memory_order_relaxed);
            }
        }
    }
}

void PairSolver::solve_within_limit(const std::function<void(const std::string&)>& progress) {
    for (int level = 0;; ++level) {
        const Work win = work(kWin, level), loss = work(kLoss, level);
        const std::uint64_t n =
            scan([&](Work w) { return w == win || w == loss; },
                 [&](int t, std::uint64_t i, Work w) { propagate(t, i, w == loss, level, false); });
        if (n > 0) max_level_ = level;
        if (n == 0 && level >= 1) break;
        if (level > 0 && level % 20 == 0 && progress)
            progress("  level " + std::to_string(level) + ": " + std::to_string(n) + " positions");
    }
    levels_ = max_level_;
}

int PairSolver::recount(int t, Bitboard mover, Bitboard other) const {
    const int p = twin(t);
    const MaterialIndex& pi = index_[p];
    const Bitboard empty = geo_.board & ~(mover | other);
    int n = 0;
    for (Bitboard xs = mover; xs;) {
        const Square x = pop_lsb(xs);
        for (int d = 0; d < kDirections; ++d) {
            const int q = geo_.neighbor[d][x];
            if (q < 0 || !(empty >> q & 1)) continue;
            const std::uint64_t r = pi.index(other, mover ^ bit(x) ^ bit(q));
            const Work w =
                std::atomic_ref<const Work>(value_[p][r]).load(std::memory_order_relaxed);
            if (!(work_class(w) == kWin && work_distance(w) < limit_)) ++n;
        }
    }
    return n * symmetries_;
}

void PairSolver::solve_cursed(const std::function<void(const std::string&)>& progress) {
    // Positions still open, and wins and losses beyond the limit, are solved again with the
    // cursed and blessed positions as the targets.
    for (int t = 0; t < tables_; ++t)
        for_each_position(t, [&](std::uint64_t i, Bitboard mover, Bitboard other, MoveList&) {
            std::atomic_ref<Work> v(value_[t][i]);
            const Work w = v.load(std::memory_order_relaxed);
            const Work c = work_class(w);
            if (!(w == kUnknown || ((c == kWin || c == kLoss) && work_distance(w) > limit_)))
                return;
            count_[t][i] = std::uint16_t(recount(t, mover, other));
            v.store(kUnknown, std::memory_order_relaxed);
        });
    int last = 0;
    for (int level = 1;; ++level) {
        const Work cw = work(kCursed, level), bl = work(kBlessed, level);
        const bool edge = level == limit_;
        const Work win = work(kWin, level), loss = work(kLoss, level);
        const std::uint64_t n =
            scan([&](Work w) { return w == cw || w == bl || (edge && (w == win || w == loss)); },
                 [&](int t, std::uint64_t i, Work w) {
                     propagate(t, i, w == bl || w == loss, level, true);
                 });
        if (n > 0) last = level;
        if (n == 0 && level >= limit_) break;
    }
    levels_ = std::max(levels_, last);
    if (progress) progress("  cursed and blessed positions: " + std::to_string(last) + " levels");
}

void PairSolver::finish(int t, std::vector<std::uint8_t>& codes,
                        std::vector<DistanceException>& ex) {
    std::vector<Work>& value = value_[t];
    codes.assign(value.size(), 0);
    ex.clear();
    for (std::uint64_t i = 0; i < value.size(); ++i) {
        const Work w = value[i];
        const int d = work_distance(w);
        switch (work_class(w)) {
        case kWin:
            codes[i] = encode_value({TableClass::Win, d});
            break;
        case kLoss:
            codes[i] = encode_value({TableClass::Loss, d});
            break;
        case kCursed:
            codes[i] = kCodeCursedWin;
            ex.push_back({i, std::uint32_t(d)});
            break;
        case kBlessed:
            codes[i] = kCodeBlessedLoss;
            ex.push_back({i, std::uint32_t(d)});
            break;
        case kUnused:
            codes[i] = kCodeUnused;
            break;
        default:
            break;
        }
    }
    std::vector<Work>().swap(value);
    std::vector<std::uint16_t>().swap(count_[t]);
}

std::string with_commas(std::uint64_t n) {
    std::string s = std::to_string(n);
    for (int i = int(s.size()) - 3; i > 0; i -= 3) s.insert(std::size_t(i), ",");
    return s;
}

// Checks the tables already in the folder before anything is written: every *.fntb file must be
// readable, hold the material its name says, and count with the build's no-capture limit (a
// folder's tables are used together). Tables of other boards and of other piece counts may
// share the folder.
void check_existing_tables(const BuildConfig& cfg) {
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(cfg.dir, ec)) {
        if (entry.path().extension() != ".fntb") continue;
        const std::string path = entry.path().string();
        std::unique_ptr<TableFile> f;
        try {
            f = std::make_unique<TableFile>(path);
            f->check_file_name();
        } catch (const FileError& e) {
            throw FileError(std::string(e.what()) +
                            " (the build writes nothing over it: remove it to build it again)");
        }
        // --no-symmetry into a folder of folded tables is refused, not ignored (a folder of
        // unfolded version 1 tables may grow by folded ones).
        const TableHeader& h = f->header();
        if (h.variant == cfg.variant && !cfg.fold && h.folded())
            throw std::invalid_argument("--no-symmetry: " + cfg.dir +
                                        " holds folded tables of this board (" + path +
                                        "); build into another folder, or without --no-symmetry");
        const int limit = f->header().turn_limit;
        if (limit != cfg.turn_limit)
            throw std::invalid_argument(
                "--turn-limit " + std::to_string(cfg.turn_limit) + ": " + cfg.dir +
                " holds tables built with --turn-limit " + std::to_string(limit) + " (" + path +
                "); build into another folder, or with --turn-limit " + std::to_string(limit));
    }
    if (ec) throw FileError(cfg.dir + ": cannot list the folder: " + ec.message());
}

} // namespace

std::vector<std::pair<int, int>> materials_up_to(Variant v, int pieces) {
    std::vector<std::pair<int, int>> out;
    const int points = geometry(v).points;
    for (int total = 2; total <= std::min(pieces, points); ++total)
        for (int a = total - 1; a >= 1; --a) out.emplace_back(a, total - a);
    return out;
}

std::vector<std::pair<int, int>> successor_materials(int mover, int other) {
    std::vector<std::pair<int, int>> out{{other, mover}};
    for (int k = 1; k < other; ++k) out.emplace_back(k, mover);
    return out;
}

namespace {

// Throws for settings the builder cannot honour, creates the folder and checks the tables
// already in it.
void check_build_config(const BuildConfig& cfg) {
    if (is_telo(cfg.variant))
        throw std::invalid_argument("--variant telo: endgame tables are for the capture game "
                                    "(any board size), not Fanoron-telo");
    if (cfg.pieces < 2 || cfg.pieces > kMaxSide)
        throw std::invalid_argument("--pieces must be from 2 to " + std::to_string(kMaxSide));
    if (cfg.turn_limit < 1 || cfg.turn_limit > kTableTurnLimit)
        throw std::invalid_argument("--turn-limit must be from 1 to " +
                                    std::to_string(kTableTurnLimit));
    std::error_code ec;
    std::filesystem::create_directories(cfg.dir, ec);
    if (ec) throw FileError(cfg.dir + ": cannot create the folder: " + ec.message());
    check_existing_tables(cfg);
}

// One run of build_tables: the settings, the finished materials' codes that larger ones need,
// and the reports so far.
struct TableBuild {
    const BuildConfig& cfg;
    const std::function<void(const std::string&)>& progress;
    const Variant v = cfg.variant;
    const std::string vname{variant_name(cfg.variant)};
    SolvedTables solved;
    std::vector<MaterialReport> reports;

    TableBuild(const BuildConfig& c, const std::function<void(const std::string&)>& p)
        : cfg(c), progress(p) {}

    std::string path_of(int a, int b) const { return cfg.dir + "/" + table_file_name(v, a, b); }
    // Keeps the codes of (m, o) when a larger material's captures lead to it.
    void remember(int m, int o, bool fold, std::vector<std::uint8_t>&& codes) {
        if (m + o >= cfg.pieces) return;
        solved.codes[m][o] = std::move(codes);
        solved.index[m][o] = std::make_unique<MaterialIndex>(v, m, o, fold);
    }

    // Loads the tables of (a, b) and its twin when both files are there (checked by
    // check_existing_tables): true, else false.
    bool load_built(int a, int b) {
        if (!std::filesystem::exists(path_of(a, b)) || !std::filesystem::exists(path_of(b, a)))
            return false;
        const bool needed_later = a + b < cfg.pieces;
        for (auto [m, o] : {std::pair{a, b}, std::pair{b, a}}) {
            TableFile f(path_of(m, o));
            // Re-checked whole (checksum, blocks, counts) before it is called built: a
            // damaged finished table is an error naming it, never "already built".
            std::vector<std::uint8_t> codes;
            try {
                codes = f.load_checked_codes();
            } catch (const FileError& e) {
                throw FileError(std::string(e.what()) +
                                " (the build writes nothing over it: remove it to build it "
                                "again)");
            }
            reports.push_back({m, o, f.header().stored(), f.header().full_positions(),
                               f.file_size(), 0, 0, true});
            if (progress)
                progress(vname + " " + material_name(m, o) + ": already built (" +
                         with_commas(f.header().stored()) + " positions)");
            if (needed_later) remember(m, o, f.header().folded(), std::move(codes));
            if (m == o) break;
        }
        return true;
    }

    // Solves (a, b) with its twin and writes their tables.
    void solve(int a, int b) {
        const auto t0 = std::chrono::steady_clock::now();
        PairSolver solver(v, a, b, cfg.turn_limit, cfg.fold, solved);
        std::string names = material_name(a, b) + (a != b ? " and " + material_name(b, a) : "");
        std::uint64_t positions = 0, full = 0;
        for (int t = 0; t < solver.tables(); ++t) {
            positions += solver.index(t).size();
            full += solver.index(t).full_size();
        }
        if (progress)
            progress(vname + " " + names + ": " + with_commas(positions) + " positions" +
                     (positions != full ? " (folded by symmetry: " + with_commas(full) +
                                              " in the whole materials)"
                                        : ""));
        solver.initialise();
        const double init_seconds = seconds_since(t0);
        solver.solve_within_limit(progress);
        if (solver.needs_cursed_pass()) solver.solve_cursed(progress);
        const double seconds = seconds_since(t0);
        for (int t = 0; t < solver.tables(); ++t) write(solver, t, seconds);
        if (progress) {
            char line[200];
            std::snprintf(line, sizeof line,
                          "%s %s: done in %.1f s (setup %.1f s, %d levels), %.0f positions/s",
                          vname.c_str(), names.c_str(), seconds, init_seconds, solver.levels(),
                          double(positions) / std::max(seconds, 1e-9));
            progress(line);
        }
    }

    // Writes the solver's table `t`, reads it back for its report and line.
    void write(PairSolver& solver, int t, double seconds) {
        const MaterialIndex& mi = solver.index(t);
        std::vector<std::uint8_t> codes;
        std::vector<DistanceException> ex;
        solver.finish(t, codes, ex);
        const std::uint64_t bytes =
            write_table_file(path_of(mi.mover(), mi.other()), v, mi.mover(), mi.other(),
                             cfg.turn_limit, codes, ex, mi.folded());
        TableFile f(path_of(mi.mover(), mi.other()));
        const TableHeader& h = f.header();
        reports.push_back({mi.mover(), mi.other(), h.stored(), h.full_positions(), bytes, seconds,
                           solver.levels(), false});
        char line[320];
        std::snprintf(line, sizeof line,
                      "%s %s: %s positions, wins %s, draws %s, losses %s, cursed %s, "
                      "blessed %s, longest win %d, %.2f bytes/position",
                      vname.c_str(), material_name(mi.mover(), mi.other()).c_str(),
                      with_commas(h.stored()).c_str(), with_commas(h.counts[1]).c_str(),
                      with_commas(h.counts[0]).c_str(), with_commas(h.counts[2]).c_str(),
                      with_commas(h.counts[3]).c_str(), with_commas(h.counts[4]).c_str(),
                      h.longest_win,
                      double(bytes) / double(std::max<std::uint64_t>(1, h.stored())));
        if (progress) progress(line);
        remember(mi.mover(), mi.other(), mi.folded(), std::move(codes));
    }
};

} // namespace

std::vector<MaterialReport> build_tables(const BuildConfig& cfg,
                                         const std::function<void(const std::string&)>& progress) {
    // Step 1. Settings the builder can honour, the folder, and the tables already in it.
    check_build_config(cfg);
    // Step 2. Every material up to cfg.pieces, smallest first, with its twin: loaded when built
    // already, else solved and written.
    TableBuild build(cfg, progress);
    for (auto [a, b] : materials_up_to(cfg.variant, cfg.pieces)) {
        if (a < b) continue; // solved with its twin
        if (!build.load_built(a, b)) build.solve(a, b);
    }
    return std::move(build.reports);
}

} // namespace fanorona::tables
