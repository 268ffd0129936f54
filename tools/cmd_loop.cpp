// `fanorona loop`: self-play, tune, verify, repeat; the toolkit's main job.

#include <cmath>
#include <cstdio>
#include <memory>

#include "core/common/files.h"
#include "selfplay/games/batch_runner.h"
#include "tools/commands.h"
#include "tools/loop/loop.h"
#include "tools/options.h"
#include "tools/report/sections.h"
#include "tools/setting_options.h"
#include "tools/train_options.h"

namespace fanorona::cli {

namespace {

struct LoopOptions {
    BoardOptions board;
    EngineOptions engine;
    BaseEngineOptions base; // --player, --engines
    LoopConfig config;
    std::string sprt;
    NetTrainingOptions training; // loop --net only
    CLI::Option* net = nullptr;
    std::vector<CLI::Option*> weights_only; // the tuner's and SPSA's options: not with --net
};

// A number of a history.json record as text ("-" when missing or null).
std::string field(const nlohmann::json& record, const char* key, const char* spec) {
    const double v = report::number_at(record, key);
    if (std::isnan(v)) return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, spec, v);
    return buf;
}

// "Elo gained, WHAT: +E +- X (95%), N games".
void print_gain(const char* what, const nlohmann::json& record) {
    std::printf("Elo gained, %s: %s +- %s (95%%), %llu games\n", what,
                field(record, "elo", "%+.1f").c_str(), field(record, "elo_error95", "%.1f").c_str(),
                static_cast<unsigned long long>(record.value("games", std::uint64_t(0))));
}

void run(LoopOptions& o) {
    LoopConfig& c = o.config;
    c.run_setting_options = run_setting_options();
    c.net = o.net->count() > 0;
    if (const CLI::Option* given = o.training.first_given(); given && !c.net)
        throw std::invalid_argument(given->get_name() +
                                    ": a training option of the network loop (loop --net)");
    if (c.net)
        for (const CLI::Option* w : o.weights_only)
            if (w->count() > 0)
                throw std::invalid_argument(w->get_name() +
                                            ": tunes weights or parameters, not with --net");
    o.training.apply(c.train);
    c.rules = o.board.make_rules();
    o.base.apply(c.engine);
    o.engine.apply(c.engine);
    o.engine.check_rules(c.engine, c.rules);
    if (!o.sprt.empty()) c.sprt = stats::SprtConfig::parse(o.sprt);
    install_interrupt_handlers();
    const nlohmann::json history =
        run_loop(c, [](const std::string& line) { std::fprintf(stderr, "%s\n", line.c_str()); });
    std::printf("%s", loop_history_table(history).c_str());
    print_gain(c.net ? "final network against the start network"
                     : "final weights against the start weights",
               history["final"]);
    if (history.contains("final_spsa")) {
        print_gain("final weights and SPSA values against the start", history["final_spsa"]);
        std::printf("final parameters: %s/final_params.txt\n", c.out_dir.c_str());
    }
    std::printf("%s: %s/%s   history: %s/history.json\n", c.net ? "final network" : "final weights",
                c.out_dir.c_str(), c.net ? "final.net" : "final_weights.txt", c.out_dir.c_str());
    std::printf("report: %s\n", history.value("report", std::string("-")).c_str());
}

} // namespace

void add_loop_command(CLI::App& app) {
    auto o = std::make_shared<LoopOptions>();
    auto* cmd = app.add_subcommand(
        "loop", "The closed loop: self-play, tune, verify the tuned weights in a match, keep "
                "them if they win, repeat (with --net: train networks instead of tuning "
                "weights)");
    o->board.add_to(*cmd, false); // games start from --openings (a suite file holds positions)
    cmd->add_option("--iterations", o->config.iterations, "Iterations")
        ->capture_default_str()
        ->check(CLI::Range(1, 1000));
    cmd->add_option("--games", o->config.games, "Self-play games per iteration")
        ->capture_default_str()
        ->check(CLI::Range(std::uint64_t(2), std::uint64_t(1) << 31));
    o->engine.add_to(*cmd); // --weights: the start weights; --net: the start network
    // --net FILE is the network the engine plays, as in every command; in the loop it also
    // makes the loop train networks, so the file may be left out (the default network).
    o->net = cmd->get_option("--net");
    o->net->expected(0, 1)->description(
        "Network file or built-in network (" + builtin_names("net") +
        ") the engine plays: the loop then trains networks from it instead of tuning weights "
        "(train's options: --epochs, --batch, --lr, ...). --net alone starts from the default "
        "network on its board; on other boards, with --weights, or with --net none from a "
        "random network (as `net random --seed SEED`). Without --net the loop tunes and plays "
        "weights, without the default network");
    o->base.add_to(*cmd);
    cmd->add_option("--verify-games", o->config.verify_games,
                    "Games of each verification match (the most, with --sprt)")
        ->capture_default_str()
        ->check(CLI::Range(std::uint64_t(2), std::uint64_t(1) << 31));
    cmd->add_option("--final-games", o->config.final_games,
                    "Games of the final match against the start weights")
        ->capture_default_str()
        ->check(CLI::Range(std::uint64_t(2), std::uint64_t(1) << 31));
    cmd->add_option("--sprt", o->sprt, "Verify with an SPRT: elo0=0,elo1=10,alpha=0.05,beta=0.05");
    cmd->add_option("--accept-los", o->config.accept_los,
                    "Without --sprt: keep the tuned weights when their LOS reaches this")
        ->capture_default_str()
        ->check(CLI::Range(0.0, 1.0));
    cmd->add_option("--window", o->config.window, "Tune on this many latest iterations' data")
        ->capture_default_str()
        ->check(CLI::Range(1, 1000));
    o->config.selfplay_openings = kDefaultOpenings;
    add_openings_option(*cmd, o->config.selfplay_openings); // the self-play games'
    declare_path(
        cmd->add_option("--match-openings", o->config.match_openings,
                        "Match openings: balanced (built by search), random:TURNS or a suite FILE")
            ->capture_default_str(),
        PathRole::InputFile);
    add_exploration_options(*cmd, o->config.epsilon, o->config.explore_turns);
    auto& w = o->weights_only;
    w.push_back(cmd->add_option("--optimizer", o->config.optimizer, "Tuner: adam, newton or lbfgs")
                    ->check(CLI::IsMember({"adam", "newton", "lbfgs"}))
                    ->capture_default_str());
    w.push_back(cmd->add_option("--l2", o->config.l2, "Tuner: L2 pull towards the current weights")
                    ->capture_default_str()
                    ->check(CLI::Range(0.0, 1e9)));
    w.push_back(
        cmd->add_flag("--patterns", o->config.patterns,
                      "Tuner: also fit pattern weights (tune --patterns, its defaults; 5x9 only)"));
    w.push_back(cmd->add_option(
        "--spsa-param", o->config.spsa_params,
        "After the iterations, tune this value by SPSA with the last accepted weights "
        "(repeatable; NAME[,start,min,max,c_end,r_end] as in spsa); the final "
        "match then plays the tuned values too (OUT/final_params.txt)"));
    cmd->add_option("--spsa-games", o->config.spsa_games, "SPSA: games in all")
        ->capture_default_str()
        ->check(CLI::Range(std::uint64_t(2), std::uint64_t(1) << 31));
    cmd->add_option("--spsa-iteration-pairs", o->config.spsa_iteration_pairs,
                    "SPSA: game pairs per iteration (spsa --iteration-pairs)")
        ->capture_default_str()
        ->check(CLI::Range(std::uint64_t(1), std::uint64_t(1) << 20));
    cmd->add_option("--spsa-nodes", o->config.spsa_nodes,
                    "SPSA: the games at this many nodes a move (0: the engine's limits; a fixed "
                    "depth would not reward pruning)")
        ->capture_default_str()
        ->check(CLI::Range(std::uint64_t(0), std::uint64_t(1) << 40));
    cmd->add_option("--final-movetime", o->config.final_movetime_ms,
                    "Play the final matches at this many ms a move, both sides (equal time; "
                    "default: the engine's limits, as every other game)")
        ->check(CLI::Range(1, 3600000));
    o->training.add_to(*cmd, o->config.train); // loop --net: the training (as train's)
    add_seed_option(*cmd, o->config.seed);
    add_threads_option(*cmd, o->config.threads);
    add_folder_options(*cmd, o->config.out_dir, o->config.resume, o->config.quiet, "--iterations",
                       {"history.json", "history.txt", "report.html", "start.txt", "openings.txt",
                        "final_weights.txt", "final_params.txt", "settings.json"});
    add_engine_log_option(*cmd, o->config.engine_log_path, kRunEngineLogWhat);
    add_report_interval_option(*cmd, o->config.report_interval);
    cmd->callback([o] { run(*o); });
}

} // namespace fanorona::cli
