#pragma once
// Each subcommand of the `fanorona` program registers itself on the app with one function.

#include <CLI/CLI.hpp>

namespace fanorona::cli {

void add_perft_command(CLI::App& app);
void add_eval_command(CLI::App& app);
void add_analyze_command(CLI::App& app);
void add_engine_command(CLI::App& app);
void add_bench_command(CLI::App& app);
void add_stats_command(CLI::App& app);
void add_selfplay_command(CLI::App& app);
void add_dump_command(CLI::App& app);
void add_corpus_command(CLI::App& app);
void add_rescore_command(CLI::App& app);
void add_merge_command(CLI::App& app);
void add_tournament_command(CLI::App& app);
void add_loop_command(CLI::App& app);
void add_openings_command(CLI::App& app);
void add_report_command(CLI::App& app);
void add_tune_command(CLI::App& app);
void add_train_command(CLI::App& app);
void add_spsa_command(CLI::App& app);
void add_tables_command(CLI::App& app);
void add_timeuse_command(CLI::App& app);
void add_check_engine_command(CLI::App& app);
void add_solve_command(CLI::App& app);
void add_frontier_command(CLI::App& app);
void add_net_command(CLI::App& app);

} // namespace fanorona::cli
