// `fanorona loop`: self-play, tune, verify, repeat; the toolkit's main job.

#include <cmath>
#include <cstdio>
#include <memory>

#include "common/files.h"
#include "selfplay/batch/batch_runner.h"
#include "tools/commands.h"
#include "tools/loop/loop.h"
#include "tools/options.h"
#include "tools/report/sections.h"

namespace fanorona::cli {

namespace {

struct LoopOptions {
    BoardOptions board;
    LoopConfig config;
    int depth = 0;
    std::uint64_t nodes = 0;
    std::string sprt;
};

// A number of history.json (NaN when missing or null: report::number_at) as text, "-" for NaN.
std::string fmt(double v, const char* spec) {
    if (std::isnan(v)) return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, spec, v);
    return buf;
}

// The history as a table, for people; history.json has the same for machines.
std::string history_table(const nlohmann::json& h) {
    std::string out =
        "iter  selfplay games  positions  val.loss start -> tuned   match Elo      LOS    kept\n";
    for (const auto& it : h["iterations"]) {
        char line[200];
        std::snprintf(
            line, sizeof line, "%4d  %14llu  %9llu  %10s -> %-8s %6s +- %-5s %5s  %s\n",
            it["iteration"].get<int>(),
            static_cast<unsigned long long>(it["selfplay"]["games"].get<std::uint64_t>()),
            static_cast<unsigned long long>(it["selfplay"]["positions"].get<std::uint64_t>()),
            fmt(report::number_at(it["tune"], "start_validation_loss"), "%.5f").c_str(),
            fmt(report::number_at(it["tune"], "final_validation_loss"), "%.5f").c_str(),
            fmt(report::number_at(it["match"], "elo"), "%+.1f").c_str(),
            fmt(report::number_at(it["match"], "elo_error95"), "%.1f").c_str(),
            fmt(report::number_at(it["match"], "los"), "%.3f").c_str(),
            it["accepted"].get<bool>() ? "yes" : "no");
        out += line;
    }
    return out;
}

void run(LoopOptions& o) {
    LoopConfig& c = o.config;
    c.rules = o.board.make_rules();
    c.limits.depth = o.depth;
    c.limits.nodes = o.nodes;
    if (!o.depth && !o.nodes) c.limits.depth = 3;
    if (!o.sprt.empty()) c.sprt = stats::SprtConfig::parse(o.sprt);
    install_interrupt_handlers();
    const nlohmann::json history = run_loop(c);
    const std::string table = history_table(history);
    write_file_atomically(c.out_dir + "/history.txt", table);
    std::printf("%s", table.c_str());
    const auto& f = history["final"];
    std::printf(
        "Elo gained, final weights against the start weights: %s +- %s (95%%), %llu games\n",
        fmt(report::number_at(f, "elo"), "%+.1f").c_str(),
        fmt(report::number_at(f, "elo_error95"), "%.1f").c_str(),
        static_cast<unsigned long long>(f.value("games", std::uint64_t(0))));
    std::printf("final weights: %s/final_weights.txt   history: %s/history.json\n",
                c.out_dir.c_str(), c.out_dir.c_str());
    std::printf("report: %s\n", history.value("report", std::string("-")).c_str());
}

} // namespace

void add_loop_command(CLI::App& app) {
    auto o = std::make_shared<LoopOptions>();
    auto* cmd = app.add_subcommand(
        "loop", "The closed loop: self-play, tune, verify the tuned weights in a match, keep "
                "them if they win, repeat");
    o->board.add_to(*cmd, false); // games start from --openings (a suite file holds positions)
    cmd->add_option("--iterations", o->config.iterations, "Iterations")
        ->capture_default_str()
        ->check(CLI::Range(1, 1000));
    cmd->add_option("--games", o->config.games, "Self-play games per iteration")
        ->capture_default_str();
    auto* depth = cmd->add_option("--depth", o->depth, "Search depth for every game (default 3)")
                      ->check(CLI::Range(1, 60));
    auto* nodes = cmd->add_option("--nodes", o->nodes, "Search nodes per move instead of a depth");
    depth->excludes(nodes);
    cmd->add_option("--weights", o->config.start_weights, "Start weights file (default: built in)")
        ->capture_default_str();
    cmd->add_option("--out", o->config.out_dir, "Output folder")->capture_default_str();
    cmd->add_option("--verify-games", o->config.verify_games,
                    "Games of each verification match (the most, with --sprt)")
        ->capture_default_str();
    cmd->add_option("--final-games", o->config.final_games,
                    "Games of the final match against the start weights")
        ->capture_default_str();
    cmd->add_option("--sprt", o->sprt, "Verify with an SPRT: elo0=0,elo1=10,alpha=0.05,beta=0.05");
    cmd->add_option("--accept-los", o->config.accept_los,
                    "Without --sprt: keep the tuned weights when their LOS reaches this")
        ->capture_default_str()
        ->check(CLI::Range(0.0, 1.0));
    cmd->add_option("--window", o->config.window, "Tune on this many latest iterations' data")
        ->capture_default_str()
        ->check(CLI::Range(1, 1000));
    cmd->add_option("--openings", o->config.selfplay_openings, "Self-play openings")
        ->capture_default_str();
    cmd->add_option("--match-openings", o->config.match_openings,
                    "Match openings: balanced (built by search), random:PLIES or a suite FILE")
        ->capture_default_str();
    cmd->add_option("--epsilon", o->config.epsilon, "Self-play exploration (random move chance)")
        ->capture_default_str();
    cmd->add_option("--explore-turns", o->config.explore_turns, "... in this many first turns")
        ->capture_default_str();
    cmd->add_option("--optimizer", o->config.optimizer, "Tuner: adam, newton or lbfgs")
        ->check(CLI::IsMember({"adam", "newton", "lbfgs"}))
        ->capture_default_str();
    cmd->add_option("--l2", o->config.l2, "Tuner: L2 pull towards the current weights")
        ->capture_default_str();
    cmd->add_option("--seed", o->config.seed, "Seed")->capture_default_str();
    cmd->add_option("--threads", o->config.threads, "Worker threads (0: all cores)")
        ->capture_default_str();
    cmd->add_flag("--resume", o->config.resume,
                  "Continue the loop in --out at the step it stopped");
    cmd->add_flag("--quiet", o->config.quiet, "No progress output");
    cmd->callback([o] { run(*o); });
}

} // namespace fanorona::cli
