// `fanorona selfplay`: the engine against itself on oneTBB workers, logging games and positions.

#include <cstdio>
#include <memory>

#include "selfplay/games/batch_runner.h"
#include "selfplay/selfplay.h"
#include "tools/commands.h"
#include "tools/options.h"
#include "tools/report/live_report.h"

namespace fanorona::cli {

namespace {

struct SelfplayOptions {
    BoardOptions board;
    EngineOptions engine;
    RunOptions run_options;
    RunConfig run;
    std::string shard;
    bool no_positions = false;
    bool corpus = false;
    double report_interval = kDefaultReportInterval;
};

void parse_shard(const std::string& text, RunConfig& c) {
    const auto slash = text.find('/');
    try {
        if (slash == std::string::npos) throw std::invalid_argument(text);
        std::size_t used = 0;
        const std::string i = text.substr(0, slash), n = text.substr(slash + 1);
        c.shard_index = std::stoi(i, &used);
        if (used != i.size()) throw std::invalid_argument(text);
        c.shard_count = std::stoi(n, &used);
        if (used != n.size()) throw std::invalid_argument(text);
    } catch (const std::exception&) {
        throw std::invalid_argument("--shard: expected I/N such as 0/4, found '" + text + "'");
    }
}

void run(SelfplayOptions& o) {
    RunConfig& c = o.run;
    c.rules = o.board.make_rules();
    EngineSpec spec;
    o.engine.apply(spec);
    o.engine.check_rules(spec, c.rules);
    c.players = {spec};
    o.run_options.apply(c);
    c.log_positions = !o.no_positions;
    c.corpus = o.corpus;
    if (!o.shard.empty()) parse_shard(o.shard, c);
    report::ReportInputs page;
    page.selfplay = c.out_dir;
    page.engine_log = c.engine_log_path;
    page.title = "Self-play " + c.out_dir;
    report::attach_live_report(c, page, o.report_interval);
    install_interrupt_handlers();
    const SelfplaySummary s = run_selfplay(c);
    report::write_final_report(page, c.out_dir, o.report_interval);
    std::printf("%llu games in %s (%llu played now, %.1f s): White %llu, draws %llu, Black %llu; "
                "%llu positions logged\n",
                static_cast<unsigned long long>(s.games), c.out_dir.c_str(),
                static_cast<unsigned long long>(s.played_now), s.seconds,
                static_cast<unsigned long long>(s.white_wins),
                static_cast<unsigned long long>(s.draws),
                static_cast<unsigned long long>(s.black_wins),
                static_cast<unsigned long long>(s.positions));
    if (s.played_now > 0 && s.seconds > 0)
        std::printf("%.2f games/s\n", double(s.played_now) / s.seconds);
    if (s.interrupted) {
        std::printf("interrupted: run again with --resume to finish the run\n");
        throw std::runtime_error("interrupted");
    }
}

} // namespace

void add_selfplay_command(CLI::App& app) {
    auto o = std::make_shared<SelfplayOptions>();
    o->run.out_dir = "selfplay";
    auto* cmd = app.add_subcommand(
        "selfplay", "Play the engine against itself on all cores and log games and positions");
    o->board.add_to(*cmd, false); // games start from --openings (a suite file holds positions)
    cmd->add_option("--games", o->run.games, "Number of games (pairs share an opening)")
        ->capture_default_str()
        ->check(CLI::Range(std::uint64_t(1), std::uint64_t(1) << 31));
    o->engine.add_to(*cmd);
    o->run_options.add_to(*cmd, o->run);
    add_report_interval_option(*cmd, o->report_interval);
    cmd->add_option("--shard", o->shard,
                    "I/N: play only games whose index is I modulo N (join with `fanorona merge`)");
    add_exploration_options(*cmd, o->run.exploration.epsilon, o->run.exploration.turns);
    cmd->add_flag("--no-positions", o->no_positions, "Do not write positions.bin");
    cmd->add_flag("--corpus", o->corpus,
                  "Also write corpus.fcorpus: every game chained turn by turn with its scores, in "
                  "compressed blocks of about 1.2 bytes a position (docs/formats.md)");
    cmd->callback([o] { run(*o); });
}

} // namespace fanorona::cli
