// One meaning per option name (issue 63), read from the app itself (tools/app.h: every command
// and subcommand as main builds them): a long option name that several commands declare is, in
// every one of them, a flag or takes a value, of one CLI11 type, with one declared path role
// (tools/paths.h; three names listed below are one file written by one command and read by the
// others) and one help text (but for the names listed below, each with its reason).

#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "tools/app.h"
#include "tools/paths.h"

using namespace fanorona::cli;

namespace {

// What one command's option of a name is.
struct Meaning {
    std::string command; // "tables build"
    bool flag = false;   // takes no value
    // Declared role; undeclared is not a path (tests/test_paths.cpp holds every option that looks
    // like one to a declared role).
    PathRole role = PathRole::NotAPath;
    std::string type; // CLI11's type name before its checks' descriptions: UINT, FLOAT, TEXT
    std::string help;
};

// Every long option name ("--json") with what it is in each command that declares it.
using Meanings = std::map<std::string, std::vector<Meaning>>;

// The options of `app` and of its option groups (nameless subcommands).
void collect_options(CLI::App& app, std::vector<CLI::Option*>& out) {
    for (CLI::Option* o : app.get_options()) out.push_back(o);
    for (CLI::App* sub : app.get_subcommands({}))
        if (sub->get_name().empty()) collect_options(*sub, out);
}

// The meanings of every option of `app` (called `path`) and of its subcommands, under and over.
void walk(CLI::App& app, const std::string& path, Meanings& out) {
    std::vector<CLI::Option*> options;
    collect_options(app, options);
    for (const CLI::Option* o : options) {
        Meaning m;
        m.command = path;
        m.flag = o->get_expected_max() == 0;
        m.role = path_role(o).value_or(PathRole::NotAPath);
        const std::string type = o->get_type_name();
        m.type = type.substr(0, type.find(':'));
        m.help = o->get_description();
        for (const std::string& name : o->get_lnames())
            if (name != "help") out["--" + name].push_back(m);
    }
    for (CLI::App* sub : app.get_subcommands({}))
        if (!sub->get_name().empty())
            walk(*sub, path.empty() ? sub->get_name() : path + " " + sub->get_name(), out);
}

Meanings meanings_of(CLI::App& app) {
    Meanings out;
    walk(app, "", out);
    return out;
}

// A name whose options differ in one aspect for a reason.
struct Exception {
    const char* name;
    const char* reason;
};

// Path roles that differ under one name: the same file or folder, written by one command and
// read by the others.
constexpr Exception kRoleExceptions[] = {
    {"--out", "what a command writes: a run folder, or the one file it makes (report's page, "
              "train's network, rescore's and corpus convert's corpus, net random's network)"},
    {"--tables", "the tables folder: tables build writes it, every other command reads it"},
    {"--log", "the engine log: the runs and the engine write it, report reads it"},
};

// Why a help text says more, or other things, in one command than in another.
constexpr const char* kOwnWork = "a count or limit of the command's own unit of work (a move, a "
                                 "position, a solve, a sample, a chunk, a tree)";
constexpr const char* kOwnFiles = "says what the command's own files, run or players hold";
constexpr const char* kTrainers = "tune fits the linear weights, train and loop --net a network: "
                                  "units, defaults and the optimiser differ";
constexpr const char* kLoopStep = "the loop passes it on to its tune or spsa step (whose help "
                                  "says the rest)";

// The shared names whose help differs by command (each help says what the option does there),
// with how many help texts each has: a ratchet. A name not listed has one help text in every
// command, and a listed name has exactly its count (a new text under the name, as a command's own
// --batch of game pairs beside the trainers' mini-batches, fails; unify one, and its count drops).
struct HelpException {
    const char* name;
    std::size_t texts; // distinct help texts
    const char* reason;
};
constexpr HelpException kHelpExceptions[] = {
    {"--all", 2, "every item of the command: features printed (eval), positions scored (rescore)"},
    {"--batch", 2, kTrainers},
    {"--depth", 5,
     "the engine's depth per move, or a check's own fixed depth (perft, bench, "
     "openings, tables grade)"},
    {"--game-rules", 2, "what is filtered: the games (openings) or their positions (tune)"},
    {"--games", 4, kOwnWork},
    {"--hash", 2, "an engine's table, or a solver's tables and trees: MB either way"},
    {"--json", 7, "what the JSON printed holds"},
    {"--json-out", 4, kOwnFiles},
    {"--k", 2, kTrainers},
    {"--l2", 2, kLoopStep},
    {"--log", 3, kOwnFiles},
    {"--lr", 2, kTrainers},
    {"--lr-decay", 2, kTrainers},
    {"--max-games", 2, kOwnWork},
    {"--max-nodes", 2, kOwnWork},
    {"--max-seconds", 2, kOwnWork},
    {"--min-games", 2, kOwnWork},
    {"--movetime", 2, kOwnWork},
    {"--net", 4,
     "what the command does with the network: plays, measures, trains from or prints it"},
    {"--nodes", 2, kOwnWork},
    {"--optimizer", 2, kLoopStep},
    {"--out", 9, kOwnFiles},
    {"--patterns", 2, kLoopStep},
    {"--player", 3, kOwnFiles},
    {"--proof", 2, "solve keeps a proof with two of its methods, frontier with its one"},
    {"--quiet", 6, "what is left when quiet"},
    {"--relabel-tables", 2, kTrainers},
    {"--resume", 4, kOwnFiles},
    {"--samples", 2, kOwnWork},
    {"--seed", 7, "what the seed draws"},
    {"--sprt", 3, "what the SPRT decides: a match, a loop's verification, or counts given"},
    {"--spsa-param", 2, kLoopStep},
    {"--table-positions", 2, kTrainers},
    {"--tables", 4,
     "the tables a search probes, or the folder a tables subcommand reads or builds"},
    {"--turns", 2, kOwnWork},
    {"--variant", 3, "tables build leaves out telo; net random names the board a network plays"},
    {"--verify-games", 2, kLoopStep},
    {"--weights", 3, "the weights a search plays, or the start weights a tuning fits from"},
};

// Whether `name` is in `table` (kRoleExceptions or kHelpExceptions).
template <class Table> bool listed(const Table& table, const std::string& name) {
    for (const auto& e : table)
        if (name == e.name) return true;
    return false;
}

// One line per name and aspect on which its commands disagree, each value with its commands:
// "--json: flag yes in 'bench', 'eval'; no in 'solve'".
std::vector<std::string> disagreements(const Meanings& meanings) {
    std::vector<std::string> out;
    for (const auto& [name, all] : meanings) {
        const auto aspect = [&out, &name = name, &all = all](const char* what, auto value_of) {
            std::map<std::string, std::string> commands; // value -> its commands
            for (const Meaning& m : all) {
                std::string& c = commands[value_of(m)];
                c += (c.empty() ? "'" : ", '") + m.command + "'";
            }
            if (commands.size() < 2) return;
            std::string line = name + ": " + what;
            for (const auto& [value, where] : commands) line += "; " + value + " in " + where;
            out.push_back(line);
        };
        aspect("flag", [](const Meaning& m) { return std::string(m.flag ? "yes" : "no"); });
        if (!listed(kRoleExceptions, name))
            aspect("path role",
                   [](const Meaning& m) { return std::string(path_role_name(m.role)); });
        aspect("type", [](const Meaning& m) { return m.type.empty() ? "(none)" : m.type; });
        if (!listed(kHelpExceptions, name))
            aspect("help", [](const Meaning& m) { return "'" + m.help + "'"; });
    }
    return out;
}

} // namespace

TEST_CASE("no option name means two things across commands", "[cli][options][paths]") {
    const auto app = make_app();
    const Meanings meanings = meanings_of(*app);

    // The walk reached the commands and the tables subcommands (a vacuous pass is no pass).
    REQUIRE(meanings.count("--tables"));
    std::set<std::string> commands;
    for (const auto& [name, all] : meanings)
        for (const Meaning& m : all) commands.insert(m.command);
    CHECK(commands.size() >= 30);
    CHECK(commands.count("tables build"));
    CHECK(commands.count("net loss"));
    CHECK(meanings.at("--quiet").front().flag);
    CHECK_FALSE(meanings.at("--games").front().flag);
    std::size_t shared = 0;
    for (const auto& [name, all] : meanings) shared += all.size() > 1;
    CHECK(shared >= 40);
    const std::vector<std::string> found = disagreements(meanings);
    for (const std::string& d : found) UNSCOPED_INFO(d);
    CHECK(found.empty());
    // Each exception is one still: its name is shared and its options do differ.
    const auto distinct = [&meanings](const char* name, auto value_of) {
        std::set<std::string> values;
        for (const Meaning& m : meanings.at(name)) values.insert(value_of(m));
        return values.size();
    };
    for (const Exception& e : kRoleExceptions) {
        INFO(e.name);
        REQUIRE(meanings.count(e.name));
        CHECK(distinct(e.name, [](const Meaning& m) { return path_role_name(m.role); }) > 1);
    }
    for (const HelpException& e : kHelpExceptions) {
        INFO(e.name);
        REQUIRE(meanings.count(e.name));
        CHECK(distinct(e.name, [](const Meaning& m) { return m.help; }) == e.texts);
    }
}

TEST_CASE("the option meaning check finds a name with two meanings", "[cli][options][paths]") {
    // --print a flag in one command and a file in another; --count a number and a text;
    // --record a log and an input file; --label with two help texts.
    CLI::App app;
    bool flag = false;
    int count = 0;
    std::string file, record, label, text;
    CLI::App* a = app.add_subcommand("a");
    a->add_flag("--print", flag, "Print JSON");
    a->add_option("--count", count, "How many");
    declare_path(a->add_option("--record", record, "Record"), PathRole::Log);
    a->add_option("--label", label, "Its name");
    CLI::App* b = app.add_subcommand("b");
    CLI::App* group = b->add_option_group("files"); // an option group's options are the command's
    declare_path(group->add_option("--print", file, "JSON file"), PathRole::OutputFile);
    b->add_option("--count", text, "How many");
    declare_path(b->add_option("--record", record, "Record"), PathRole::InputFile);
    b->add_option("--label", label, "The name");
    b->add_option("--same", label, "One meaning");
    a->add_option("--same", label, "One meaning");
    const std::vector<std::string> found = disagreements(meanings_of(app));
    CHECK(found ==
          std::vector<std::string>{"--count: type; INT in 'a'; TEXT in 'b'",
                                   "--label: help; 'Its name' in 'a'; 'The name' in 'b'",
                                   "--print: flag; no in 'b'; yes in 'a'",
                                   "--print: path role; not a path in 'a'; output file in 'b'",
                                   "--print: type; (none) in 'a'; TEXT in 'b'",
                                   "--print: help; 'JSON file' in 'b'; 'Print JSON' in 'a'",
                                   "--record: path role; input file in 'b'; log in 'a'"});
}
