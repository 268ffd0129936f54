// `fanorona rescore`: a corpus relabelled by a deeper search (selfplay/rescore/rescore_run.h), on
// oneTBB workers and, under mpirun, on every rank.

#include <cstdio>
#include <memory>

#include "selfplay/rescore/rescore_run.h"
#include "tools/commands.h"
#include "tools/options.h"
#include "tools/setting_options.h"

namespace fanorona::cli {

namespace {

// The search limit of a rescore given none (--depth, --nodes, --movetime): deeper than the
// self-play labels it replaces (self-play runs typically search 5,000 to 20,000 nodes a turn).
constexpr const char* kDefaultRescoreNodes = "100000";

struct RescoreOptions {
    EngineOptions engine;
    RescoreConfig config;
};

void run(RescoreOptions& o) {
    RescoreConfig& c = o.config;
    EngineOptions engine = o.engine;
    if (engine.depth.empty() && engine.nodes.empty() && engine.movetime.empty())
        engine.nodes = kDefaultRescoreNodes;
    engine.apply(c.settings.engine);
    c.setting_options = rescore_setting_options();
    // The engine against the inputs' board and rules (the first input's header; run_rescore
    // checks that the others have the same), naming the options.
    engine.check_rules(c.settings.engine, CorpusReader(c.inputs.front()).rules());
    const RescoreOutcome s = run_rescore(c);
    std::printf("%llu games in %s (%llu kept, %llu rescored now in %.1f s): %llu positions "
                "searched, %llu nodes\n",
                static_cast<unsigned long long>(s.out_games), c.out.c_str(),
                static_cast<unsigned long long>(s.kept_games),
                static_cast<unsigned long long>(s.games), s.seconds,
                static_cast<unsigned long long>(s.searched.positions),
                static_cast<unsigned long long>(s.searched.nodes));
    if (s.seconds > 0 && s.games > 0)
        std::printf("%.2f games/s, %.1f positions/s, %.0f nodes/s\n", double(s.games) / s.seconds,
                    double(s.searched.positions) / s.seconds, double(s.searched.nodes) / s.seconds);
    if (s.interrupted) {
        std::printf("interrupted: run again with --resume to finish the rescore\n");
        throw std::runtime_error("interrupted");
    }
}

} // namespace

void add_rescore_command(CLI::App& app) {
    auto o = std::make_shared<RescoreOptions>();
    auto* cmd = app.add_subcommand(
        "rescore", "Relabel corpus files: every scored position of every game searched again "
                   "(deeper), the same games written to a new corpus with the new scores; "
                   "resumable, on all cores and, under mpirun, on every rank");
    declare_path(
        cmd->add_option("inputs", o->config.inputs,
                        "Corpus files (docs/formats.md), all of one board and rules, read in order")
            ->required(),
        PathRole::InputFile);
    declare_path(
        cmd->add_option("--out", o->config.out,
                        "The corpus to write, a block of --block-games games at a time; beside it "
                        "OUT.settings.json (checked by --resume), OUT.summary.json and OUT.lock")
            ->required(),
        PathRole::OutputFile, {".settings.json", ".summary.json"});
    o->engine.add_to(*cmd);
    cmd->get_option("--depth")->description(
        "Search depth per position; with no --depth, --nodes or --movetime: "
        "--nodes " +
        std::string(kDefaultRescoreNodes));
    cmd->get_option("--nodes")->description("Search nodes per position (default " +
                                            std::string(kDefaultRescoreNodes) +
                                            " when no limit is given)");
    cmd->get_option("--movetime")
        ->description("Milliseconds per position; the scores then depend on timing");
    cmd->add_flag("--all", o->config.settings.all,
                  "Score every position of every game, also those that had no score (the "
                  "opening's turns, positions logged without a search); by default only the "
                  "positions that had a score are searched, and the others keep none");
    add_threads_option(*cmd, o->config.threads);
    cmd->add_option("--block-games", o->config.block_games,
                    "Games per block of the output: a --resume restarts after the last whole "
                    "block (smaller blocks lose less work to an interruption)")
        ->capture_default_str()
        ->check(CLI::Range(std::uint64_t(1), std::uint64_t(1) << 20));
    cmd->add_option("--max-games", o->config.max_games,
                    "Rescore the inputs' first games only, until the output holds this many "
                    "(0: every game; a --resume may raise it)")
        ->capture_default_str();
    cmd->add_flag("--resume", o->config.resume,
                  "Continue the rescore in --out where it stopped (same inputs and settings; "
                  "--max-games may change)");
    declare_path(cmd->add_option("--json-out", o->config.summary_out,
                                 "Write the summary here (default OUT.summary.json)"),
                 PathRole::OutputFile);
    cmd->add_flag("--quiet", o->config.quiet, "No progress line");
    cmd->callback([o] { run(*o); });
}

} // namespace fanorona::cli
