// `fanorona solve`: proves the game-theoretic value of a position by search (core/solver/solve.h).

#include <cstdint>
#include <cstdio>
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "core/board/notation.h"
#include "core/common/files.h"
#include "core/common/folder_lock.h"
#include "core/common/memory.h"
#include "core/common/thread_limit.h"
#include "core/solver/solve.h"
#include "core/solver/solve_graph.h"
#include "core/tables/tablebase.h"
#include "selfplay/formats/json_text.h"
#include "tools/commands.h"
#include "tools/options.h"
#include "tools/solve/pns_root.h"
#include "tools/solve/solve_options.h"
#include "tools/solve/tables_cache.h"
#include "tools/solve_cli.h"

namespace fanorona::cli {

namespace {

struct SolveOptions : SolveCommonOptions {
    BoardOptions board;
    long long graph = -1;
    std::string method; // "": the board's recipe (solve_recipe)
    bool all_moves = false;
    bool hash_given = false; // --hash was given (else the board's recipe says)
};

std::string color_name(Color c) {
    return c == Color::White ? "White" : "Black";
}

// What both methods end with: the summary line (printed with --quiet, or after writing the
// JSON) and the --json-out file, whose common fields are added here to the method's own.
void finish_solve(const SolveOptions& o, const Position& root, const std::string& side,
                  const ValueBounds& value, bool complete, std::uint64_t nodes, double seconds,
                  nlohmann::json fields) {
    const std::string text = complete ? value_text(value) : "unknown";
    const auto summary = [&](const std::string& json_note) {
        std::printf("solve: value=%s lower=%d upper=%d complete=%d nodes=%llu seconds=%.3f%s\n",
                    text.c_str(), value.lo, value.hi, int(complete), (unsigned long long)nodes,
                    seconds, json_note.c_str());
    };
    if (o.json_out.empty()) {
        if (o.quiet) summary("");
        return;
    }
    fields.update({{"position", root.to_string()},
                   {"variant", variant_name(root.variant())},
                   {"side_to_move", side},
                   {"value", text},
                   {"lower", value.lo},
                   {"upper", value.hi},
                   {"complete", complete},
                   {"nodes", nodes},
                   {"seconds", seconds},
                   {"max_nodes", o.max_nodes},
                   {"max_seconds", o.max_seconds}});
    write_file_atomically(o.json_out, to_json_text(fields, 1) + "\n");
    summary(" json=" + o.json_out);
}

void run_pns(const SolveOptions& o, const Position& root,
             const std::shared_ptr<const tables::Tablebase>& tables,
             const std::string& tables_note) {
    const auto say = [&o](const char* format, auto... args) {
        if (!o.quiet) std::printf(format, args...);
    };
    const Rules rules{root.variant()};
    say("position %s (%s, standard rules, endless play a draw)\ntables %s\n",
        root.to_string().c_str(), std::string(variant_name(root.variant())).c_str(),
        tables_note.c_str());
    std::fflush(stdout);
    PnsRootConfig cfg;
    cfg.pn2 = o.method == "pn2";
    cfg.hash_mb = std::size_t(o.hash_mb);
    cfg.graph = o.graph;
    cfg.max_nodes = o.max_nodes;
    cfg.max_seconds = o.max_seconds;
    cfg.tables = tables;
    cfg.tables_dir = tables ? tables->dir() : "";
    cfg.remote_threads = o.threads;
    cfg.proof = o.proof;
    cfg.proof_interval = o.proof_interval;
    cfg.all_moves = o.all_moves;
    if (!o.quiet)
        cfg.progress = [](const std::string& line) { std::fprintf(stderr, "%s\n", line.c_str()); };
    PnsRootResult r;
    {
        const ThreadLimit limit(o.threads);
        try {
            r = solve_root_pns(root, cfg);
        } catch (const FileError& e) {
            throw std::invalid_argument("--proof: " + std::string(e.what()));
        }
    }
    const double nps = r.seconds > 0 ? double(r.nodes) / r.seconds : 0;
    const std::string side = color_name(root.side_to_move());
    say("value %s for %s (the side to move)%s\n", value_text(r.value).c_str(), side.c_str(),
        r.complete ? "" : " (budget reached: not proven)");
    say("first moves (value for %s; nodes, seconds):\n", side.c_str());
    nlohmann::json jmoves = nlohmann::json::array();
    std::string best;
    for (const PnsMoveResult& m : r.moves) {
        const std::string text = move_to_string(root, rules, m.move.move);
        // A move the root's value did not need (stopped once another move won).
        const bool not_needed = r.complete && m.move.value.lo == -1 && m.move.value.hi == 1;
        say("  %-24s %-16s %12llu %8.3f\n", text.c_str(),
            not_needed ? "not needed" : value_text(m.move.value).c_str(),
            (unsigned long long)m.nodes, m.seconds);
        if (r.complete && m.move.value.exact() && m.move.value.lo == r.value.lo)
            best += (best.empty() ? "" : " ") + text;
        jmoves.push_back({{"move", text},
                          {"value", not_needed             ? "not needed"
                                    : m.move.value.exact() ? value_text(m.move.value)
                                                           : "unknown"},
                          {"lower", m.move.value.lo},
                          {"upper", m.move.value.hi},
                          {"nodes", m.nodes},
                          {"seconds", m.seconds}});
    }
    if (r.complete)
        say("%s first moves: %s\n",
            r.value.lo == 1   ? "winning"
            : r.value.lo == 0 ? "drawing"
                              : "(every move loses)",
            best.empty() ? "-" : best.c_str());
    const std::string threads = o.threads ? std::to_string(o.threads) : "all cores";
    if (cfg.pn2)
        say("method pn2 (PN2, each first move by its own searcher; %d MB each, threads %s; "
            "largest first-level tree %zu nodes%s)\n",
            o.hash_mb, threads.c_str(), r.peak_tree, r.memory_full ? ", full: raise --hash" : "");
    else
        say("method pns (df-pn, each first move by its own searcher; %d MB table each, threads "
            "%s)\n",
            o.hash_mb, threads.c_str());
    say("nodes %llu time %.3f s nps %.0f table hits %llu\n", (unsigned long long)r.nodes, r.seconds,
        nps, (unsigned long long)r.table_hits);
    if (!o.proof.empty())
        say("proof %s: %zu bounds read, %zu written\n", o.proof.c_str(), r.proof_loaded,
            r.proof_written);
    nlohmann::json fields = {
        {"moves", jmoves},
        {"best_moves", best},
        {"nps", std::llround(nps)},
        {"method", o.method},
        {"threads", o.threads},
        {"table_hits", r.table_hits},
        {"tables", tables ? nlohmann::json(tables->dir()) : nlohmann::json(nullptr)},
        {"proof", o.proof.empty() ? nlohmann::json(nullptr) : nlohmann::json(o.proof)},
        {"proof_loaded", r.proof_loaded},
        {"proof_written", r.proof_written}};
    if (cfg.pn2) {
        fields["peak_tree"] = r.peak_tree;
        fields["memory_full"] = r.memory_full;
    }
    finish_solve(o, root, side, r.value, r.complete, r.nodes, r.seconds, std::move(fields));
}

// `typed` with what it leaves unsaid filled in from the board's recipe
// (tools/solve/tables_cache.h): `fanorona solve --variant 7x5` alone solves as
// docs/solved_boards.md did.
SolveOptions with_recipe(SolveOptions o, const Position& root) {
    const SolveRecipe recipe =
        solve_recipe(root.variant(), popcount(root.player() | root.opponent()));
    if (o.method.empty()) o.method = recipe.method;
    if (o.tables.empty() && o.table_pieces < 0) o.table_pieces = recipe.table_pieces;
    if (!o.hash_given) o.hash_mb = recipe.hash_mb;
    return o;
}

void run_solve(const SolveOptions& typed) {
    const Rules given = typed.board.make_rules();
    if (given.ruleset != RuleSet::Standard)
        throw std::invalid_argument("--rules: the solver handles the standard rules only");
    const Position root = typed.board.make_position();
    const SolveOptions o = with_recipe(typed, root);
    const Rules rules{root.variant()};
    if (o.method == "search" && !o.proof.empty())
        throw std::invalid_argument("--proof: only with --method pns or pn2");
    if (o.method == "search" && o.all_moves)
        throw std::invalid_argument("--all-moves: only with --method pns or pn2");
    // Everything that can fail before the long work: the proof file's writer (one at a time:
    // another solve on it is refused at once), the output files, then the memory.
    const std::unique_ptr<FileLock> proof_lock =
        o.proof.empty() ? nullptr : std::make_unique<FileLock>(o.proof);
    check_solve_files(o, root.variant());
    if (o.graph > 0)
        check_memory("--graph " + std::to_string(o.graph),
                     std::uint64_t(o.graph) * kGraphBytesPerPosition);
    std::unique_ptr<Solver> owned;
    if (o.method == "search")
        allocate_for("--hash " + std::to_string(o.hash_mb), std::uint64_t(o.hash_mb) << 20,
                     [&] { owned = std::make_unique<Solver>(std::size_t(o.hash_mb)); });
    else
        check_searchers_memory(o);
    std::string tables_note;
    const auto tables = solve_tables(o, root, tables_note);
    if (o.method != "search") return run_pns(o, root, tables, tables_note);
    Solver& solver = *owned;
    if (o.graph >= 0) solver.set_graph_limit(std::size_t(o.graph));
    if (tables) solver.set_tables(tables);
    // --quiet: the summary line only.
    const auto say = [&o](const char* format, auto... args) {
        if (!o.quiet) std::printf(format, args...);
    };
    say("position %s (%s, standard rules, endless play a draw)\ntables %s\n",
        root.to_string().c_str(), std::string(variant_name(root.variant())).c_str(),
        tables_note.c_str());
    std::fflush(stdout);
    const auto progress = [&](const SolveProgress& p) {
        if (o.quiet) return;
        std::fprintf(stderr,
                     "solve: %.0f s, %llu nodes, depth %d, %d of %d first moves proven, root %s\n",
                     p.seconds, (unsigned long long)p.nodes, p.depth, p.proven_moves, p.moves,
                     value_text(p.root).c_str());
    };
    const SolveResult r = solver.solve(root, {o.max_nodes, o.max_seconds}, progress, 5);
    const double nps = r.seconds > 0 ? double(r.nodes) / r.seconds : 0;
    const std::string side = color_name(root.side_to_move());

    nlohmann::json jmoves = nlohmann::json::array();
    say("value %s for %s (the side to move)%s\n", value_text(r.value).c_str(), side.c_str(),
        r.complete ? "" : " (budget reached: not proven)");
    say("first moves (value for %s):\n", side.c_str());
    for (const SolvedMove& m : r.moves) {
        const std::string text = move_to_string(root, rules, m.move);
        say("  %-24s %s\n", text.c_str(), value_text(m.value).c_str());
        jmoves.push_back({{"move", text},
                          {"value", m.value.exact() ? value_text(m.value) : "unknown"},
                          {"lower", m.value.lo},
                          {"upper", m.value.hi}});
    }
    nlohmann::json jline = nlohmann::json::array();
    std::string line_text;
    Position p = root;
    for (const Move& m : r.line) {
        const std::string text = move_to_string(p, rules, m);
        jline.push_back(text);
        line_text += (line_text.empty() ? "" : " ") + text;
        p.make_move(m);
    }
    if (r.complete)
        say("line %s (%s; its own proofs: %llu nodes, %.3f s)\n",
            line_text.empty() ? "-" : line_text.c_str(),
            std::string(line_end_name(r.line_end)).c_str(), (unsigned long long)r.line_nodes,
            r.line_seconds);
    if (r.graph)
        say("method graph (%zu positions enumerated and solved by retrograde analysis)\n",
            r.graph_positions);
    else
        say("method search (iterative deepening to depth %d, %llu graphs solved whole inside)\n",
            r.depth, (unsigned long long)r.graphs);
    say("nodes %llu time %.3f s nps %.0f depth %d table hits %llu\n", (unsigned long long)r.nodes,
        r.seconds, nps, r.depth, (unsigned long long)r.table_hits);
    finish_solve(o, root, side, r.value, r.complete, r.nodes, r.seconds,
                 {{"moves", jmoves},
                  {"line", jline},
                  {"line_end", r.complete ? line_end_name(r.line_end) : "none"},
                  {"line_nodes", r.line_nodes},
                  {"line_seconds", r.line_seconds},
                  {"nps", std::llround(nps)},
                  {"depth", r.depth},
                  {"method", r.graph ? "graph" : "search"},
                  {"graph_positions", r.graph_positions},
                  {"graphs", r.graphs},
                  {"table_hits", r.table_hits},
                  {"tables", tables ? nlohmann::json(tables->dir()) : nlohmann::json(nullptr)}});
}

} // namespace

void add_solve_command(CLI::App& app) {
    auto o = std::make_shared<SolveOptions>();
    auto* cmd = app.add_subcommand(
        "solve", "Prove the game-theoretic value (win, draw or loss for the side to move) of a "
                 "position by search, with an optimal line");
    o->board.add_to(*cmd);
    add_solve_search_options(*cmd, *o, "the solve");
    cmd->add_option(
           "--graph", o->graph,
           "Enumerate the whole game graph and solve it by retrograde analysis when at "
           "most this many positions are reachable, else search (and solve whole the graph "
           "of any position with fewer pieces than the smallest graph that did not fit) (default: "
           "4096 per MB of "
           "--hash, at least 10000; 0: search only; pns and pn2: each first move's graph)")
        ->check(CLI::Range(0LL, 1LL << 40));
    cmd->add_option("--method", o->method,
                    "search: alpha-beta null-window tests with small graphs solved whole; pns: "
                    "df-pn proof-number search, each first move by its own searcher; pn2: "
                    "two-level proof-number search (PN2), likewise (default: pns on boards of 26 "
                    "to 35 points, with their tables and --hash 1024, as docs/solved_boards.md "
                    "solved them; search elsewhere)")
        ->check(CLI::IsMember({"search", "pns", "pn2"}));
    cmd->add_flag(
        "--all-moves", o->all_moves,
        "With --method pns or pn2: prove every first move's exact value (default: only what "
        "the root's value needs: once a move wins the others stop, 'not needed', and "
        "once one draws the later ones are only tested for a win)");
    // --threads: pns/pn2 workers and building tables (search: one).
    add_solve_output_options(*cmd, *o, "With --method pns or pn2: ",
                             "No progress lines on stderr, and only the summary line 'solve: "
                             "value=...' on stdout");
    cmd->footer(
        "Values follow Schadd et al., 'Best Play in Fanorona Leads to Draw': standard rules, no "
        "no-capture limit, and endless play (a repeated position) a draw; the endgame tables' "
        "primary value (win and cursed win a win, loss and blessed loss a loss; docs/formats.md). "
        "Each first move is solved from its own position, so when a budget runs out the proven "
        "first moves keep their values, the others are 'unknown', and the root's value has "
        "bounds ('at least a draw', 'at most a draw'). The line: the winner's quickest proof, "
        "the loser's longest resistance, a draw until a position repeats. Progress every 5 "
        "seconds on stderr. Method: docs/solve.md. Under 'mpirun -np R' (no extra flag), --method "
        "pns or pn2 solves the first moves on the other ranks, each running --threads searchers of "
        "--hash MB, rank 0 handing them out and writing the output and --proof file: every "
        "first move's value and nodes are those of one process. Every machine opens the tables "
        "from the same path (--tables, or the cache folder): put them on a shared file system "
        "or copy them to each machine. docs/solve.md, 'Over several machines'.");
    cmd->callback([o, cmd] {
        o->hash_given = cmd->get_option("--hash")->count() > 0;
        run_solve(*o);
    });
}

} // namespace fanorona::cli
