// `fanorona tables`: endgame tables. build (retrograde analysis), verify (every value against its
// successors), stats (per material counts and longest wins), probe (one position's value and
// best moves). docs/formats.md "Endgame tables" defines the files and the values.

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include "core/board/notation.h"
#include "core/common/rng.h"
#include "core/common/thread_limit.h"
#include "core/search.h"
#include "core/tables/builder.h"
#include "core/tables/compare.h"
#include "core/tables/tablebase.h"
#include "core/tables/verify.h"
#include "selfplay/formats/json_text.h"
#include "tools/commands.h"
#include "tools/options.h"

namespace fanorona::cli {

namespace {

const char* class_name(TableClass c) {
    static const char* names[] = {"draw", "win", "loss", "cursed-win", "blessed-loss"};
    return names[int(c)];
}

std::string position_of(const tables::TableFile& f, std::uint64_t index) {
    const tables::MaterialIndex mi = tables::index_of(f.header());
    Bitboard mover, other;
    mi.decode(index, mover, other);
    return Position::from_pieces(f.header().variant, mover, other, Color::White).to_string();
}

struct BuildOptions {
    std::string variant = "tsivy";
    int pieces = 0;
    std::string dir; // --tables
    int threads = 0;
    int turn_limit = kTableTurnLimit;
    bool quiet = false;
    bool no_symmetry = false;
};

void run_build(const BuildOptions& o) {
    const ThreadLimit limit(o.threads);
    tables::BuildConfig cfg{*parse_variant(o.variant), o.pieces, o.dir, o.turn_limit,
                            !o.no_symmetry};
    const auto t0 = std::chrono::steady_clock::now();
    const auto reports = tables::build_tables(cfg, [&](const std::string& line) {
        if (!o.quiet) {
            std::printf("%s\n", line.c_str());
            std::fflush(stdout);
        }
    });
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::uint64_t positions = 0, bytes = 0, built = 0, whole = 0;
    for (const auto& r : reports) {
        positions += r.positions;
        whole += r.full_positions;
        bytes += r.file_bytes;
        built += r.reused ? 0 : r.positions;
    }
    std::printf("total: %llu positions (%llu built now) in %.1f s, %.0f positions/s, %llu bytes "
                "(%.3f bytes/position); the whole materials hold %llu positions (%.3f bytes "
                "each)\n",
                (unsigned long long)positions, (unsigned long long)built, secs,
                double(built) / std::max(secs, 1e-9), (unsigned long long)bytes,
                positions ? double(bytes) / double(positions) : 0.0, (unsigned long long)whole,
                whole ? double(bytes) / double(whole) : 0.0);
}

struct FolderOptions {
    std::string dir;
    int threads = 0;
    bool json = false;
};

void run_verify(const FolderOptions& o) {
    const ThreadLimit limit(o.threads);
    const tables::Tablebase tb(o.dir);
    const auto results = tables::verify_tables(tb, [&](const std::string& line) {
        if (!o.json) {
            std::printf("%s\n", line.c_str());
            std::fflush(stdout);
        }
    });
    std::uint64_t errors = 0, positions = 0, checked = 0;
    std::vector<std::string> not_checked; // "dimy 1v2 (unchecked: ...)"
    nlohmann::json j = nlohmann::json::array();
    for (const auto& r : results) {
        errors += r.errors;
        positions += r.positions;
        const bool ok =
            r.status == tables::VerifyStatus::Verified || r.status == tables::VerifyStatus::Errors;
        checked += ok;
        if (!ok)
            not_checked.push_back(tables::material_label(r.variant, r.mover, r.other) + " (" +
                                  tables::verify_status_name(r.status) + ": " + r.reason + ")");
        j.push_back({{"variant", variant_name(r.variant)},
                     {"material", tables::material_name(r.mover, r.other)},
                     {"file", r.file},
                     {"status", tables::verify_status_name(r.status)},
                     {"positions", r.positions},
                     {"errors", r.errors},
                     {"first_error", r.first_error},
                     {"reason", r.reason}});
    }
    const bool ok = errors == 0 && not_checked.empty();
    if (o.json)
        std::printf("%s\n", to_json_text(nlohmann::json({{"materials", j},
                                                         {"positions", positions},
                                                         {"errors", errors},
                                                         {"not_checked", not_checked.size()},
                                                         {"ok", ok}}),
                                         1)
                                .c_str());
    else
        std::printf("verified %llu positions in %llu of %zu materials: %llu errors, %zu not "
                    "checked\n",
                    (unsigned long long)positions, (unsigned long long)checked, results.size(),
                    (unsigned long long)errors, not_checked.size());
    if (!not_checked.empty()) {
        std::string list;
        for (const std::string& m : not_checked) list += (list.empty() ? "" : "; ") + m;
        throw std::runtime_error(o.dir + ": " + std::to_string(not_checked.size()) +
                                 " materials could not be checked: " + list);
    }
    if (errors > 0)
        throw std::runtime_error(o.dir + ": " + std::to_string(errors) +
                                 " stored values disagree with their successors");
}

struct CompareOptions {
    std::string dir, against;
    int threads = 0;
    bool json = false;
};

void run_compare(const CompareOptions& o) {
    const ThreadLimit limit(o.threads);
    const tables::Tablebase a(o.dir), b(o.against);
    const auto results = tables::compare_tables(a, b, [&](const std::string& line) {
        if (!o.json) {
            std::printf("%s\n", line.c_str());
            std::fflush(stdout);
        }
    });
    std::uint64_t positions = 0, differences = 0;
    nlohmann::json j = nlohmann::json::array();
    for (const auto& r : results) {
        positions += r.positions;
        differences += r.differences;
        j.push_back({{"variant", variant_name(r.variant)},
                     {"material", tables::material_name(r.mover, r.other)},
                     {"positions", r.positions},
                     {"differences", r.differences},
                     {"first_difference", r.first_difference}});
    }
    if (o.json)
        std::printf("%s\n", to_json_text(nlohmann::json({{"materials", j},
                                                         {"positions", positions},
                                                         {"differences", differences}}),
                                         1)
                                .c_str());
    else
        std::printf("compared %llu positions in %zu materials: %llu differences\n",
                    (unsigned long long)positions, results.size(), (unsigned long long)differences);
    if (results.empty())
        throw std::invalid_argument(o.dir + " and " + o.against + " hold no material in common");
    if (differences > 0)
        throw std::runtime_error(o.dir + ": " + std::to_string(differences) +
                                 " positions differ from " + o.against);
}

void run_stats(const FolderOptions& o) {
    const tables::Tablebase tb(o.dir);
    nlohmann::json j = nlohmann::json::array();
    // Each material's counts twice: the positions stored (one per class of symmetric positions
    // when the table is folded) and the whole material's.
    if (!o.json)
        std::printf("%-6s %-5s %-6s %14s %14s %14s %14s %10s %10s %5s  %s\n", "board", "mat",
                    "count", "positions", "wins", "draws", "losses", "cursed", "blessed", "win",
                    "longest win");
    for (const tables::TableFile* f : tb.files()) {
        const tables::TableHeader& h = f->header();
        const std::string longest = h.longest_win > 0 ? position_of(*f, h.longest_win_index) : "";
        const std::string mat = tables::material_name(h.mover, h.other);
        auto counts = [](const std::uint64_t* c) {
            return nlohmann::json{{"wins", c[int(TableClass::Win)]},
                                  {"draws", c[int(TableClass::Draw)]},
                                  {"losses", c[int(TableClass::Loss)]},
                                  {"cursed_wins", c[int(TableClass::CursedWin)]},
                                  {"blessed_losses", c[int(TableClass::BlessedLoss)]}};
        };
        if (o.json) {
            nlohmann::json m = counts(h.counts);
            m.update({{"variant", variant_name(h.variant)},
                      {"material", mat},
                      {"positions", h.stored()},
                      {"symmetries", h.symmetries},
                      {"whole", counts(h.full_counts)},
                      {"longest_win", h.longest_win},
                      {"longest_win_position", longest},
                      {"longest_loss", h.longest_loss},
                      {"file_bytes", f->file_size()}});
            m["whole"]["positions"] = h.full_positions();
            j.push_back(std::move(m));
        } else {
            auto line = [&](const char* kind, std::uint64_t positions, const std::uint64_t* c,
                            bool with_longest) {
                std::printf("%-6s %-5s %-6s %14llu %14llu %14llu %14llu %10llu %10llu",
                            std::string(variant_name(h.variant)).c_str(), mat.c_str(), kind,
                            (unsigned long long)positions,
                            (unsigned long long)c[int(TableClass::Win)],
                            (unsigned long long)c[int(TableClass::Draw)],
                            (unsigned long long)c[int(TableClass::Loss)],
                            (unsigned long long)c[int(TableClass::CursedWin)],
                            (unsigned long long)c[int(TableClass::BlessedLoss)]);
                if (with_longest) std::printf(" %5d  %s", h.longest_win, longest.c_str());
                std::printf("\n");
            };
            line("stored", h.stored(), h.counts, true);
            line("whole", h.full_positions(), h.full_counts, false);
        }
    }
    if (o.json) std::printf("%s\n", to_json_text(nlohmann::json({{"materials", j}}), 1).c_str());
}

struct ProbeOptions {
    std::string dir;
    BoardOptions board;
    bool json = false;
};

void run_probe(const ProbeOptions& o) {
    Rules rules = o.board.make_rules();
    if (rules.ruleset != RuleSet::Standard)
        throw std::invalid_argument("--rules " + o.board.rules +
                                    ": endgame tables exist for the standard rules only");
    const Position pos = o.board.make_position();
    const tables::Tablebase tb(o.dir);
    rules.no_capture_limit = tb.turn_limit();
    const int a = popcount(pos.player()), b = popcount(pos.opponent());
    if (const std::string why = tb.gap(pos.variant(), a, b); !why.empty())
        throw std::invalid_argument("--fen: " + why);
    if (!tb.holds(pos.variant()))
        throw std::invalid_argument("--fen: " + o.dir + " holds tables of " + tb.boards() +
                                    ", the position is on " + tables::board_label(pos.variant()));
    const auto value = tb.probe(pos);
    if (!value)
        throw std::invalid_argument("--fen: the position's material " +
                                    tables::material_name(a, b) + " is not in " + o.dir);
    // The material is usable, so every move's position is in the tables.
    const auto moves = rank_table_moves(tb, pos);
    if (!moves)
        throw std::logic_error(o.dir + ": a move of " + pos.to_string() +
                               " leads out of the tables");
    const int outcome = table_outcome(*value, rules, pos.turns_since_capture());
    nlohmann::json jm = nlohmann::json::array();
    if (!o.json)
        std::printf("value %s distance %d (with %d turns since the last capture: %s)\n",
                    class_name(value->cls), value->distance, pos.turns_since_capture(),
                    outcome > 0   ? "win"
                    : outcome < 0 ? "loss"
                                  : "draw");
    for (const TableMove& m : *moves) {
        const std::string name = move_to_string(pos, rules, m.move);
        const bool best = table_rank(m.value) == table_rank(moves->front().value);
        if (o.json)
            jm.push_back({{"move", name},
                          {"value", class_name(m.value.cls)},
                          {"distance", m.value.distance},
                          {"best", best}});
        else
            std::printf("%s %-10s %s %d\n", best ? "*" : " ", name.c_str(), class_name(m.value.cls),
                        m.value.distance);
    }
    if (o.json)
        std::printf("%s\n", to_json_text(nlohmann::json({{"position", pos.to_string()},
                                                         {"value", class_name(value->cls)},
                                                         {"distance", value->distance},
                                                         {"outcome", outcome > 0   ? "win"
                                                                     : outcome < 0 ? "loss"
                                                                                   : "draw"},
                                                         {"moves", jm}}),
                                         1)
                                .c_str());
}

struct GradeOptions {
    std::string dir;
    std::string weights;
    int depth = 4;
    int samples = 200;
    std::uint64_t seed = 1;
    int threads = 0;
    bool with_tables = false;
    bool json = false;
};

// One material's grade: sampled positions the side to move does not lose (win, cursed win,
// draw), how many of them have a move that changes the class ("critical"), and how often the
// engine's move keeps the class (and the exact value, distance included).
struct Grade {
    std::uint64_t sampled = 0, critical = 0, kept = 0, critical_kept = 0, optimal = 0;
    Grade& operator+=(const Grade& g) {
        sampled += g.sampled, critical += g.critical, kept += g.kept;
        critical_kept += g.critical_kept, optimal += g.optimal;
        return *this;
    }
};

// The engine graded: --weights, --depth and, with --with-tables, the tables.
EngineSpec grade_engine(const GradeOptions& o) {
    EngineSpec spec;
    if (!o.weights.empty()) spec.set("weights", o.weights);
    spec.set("depth", std::to_string(o.depth));
    if (o.with_tables) spec.set("tables", o.dir);
    spec.validate();
    return spec;
}

// The engine's searchers, one a thread, made when a thread first needs one.
using GradeSearchers = tbb::enumerable_thread_specific<std::unique_ptr<Searcher>>;

// Sample `s` of material `material_id` (table `f`): its grade, empty when the side to move loses
// or has no move.
Grade grade_sample(const GradeOptions& o, const tables::Tablebase& tb, const tables::TableFile& f,
                   std::uint64_t material_id, int s, const EngineSpec& spec,
                   GradeSearchers& searchers) {
    const tables::TableHeader& h = f.header();
    // Sampled uniformly over the whole material, probed through the table's own index.
    const tables::MaterialIndex whole(h.variant, h.mover, h.other);
    const tables::MaterialIndex mi = tables::index_of(h);
    Rng rng = Rng::derive(o.seed, material_id, std::uint64_t(s));
    Bitboard mover, other;
    whole.decode(rng.below(whole.size()), mover, other);
    const Position pos = Position::from_pieces(h.variant, mover, other, Color::White);
    const TableValue value = f.value(mi.index(mover, other));
    if (value.cls == TableClass::Loss || value.cls == TableClass::BlessedLoss) return {};
    const auto ranked = rank_table_moves(tb, pos);
    if (!ranked || ranked->empty()) return {};
    auto& searcher = searchers.local();
    if (!searcher) {
        searcher = std::make_unique<Searcher>(spec.hash_mb);
        spec.configure(*searcher);
    }
    searcher->clear();
    Rules rules{h.variant};
    rules.no_capture_limit = tb.turn_limit();
    const Game game(rules, pos);
    const SearchResult r = searcher->search(game, spec.search_limits());
    Grade g;
    g.sampled = 1;
    bool critical = false;
    TableValue chosen{};
    for (const TableMove& m : *ranked) {
        critical = critical || m.value.cls != value.cls;
        if (m.move == r.best) chosen = m.value;
    }
    g.critical = critical;
    g.kept = chosen.cls == value.cls;
    g.critical_kept = critical && g.kept;
    g.optimal = chosen == value;
    return g;
}

// The grade of one material, printed as a row (or added to `j` with --json).
Grade grade_material(const GradeOptions& o, const tables::Tablebase& tb, const tables::TableFile& f,
                     std::uint64_t material_id, const EngineSpec& spec, GradeSearchers& searchers,
                     nlohmann::json& j) {
    const tables::TableHeader& h = f.header();
    std::vector<Grade> grades(std::size_t(o.samples));
    tbb::parallel_for(0, o.samples, [&](int s) {
        grades[std::size_t(s)] = grade_sample(o, tb, f, material_id, s, spec, searchers);
    });
    Grade m;
    for (const Grade& g : grades) m += g;
    const std::string mat = tables::material_name(h.mover, h.other);
    if (o.json)
        j.push_back({{"variant", variant_name(h.variant)},
                     {"material", mat},
                     {"sampled", m.sampled},
                     {"kept", m.kept},
                     {"critical", m.critical},
                     {"critical_kept", m.critical_kept},
                     {"optimal", m.optimal}});
    else
        std::printf("%-6s %-5s %8llu %8llu %8llu %8llu %8llu\n",
                    std::string(variant_name(h.variant)).c_str(), mat.c_str(),
                    (unsigned long long)m.sampled, (unsigned long long)m.kept,
                    (unsigned long long)m.critical, (unsigned long long)m.critical_kept,
                    (unsigned long long)m.optimal);
    return m;
}

// The total over every material, after the rows (or with them, with --json).
void print_grade_total(const GradeOptions& o, const EngineSpec& spec, const Grade& total,
                       const nlohmann::json& j) {
    auto share = [](std::uint64_t a, std::uint64_t b) { return b ? double(a) / double(b) : 0.0; };
    if (o.json)
        std::printf("%s\n",
                    to_json_text(nlohmann::json({{"engine", spec.description()},
                                                 {"materials", j},
                                                 {"sampled", total.sampled},
                                                 {"kept", total.kept},
                                                 {"critical", total.critical},
                                                 {"critical_kept", total.critical_kept},
                                                 {"optimal", total.optimal},
                                                 {"kept_share", share(total.kept, total.sampled)},
                                                 {"critical_kept_share",
                                                  share(total.critical_kept, total.critical)}}),
                                 1)
                        .c_str());
    else
        std::printf("%s: value kept in %.1f%% of %llu positions, in %.1f%% of the %llu critical "
                    "ones; optimal (distance too) in %.1f%%\n",
                    spec.description().c_str(), 100 * share(total.kept, total.sampled),
                    (unsigned long long)total.sampled,
                    100 * share(total.critical_kept, total.critical),
                    (unsigned long long)total.critical, 100 * share(total.optimal, total.sampled));
}

void run_grade(const GradeOptions& o) {
    const ThreadLimit limit(o.threads);
    const auto tb = tables::open_tables(o.dir);
    for (const tables::TableFile* f : tb->files())
        if (const std::string why = tb->gap(f->header().variant); !why.empty())
            throw std::invalid_argument("--tables: " + why);
    const EngineSpec spec = grade_engine(o);
    GradeSearchers searchers;
    nlohmann::json j = nlohmann::json::array();
    Grade total;
    if (!o.json)
        std::printf("%-6s %-5s %8s %8s %8s %8s %8s\n", "board", "mat", "sampled", "kept",
                    "critical", "crit-kept", "optimal");
    std::uint64_t material_id = 0;
    for (const tables::TableFile* f : tb->files())
        total += grade_material(o, *tb, *f, ++material_id, spec, searchers, j);
    print_grade_total(o, spec, total, j);
}

// `tables build`: the options of a build (or a resumed one) of the tables up to --pieces.
void add_tables_build(CLI::App& cmd) {
    auto b = std::make_shared<BuildOptions>();
    auto* build = cmd.add_subcommand(
        "build", "Solve every position with at most N pieces (each side at least one, either "
                 "side to move), smaller materials first; finished materials are kept, so a "
                 "stopped build resumes");
    build
        ->add_option("--variant", b->variant, "Board: " + std::string(kVariantHelp) + " (not telo)")
        ->check(variant_validator())
        ->capture_default_str();
    build->add_option("--pieces", b->pieces, "At most this many pieces on the board (2 to 16)")
        ->required()
        ->check(CLI::Range(2, 16));
    declare_path(
        build->add_option("--tables", b->dir, "Tables folder to build or complete (created)")
            ->required(),
        PathRole::OutputFolder);
    add_threads_option(*build, b->threads);
    build
        ->add_option("--turn-limit", b->turn_limit,
                     "The no-capture limit the values count with (docs/rules.md: 100); tables for "
                     "another limit serve only games under that limit")
        ->check(CLI::Range(1, kTableTurnLimit))
        ->capture_default_str();
    build->add_flag("--quiet", b->quiet, "Only the total line");
    build->add_flag("--no-symmetry", b->no_symmetry,
                    "Store every position (format version 2 unfolded), not one per class of "
                    "positions the board's symmetries map onto one another");
    build->callback([b] { run_build(*b); });
}

// `tables verify`: every stored value against its successors'.
void add_tables_verify(CLI::App& cmd) {
    auto v = std::make_shared<FolderOptions>();
    auto* verify = cmd.add_subcommand(
        "verify", "Check every stored value against the values of its successors (and every "
                  "file's checksum); exits with status 1 when any disagrees");
    declare_path(verify->add_option("--tables", v->dir, "Tables folder")->required(),
                 PathRole::InputFolder);
    add_threads_option(*verify, v->threads);
    verify->add_flag("--json", v->json, "Print one JSON object instead of text");
    verify->callback([v] { run_verify(*v); });
}

// `tables compare`: two folders' values of the materials both hold.
void add_tables_compare(CLI::App& cmd) {
    auto c = std::make_shared<CompareOptions>();
    auto* compare = cmd.add_subcommand(
        "compare", "Check that two tables folders give every position of every material they "
                   "both hold the same value (folded or not, any format version); exits with "
                   "status 1 when any differs");
    declare_path(compare->add_option("--tables", c->dir, "Tables folder")->required(),
                 PathRole::InputFolder);
    declare_path(
        compare->add_option("--against", c->against, "The other tables folder")->required(),
        PathRole::InputFolder);
    add_threads_option(*compare, c->threads);
    compare->add_flag("--json", c->json, "Print one JSON object instead of text");
    compare->callback([c] { run_compare(*c); });
}

// `tables stats`: per material, the counts of each value and the longest win.
void add_tables_stats(CLI::App& cmd) {
    auto s = std::make_shared<FolderOptions>();
    auto* stats = cmd.add_subcommand(
        "stats", "Per material (mover's pieces v opponent's): positions, wins, draws and losses "
                 "for the side to move, cursed wins and blessed losses, the longest win and its "
                 "position");
    declare_path(stats->add_option("--tables", s->dir, "Tables folder")->required(),
                 PathRole::InputFolder);
    stats->add_flag("--json", s->json, "Print one JSON object instead of the table");
    stats->callback([s] { run_stats(*s); });
}

// `tables probe`: one position's value and its moves'.
void add_tables_probe(CLI::App& cmd) {
    auto p = std::make_shared<ProbeOptions>();
    auto* probe = cmd.add_subcommand(
        "probe", "Print a position's table value and distance, then every move with its value "
                 "(best moves marked *)");
    declare_path(probe->add_option("--tables", p->dir, "Tables folder")->required(),
                 PathRole::InputFolder);
    p->board.add_to(*probe);
    probe->add_flag("--json", p->json, "Print one JSON object instead of text");
    probe->callback([p] { run_probe(*p); });
}

// `tables grade`: the engine's moves in sampled table positions, against the tables' values.
void add_tables_grade(CLI::App& cmd) {
    auto g = std::make_shared<GradeOptions>();
    auto* grade = cmd.add_subcommand(
        "grade", "Grade the engine against the tables: sample positions of every material that "
                 "the side to move does not lose, search each at a fixed depth (without the "
                 "tables unless --with-tables) and count how often the chosen move keeps the "
                 "position's value; 'critical' positions have a move that changes it");
    declare_path(grade->add_option("--tables", g->dir, "Tables folder")->required(),
                 PathRole::InputFolder);
    declare_path(grade->add_option("--weights", g->weights, weights_option_help()),
                 PathRole::InputFile);
    grade->add_option("--depth", g->depth, "Search depth")
        ->check(CLI::Range(1, 60))
        ->capture_default_str();
    grade->add_option("--samples", g->samples, "Positions sampled per material")
        ->check(CLI::Range(1, 10000000))
        ->capture_default_str();
    grade->add_option("--seed", g->seed, "Seed of the sample")->capture_default_str();
    add_threads_option(*grade, g->threads);
    declare_path(
        grade->add_flag("--with-tables", g->with_tables, "Search with the tables (a check: 100%)"),
        PathRole::NotAPath);
    grade->add_flag("--json", g->json, "Print one JSON object instead of text");
    grade->callback([g] { run_grade(*g); });
}

} // namespace

void add_tables_command(CLI::App& app) {
    auto* cmd = app.add_subcommand(
        "tables", "Endgame tables: build by retrograde analysis, verify, statistics, probe");
    cmd->require_subcommand(1);
    cmd->footer("Tables are for the standard rules (docs/formats.md, 'Endgame tables', defines "
                "the values: win, loss, cursed win, blessed loss, draw, and the distance in turns "
                "to the next capture or the end).");
    add_tables_build(*cmd);
    add_tables_verify(*cmd);
    add_tables_compare(*cmd);
    add_tables_stats(*cmd);
    add_tables_probe(*cmd);
    add_tables_grade(*cmd);
}

} // namespace fanorona::cli
