// The `fanorona` command line: one subcommand per job.

#include <exception>
#include <iostream>

#include "selfplay/distributed/cluster.h"
#include "tools/commands.h"

namespace {

int run_command(int argc, char** argv) {
    CLI::App app{"Fanorona Lab: self-play, tuning, tournaments and opening statistics for "
                 "Fanorona engines"};
    app.require_subcommand(1);
    app.footer("Run 'fanorona <subcommand> --help' for a subcommand's options. Positions are "
               "position strings and moves are move strings as in RULES.md (see 'fanorona perft "
               "--help' for the position string). On an error the program prints one line "
               "'fanorona: <message>' and exits with status 1.");
    fanorona::cli::add_perft_command(app);
    fanorona::cli::add_eval_command(app);
    fanorona::cli::add_analyze_command(app);
    fanorona::cli::add_engine_command(app);
    fanorona::cli::add_bench_command(app);
    fanorona::cli::add_stats_command(app);
    fanorona::cli::add_selfplay_command(app);
    fanorona::cli::add_dump_command(app);
    fanorona::cli::add_merge_command(app);
    fanorona::cli::add_tournament_command(app);
    fanorona::cli::add_loop_command(app);
    fanorona::cli::add_openings_command(app);
    fanorona::cli::add_report_command(app);
    fanorona::cli::add_tune_command(app);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    } catch (const std::exception& e) {
        std::cerr << "fanorona: " << e.what() << "\n";
        return 1;
    }
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    // Under mpirun or srun, the ranks other than 0 play the games rank 0 hands out.
    int rank = 0;
    try {
        rank = fanorona::cluster::start(argc, argv);
    } catch (const std::exception& e) {
        std::cerr << "fanorona: " << e.what() << "\n";
        return 1;
    }
    if (rank != 0) return fanorona::cluster::serve_as_worker();
    const int status = run_command(argc, argv);
    fanorona::cluster::finish(status != 0);
    return status;
}
