// `fanorona tournament`: engines meet in colour-swapped pairs; Elo, pentanomial stats and SPRT.

#include <cstdio>
#include <iostream>
#include <memory>

#include "selfplay/batch/batch_runner.h"
#include "selfplay/tournament/tournament.h"
#include "tools/commands.h"
#include "tools/options.h"

namespace fanorona::cli {

namespace {

struct TournamentOptions {
    BoardOptions board;
    TournamentConfig config;
    std::vector<std::string> players;
    std::string format = "gauntlet";
    std::uint64_t games = 0;
    std::uint64_t rounds = 0;
    std::string openings = "random:4";
    std::string sprt;
};

void run(TournamentOptions& o) {
    TournamentConfig& c = o.config;
    c.rules = o.board.make_rules();
    for (const auto& p : o.players) c.players.push_back(PlayerSpec::parse(p));
    c.format = o.format == "roundrobin" ? TournamentConfig::Format::RoundRobin
                                        : TournamentConfig::Format::Gauntlet;
    if (o.games)
        c.rounds = (o.games + 1) / 2;
    else if (o.rounds)
        c.rounds = o.rounds;
    c.openings = OpeningSpec::parse(o.openings);
    if (!o.sprt.empty()) {
        c.sprt = stats::SprtConfig::parse(o.sprt);
        if (!o.games && !o.rounds) c.rounds = 100000; // until the test decides
    }
    install_interrupt_handlers();
    const TournamentResult r = run_tournament(c);
    std::printf("%s", stats::render_text(r.table).c_str());
    std::printf("%llu games, %llu pairs in %s (%.1f s)\n", static_cast<unsigned long long>(r.games),
                static_cast<unsigned long long>(r.pairs), c.out_dir.c_str(), r.seconds);
    if (r.sprt)
        std::printf("SPRT %s: LLR %.3f [%.3f, %.3f] %s\n", c.sprt->to_string().c_str(), r.sprt->llr,
                    r.sprt->lower_bound, r.sprt->upper_bound,
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
    cmd->add_option("--player", o->players,
                    "A player, repeatable: name=A,weights=FILE,depth=4|nodes=N|movetime=MS|"
                    "tc=10+0.1,hash=MB,PARAM=V  or  name=B,cmd=PATH,args=...,option.X=V  or  "
                    "name=R,builtin=random|greedy")
        ->required();
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
    cmd->add_option("--concurrency", o->config.concurrency, "Games at once (0: all cores)")
        ->capture_default_str()
        ->check(CLI::Range(0, 1024));
    cmd->add_option("--openings", o->openings, "random:PLIES, a suite FILE, or start")
        ->capture_default_str();
    cmd->add_option("--seed", o->config.seed, "Seed for random openings")->capture_default_str();
    cmd->add_option("--sprt", o->sprt,
                    "Stop when the SPRT decides: elo0=0,elo1=5,alpha=0.05,beta=0.05"
                    "[,model=normalized|logistic]");
    cmd->add_option("--out", o->config.out_dir, "Output folder")->capture_default_str();
    cmd->add_option(
        "--live", o->config.live_path,
        "JSON lines stream of results, one line per game pair (default OUT/live.jsonl)");
    cmd->add_flag("--resume", o->config.resume,
                  "Continue (or extend with a larger --games) the tournament in --out");
    cmd->add_option("--max-turns", o->config.adjudication.max_turns,
                    "Adjudicate a draw after this many turns (0: never)")
        ->capture_default_str();
    cmd->add_option("--win-margin", o->config.adjudication.win_margin,
                    "Adjudicate a win when both engines' scores pass this margin (0: off)")
        ->capture_default_str();
    cmd->add_option("--win-turns", o->config.adjudication.win_turns,
                    "... for this many consecutive turns of each side")
        ->capture_default_str();
    cmd->add_flag("--quiet", o->config.quiet, "No progress line");
    cmd->callback([o] {
        if (!o->games && !o->rounds) o->config.rounds = 10;
        run(*o);
    });
}

} // namespace fanorona::cli
