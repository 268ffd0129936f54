// `fanorona selfplay`: the engine against itself on oneTBB workers, logging games and positions.

#include <cstdio>
#include <iostream>
#include <memory>

#include "common/weights_file.h"
#include "selfplay/batch/batch_runner.h"
#include "selfplay/selfplay.h"
#include "tools/commands.h"
#include "tools/options.h"

namespace fanorona::cli {

namespace {

struct SelfplayOptions {
    BoardOptions board;
    SelfplayConfig config;
    std::string weights = "default";
    std::string openings = "random:4";
    std::string shard;
    int depth = 0;
    std::uint64_t nodes = 0;
    int movetime = 0;
    bool no_positions = false;
};

void parse_shard(const std::string& text, SelfplayConfig& c) {
    const auto slash = text.find('/');
    try {
        if (slash == std::string::npos) throw std::invalid_argument(text);
        c.shard_index = std::stoi(text.substr(0, slash));
        c.shard_count = std::stoi(text.substr(slash + 1));
    } catch (const std::exception&) {
        throw std::invalid_argument("--shard: expected I/N such as 0/4, found '" + text + "'");
    }
}

void run(SelfplayOptions& o) {
    SelfplayConfig& c = o.config;
    c.rules = o.board.make_rules();
    c.weights = load_weights_file(o.weights);
    c.weights_name = weights_display_name(o.weights);
    c.openings = OpeningSpec::parse(o.openings);
    c.limits.depth = o.depth;
    c.limits.nodes = o.nodes;
    c.limits.movetime_ms = o.movetime;
    if (!o.depth && !o.nodes && !o.movetime) c.limits.depth = 4;
    c.log_positions = !o.no_positions;
    if (!o.shard.empty()) parse_shard(o.shard, c);
    install_interrupt_handlers();
    const SelfplaySummary s = run_selfplay(c);
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
    auto* cmd = app.add_subcommand(
        "selfplay", "Play the engine against itself on all cores and log games and positions");
    o->board.add_to(*cmd, false); // games start from --openings (a suite file holds positions)
    cmd->add_option("--games", o->config.games, "Number of games (pairs share an opening)")
        ->capture_default_str()
        ->check(CLI::Range(std::uint64_t(1), std::uint64_t(1) << 31));
    cmd->add_option("--threads", o->config.threads, "Worker threads (0: all cores)")
        ->capture_default_str()
        ->check(CLI::Range(0, 1024));
    auto* depth = cmd->add_option("--depth", o->depth, "Search depth per move (default 4)")
                      ->check(CLI::Range(1, 60));
    auto* nodes = cmd->add_option("--nodes", o->nodes, "Search nodes per move")
                      ->check(CLI::Range(std::uint64_t(1), std::uint64_t(1) << 40));
    auto* movetime =
        cmd->add_option("--movetime", o->movetime, "Milliseconds per move (not reproducible)")
            ->check(CLI::Range(1, 3600000));
    depth->excludes(nodes)->excludes(movetime);
    nodes->excludes(movetime);
    cmd->add_option("--weights", o->weights, "Weights file (default: the built-in weights)");
    cmd->add_option("--hash", o->config.hash_mb,
                    "Transposition table per worker, MB (raise it for deep searches)")
        ->capture_default_str()
        ->check(CLI::Range(1, 4096));
    cmd->add_option("--openings", o->openings,
                    "random:PLIES (random turns from the start), a suite FILE, or start")
        ->capture_default_str();
    cmd->add_option("--seed", o->config.seed, "Seed: same seed and settings, same games")
        ->capture_default_str();
    cmd->add_option("--out", o->config.out_dir, "Output folder")->capture_default_str();
    cmd->add_flag("--resume", o->config.resume,
                  "Continue an interrupted run in --out (same settings; --games may grow)");
    cmd->add_option("--shard", o->shard,
                    "I/N: play only games whose index is I modulo N (join with `fanorona merge`)");
    cmd->add_option("--max-turns", o->config.adjudication.max_turns,
                    "Adjudicate a draw (length-cap) after this many turns (0: never)")
        ->capture_default_str()
        ->check(CLI::Range(0, 100000));
    cmd->add_option("--win-margin", o->config.adjudication.win_margin,
                    "Adjudicate a win when both sides' scores pass this many centi-pieces "
                    "(0: off)")
        ->capture_default_str()
        ->check(CLI::Range(0, 100000));
    cmd->add_option("--win-turns", o->config.adjudication.win_turns,
                    "... for this many consecutive turns of each side")
        ->capture_default_str()
        ->check(CLI::Range(1, 1000));
    cmd->add_option("--epsilon", o->config.exploration.epsilon,
                    "Exploration: probability of a random move in the first --explore-turns")
        ->capture_default_str()
        ->check(CLI::Range(0.0, 1.0));
    cmd->add_option("--explore-turns", o->config.exploration.turns,
                    "Exploration: how many turns after the opening may be random")
        ->capture_default_str()
        ->check(CLI::Range(0, 1000));
    cmd->add_flag("--no-positions", o->no_positions, "Do not write positions.bin");
    cmd->add_flag("--quiet", o->config.quiet, "No progress line");
    cmd->callback([o] { run(*o); });
}

} // namespace fanorona::cli
