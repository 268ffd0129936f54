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
    std::string name = lower(option_label(o));
    for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = ' ';
    std::istringstream words(name);
    for (std::string w; words >> w;)
        for (const char* word :
             {"out",     "log",    "file", "files",   "dir",    "folder", "path", "cmd",
              "program", "engine", "net",  "weights", "tables", "book",   "init", "data",
              "inputs",  "input",  "live", "proof",   "into",   "shards"})
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
            if (option_label(o) == "--help") continue;
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

namespace {

// What a pair of the generated test gives: the option's value, and where the bytes to keep are.
struct Given {
    std::string value;
    std::string label;
};

bool is_output(PathRole r) {
    return r == PathRole::OutputFile || r == PathRole::OutputFolder || r == PathRole::Log;
}
bool is_input(PathRole r) {
    return r == PathRole::InputFile || r == PathRole::InputFolder || r == PathRole::Program ||
           r == PathRole::EngineSpecs;
}

// The options of a command (and of the commands above it) by name, in a fresh app whose every
// requirement, need and exclusion is lifted, so that a pair of options alone reaches the check.
struct LooseCommand {
    std::unique_ptr<CLI::App> app = make_app();
    CLI::App* leaf = nullptr;
    std::vector<CLI::Option*> options;

    explicit LooseCommand(const std::vector<std::string>& words) {
        leaf = app.get();
        for (const std::string& w : words) leaf = leaf->get_subcommand(w);
        for (CLI::App* a = leaf; a; a = a->get_parent()) collect(*a, options);
        for (CLI::Option* o : options) {
            o->required(false);
            for (CLI::Option* n : o->get_needs()) o->remove_needs(n);
            for (CLI::Option* e : o->get_excludes()) o->remove_excludes(e);
        }
    }
    CLI::Option* find(const std::string& label) const {
        for (CLI::Option* o : options)
            if (option_label(o) == label) return o;
        return nullptr;
    }
};

// The arguments that give option `o` the value `value` (a positional: the value alone).
void give(const CLI::Option* o, const std::string& value, std::vector<std::string>& args) {
    if (option_label(o)[0] == '-') {
        args.push_back(option_label(o));
        args.push_back(value);
    } else {
        args.push_back(value);
    }
}

// Whether `o` is a positional that is not the command's first (its value alone would go to the
// first).
bool later_positional(const CLI::App& leaf, const CLI::Option* o) {
    if (!o->get_lnames().empty() || !o->get_snames().empty()) return false;
    for (const CLI::Option* p : leaf.get_options())
        if (p->get_lnames().empty() && p->get_snames().empty()) return p != o;
    return false;
}

} // namespace

TEST_CASE("every output given the path of an input of its command is refused before it runs",
          "[paths]") {
    const auto app = make_app();
    std::vector<Command> commands;
    collect_commands(*app, {}, commands);
    const std::string dir = test_cli::fresh_dir("paths_pairs");
    const std::string kept = "bytes the command must not change\n";
    std::size_t path_options = 0, pairs = 0, output_pairs = 0;
    std::set<std::string> with_pairs;
    for (const Command& c : commands) {
        std::vector<CLI::Option*> options;
        for (CLI::App* a = c.app; a; a = a->get_parent()) collect(*a, options);
        std::vector<CLI::Option*> outputs, inputs;
        for (CLI::Option* o : options) {
            const auto role = path_role(o);
            if (!role || *role == PathRole::NotAPath) continue;
            ++path_options;
            if (is_output(*role)) outputs.push_back(o);
            if (is_input(*role)) inputs.push_back(o);
        }
        for (CLI::Option* out : outputs) {
            // Each input of the command, then each other output, at the same path.
            std::vector<CLI::Option*> others = inputs;
            for (CLI::Option* o : outputs)
                if (o != out) others.push_back(o);
            for (CLI::Option* other : others) {
                if (later_positional(*c.app, other) || later_positional(*c.app, out)) continue;
                const PathRole in_role = *path_role(other), out_role = *path_role(out);
                const bool both_outputs = is_output(in_role);
                const std::string name =
                    command_name(c) + " " + option_label(out) + " = " + option_label(other);
                INFO(name);
                fs::remove_all(dir);
                fs::create_directories(dir);
                // The input: a file of known bytes, or a folder holding one; two outputs: a path
                // that does not exist yet.
                std::string file = dir + "/input.bin", in_value = file, out_value = file;
                if (in_role == PathRole::InputFolder) {
                    fs::create_directories(dir + "/inputs");
                    file = dir + "/inputs/held.bin";
                    in_value = dir + "/inputs";
                    out_value = out_role == PathRole::OutputFolder ? in_value : file;
                }
                if (both_outputs) {
                    file.clear();
                    in_value = out_value = dir + "/new.out";
                } else {
                    std::ofstream(file, std::ios::binary) << kept;
                }
                if (in_role == PathRole::EngineSpecs) in_value = "cmd=" + in_value;
                LooseCommand loose(c.words);
                std::vector<std::string> args = {"fanorona"};
                args.insert(args.end(), c.words.begin(), c.words.end());
                give(loose.find(option_label(out)), out_value, args);
                give(loose.find(option_label(other)), in_value, args);
                std::vector<const char*> argv;
                for (const std::string& a : args) argv.push_back(a.c_str());
                std::string message;
                try {
                    loose.app->parse(int(argv.size()), argv.data());
                } catch (const std::exception& e) {
                    message = e.what();
                }
                INFO(message);
                CHECK(message.find(option_label(out)) != std::string::npos);
                CHECK(message.find(option_label(other)) != std::string::npos);
                CHECK(message.find("the same file as") != std::string::npos);
                CHECK(message.find('\n') == std::string::npos);
                if (!file.empty()) CHECK(test_cli::slurp(file) == kept);
                if (both_outputs) CHECK_FALSE(fs::exists(out_value));
                ++pairs;
                output_pairs += both_outputs;
                with_pairs.insert(command_name(c));
            }
        }
    }
    std::cout << "declared paths: " << commands.size() << " commands, " << path_options
              << " path options, " << pairs << " pairs tried (" << pairs - output_pairs
              << " output = input, " << output_pairs << " output = output) in " << with_pairs.size()
              << " commands\n";
    CHECK(pairs > 100);
}
