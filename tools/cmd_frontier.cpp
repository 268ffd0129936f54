// `fanorona frontier`: the proof frontier of a board (tools/solve/frontier.h): the positions after
// 1..N turns from the start and positions sampled from games after given turns, each solved by
// df-pn with a budget per position; a table on stdout, JSON and a resumable CSV for machines.

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/files.h"
#include "core/common/folder_lock.h"
#include "core/common/thread_limit.h"
#include "core/solver/solve.h"
#include "selfplay/formats/json_text.h"
#include "tools/commands.h"
#include "tools/options.h"
#include "tools/solve/frontier.h"
#include "tools/solve/solve_options.h"
#include "tools/solve_cli.h"

namespace fanorona::cli {

namespace {

struct FrontierOptions : SolveCommonOptions {
    BoardOptions board;
    int solve_turns = 0;
    std::vector<std::string> games;
    std::vector<int> turns{60, 40, 30, 20, 10};
    CLI::Option* turns_option = nullptr;
    int samples = 20;
    CLI::Option* samples_option = nullptr;
    std::uint64_t seed = 1;
    std::string csv_out;
};

nlohmann::json value_json(const ValueBounds& v) {
    return {{"value", v.exact() ? value_text(v) : "unknown"}, {"lower", v.lo}, {"upper", v.hi}};
}

nlohmann::json summary_json(const FrontierSummary& s) {
    return {{"positions", s.positions},
            {"proven", s.proven},
            {"share", s.positions ? double(s.proven) / double(s.positions) : 0.0},
            {"wins", s.wins},
            {"draws", s.draws},
            {"losses", s.losses},
            {"median_seconds", s.median_seconds},
            {"max_seconds", s.max_seconds},
            {"median_nodes", s.median_nodes},
            {"max_nodes", s.max_nodes}};
}

// The root of the tree: the start position or --fen. Throws std::invalid_argument for rules the
// solver does not handle (before the position is read).
Position frontier_root(const FrontierOptions& o) {
    if (o.board.make_rules().ruleset != RuleSet::Standard)
        throw std::invalid_argument("--rules: the solver handles the standard rules only");
    return o.board.make_position();
}

// Throws std::invalid_argument for options that do not go together or files that cannot be used,
// before any work.
void check_frontier_options(const FrontierOptions& o, Variant v) {
    if (o.games.empty() && (o.turns_option->count() || o.samples_option->count()))
        throw std::invalid_argument(std::string(o.turns_option->count() ? "--turns" : "--samples") +
                                    ": needs games files to sample from");
    for (std::size_t i = 0; i < o.turns.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (o.turns[i] == o.turns[j])
                throw std::invalid_argument("--turns: " + std::to_string(o.turns[i]) +
                                            " given twice (each turn is sampled once)");
    if (o.solve_turns == 0 && o.games.empty())
        throw std::invalid_argument(
            "nothing to solve: give --solve-turns N and/or games files to sample from");
    if (!o.games.empty() && o.board.fen_option->count())
        throw std::invalid_argument("--fen: the root of the tree only (the samples come from the "
                                    "games); not with games files");
    check_solve_files(o, v);
    if (!o.csv_out.empty()) {
        try {
            check_writable(o.csv_out);
        } catch (const FileError& e) {
            throw std::invalid_argument("--csv-out: " + std::string(e.what()));
        }
    }
    check_searchers_memory(o);
}

// One frontier run between its steps: the options, the root, the positions (the tree's, then
// the samples'; `all` points at every one, in that order), the tables, the CSV of the results
// solved so far, and the report taking shape: the JSON and the summary line.
struct FrontierRun {
    const FrontierOptions& o;
    const Position root;
    const Variant v = root.variant();
    std::vector<FrontierPosition> tree;
    std::vector<TurnSample> samples;
    std::string tables_note;
    std::shared_ptr<const tables::Tablebase> tables;
    FrontierCsv csv;
    std::vector<FrontierPosition*> all;
    std::size_t reused = 0;                      // positions whose results the CSV already held
    std::chrono::steady_clock::time_point start; // the start of the solving
    nlohmann::json j;
    std::string summary_line = "frontier:";

    FrontierRun(const FrontierOptions& options, const Position& root_position);
    FrontierRun(const FrontierRun&) = delete; // `all` points into the run
    FrontierRun& operator=(const FrontierRun&) = delete;

    // printf unless --quiet.
    template <typename... Args> void say(const char* format, Args... args) const {
        if (!o.quiet) std::printf(format, args...);
    }

    void open_csv();
    void print_header() const;
    void solve();
    void report_tree();
    nlohmann::json tree_table(const std::vector<ValueBounds>& values) const;
    nlohmann::json tree_turn_summaries(const std::vector<ValueBounds>& values);
    void report_samples();
    nlohmann::json sample_turn(const TurnSample& t);
    void finish();
};

// The positions: the tree, then the samples (bad games files are refused before any work); then
// the tables (found or built), and the JSON's settings (its key tree_depth is --solve-turns: a
// key of the file users read keeps its name).
FrontierRun::FrontierRun(const FrontierOptions& options, const Position& root_position)
    : o(options), root(root_position) {
    tree = tree_positions(root, o.solve_turns);
    if (!o.games.empty()) samples = sample_positions(o.games, v, o.turns, o.samples, o.seed);
    tables = solve_tables(o, root, tables_note);
    j = {{"variant", variant_name(v)},
         {"position", root.to_string()},
         {"tables", tables ? nlohmann::json(tables->dir()) : nlohmann::json(nullptr)},
         {"max_nodes", o.max_nodes},
         {"max_seconds", o.max_seconds},
         {"hash", o.hash_mb},
         {"tree_depth", o.solve_turns}};
}

// Opens --csv-out (its settings line must match a rerun's) and takes every position's result it
// already holds.
void FrontierRun::open_csv() {
    char settings[256];
    std::snprintf(settings, sizeof settings,
                  "variant=%s tables=%s max_nodes=%llu max_seconds=%g "
                  "hash=%d",
                  std::string(variant_name(v)).c_str(), tables ? tables->dir().c_str() : "none",
                  (unsigned long long)o.max_nodes, o.max_seconds, o.hash_mb);
    if (!o.csv_out.empty()) csv = FrontierCsv(o.csv_out, settings);
    for (FrontierPosition& p : tree) all.push_back(&p);
    for (TurnSample& s : samples)
        for (FrontierPosition& p : s.positions) all.push_back(&p);
    for (FrontierPosition* p : all) reused += csv.reuse(*p);
}

// What is solved and with which budget, on stdout before the work.
void FrontierRun::print_header() const {
    say("frontier of %s from %s (standard rules, endless play a draw)\ntables %s\n"
        "budget per position: %llu nodes, %g s (0: no limit); %d MB table per searcher\n",
        std::string(variant_name(v)).c_str(), root.to_string().c_str(), tables_note.c_str(),
        (unsigned long long)o.max_nodes, o.max_seconds, o.hash_mb);
    if (reused) say("%zu positions' results reused from %s\n", reused, o.csv_out.c_str());
    std::fflush(stdout);
}

// Solves the positions not reused on the --threads workers, each by its own searcher with the
// budget per position; each result goes to the CSV as it comes (and a progress line to stderr),
// the proven bounds to the --proof file.
void FrontierRun::solve() {
    PnsRootConfig cfg;
    cfg.hash_mb = std::size_t(o.hash_mb);
    cfg.max_nodes = o.max_nodes;
    cfg.max_seconds = o.max_seconds;
    cfg.tables = tables;
    cfg.proof = o.proof;
    cfg.proof_interval = o.proof_interval;
    start = std::chrono::steady_clock::now();
    std::size_t done = reused, proven = 0;
    for (const FrontierPosition* p : all) proven += p->solved && p->value.exact();
    ProofStore store(o.proof, v, o.proof_interval);
    const ThreadLimit limit(o.threads);
    solve_positions(all, cfg, store, [&](FrontierPosition& p) {
        csv.append(p);
        ++done;
        proven += p.value.exact();
        if (o.quiet) return;
        std::fprintf(
            stderr,
            "frontier: %zu of %zu positions, %zu proven, %.0f s: %s %d %s: %s, "
            "%llu nodes, %.1f s\n",
            done, all.size(), proven,
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
            p.group.c_str(), p.turns, p.source.c_str(), value_text(p.value).c_str(),
            (unsigned long long)p.nodes, p.seconds);
    });
    store.write();
}

// The tree's report: its positions' values backed up from the positions after them, the root's
// value and the counts per turn, on stdout, in the JSON and on the summary line.
void FrontierRun::report_tree() {
    ValueBounds root_value;
    const std::vector<ValueBounds> values = back_up(tree, root_value);
    say("\ntree: the positions after %s (value for the side to move there; 'moves': proven "
        "from the positions after it)\n",
        o.solve_turns == 1 ? "1 turn"
                           : ("1 to " + std::to_string(o.solve_turns) + " turns").c_str());
    say("  %-5s %-40s %-16s %-7s %12s %9s\n", "turns", "moves", "value", "by", "nodes", "seconds");
    const nlohmann::json jt = tree_table(values);
    say("the root: %s (from the first moves)\n", value_text(root_value).c_str());
    const nlohmann::json jd = tree_turn_summaries(values);
    j["tree"] = jt;
    j["tree_summary"] = jd;
    j["root"] = value_json(root_value);
    summary_line += " root=" + std::string(root_value.exact() ? value_text(root_value) : "unknown");
}

// A line per position of the tree (its backed-up value, and what proved it: its own search or
// the moves after it), and the same as JSON.
nlohmann::json FrontierRun::tree_table(const std::vector<ValueBounds>& values) const {
    nlohmann::json jt = nlohmann::json::array();
    for (std::size_t i = 0; i < tree.size(); ++i) {
        const FrontierPosition& p = tree[i];
        const char* by = !values[i].exact() ? "-" : p.value.exact() ? "search" : "moves";
        say("  %-5d %-40s %-16s %-7s %12llu %9.3f\n", p.turns, p.source.c_str(),
            value_text(values[i]).c_str(), by, (unsigned long long)p.nodes, p.seconds);
        nlohmann::json e = {{"turns", p.turns},
                            {"moves", p.source},
                            {"position", p.pos.to_string()},
                            {"search", value_json(p.value)},
                            {"nodes", p.nodes},
                            {"seconds", p.seconds},
                            {"reused", p.reused}};
        e.update(value_json(values[i]));
        jt.push_back(e);
    }
    return jt;
}

// Per turn of the tree, the positions proven by their backed-up values: a line each, the JSON,
// and treeN=proven/positions on the summary line.
nlohmann::json FrontierRun::tree_turn_summaries(const std::vector<ValueBounds>& values) {
    nlohmann::json jd = nlohmann::json::array();
    for (int d = 1; d <= o.solve_turns; ++d) {
        std::vector<const FrontierPosition*> ps;
        std::vector<ValueBounds> vs;
        for (std::size_t i = 0; i < tree.size(); ++i)
            if (tree[i].turns == d) ps.push_back(&tree[i]), vs.push_back(values[i]);
        const FrontierSummary s = summarize(ps, vs);
        say("after %d turn%s: %zu positions, %zu proven (%zu win, %zu draw, %zu loss)\n", d,
            d == 1 ? "" : "s", s.positions, s.proven, s.wins, s.draws, s.losses);
        nlohmann::json e = summary_json(s);
        e["turns"] = d;
        jd.push_back(e);
        summary_line += " tree" + std::to_string(d) + "=" + std::to_string(s.proven) + "/" +
                        std::to_string(s.positions);
    }
    return jd;
}

// The samples' report: a line per turn sampled, on stdout, in the JSON (with the games files,
// the seed and the sample size) and on the summary line.
void FrontierRun::report_samples() {
    say("\nsamples: positions after these turns of games (%zu files, --seed %llu); value for "
        "the side to move; times and nodes of the proven ones\n",
        o.games.size(), (unsigned long long)o.seed);
    say("  %5s %7s %7s %6s %6s %4s %4s %4s %9s %9s %12s %12s\n", "turn", "games", "sampled",
        "proven", "share", "win", "draw", "loss", "median s", "max s", "median nodes", "max nodes");
    nlohmann::json js = nlohmann::json::array();
    for (const TurnSample& t : samples) js.push_back(sample_turn(t));
    j["samples"] = js;
    j["games_files"] = o.games;
    j["seed"] = o.seed;
    j["samples_per_turn"] = o.samples;
}

// One turn's samples: their counts on a line, as JSON with every position, and
// turnN=proven/positions on the summary line.
nlohmann::json FrontierRun::sample_turn(const TurnSample& t) {
    std::vector<const FrontierPosition*> ps;
    std::vector<ValueBounds> vs;
    nlohmann::json jp = nlohmann::json::array();
    for (const FrontierPosition& p : t.positions) {
        ps.push_back(&p);
        vs.push_back(p.value);
        nlohmann::json e = {{"game", p.source},
                            {"position", p.pos.to_string()},
                            {"nodes", p.nodes},
                            {"seconds", p.seconds},
                            {"reused", p.reused}};
        e.update(value_json(p.value));
        jp.push_back(e);
    }
    const FrontierSummary s = summarize(ps, vs);
    const double share = s.positions ? 100.0 * double(s.proven) / double(s.positions) : 0;
    say("  %5d %7zu %7zu %6zu %5.0f%% %4zu %4zu %4zu %9.3f %9.3f %12llu %12llu\n", t.turns,
        t.eligible, s.positions, s.proven, share, s.wins, s.draws, s.losses, s.median_seconds,
        s.max_seconds, (unsigned long long)s.median_nodes, (unsigned long long)s.max_nodes);
    nlohmann::json e = summary_json(s);
    e["turns"] = t.turns;
    e["games"] = t.eligible;
    e["positions"] = jp;
    e["sampled"] = s.positions;
    summary_line += " turn" + std::to_string(t.turns) + "=" + std::to_string(s.proven) + "/" +
                    std::to_string(s.positions);
    return e;
}

// The time, then the JSON file (--json-out) with the summary line, or the summary line alone
// with --quiet.
void FrontierRun::finish() {
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    say("time %.3f s\n", seconds);
    j["seconds"] = seconds;
    if (!o.json_out.empty()) {
        write_file_atomically(o.json_out, to_json_text(j, 1) + "\n");
        std::printf("%s json=%s\n", summary_line.c_str(), o.json_out.c_str());
    } else if (o.quiet) {
        std::printf("%s\n", summary_line.c_str());
    }
}

void run_frontier(const FrontierOptions& o) {
    const Position root = frontier_root(o);
    // One writer at a time of the proof file and of the CSV (which a run reads, then appends to),
    // for the whole run: another frontier or solve on them is refused at once.
    const std::unique_ptr<FileLock> proof_lock =
        o.proof.empty() ? nullptr : std::make_unique<FileLock>(o.proof);
    const std::unique_ptr<FileLock> csv_lock =
        o.csv_out.empty() ? nullptr : std::make_unique<FileLock>(o.csv_out);
    check_frontier_options(o, root.variant());
    FrontierRun run(o, root);
    run.open_csv();
    run.print_header();
    run.solve();
    if (!run.tree.empty()) run.report_tree();
    if (!run.samples.empty()) run.report_samples();
    run.finish();
}

} // namespace

void add_frontier_command(CLI::App& app) {
    auto o = std::make_shared<FrontierOptions>();
    auto* cmd = app.add_subcommand(
        "frontier",
        "How far proofs reach: the positions after 1..N turns from the start and "
        "positions sampled from games, each solved by df-pn with a budget per position");
    o->board.add_to(*cmd);
    add_solve_search_options(*cmd, *o, "each position's solve");
    declare_path(
        cmd->add_option(
               "games", o->games,
               "Games files (games.tsv of self-play or tournaments) to sample positions from")
            ->check(CLI::ExistingFile),
        PathRole::InputFile);
    cmd->add_option("--solve-turns", o->solve_turns,
                    "Solve the positions after 1 to N turns from the start (or --fen); 0: none")
        ->capture_default_str()
        ->check(CLI::Range(0, 6));
    o->turns_option =
        declare_path(cmd->add_option("--turns", o->turns,
                                     "With games files: sample the positions after these turns "
                                     "(a comma-separated list)")
                         ->delimiter(',')
                         ->capture_default_str()
                         ->check(CLI::Range(0, 100000)),
                     PathRole::NotAPath);
    o->samples_option = declare_path(
        cmd->add_option("--samples", o->samples,
                        "With games files: positions sampled per turn (fewer when fewer games "
                        "go on past the turn)")
            ->capture_default_str()
            ->check(CLI::Range(1, 1000000)),
        PathRole::NotAPath);
    declare_path(
        cmd->add_option("--seed", o->seed,
                        "Seed of the sample: the same seed and files sample the same games")
            ->capture_default_str(),
        PathRole::NotAPath);
    declare_path(cmd->add_option(
                     "--csv-out", o->csv_out,
                     "Append a row per position solved to this CSV file as it is solved; a rerun "
                     "with the same file (and settings) reuses its rows"),
                 PathRole::OutputFile);
    add_solve_output_options(*cmd, *o, "",
                             "No progress lines on stderr, and only the summary line 'frontier: "
                             "...' on stdout");
    cmd->footer(
        "Each position is solved as by 'fanorona solve --method pns' (values for the side to "
        "move: standard rules, no no-capture limit, endless play a draw), by a searcher of its "
        "own on the --threads workers, with --max-nodes and --max-seconds per position: with a "
        "node budget alone a position's result is the same on every run and thread count. The "
        "tree's values also combine what the positions after them prove. Method and the 5x9 "
        "command: docs/solve.md.");
    cmd->callback([o] { run_frontier(*o); });
}

} // namespace fanorona::cli
