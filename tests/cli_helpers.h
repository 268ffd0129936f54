#pragma once
// Helpers for tests that run the `fanorona` program as a user would.

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace test_cli {

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
    return run_shell(std::string(FANORONA_BINARY) + " " + args);
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

inline std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace test_cli
