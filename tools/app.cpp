// The `fanorona` app (tools/app.h): the subcommands and the checks over all of them.

#include "tools/app.h"

#include "tools/commands.h"
#include "tools/options.h"
#include "tools/paths.h"

namespace fanorona::cli {

std::unique_ptr<CLI::App> make_app() {
    auto made = std::make_unique<CLI::App>(
        "Fanorona Lab: self-play, tuning, tournaments and opening statistics for "
        "Fanorona engines");
    CLI::App& app = *made;
    app.require_subcommand(1);
    app.footer(
        "Run 'fanorona <subcommand> --help' for a subcommand's options. Positions are "
        "position strings and moves are move strings as in docs/rules.md (see 'fanorona perft "
        "--help' for the position string). On an error the program prints one line "
        "'fanorona: <message>' and exits with status 1.");
    add_perft_command(app);
    add_eval_command(app);
    add_analyze_command(app);
    add_engine_command(app);
    add_bench_command(app);
    add_stats_command(app);
    add_selfplay_command(app);
    add_dump_command(app);
    add_corpus_command(app);
    add_rescore_command(app);
    add_merge_command(app);
    add_tournament_command(app);
    add_loop_command(app);
    add_openings_command(app);
    add_report_command(app);
    add_tune_command(app);
    add_train_command(app);
    add_spsa_command(app);
    add_tables_command(app);
    add_timeuse_command(app);
    add_check_engine_command(app);
    add_solve_command(app);
    add_frontier_command(app);
    add_net_command(app);
    // Handled by main() before parsing (argc == 2); declared so that --help lists it.
    app.add_flag("--version")
        ->description(
            "Print the version, the commit, the build type and the bench signature, and exit");
    refuse_wrapped_unsigned(app);
    refuse_non_finite(app);
    install_path_checks(app);
    return made;
}

} // namespace fanorona::cli
