// `fanorona spsa`: tunes search parameters and evaluation weights by SPSA from game pairs of
// theta+ against theta- (tuner/spsa/spsa.h), then optionally verifies the result in a match.

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "selfplay/games/batch_runner.h"
#include "tools/commands.h"
#include "tools/options.h"
#include "tools/report/live_report.h"
#include "tuner/spsa/spsa.h"

namespace fanorona::cli {

namespace {

struct SpsaOptions {
    BoardOptions board;
    EngineOptions engine;
    BaseEngineOptions base; // --player, --engines
    RunOptions run_options;
    SpsaConfig config;
    std::vector<std::string> params;
    std::uint64_t games = 2000;
    double report_interval = kDefaultReportInterval;
};

void run(SpsaOptions& o) {
    SpsaConfig& c = o.config;
    c.run.rules = o.board.make_rules();
    o.base.apply(c.base);
    o.engine.apply(c.base);
    o.engine.check_rules(c.base, c.run.rules);
    c.base.name = "base";
    for (const std::string& p : o.params) c.params.push_back(SpsaParam::parse(p, c.base));
    // SPSA over a weight tunes the weights: the base plays them too, without the default network
    // (the tuned engine's weight, set by name, leaves it out: core/builtins.h).
    for (const SpsaParam& p : c.params)
        if (const auto t = find_tunable(p.name); t && t->weight) c.base.drop_default_network();
    const std::uint64_t per_iteration = 2 * c.iteration_pairs;
    c.pairs = (o.games + per_iteration - 1) / per_iteration * c.iteration_pairs;
    o.run_options.apply(c.run);
    report::ReportInputs page;
    page.spsa = c.run.out_dir;
    page.title = "SPSA " + c.run.out_dir;
    report::attach_live_report(c.run, page, o.report_interval);
    install_interrupt_handlers();
    const SpsaResult r = run_spsa(c);
    if (std::filesystem::is_directory(c.run.out_dir + "/verify"))
        page.tournament = c.run.out_dir + "/verify";
    report::write_final_report(page, c.run.out_dir, o.report_interval);
    std::printf("%llu iterations, %llu games in %s (%llu played now, %.1f s, %.2f games/s)\n",
                static_cast<unsigned long long>(r.iterations),
                static_cast<unsigned long long>(r.games), c.run.out_dir.c_str(),
                static_cast<unsigned long long>(r.played_now), r.seconds,
                r.seconds > 0 ? double(r.played_now) / r.seconds : 0.0);
    for (std::size_t i = 0; i < c.params.size(); ++i)
        std::printf("  %-16s %10.2f -> %10.2f  (plays %d)\n", c.params[i].name.c_str(),
                    c.params[i].start, r.theta[i], r.values[i]);
    std::printf("parameters file: %s/params.txt\n", c.run.out_dir.c_str());
    if (r.verification) {
        const auto& e = *r.verification;
        std::printf("verification, tuned vs start: %llu games, Elo %+.1f +- %.1f (95%%: [%.1f, "
                    "%.1f])\n",
                    static_cast<unsigned long long>(e.games), e.elo, e.elo_error95, e.elo_lower,
                    e.elo_upper);
    }
    if (r.interrupted) {
        std::printf("interrupted: run again with --resume to finish the run\n");
        throw std::runtime_error("interrupted");
    }
}

} // namespace

void add_spsa_command(CLI::App& app) {
    auto o = std::make_shared<SpsaOptions>();
    auto* cmd = app.add_subcommand(
        "spsa", "Tune search parameters and evaluation weights by SPSA (theta+ against theta- in "
                "game pairs), write them as a parameters file, verify in a match");
    o->board.add_to(*cmd, false);
    cmd->add_option("--spsa-param", o->params,
                    "A value to tune, repeatable: NAME[,start,min,max,c_end,r_end] where NAME is "
                    "a search parameter or a weight (e.g. material_mg); an empty or missing field "
                    "takes its default: start the engine's value, min/max the parameter's range "
                    "(a weight: start -+ max(50, |start|)), c_end (max - min) / 20 (at least 1), "
                    "r_end 0.002");
    cmd->add_option("--games", o->games,
                    "Games in all (rounded up to whole iterations of 2 x --iteration-pairs games)")
        ->capture_default_str()
        ->check(CLI::Range(std::uint64_t(2), std::uint64_t(1) << 31));
    cmd->add_option("--iteration-pairs", o->config.iteration_pairs,
                    "Game pairs per iteration: one perturbation, one update (fishtest counts "
                    "each pair as an iteration of the schedules)")
        ->capture_default_str()
        ->check(CLI::Range(std::uint64_t(1), std::uint64_t(1) << 20));
    cmd->add_option("--alpha", o->config.alpha, "Decay exponent of the step a_k")
        ->capture_default_str();
    cmd->add_option("--gamma", o->config.gamma, "Decay exponent of the perturbation c_k")
        ->capture_default_str();
    cmd->add_option("--a-ratio", o->config.a_ratio,
                    "Stability constant A as a share of the game pairs")
        ->capture_default_str();
    cmd->add_option("--verify-games", o->config.verify_games,
                    "Afterwards, a match of this many games of tuned against start values "
                    "(OUT/verify; Elo with its 95% interval in OUT/spsa.json); 0: none")
        ->capture_default_str()
        ->check(CLI::Range(std::uint64_t(0), std::uint64_t(1) << 30));
    o->engine.add_to(*cmd); // --param NAME=VALUE: fixed values, as in every command
    o->base.add_to(*cmd);
    o->config.run.out_dir = "spsa";
    o->run_options.add_to(*cmd, o->config.run);
    add_report_interval_option(*cmd, o->report_interval);
    cmd->footer("Fixed values of the engine go in --params FILE or --param NAME=VALUE; every game "
                "uses its limits "
                "(--nodes or --depth keep games independent of timing). OUT/spsa.csv holds the "
                "history, OUT/params.txt the result for --params / params=FILE.");
    cmd->callback([o] { run(*o); });
}

} // namespace fanorona::cli
