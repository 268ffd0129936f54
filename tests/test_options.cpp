// One meaning per option name (issue 32): over every subcommand's --help, each option name is a
// flag everywhere or takes a value everywhere; renamed options keep their old spellings, hidden
// from --help, working as before with a one-line note on stderr; the loop declares the run
// options it shares with selfplay with the same code and defaults.

#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli_helpers.h"

using namespace test_cli;

namespace {

// One option line of a --help text: its names ("--json", or "-h" and "--help") and whether a
// value follows them ("--games UINT=100") or not ("--resume   Continue ...").
struct HelpOption {
    std::vector<std::string> names;
    bool takes_value = false;
};

// The options and the subcommands listed in one --help text (CLI11's layout: option lines start
// with two spaces and '-', subcommands are listed under "Subcommands:").
struct HelpPage {
    std::vector<HelpOption> options;
    std::vector<std::string> subcommands;
};

HelpPage parse_help(const std::string& text) {
    HelpPage page;
    std::istringstream in(text);
    std::string line;
    bool in_subcommands = false;
    while (std::getline(in, line)) {
        if (!line.empty() && line[0] != ' ') in_subcommands = line == "Subcommands:";
        if (line.rfind("  ", 0) != 0 || line.size() < 3 || line[2] == ' ') continue;
        const std::string body = line.substr(2);
        const std::string first = body.substr(0, body.find(' '));
        if (in_subcommands) {
            page.subcommands.push_back(first);
            continue;
        }
        if (first[0] != '-') continue; // a positional
        HelpOption o;
        std::stringstream names(first);
        for (std::string name; std::getline(names, name, ',');) o.names.push_back(name);
        // "--games UINT..." (one space, then the type) takes a value; a flag's description
        // starts after a run of spaces, or on the next line.
        o.takes_value = body.size() > first.size() + 1 && body[first.size()] == ' ' &&
                        body[first.size() + 1] != ' ';
        page.options.push_back(o);
    }
    return page;
}

// Every long option of every (sub)command: name -> command path -> takes a value.
using OptionKinds = std::map<std::string, std::map<std::string, bool>>;

void collect(const std::string& path, OptionKinds& kinds, int& pages) {
    const Run r = run_cli(path + " --help");
    REQUIRE(r.status == 0);
    ++pages;
    const HelpPage page = parse_help(r.output);
    for (const HelpOption& o : page.options)
        for (const std::string& n : o.names)
            if (n.rfind("--", 0) == 0) kinds[n][path.empty() ? "fanorona" : path] = o.takes_value;
    for (const std::string& sub : page.subcommands)
        collect(path.empty() ? sub : path + " " + sub, kinds, pages);
}

OptionKinds all_options(int& pages) {
    OptionKinds kinds;
    pages = 0;
    collect("", kinds, pages);
    return kinds;
}

// stderr alone of `fanorona ARGS` (stdout discarded).
std::string stderr_of(const std::string& args, int* status = nullptr) {
    const Run r = run_shell("(" + std::string(FANORONA_BINARY) + " " + args + " 2>&1 >/dev/null)");
    if (status) *status = r.status;
    return r.output;
}

// stdout alone of `fanorona ARGS` (stderr discarded).
std::string stdout_of(const std::string& args) {
    return run_shell("(" + std::string(FANORONA_BINARY) + " " + args + " 2>/dev/null)").output;
}

// The lines of a file that are not comments.
std::string data_lines(const std::string& path) {
    std::istringstream in(slurp_run_file(path));
    std::string out, line;
    while (std::getline(in, line))
        if (!line.empty() && line[0] != '#') out += line + "\n";
    return out;
}

// The help line of `option` in `help` (with its wrapped description line, if any).
std::string help_entry(const std::string& help, const std::string& option) {
    std::istringstream in(help);
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("  " + option + " ", 0) != 0 && line != "  " + option) continue;
        std::string next;
        if (line.find("  ", option.size() + 3) == std::string::npos && std::getline(in, next))
            line += "\n" + next;
        return line;
    }
    return "";
}

} // namespace

TEST_CASE("help parsing tells flags from options with values", "[options][cli]") {
    const HelpPage p = parse_help("Options:\n"
                                  "  -h,--help                   Print this help\n"
                                  "  --games UINT=100            Number\n"
                                  "  --variant TEXT:VARIANT=tsivy\n"
                                  "                              Board\n"
                                  "  --resume                    Continue\n"
                                  "  --a-very-long-flag-name-that-wraps\n"
                                  "                              Text\n"
                                  "Subcommands:\n"
                                  "  perft                       Count\n");
    REQUIRE(p.options.size() == 5);
    CHECK(p.options[0].names == std::vector<std::string>{"-h", "--help"});
    CHECK_FALSE(p.options[0].takes_value);
    CHECK(p.options[1].takes_value);
    CHECK(p.options[2].takes_value);
    CHECK_FALSE(p.options[3].takes_value);
    CHECK_FALSE(p.options[4].takes_value);
    CHECK(p.subcommands == std::vector<std::string>{"perft"});
}

TEST_CASE("every option name is a flag in every command or takes a value in every command",
          "[options][cli]") {
    int pages = 0;
    const OptionKinds kinds = all_options(pages);
    // The walk reached every command and the tables subcommands (a vacuous pass is no pass).
    CHECK(pages >= 24);
    REQUIRE(kinds.count("--json"));
    CHECK(kinds.at("--json").size() >= 9);
    CHECK(kinds.at("--json").count("tables grade"));
    REQUIRE(kinds.count("--games"));
    CHECK(kinds.at("--games").count("loop"));
    for (const auto& [name, commands] : kinds) {
        std::string flags, values;
        for (const auto& [command, takes_value] : commands)
            (takes_value ? values : flags) += " '" + command + "'";
        INFO(name << " is a flag in" << flags << " and takes a value in" << values);
        CHECK((flags.empty() || values.empty()));
    }
    // The meanings the names settled on.
    for (const auto& [command, takes_value] : kinds.at("--json")) CHECK_FALSE(takes_value);
    // solve, frontier, timeuse, check-engine, rescore, net loss
    CHECK(kinds.at("--json-out").size() == 6);
    CHECK(kinds.at("--games").count("openings") == 0);
    CHECK(kinds.at("--game-rules").size() == 2); // tune, openings
    CHECK(kinds.at("--spsa-param").size() == 2); // spsa, loop
    CHECK(kinds.at("--param").count("spsa"));    // NAME=VALUE, as in every engine command
    for (const char* gone : {"--plies", "--kind", "--spsa-batch"}) CHECK(kinds.count(gone) == 0);
    // --tables: the tables folder read, or built; train and tune relabel with --relabel-tables.
    CHECK(kinds.at("--tables").count("tables build"));
    CHECK(kinds.at("--tables").count("train") + kinds.at("--tables").count("tune") == 0);
    CHECK(kinds.at("--relabel-tables").size() == 2);
}

TEST_CASE("solve --json FILE and timeuse --json FILE still write JSON, with a note",
          "[options][cli]") {
    const std::string dir = fresh_dir("options_json");
    std::filesystem::create_directories(dir);
    const std::string solve = "solve --variant 3x3 --fen 'W1B/3/3 w' --quiet --json";
    int status = -1;
    CHECK(stderr_of(solve + "-out " + dir + "/new.json", &status).empty());
    CHECK(status == 0);
    const std::string note = stderr_of(solve + " " + dir + "/old.json", &status);
    CHECK(status == 0);
    CHECK(note == "fanorona: note: --json is now --json-out FILE (--json is a flag, JSON on "
                  "stdout)\n");
    REQUIRE(slurp(dir + "/old.json").size() > 10);
    // The same result apart from the timings.
    const auto a = nlohmann::json::parse(slurp(dir + "/new.json"));
    const auto b = nlohmann::json::parse(slurp(dir + "/old.json"));
    CHECK(a["value"] == b["value"]);
    CHECK(a["line"] == b["line"]);

    const std::string timeuse = "timeuse --movetimes 1 --repeat 1 --position "
                                "'3BBBBBB/2WBBBBBB/B2W1BWBW/2W1WWWWW/1W1W1WWWW b 0 8' --json";
    CHECK(stderr_of(timeuse + "-out " + dir + "/t1.json", &status).empty());
    CHECK(status == 0);
    CHECK_THAT(stderr_of(timeuse + " " + dir + "/t2.json", &status),
               Catch::Equals("fanorona: note: --json is now --json-out FILE (--json is a flag, "
                             "JSON on stdout)\n"));
    CHECK(status == 0);
    CHECK(nlohmann::json::parse(slurp(dir + "/t2.json"))["rows"].size() == 1);
}

TEST_CASE("openings: games files as positionals, --game-rules, --turns, the old spellings work "
          "with a note",
          "[options][cli][openings]") {
    const std::string dir = fresh_dir("options_openings");
    // A Vela series run (normal and Vela games) and a plain run.
    REQUIRE(run_cli("selfplay --games 12 --series vela --depth 1 --threads 2 --quiet --out " + dir +
                    "/series")
                .status == 0);
    REQUIRE(run_cli("selfplay --games 4 --depth 1 --threads 2 --quiet --out " + dir + "/plain")
                .status == 0);
    const std::string series = dir + "/series/games.tsv", plain = dir + "/plain/games.tsv";

    const Run vela = run_cli("openings " + series + " --game-rules vela --turns 2");
    REQUIRE(vela.status == 0);
    CHECK_THAT(vela.output, Catch::Contains("vela rules"));
    const Run normal = run_cli("openings " + series + " --turns 2");
    REQUIRE(normal.status == 0);
    CHECK_THAT(normal.output, Catch::Contains("standard rules"));
    CHECK(run_cli("openings " + series + " --game-rules standard --turns 2").output ==
          normal.output);

    // The old spellings: the same tree on stdout, one note each on stderr.
    CHECK(stdout_of("openings --games " + series + " --kind vela --plies 2") == vela.output);
    int status = -1;
    const std::string notes =
        stderr_of("openings --games " + series + " --kind vela --plies 2", &status);
    CHECK(status == 0);
    CHECK(notes == "fanorona: note: --games is now the games files without a name (--games is a "
                   "count in every command)\n"
                   "fanorona: note: --kind is now --game-rules (vela; the normal games: no "
                   "option)\n"
                   "fanorona: note: --plies is now --turns\n");
    CHECK(stdout_of("openings --games " + series + " --kind normal --turns 2") == normal.output);
    CHECK(stderr_of("openings " + series + " --game-rules vela --turns 2").empty());

    // Errors name the option (CLI11 leaves hidden options unnamed) and the file.
    Run bad = run_cli("openings " + series + " --plies 999");
    CHECK(bad.status == 1);
    CHECK_THAT(bad.output, Catch::Contains("fanorona: --plies: Value 999 not in range"));
    bad = run_cli("openings " + series + " --kind both");
    CHECK(bad.status == 1);
    CHECK_THAT(bad.output, Catch::Contains("fanorona: --kind: both not in {normal,vela}"));
    bad = run_cli("openings " + plain + " --game-rules vela");
    CHECK(bad.status == 1);
    CHECK_THAT(bad.output, Catch::Contains(plain + ":1: header: rules=standard: no games played "
                                                   "under vela rules"));
}

TEST_CASE("spsa: --spsa-param tunes, --param sets a fixed NAME=VALUE, the old --param NAME,... "
          "works with a note",
          "[options][cli][spsa]") {
    const std::string dir = fresh_dir("options_spsa");
    const std::string run = "spsa --games 4 --iteration-pairs 1 --depth 1 --threads 2 --quiet "
                            "--verify-games 0 --param AspWindow=40 ";
    int status = -1;
    CHECK(stderr_of(run + "--spsa-param LmrBase,,,,20 --out " + dir + "/new", &status).empty());
    REQUIRE(status == 0);
    CHECK(stderr_of(run + "--param LmrBase,,,,20 --out " + dir + "/old", &status) ==
          "fanorona: note: --param NAME[,...] in spsa is now --spsa-param (--param is "
          "NAME=VALUE, a fixed value, in every command)\n");
    REQUIRE(status == 0);
    for (const char* f : {"games.tsv", "spsa.csv", "params.txt", "settings.json"})
        CHECK(data_lines(dir + "/new/" + f) == data_lines(dir + "/old/" + f));
    CHECK_THAT(slurp(dir + "/new/settings.json"), Catch::Contains("AspWindow=40"));
    const Run none = run_cli("spsa --param AspWindow=40 --games 4 --out " + dir + "/none");
    CHECK(none.status == 1);
    CHECK_THAT(none.output, Catch::Contains("--spsa-param: give at least one value to tune"));
}

TEST_CASE("renamed options: the old spelling still works and names its replacement",
          "[options][cli]") {
    struct Renamed {
        const char* command;
        const char* now;
        const char* old;
    };
    const Renamed renamed[] = {{"spsa", "--iteration-pairs", "--batch"},
                               {"loop", "--spsa-iteration-pairs", "--spsa-batch"},
                               {"timeuse", "--movetimes", "--movetime"},
                               {"report", "--opening-stats", "--openings"},
                               {"tables build", "--tables", "--out"},
                               {"train", "--relabel-tables", "--tables"},
                               {"tune", "--relabel-tables", "--tables"},
                               {"tournament", "--log-positions", "--positions"},
                               {"frontier", "--solve-turns", "--tree-depth"}};
    for (const Renamed& r : renamed) {
        INFO(r.command << ": " << r.now << ", once " << r.old);
        const Run help = run_cli(std::string(r.command) + " --help");
        REQUIRE(help.status == 0);
        CHECK_FALSE(help_entry(help.output, r.now).empty());
        CHECK(help_entry(help.output, r.old).empty());
    }

    const std::string dir = fresh_dir("options_renamed");
    std::filesystem::create_directories(dir);
    int status = -1;
    // tables build --out DIR: the tables folder, though --tables (required) is not given.
    CHECK(stderr_of("tables build --variant 3x3 --pieces 2 --quiet --out " + dir + "/tb",
                    &status) == "fanorona: note: --out is now --tables (the tables folder, as in "
                                "every tables subcommand)\n");
    CHECK(status == 0);
    CHECK(std::filesystem::exists(dir + "/tb/3x3-1v1.fntb"));
    const Run none = run_cli("tables build --variant 3x3 --pieces 2 --quiet");
    CHECK(none.status == 1);
    CHECK_THAT(none.output, Catch::Contains("--tables is required"));

    // timeuse --movetime: still a comma-separated list.
    const std::string timeuse = "timeuse --repeat 1 --position "
                                "'3BBBBBB/2WBBBBBB/B2W1BWBW/2W1WWWWW/1W1W1WWWW b 0 8' --json-out " +
                                dir;
    CHECK(stderr_of(timeuse + "/new.json --movetimes 1,2", &status).empty());
    CHECK(status == 0);
    CHECK(stderr_of(timeuse + "/old.json --movetime 1,2", &status) ==
          "fanorona: note: --movetime is now --movetimes (--movetime is one limit in every other "
          "command)\n");
    CHECK(status == 0);
    const auto rows = nlohmann::json::parse(slurp(dir + "/old.json"))["rows"];
    REQUIRE(rows.size() == 2);
    CHECK(rows[1]["movetime_ms"] == 2);

    // frontier --tree-depth N: the same positions solved.
    const std::string frontier =
        "frontier --variant 3x3 --table-pieces 0 --max-nodes 100000 --threads 1 --quiet ";
    const std::string solved = stdout_of(frontier + "--solve-turns 1");
    CHECK_THAT(solved, Catch::StartsWith("frontier: tree1="));
    CHECK(stdout_of(frontier + "--tree-depth 1") == solved);
    CHECK(stderr_of(frontier + "--tree-depth 1", &status) ==
          "fanorona: note: --tree-depth is now --solve-turns (report's --tree-depth is the turns "
          "shown)\n");
    CHECK(status == 0);

    // tournament --positions (a flag): the positions log, one note.
    CHECK(stderr_of("tournament --games 2 --threads 1 --quiet --player name=a,depth=1 --player "
                    "name=r,builtin=random --positions --out " +
                        dir + "/t",
                    &status) == "fanorona: note: --positions is now --log-positions\n");
    CHECK(status == 0);
    CHECK(slurp(dir + "/t/positions.bin").size() > 16);

    // The others, each refused after its options are read: the note comes first.
    const std::string others[][2] = {
        {"spsa --batch 2 --games 4 --out " + dir + "/spsa", "--batch is now --iteration-pairs"},
        {"loop --spsa-batch 2 --sprt bad --out " + dir + "/loop",
         "--spsa-batch is now --spsa-iteration-pairs"},
        {"report --out " + dir + "/r.html --openings " + dir + "/none",
         "--openings is now --opening-stats"},
        {"train " + dir + "/none.bin --out " + dir + "/n.net --tables " + dir + "/none",
         "--tables is now --relabel-tables"},
        {"tune --data " + dir + "/none.bin --out " + dir + "/tune --tables " + dir + "/none",
         "--tables is now --relabel-tables"}};
    for (const auto& [args, note] : others) {
        INFO(args);
        CHECK_THAT(stderr_of(args, &status), Catch::StartsWith("fanorona: note: " + note));
        CHECK(status == 1);
    }
}

TEST_CASE("the loop declares the run options it shares with selfplay with the same code and "
          "defaults",
          "[options][cli][loop]") {
    const std::string loop = run_cli("loop --help").output;
    const std::string selfplay = run_cli("selfplay --help").output;
    for (const char* option :
         {"--openings", "--seed", "--threads", "--epsilon", "--explore-turns", "--quiet"}) {
        INFO(option);
        const std::string entry = help_entry(loop, option);
        CHECK_FALSE(entry.empty());
        CHECK(entry == help_entry(selfplay, option));
    }
    CHECK_THAT(help_entry(loop, "--openings"), Catch::Contains("=random:6"));
    CHECK_THAT(help_entry(selfplay, "--epsilon"), Catch::Contains("=0.1"));

    // Its balanced match openings are `openings --by-search` with that command's defaults and the
    // hand-set weights (the suite of the loops before the tuned engine became the default).
    const std::string dir = fresh_dir("options_loop");
    REQUIRE(run_cli("loop --variant dimy --iterations 1 --games 2 --verify-games 2 "
                    "--final-games 2 --depth 1 --threads 2 --quiet --out " +
                    dir + "/loop")
                .status == 0);
    REQUIRE(run_cli("openings --by-search --weights handset --variant dimy --threads 2 --book " +
                    dir + "/book.txt")
                .status == 0);
    const std::string suite = data_lines(dir + "/loop/openings.txt");
    CHECK(suite.size() > 100);
    CHECK(suite == data_lines(dir + "/book.txt"));
}

TEST_CASE("counts, budgets and seeds refuse negative and too large values", "[options][cli]") {
    // The C library would wrap -1 to 2^64-1 (no budget, all positions) and clamp larger seeds.
    for (const std::string& args :
         {std::string("selfplay --seed -1 --games 2"), std::string("solve --max-nodes -1"),
          std::string("frontier --solve-turns 1 --max-nodes -5"),
          std::string("train x.bin --max-positions -1"), std::string("dump x.bin --limit -1"),
          std::string("selfplay --seed 18446744073709551616 --games 2")}) {
        INFO(args);
        const auto r = test_cli::run_cli(args + " --out /nonexistent/never");
        CHECK(r.status == 1);
        CHECK_THAT(r.output,
                   Catch::Contains("is not a whole number from 0 to 18446744073709551615"));
    }
    CHECK(test_cli::run_cli("selfplay --help").output.find("--seed UINT=1") != std::string::npos);
}

TEST_CASE("real-number options refuse nan, inf and values past a double", "[options][cli]") {
    // Every FLOAT option gets the check from main (refuse_non_finite): nan passes a range check
    // (every comparison with it is false) and inf or 1e400 pass a positivity check.
    for (const std::string& args :
         {std::string("net loss x.bin --net x.fnet --lambda nan"),
          std::string("train x.bin --lr-decay nan"), std::string("train x.bin --lr inf"),
          std::string("train x.bin --lr 1e400"), std::string("tune x.txt --lr nan"),
          std::string("train x.bin --lambda NaN")}) {
        INFO(args);
        const auto r = test_cli::run_cli(args);
        CHECK(r.status == 1);
        CHECK_THAT(r.output, Catch::Contains("is not a finite number"));
    }
    const auto k = test_cli::run_cli("train x.bin --k inf --out /nonexistent/never");
    CHECK(k.status == 1);
    CHECK_THAT(k.output, Catch::Contains("--k: expected auto or a positive number, found 'inf'"));
    // A finite value with a sign or an exponent still reads.
    const auto ok = test_cli::run_cli("train /nonexistent/x.bin --lr +1e-3 --out /nonexistent/o");
    CHECK_THAT(ok.output, !Catch::Contains("is not a finite number"));
}
