#pragma once
// Helpers for tests that run the `fanorona` program as a user would.

#include <algorithm>
#include <array>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <spawn.h>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace test_cli {

// Whether this build runs under AddressSanitizer or ThreadSanitizer (clang's __has_feature,
// GCC's macros).
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kAddressSanitizer = true;
#else
inline constexpr bool kAddressSanitizer = false;
#endif
#else
inline constexpr bool kAddressSanitizer = false;
#endif
#if defined(__SANITIZE_THREAD__)
inline constexpr bool kThreadSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
inline constexpr bool kThreadSanitizer = true;
#else
inline constexpr bool kThreadSanitizer = false;
#endif
#else
inline constexpr bool kThreadSanitizer = false;
#endif
// How many times slower the program may run in this build than in an optimised one: waits
// that a correct program meets with room to spare in Release are scaled by it.
// Whether the tests run under CI (CI=true in the environment, as .ci/run is run): there the tools a
// test needs (mpirun, Chromium) are installed, and a test that finds one missing fails instead of
// skipping.
inline bool in_ci() {
    const char* ci = std::getenv("CI");
    return ci != nullptr && std::string(ci) == "true";
}

inline constexpr int kSlowdown = kAddressSanitizer || kThreadSanitizer ? 20 : 1;

struct Run {
    int status = -1;    // exit code
    std::string output; // stdout and stderr
};

// Runs a shell command line, capturing both output streams.
inline Run run_shell(const std::string& command) {
    Run r;
    const std::string cmd = command + " 2>&1";
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) return r;
    std::array<char, 4096> buf;
    while (std::fgets(buf.data(), int(buf.size()), p)) r.output += buf.data();
    const int st = pclose(p);
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    return r;
}

// Runs `fanorona ARGS` through the shell, capturing both output streams.
inline Run run_cli(const std::string& args) {
    return run_shell(FANORONA_BINARY " " + args);
}

// A fresh, empty folder under the temporary directory, private to this test process (CTest runs
// test cases in parallel processes, so a shared name would be removed under another's feet).
inline std::string fresh_dir(const std::string& name) {
    const auto dir = std::filesystem::temp_directory_path() / "fanorona_cli_tests" /
                     std::to_string(::getpid()) / name;
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir.parent_path());
    return dir.string();
}

// `fanorona ARGS` started in the background (its output discarded); returns its PID, or -1.
inline pid_t spawn_cli(const std::string& args) {
    const std::string cmd =
        "exec " + std::string(FANORONA_BINARY) + " " + args + " >/dev/null 2>&1";
    const char* argv[] = {"sh", "-c", cmd.c_str(), nullptr};
    pid_t pid = 0;
    if (posix_spawn(&pid, "/bin/sh", nullptr, nullptr, const_cast<char**>(argv), environ) != 0)
        return -1;
    return pid;
}

// Waits for `pid` to end; its exit code, or 128 + the signal that ended it.
inline int wait_exit(pid_t pid) {
    int st = 0;
    ::waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

// Starts `fanorona ARGS` and SIGKILLs it `ms` milliseconds later unless it ended before; returns
// its exit status (128 + SIGKILL when killed).
inline int run_cli_killed_after(const std::string& args, int ms) {
    const pid_t pid = spawn_cli(args);
    if (pid < 0) return -1;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    int st = 0;
    while (std::chrono::steady_clock::now() < deadline) {
        if (::waitpid(pid, &st, WNOHANG) == pid)
            return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    ::kill(pid, SIGKILL);
    return wait_exit(pid);
}

// Runs `fanorona ARGS` like run_cli and sets `ms` to its wall time in milliseconds (at least 1).
inline Run run_cli_timed(const std::string& args, int& ms) {
    const auto start = std::chrono::steady_clock::now();
    Run r = run_cli(args);
    ms = std::max(1, int(std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::chrono::steady_clock::now() - start)
                             .count()));
    return r;
}

// What a run interrupted by SIGKILL at seeded random moments did (see run_with_kills).
struct KillRun {
    std::vector<int> moments_ms; // when each start was to be killed
    int kills = 0;               // starts that were killed (the others ended first)
    Run last;                    // the final, uninterrupted --resume
};

// Fault injection: starts `fanorona ARGS`, SIGKILLs it at a random moment in [min_ms, max_ms]
// (drawn from `seed`), then `fanorona ARGS --resume`, killed the same way, `starts` times in all;
// finally runs `fanorona ARGS --resume` to its end. The caller compares the files with an
// uninterrupted run's.
inline KillRun run_with_kills(const std::string& args, std::uint64_t seed, int starts, int min_ms,
                              int max_ms) {
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int> moment(min_ms, max_ms);
    KillRun r;
    for (int k = 0; k < starts; ++k) {
        r.moments_ms.push_back(moment(rng));
        const int st = run_cli_killed_after(args + (k ? " --resume" : ""), r.moments_ms.back());
        r.kills += st == 128 + SIGKILL;
    }
    r.last = run_cli(args + " --resume");
    return r;
}

// A path for the file NAME in this test process's folder GROUP under the temporary directory
// (the folder is created; CTest runs test cases in parallel processes, so each has its own).
inline std::string temp_file(const std::string& group, const std::string& name) {
    const auto dir = std::filesystem::temp_directory_path() / "fanorona_cli_tests" /
                     std::to_string(::getpid()) / group;
    std::filesystem::create_directories(dir);
    return (dir / name).string();
}

inline std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// The lines of a text, without their newlines.
inline std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

// The lines of a file (none when it cannot be read).
inline std::vector<std::string> file_lines(const std::string& path) {
    return lines_of(slurp(path));
}

// A games file's text with its measured columns (`times`, and version 4's `clocks` and
// `latencies`, which depend on the machine and its load) each made a lone '-': what is left is a
// pure function of the run's settings, which runs that should play the same games compare. A data
// line of 15 columns is version 4 (13 for version 3), 17 version 4 with series.
inline std::string without_times(const std::string& text) {
    std::string out;
    std::size_t pos = 0;
    while (pos < text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string::npos) end = text.size();
        const std::string line = text.substr(pos, end - pos);
        const auto tabs = std::count(line.begin(), line.end(), '\t');
        if (!line.empty() && line[0] != '#' && (tabs == 12 || tabs == 14 || tabs == 16)) {
            std::vector<std::string> cols;
            for (std::size_t from = 0;;) {
                const std::size_t tab = line.find('\t', from);
                cols.push_back(line.substr(from, tab - from));
                if (tab == std::string::npos) break;
                from = tab + 1;
            }
            const std::size_t first = tabs == 16 ? 12 : 10; // the `times` column
            cols[first] = "-";
            if (tabs != 12) cols[first + 3] = cols[first + 4] = "-";
            std::string masked;
            for (std::size_t k = 0; k < cols.size(); ++k) masked += (k ? "\t" : "") + cols[k];
            out += masked;
        } else {
            out += line;
        }
        if (end < text.size()) out += '\n';
        pos = end + 1;
    }
    return out;
}

// A run's file as tests compare two runs' files: its bytes, a games file's without its times.
inline std::string slurp_run_file(const std::string& path) {
    const std::string text = slurp(path);
    return path.ends_with("games.tsv") ? without_times(text) : text;
}

// The path of the test engine script tests/engines/NAME.sh.
inline std::string engine_script(const std::string& name) {
    return std::string(FANORONA_TEST_DATA) + "/../engines/" + name + ".sh";
}

// Whether process `pid` is alive: /proc has an entry for it that is not a zombie's (a dead
// process its parent, here init, has not reaped yet).
inline bool process_alive(long pid) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(stat, line)) return false;
    const auto close = line.rfind(')');
    return !(close != std::string::npos && close + 2 < line.size() && line[close + 2] == 'Z');
}

// True once process `pid` has died, waiting up to five seconds (a SIGKILL to land, a `quit`
// to be answered).
inline bool process_gone(long pid) {
    for (int i = 0; i < 500; ++i) {
        if (!process_alive(pid)) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
}

// The process ids a file lists, whitespace-separated (as the test engines write them).
inline std::vector<long> pids_in(const std::string& path) {
    std::ifstream in(path);
    std::vector<long> pids;
    for (long p; in >> p;) pids.push_back(p);
    return pids;
}

} // namespace test_cli
