// Declared paths (tools/paths.h, issue 60): every option of every subcommand that names a file or
// folder has a role; for every command, every output given the path of every input is refused
// before the command runs (one line naming both options) and the input's bytes stay as they were.

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/common/files.h"
#include "tests/cli_helpers.h"
#include "tools/app.h"
#include "tools/paths.h"

using namespace fanorona;
using namespace fanorona::cli;

namespace {

namespace fs = std::filesystem;

// One subcommand that runs (a leaf: `net info`, `selfplay`), by the words that choose it.
struct Command {
    std::vector<std::string> words;
    CLI::App* app = nullptr;
};

void collect_commands(CLI::App& app, std::vector<std::string> words, std::vector<Command>& out) {
    bool has_sub = false;
    for (CLI::App* sub : app.get_subcommands({})) {
        if (sub->get_name().empty()) continue; // an option group
        has_sub = true;
        std::vector<std::string> w = words;
        w.push_back(sub->get_name());
        collect_commands(*sub, w, out);
    }
    if (!has_sub && !words.empty()) out.push_back({words, &app});
}

// The options of `app` and of the commands above it (a parent's options apply to its subcommands),
// with their option groups'.
void collect(CLI::App& app, std::vector<CLI::Option*>& out) {
    for (CLI::Option* o : app.get_options()) out.push_back(o);
    for (CLI::App* sub : app.get_subcommands({}))
        if (sub->get_name().empty()) collect(*sub, out);
}

std::string lower(std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// The rule that says an option names a path: a word of its name is one that names files (out,
// log, file, dir, ...), or its help or type mentions a file, a folder, a directory, a path or a
// program. A new option that does must be declared, with a role or as NotAPath.
bool looks_like_path(const CLI::Option* o) {
    if (o->get_type_size_max() == 0) return false; // a flag names nothing
    std::string name = lower(o->get_name());
    for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = ' ';
    std::istringstream words(name);
    for (std::string w; words >> w;)
        for (const char* word : {"out", "log", "file", "files", "dir", "folder", "path", "cmd",
                                 "program", "engine", "net", "weights", "tables", "book", "init",
                                 "data", "inputs", "input", "live", "proof", "into", "shards"})
            if (w == word) return true;
    const std::string text = lower(o->get_type_name() + " " + o->get_description());
    for (const char* word : {"file", "folder", "director", "path", "program"})
        if (text.find(word) != std::string::npos) return true;
    return false;
}

std::string command_name(const Command& c) {
    std::string s;
    for (const std::string& w : c.words) s += (s.empty() ? "" : " ") + w;
    return s;
}

std::string option_label(const CLI::Option* o) {
    std::string name = o->get_name(false, true);
    return name.empty() ? o->get_name() : name;
}

} // namespace

TEST_CASE("every path option of every command has a declared role", "[paths]") {
    const auto app = make_app();
    std::vector<Command> commands;
    collect_commands(*app, {}, commands);
    REQUIRE(commands.size() > 20);
    std::vector<std::string> undeclared;
    std::size_t declared = 0;
    for (const Command& c : commands) {
        std::vector<CLI::Option*> options;
        for (CLI::App* a = c.app; a; a = a->get_parent()) collect(*a, options);
        for (const CLI::Option* o : options) {
            if (o->get_name() == "--help" || o->get_name() == "-h,--help") continue;
            if (path_role(o)) {
                declared += *path_role(o) != PathRole::NotAPath;
                continue;
            }
            if (looks_like_path(o)) undeclared.push_back(command_name(c) + " " + option_label(o));
        }
    }
    for (const std::string& u : undeclared) UNSCOPED_INFO("no path role: " + u);
    CHECK(undeclared.empty());
    CHECK(declared > 50);
}
