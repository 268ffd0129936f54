// Declared paths (tools/paths.h, issue 60): every option of every subcommand that names a file or
// folder has a role; for every command, every output given the path of every input is refused
// before the command runs (one line naming both options) and the input's bytes stay as they were.

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <sys/stat.h>

#include "core/common/files.h"
#include "core/common/folder_lock.h"
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
                    // A file the command reads in the folder: the one declared first, or any
                    // when the whole folder is read.
                    const std::vector<std::string> reads = output_folder_files(other);
                    fs::create_directories(dir + "/inputs");
                    file = dir + "/inputs/" + (reads.empty() ? "held.bin" : reads.front());
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

namespace {

// A file of known bytes at `path`, returned.
std::string known_file(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
    return bytes;
}

// Whether a run refused with one line naming both options and left `file`'s bytes as `bytes`.
void check_refused(const test_cli::Run& r, const std::string& a, const std::string& b,
                   const std::string& file, const std::string& bytes) {
    INFO(r.output);
    CHECK(r.status == 1);
    CHECK(r.output.find(a) != std::string::npos);
    CHECK(r.output.find(b) != std::string::npos);
    CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
    CHECK(test_cli::slurp(file) == bytes);
}

} // namespace

TEST_CASE("the outputs that were inputs in issue 60 are refused, the inputs kept", "[paths][cli]") {
    using test_cli::run_cli;
    const std::string dir = test_cli::fresh_dir("paths_issue60");
    fs::create_directories(dir);
    const std::string games = dir + "/games.tsv", engines = dir + "/engines.json";
    const std::string g = known_file(games, "# fanorona-games 3\n");
    const std::string e = known_file(engines, "{\"engines\": {}}\n");
    check_refused(run_cli("timeuse " + games + " --json-out " + games), "--json-out", "games",
                  games, g);
    check_refused(run_cli("openings " + games + " --book " + games), "--book", "games", games, g);
    const std::string program = dir + "/engine";
    fs::copy_file(FANORONA_RANDOM_ENGINE, program);
    const std::string p = test_cli::slurp(program);
    check_refused(run_cli("check-engine --player cmd=" + program + " --json-out " + program),
                  "--json-out", "--player cmd=", program, p);
    check_refused(
        run_cli("check-engine --player conf=x --engines " + engines + " --json-out " + engines),
        "--json-out", "--engines", engines, e);
    // --live and --log over the run's games, the engines file, the openings suite.
    const std::string out = dir + "/t";
    fs::create_directories(out);
    const std::string run_games = known_file(out + "/games.tsv", "# fanorona-games 3\n");
    const std::string players = " --player name=a,depth=1 --player name=b,builtin=random";
    check_refused(
        run_cli("tournament --quiet --out " + out + " --live " + out + "/games.tsv" + players),
        "--live", "--out", out + "/games.tsv", run_games);
    check_refused(run_cli("tournament --quiet --out " + out + " --engines " + engines + " --live " +
                          engines + players),
                  "--live", "--engines", engines, e);
    check_refused(run_cli("tournament --quiet --out " + out + " --openings " + games + " --log " +
                          games + players),
                  "--log", "--openings", games, g);
}

TEST_CASE("a log is an engine log or new: a games file or a FIFO as --log is refused",
          "[paths][cli]") {
    using test_cli::run_cli;
    const std::string dir = test_cli::fresh_dir("paths_log");
    fs::create_directories(dir);
    const std::string games = dir + "/games.tsv";
    const std::string g = known_file(games, "# fanorona-games 3\nsome games\n");
    // fanorona engine --log G added its lines to the games file.
    const test_cli::Run engine = run_cli("engine --log " + games + " </dev/null");
    check_refused(engine, "--log", "not an engine log", games, g);
    const test_cli::Run tournament =
        run_cli("tournament --quiet --out " + dir + "/t --log " + games +
                " --player name=a,depth=1 --player name=b,builtin=random");
    check_refused(tournament, "--log", "not an engine log", games, g);
    // A log of ours is added to.
    const std::string log = dir + "/engine.log";
    REQUIRE(run_cli("engine --log " + log + " </dev/null").status == 0);
    const std::string before = test_cli::slurp(log);
    REQUIRE(run_cli("engine --log " + log + " </dev/null").status == 0);
    CHECK(test_cli::slurp(log).size() > before.size());
    CHECK(test_cli::slurp(log).compare(0, before.size(), before) == 0);
    // A FIFO said "cannot seek" (after waiting for a reader); now refused at once.
    const std::string fifo = dir + "/fifo";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    const test_cli::Run f = run_cli("engine --log " + fifo + " </dev/null");
    CHECK(f.status == 1);
    CHECK_THAT(f.output, Catch::Contains("--log " + fifo + ": a FIFO"));
}

TEST_CASE("files the program makes never follow a link planted in their place", "[paths]") {
    const std::string dir = test_cli::fresh_dir("paths_links");
    fs::create_directories(dir);
    const std::string victim = dir + "/victim";
    const std::string v = known_file(victim, "the victim's bytes\n");
    // OUT.lock and a run folder's .lock planted as links to the victim: refused, never written.
    const std::string out = dir + "/out.bin";
    fs::create_symlink(victim, out + ".lock");
    CHECK_THROWS_WITH(FileLock(out), Catch::Contains("symbolic link"));
    CHECK(test_cli::slurp(victim) == v);
    fs::create_directories(dir + "/run");
    fs::create_symlink(victim, dir + "/run/.lock");
    CHECK_THROWS_WITH(FolderLock(dir + "/run"), Catch::Contains("symbolic link"));
    CHECK(test_cli::slurp(victim) == v);
    // OUT.tmp (the old temporary name) planted: the output is written, the victim kept.
    fs::create_symlink(victim, out + ".tmp");
    write_file_atomically(out, "the output\n");
    check_writable(out);
    CHECK(test_cli::slurp(out) == "the output\n");
    CHECK(test_cli::slurp(victim) == v);
    // No temporary file is left beside the output.
    std::size_t files = 0;
    for (const auto& entry : fs::directory_iterator(dir))
        files += entry.is_regular_file() && !entry.is_symlink();
    CHECK(files == 2); // the victim and the output
    // The lock files of a run are removed when it ends.
    const std::string free_out = dir + "/free.bin";
    {
        const FileLock lock(free_out);
        CHECK(fs::exists(free_out + ".lock"));
    }
    CHECK_FALSE(fs::exists(free_out + ".lock"));
    {
        const FolderLock lock(dir + "/run2");
        CHECK(fs::exists(dir + "/run2/.lock"));
    }
    CHECK_FALSE(fs::exists(dir + "/run2/.lock"));
}
