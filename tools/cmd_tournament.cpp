// `fanorona tournament`: engines meet in colour-swapped pairs; Elo, pentanomial stats and SPRT.

#include <cstdio>
#include <memory>

#include "core/common/progress.h"
#include "selfplay/games/batch_runner.h"
#include "selfplay/tournament/tournament.h"
#include "tools/commands.h"
#include "tools/options.h"
#include "tools/report/live_report.h"

namespace fanorona::cli {

namespace {

struct TournamentOptions {
    BoardOptions board;
    RunOptions run_options;
    TournamentConfig config;
    std::vector<std::string> players;
    std::string engines; // --engines FILE ("": none)
    std::string each;    // --each KEY=V,...: under every player's own settings
    std::string format = "gauntlet";
    std::uint64_t games = 0;
    std::uint64_t rounds = 0;
    std::string sprt;
    std::optional<double> prior_draws; // --prior-draws N
    std::string anchor;                // --anchor NAME[=ELO]
    double report_interval = kDefaultReportInterval;
};

void run(TournamentOptions& o) {
    RunConfig& c = o.config.run;
    c.rules = o.board.make_rules();
    c.players = player_specs(o.players, o.engines, o.each);
    {
        std::vector<std::string> names;
        for (const EngineSpec& p : c.players) names.push_back(p.name);
        o.config.ratings = stats::rating_options(names, o.prior_draws, o.anchor);
    }
    c.pairing = o.format == "roundrobin" ? Pairing::RoundRobin : Pairing::Gauntlet;
    std::uint64_t rounds = 10;
    if (o.games)
        rounds = (o.games + 1) / 2;
    else if (o.rounds)
        rounds = o.rounds;
    if (!o.sprt.empty()) {
        o.config.sprt = stats::SprtConfig::parse(o.sprt);
        if (!o.games && !o.rounds) rounds = 100000; // until the test decides
    }
    c.games = rounds * c.schedule().games_per_round();
    o.run_options.apply(c);
    report::ReportInputs page;
    page.tournament = c.out_dir;
    page.engine_log = c.engine_log_path;
    page.title = "Tournament " + c.out_dir;
    report::attach_live_report(c, page, o.report_interval);
    install_interrupt_handlers();
    const TournamentResult r = run_tournament(o.config);
    report::write_final_report(page, c.out_dir, o.report_interval);
    std::printf("%s", stats::render_text(r.table).c_str());
    std::printf("%llu games, %llu pairs in %s (%.1f s)\n", static_cast<unsigned long long>(r.games),
                static_cast<unsigned long long>(r.pairs), c.out_dir.c_str(),
                seconds_since_start()); // the command's whole time, set-up included
    if (r.sprt)
        std::printf("SPRT %s: LLR %.3f [%.3f, %.3f] %s\n", o.config.sprt->to_string().c_str(),
                    r.sprt->llr, r.sprt->lower_bound, r.sprt->upper_bound,
                    std::string(stats::verdict_name(r.sprt->verdict)).c_str());
    if (r.interrupted) {
        std::printf("interrupted: run again with --resume to finish the tournament\n");
        throw std::runtime_error("interrupted");
    }
}

} // namespace

void add_tournament_command(CLI::App& app) {
    auto o = std::make_shared<TournamentOptions>();
    auto* cmd = app.add_subcommand("tournament",
                                   "Play engines against each other in colour-swapped pairs; Elo, "
                                   "pentanomial statistics, SPRT");
    o->board.add_to(*cmd, false); // games start from --openings (a suite file holds positions)
    declare_path(
        cmd->add_option(
               "--player", o->players,
               "A player, repeatable: "
               "name=A,weights=FILE,vela_weights=FILE,net=FILE|NAME|none,depth=4|nodes=N|"
               "movetime=MS|tc=10+0.1,hash=MB,PARAM=V  or  name=B,cmd=PATH,args=...,"
               "arg=ONE ARG,dir=DIR,restart=on,option.X=V  or  name=R,builtin=random|greedy "
               "(an engine with no limit "
               "searches to depth " +
                   std::to_string(EngineSpec::kDefaultDepth) +
                   "; a bare engine plays the default network on its board, weights=tuned "
                   "or net=none the tuned linear evaluation; tc=40/60+0.5 is 40 turns in 60 "
                   "s plus 0.5 s a turn, timemargin=MS the clock's grace; conf=NAME plays "
                   "engine NAME of --engines, the other keys over it)")
            ->required(),
        PathRole::EngineSpecs);
    add_engines_option(*cmd, o->engines);
    add_each_option(*cmd, o->each);
    cmd->add_option("--format", o->format,
                    "gauntlet (first player against each other) or roundrobin")
        ->check(CLI::IsMember({"gauntlet", "roundrobin"}))
        ->capture_default_str();
    auto* games =
        cmd->add_option("--games", o->games, "Games per pairing (rounded up to pairs; default 20)")
            ->check(CLI::Range(std::uint64_t(1), std::uint64_t(1) << 30));
    auto* rounds = cmd->add_option("--rounds", o->rounds, "Game pairs per pairing")
                       ->check(CLI::Range(std::uint64_t(1), std::uint64_t(1) << 30));
    games->excludes(rounds);
    o->run_options.add_to(*cmd, o->config.run);
    add_report_interval_option(*cmd, o->report_interval);
    cmd->add_option("--sprt", o->sprt,
                    "Stop when the SPRT decides: elo0=0,elo1=5,alpha=0.05,beta=0.05"
                    "[,model=normalized|logistic]");
    declare_path(
        cmd->add_option(
            "--live", o->config.live_path,
            "JSON lines stream of results, one line per game pair (default OUT/live.jsonl)"),
        PathRole::OutputFile);
    cmd->add_option("--rating-interval", o->config.rating_interval,
                    "Every N game pairs (all pairings together), the ratings table of all players "
                    "on stdout (whether or not a terminal, even with --quiet), their ratings on "
                    "the progress line (with more than two players) and in that pair's line of "
                    "the live stream (`ratings`); 0: never")
        ->capture_default_str()
        ->check(CLI::Range(std::uint64_t(0), std::uint64_t(1) << 30));
    add_rating_options(*cmd, o->prior_draws, o->anchor);
    declare_path(
        cmd->add_flag("--log-positions", o->config.run.log_positions,
                      "Also log every searched position to OUT/positions.bin (for the tuner)"),
        PathRole::NotAPath);
    cmd->callback([o] { run(*o); });
}

} // namespace fanorona::cli
