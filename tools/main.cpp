// The `fanorona` command line: one subcommand per job.

#include <cstdio>
#include <exception>
#include <iostream>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "core/common/progress.h"
#include "selfplay/games/program_info.h"
#include "selfplay/mpi/cluster.h"
#include "tools/app.h"
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

// The error of a command line that holds an option no command knows: CLI11's own ("The following
// argument was not expected: --kind"), whatever error that option led to first (`openings FILE
// --kind vela` reads "vela" as a games file; `tables build --out DIR` lacks --tables). Empty
// when every option was known.
std::string unknown_option_error(const CLI::App& app) {
    const std::vector<std::string> extras = app.remaining(true);
    for (const std::string& arg : extras)
        if (arg.size() > 1 && arg[0] == '-') return CLI::ExtrasError(extras).what();
    return "";
}

int run_command(int argc, char** argv) {
    const std::unique_ptr<CLI::App> made = fanorona::cli::make_app();
    CLI::App& app = *made;
    // `fanorona --version`: the program's provenance; a bare `fanorona`: the help (as git).
    if (argc == 2 && std::string(argv[1]) == "--version") {
        std::fputs(fanorona::version_text().c_str(), stdout);
        return 0;
    }
    if (argc == 1) {
        app.name("fanorona");
        std::fputs(app.help().c_str(), stdout);
        return 0;
    }
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
        if (const std::string unknown = unknown_option_error(app); !unknown.empty())
            return fail(unknown);
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
    (void)fanorona::seconds_since_start(); // the runs' durations count from here
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
