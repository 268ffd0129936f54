// `fanorona timeuse`: how much of a movetime an engine uses, measured from outside (a referee's
// view: `go movetime T` written to `bestmove` read), at several movetimes.

#include <cstdio>
#include <filesystem>
#include <memory>
#include <sstream>

#include "core/common/files.h"
#include "core/common/text.h"
#include "selfplay/formats/json_text.h"
#include "tools/commands.h"
#include "tools/options.h"
#include "tools/timeuse/timeuse.h"

namespace fanorona::cli {

namespace {

struct TimeUseOptions {
    BoardOptions board; // --variant and --rules
    std::string engine;
    std::vector<std::string> options;
    std::vector<int> movetimes = {20, 50, 200, 1000};
    std::vector<std::string> positions;
    int repeat = 2;
    std::string json_out;
    std::vector<std::string> games; // games files or run folders: read, no engine started
};

// Time use from the per-move columns of games files, per player.
void run_games_timeuse(const TimeUseOptions& o) {
    const std::vector<PlayerTimeUse> players = games_time_use(o.games);
    std::printf("%s", games_time_use_table(players).c_str());
    if (!o.json_out.empty())
        write_file_atomically(o.json_out,
                              to_json_text(games_time_use_json(o.games, players), 1) + "\n");
}

// The path of the running program (for the JSON record and for starting its engine).
std::string this_program() {
    std::error_code ec;
    const auto path = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? "/proc/self/exe" : path.string();
}

void run_timeuse(const TimeUseOptions& o) {
    if (!o.games.empty()) return run_games_timeuse(o);
    TimeUseConfig config;
    config.argv = o.engine.empty() ? std::vector<std::string>{this_program(), "engine"}
                                   : split_words(o.engine);
    for (const std::string& opt : o.options) {
        const auto eq = opt.find('=');
        if (eq == std::string::npos || eq == 0)
            throw std::invalid_argument("--option: expected NAME=VALUE, found '" + opt + "'");
        config.options.emplace_back(opt.substr(0, eq), opt.substr(eq + 1));
    }
    config.rules = o.board.make_rules();
    config.movetimes_ms = o.movetimes;
    config.positions = o.positions;
    config.repeat = o.repeat;
    bool header = false; // printed with the first row: an error before it is one line alone
    const auto rows = measure_time_use(config, [&header](const TimeUseRow& r) {
        if (!header)
            std::printf("%9s %6s %9s %9s %9s %7s %5s %6s\n", "movetime", "moves", "mean ms",
                        "min ms", "max ms", "used", "over", "depth");
        header = true;
        std::printf("%9d %6d %9.2f %9.2f %9.2f %6.1f%% %5d %6.2f\n", r.movetime_ms, r.moves,
                    r.mean_ms, r.min_ms, r.max_ms, 100 * r.mean_ratio, r.over, r.mean_depth);
        std::fflush(stdout);
    });
    if (!o.json_out.empty())
        write_file_atomically(o.json_out, to_json_text(time_use_json(config, rows), 1) + "\n");
}

} // namespace

void add_timeuse_command(CLI::App& app) {
    auto o = std::make_shared<TimeUseOptions>();
    auto* cmd = app.add_subcommand(
        "timeuse", "Measure from outside, as a referee would, the time an engine takes per move "
                   "under 'go movetime T' (from 'go' written to 'bestmove' read); or, given games "
                   "files, the time, depth and nodes per move of their players");
    o->board.add_to(*cmd, false);
    auto* games = declare_path(
        cmd->add_option(
            "games", o->games,
            "Games files (or run folders holding games.tsv) of version 3: print each player's "
            "time, "
            "depth and nodes per move from their per-move columns instead of measuring an engine "
            "(the files give the board)"),
        PathRole::InputFile);
    auto* engine =
        declare_path(cmd->add_option("--engine", o->engine,
                                     "The engine command and its arguments, split at spaces "
                                     "(default: this program's 'engine' subcommand)")
                         // An empty value names nothing (it once measured the built-in engine).
                         ->check(CLI::Validator(
                             [](std::string& value) {
                                 return value.find_first_not_of(" \t") == std::string::npos
                                            ? std::string("an empty value names no engine")
                                            : std::string();
                             },
                             "")),
                     PathRole::Program);
    auto* option =
        cmd->add_option("--option", o->options,
                        "Send 'setoption name NAME value VALUE' at start, NAME=VALUE (repeatable)");
    auto* movetimes = cmd->add_option("--movetimes", o->movetimes,
                                      "The movetimes to measure, ms (comma-separated)")
                          ->delimiter(',')
                          ->capture_default_str()
                          ->check(CLI::Range(1, 3600000));
    auto* position =
        cmd->add_option("--position", o->positions,
                        "A position string of --variant to search (repeatable; default: the "
                        "positions of 'fanorona bench' on that board, or its start position)");
    auto* repeat = cmd->add_option("--repeat", o->repeat, "Searches of each position per movetime")
                       ->capture_default_str()
                       ->check(CLI::Range(1, 1000));
    for (CLI::Option* measuring : {engine, option, movetimes, position, repeat})
        games->excludes(measuring);
    declare_path(
        cmd->add_option("--json-out", o->json_out, "Also write the results to this JSON file"),
        PathRole::OutputFile);
    cmd->footer("Columns: the movetime given, moves timed, mean/min/max time per move, the mean "
                "as a share of the movetime, moves longer than the movetime, the mean last "
                "'info depth'. One untimed warm-up move comes first. With games files: per "
                "player, its moves, those with a time, mean and longest time (ms), mean depth, "
                "mean nodes and nodes per second ('-' where no move told it).");
    cmd->callback([o] { run_timeuse(*o); });
}

} // namespace fanorona::cli
