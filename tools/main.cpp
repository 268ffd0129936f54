// The `fanorona` command line: one subcommand per job.

#include <cstdio>
#include <exception>
#include <iostream>
#include <new>
#include <string>

#include "selfplay/mpi/cluster.h"
#include "tools/commands.h"
#include "tools/options.h"
#include "tools/solve/remote_pns.h"

namespace {

// Writes `fanorona: LINE` and its newline to standard error in one write (stderr is unbuffered:
// `<<` by `<<` would be several writes, and mpirun's or another rank's lines could land inside
// the line), after what the command printed to standard output (as std::cerr, tied to
// std::cout, did).
void print_error_line(const std::string& line) {
    std::cout.flush();
    std::fflush(stdout);
    const std::string text = "fanorona: " + line + "\n";
    std::fwrite(text.data(), 1, text.size(), stderr);
    std::fflush(stderr);
}

// Prints `fanorona: MESSAGE` as one line (any line breaks in the message become "; ") and returns
// the exit status of every error, 1.
int fail(const std::string& message) {
    std::string line;
    std::size_t start = 0;
    while (start <= message.size()) {
        std::size_t end = message.find_first_of("\r\n", start);
        if (end == std::string::npos) end = message.size();
        std::string part = message.substr(start, end - start);
        while (!part.empty() && part.back() == ' ') part.pop_back();
        if (!part.empty()) line += (line.empty() ? "" : "; ") + part;
        start = end + 1;
    }
    print_error_line(line.empty() ? "error" : line);
    return 1;
}

int run_command(int argc, char** argv) {
    CLI::App app{"Fanorona Lab: self-play, tuning, tournaments and opening statistics for "
                 "Fanorona engines"};
    app.require_subcommand(1);
    app.footer(
        "Run 'fanorona <subcommand> --help' for a subcommand's options. Positions are "
        "position strings and moves are move strings as in docs/rules.md (see 'fanorona perft "
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
    fanorona::cli::add_corpus_command(app);
    fanorona::cli::add_rescore_command(app);
    fanorona::cli::add_merge_command(app);
    fanorona::cli::add_tournament_command(app);
    fanorona::cli::add_loop_command(app);
    fanorona::cli::add_openings_command(app);
    fanorona::cli::add_report_command(app);
    fanorona::cli::add_tune_command(app);
    fanorona::cli::add_train_command(app);
    fanorona::cli::add_spsa_command(app);
    fanorona::cli::add_tables_command(app);
    fanorona::cli::add_timeuse_command(app);
    fanorona::cli::add_check_engine_command(app);
    fanorona::cli::add_solve_command(app);
    fanorona::cli::add_frontier_command(app);
    fanorona::cli::add_net_command(app);
    fanorona::cli::refuse_wrapped_unsigned(app);
    fanorona::cli::refuse_non_finite(app);
    try {
        app.parse(argc, argv);
    } catch (const CLI::Success& e) {
        return app.exit(e); // --help (and the like): the help text, status 0
    } catch (const CLI::ParseError& e) {
        // CLI11 would print the message, a "Run with --help" line and exit 105 or 106.
        if (argc > 1 && argv[1][0] != '-') { // CLI11 says only "A subcommand is required"
            bool known = false;
            for (const CLI::App* sub : app.get_subcommands({}))
                known = known || sub->check_name(argv[1]);
            if (!known)
                return fail("unknown command '" + std::string(argv[1]) +
                            "' (run 'fanorona --help' for the commands)");
        }
        return fail(e.what());
    } catch (const std::bad_alloc&) {
        // Allocations an option sizes name it (core/common/memory.h); this is any other.
        return fail("out of memory (too large a --hash, --threads or input for this machine?)");
    } catch (const std::exception& e) {
        return fail(e.what());
    } catch (...) {
        return fail("unexpected error");
    }
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    // Under mpirun or srun, the ranks other than 0 play the games (and solve the units of a
    // proof-number solve) rank 0 hands out.
    int rank = 0;
    try {
        rank = fanorona::cluster::start(argc, argv);
    } catch (const std::exception& e) {
        print_error_line(e.what());
        return 1;
    }
    if (rank != 0) return fanorona::cluster::serve_as_worker();
    // Rank 0 plugs the other ranks into the seams (core/common/seam.h), once, before any command
    // starts a thread; without other ranks their functions do nothing.
    fanorona::cluster::install();
    fanorona::Seam<fanorona::cli::RemotePnsSolver>::install(
        {.available = [] { return fanorona::cluster::has_workers(); },
         .solve = fanorona::cluster::solve_pns_remotely});
    const int status = run_command(argc, argv);
    fanorona::cluster::finish(status != 0);
    return status;
}
