// One meaning per option name (issues 32 and 63): over every subcommand's --help, each option
// name is a flag everywhere or takes a value everywhere; renamed options have one spelling, the
// old ones unknown options; the loop declares the run options it shares with selfplay with the
// same code and defaults.

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

TEST_CASE("solve, frontier and timeuse write JSON to --json-out FILE and refuse --json FILE",
          "[options][cli][solve][frontier][timeuse]") {
    const std::string dir = fresh_dir("options_json");
    std::filesystem::create_directories(dir);
    const std::string commands[] = {
        "solve --variant 3x3 --fen 'W1B/3/3 w' --quiet",
        "frontier --variant 3x3 --table-pieces 0 --max-nodes 100000 --threads 1 --solve-turns 1 "
        "--quiet",
        "timeuse --movetimes 1 --repeat 1 --position "
        "'3BBBBBB/2WBBBBBB/B2W1BWBW/2W1WWWWW/1W1W1WWWW b 0 8'"};
    int n = 0;
    for (const std::string& command : commands) {
        INFO(command);
        const std::string file = dir + "/" + std::to_string(++n);
        int status = -1;
        CHECK(stderr_of(command + " --json-out " + file + ".json", &status).empty());
        CHECK(status == 0);
        CHECK(nlohmann::json::parse(slurp(file + ".json")).is_object());
        // The old spelling: an unknown option, nothing written.
        const Run old = run_cli(command + " --json " + file + "-old.json");
        CHECK(old.status == 1);
        CHECK_THAT(old.output, Catch::StartsWith("fanorona: The following argument") &&
                                   Catch::Contains(" not expected: ") && Catch::Contains("--json"));
        CHECK_FALSE(std::filesystem::exists(file + "-old.json"));
    }
}

TEST_CASE("openings: games files as positionals, --game-rules, --turns, the old spellings refused",
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

    // The old spellings are unknown options, named whatever else they lead to ("vela" and "2"
    // then read as games files).
    const std::string old[][2] = {{"openings --games " + series + " --turns 2", "--games"},
                                  {"openings " + series + " --kind vela --turns 2", "--kind"},
                                  {"openings " + series + " --plies 2", "--plies"}};
    for (const auto& [args, option] : old) {
        INFO(args);
        const Run bad = run_cli(args);
        CHECK(bad.status == 1);
        CHECK_THAT(bad.output, Catch::StartsWith("fanorona: The following argument") &&
                                   Catch::Contains(" not expected: ") && Catch::Contains(option));
    }
    CHECK(stderr_of("openings " + series + " --game-rules vela --turns 2").empty());

    // Errors name the option and the file.
    Run bad = run_cli("openings " + series + " --turns 999");
    CHECK(bad.status == 1);
    CHECK_THAT(bad.output, Catch::Contains("fanorona: --turns: Value 999 not in range"));
    bad = run_cli("openings " + plain + " --game-rules vela");
    CHECK(bad.status == 1);
    CHECK_THAT(bad.output, Catch::Contains(plain + ":1: header: rules=standard: no games played "
                                                   "under vela rules"));
}

TEST_CASE("spsa: --spsa-param tunes, --param sets a fixed NAME=VALUE, --param NAME,... is refused",
          "[options][cli][spsa]") {
    const std::string dir = fresh_dir("options_spsa");
    const std::string run = "spsa --games 4 --iteration-pairs 1 --depth 1 --threads 2 --quiet "
                            "--verify-games 0 --param AspWindow=40 ";
    int status = -1;
    CHECK(stderr_of(run + "--spsa-param LmrBase,,,,20 --out " + dir + "/new", &status).empty());
    REQUIRE(status == 0);
    CHECK_THAT(slurp(dir + "/new/settings.json"), Catch::Contains("AspWindow=40"));
    CHECK(data_lines(dir + "/new/params.txt").find("LmrBase ") != std::string::npos);
    // --param NAME,... (once --spsa-param's spelling here): NAME=VALUE only, as in every command.
    const Run old = run_cli(run + "--param LmrBase,,,,20 --out " + dir + "/old");
    CHECK(old.status == 1);
    CHECK_THAT(old.output, Catch::Contains("--param: expected NAME=VALUE, found 'LmrBase,,,,20'"));
    CHECK_FALSE(std::filesystem::exists(dir + "/old/games.tsv"));
    const Run none = run_cli("spsa --param AspWindow=40 --games 4 --out " + dir + "/none");
    CHECK(none.status == 1);
    CHECK_THAT(none.output, Catch::Contains("--spsa-param: give at least one value to tune"));
}

TEST_CASE("renamed options: the old spelling is an unknown option, the new one works",
          "[options][cli]") {
    // Each old spelling in a command line that is otherwise good: CLI11's error naming it.
    const std::string dir = fresh_dir("options_renamed");
    std::filesystem::create_directories(dir);
    const std::string position = " --position '3BBBBBB/2WBBBBBB/B2W1BWBW/2W1WWWWW/1W1W1WWWW b 0 8'";
    const std::string frontier =
        "frontier --variant 3x3 --table-pieces 0 --max-nodes 100000 --threads 1 --quiet ";
    const std::string tournament = "tournament --games 2 --threads 1 --quiet --player "
                                   "name=a,depth=1 --player name=r,builtin=random --out " +
                                   dir;
    struct Renamed {
        std::string now, old; // the same command line with the new and the old spelling
        std::string option;   // the old spelling
    };
    const Renamed renamed[] = {
        {"spsa --games 4 --iteration-pairs 2 --depth 1 --spsa-param LmrBase --verify-games 0 "
         "--quiet --out " +
             dir + "/spsa",
         "spsa --games 4 --batch 2 --depth 1 --spsa-param LmrBase --verify-games 0 --quiet --out " +
             dir + "/spsa-old",
         "--batch"},
        // (the loop's new spelling runs in test_loop.cpp; here --sprt bad stops it once read)
        {"loop --spsa-iteration-pairs 2 --sprt bad --out " + dir + "/loop",
         "loop --spsa-batch 2 --sprt bad --out " + dir + "/loop-old", "--spsa-batch"},
        {"timeuse --repeat 1 --movetimes 1,2 --json-out " + dir + "/tu.json" + position,
         "timeuse --repeat 1 --movetime 1,2" + position, "--movetime"},
        {"tables build --variant 3x3 --pieces 2 --quiet --tables " + dir + "/tb",
         "tables build --variant 3x3 --pieces 2 --quiet --out " + dir + "/tb-old", "--out"},
        {tournament + "/t --log-positions", tournament + "/t-old --positions", "--positions"},
        {frontier + "--solve-turns 1", frontier + "--tree-depth 1", "--tree-depth"},
        {"report --out " + dir + "/r.html --opening-stats " + dir + "/none",
         "report --out " + dir + "/r-old.html --openings " + dir + "/none", "--openings"},
        {"train " + dir + "/none.bin --out " + dir + "/n.net --relabel-tables " + dir + "/none",
         "train " + dir + "/none.bin --out " + dir + "/n-old.net --tables " + dir + "/none",
         "--tables"},
        {"tune --data " + dir + "/none.bin --out " + dir + "/tune --relabel-tables " + dir +
             "/none",
         "tune --data " + dir + "/none.bin --out " + dir + "/tune-old --tables " + dir + "/none",
         "--tables"}};
    for (const Renamed& r : renamed) {
        INFO(r.old);
        const Run old = run_cli(r.old);
        CHECK(old.status == 1);
        CHECK_THAT(old.output, Catch::StartsWith("fanorona: The following argument") &&
                                   Catch::Contains(" not expected: ") && Catch::Contains(r.option));
        // The new spelling: read as an option (the runs that need missing inputs fail on them).
        INFO(r.now);
        const Run now = run_cli(r.now);
        CHECK_THAT(now.output, !Catch::Contains("not expected"));
    }
    // Those whose new spelling runs to the end did what the old one once did.
    CHECK(std::filesystem::exists(dir + "/tb/3x3-1v1.fntb"));
    CHECK(slurp(dir + "/t/positions.bin").size() > 16);
    CHECK(nlohmann::json::parse(slurp(dir + "/spsa/spsa.json"))["batch"] == 2);
    const auto rows = nlohmann::json::parse(slurp(dir + "/tu.json"))["rows"];
    REQUIRE(rows.size() == 2);
    CHECK(rows[1]["movetime_ms"] == 2);
    CHECK_THAT(run_cli(renamed[5].now).output, Catch::StartsWith("frontier: tree1="));
    CHECK_FALSE(std::filesystem::exists(dir + "/tb-old"));
    CHECK_FALSE(std::filesystem::exists(dir + "/t-old"));
    CHECK_FALSE(std::filesystem::exists(dir + "/spsa-old"));
    CHECK(run_cli("tables build --variant 3x3 --pieces 2 --quiet")
              .output.find("--tables is required") != std::string::npos);
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
    // (Each command line would stop at once were the value taken: a folder that cannot be made,
    // a small board, a missing file; an unknown option would be the error named.)
    const std::string never = " --out /nonexistent/never";
    for (const std::string& args :
         {"selfplay --seed -1 --games 2" + never, std::string("solve --variant 3x3 --max-nodes -1"),
          std::string("frontier --variant 3x3 --table-pieces 0 --solve-turns 1 --max-nodes -5"),
          "train x.bin --max-positions -1" + never, std::string("dump x.bin --limit -1"),
          "selfplay --seed 18446744073709551616 --games 2" + never}) {
        INFO(args);
        const auto r = test_cli::run_cli(args);
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
