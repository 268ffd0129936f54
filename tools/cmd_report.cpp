// `fanorona report`: one self-contained HTML page from self-play, tournament, openings and
// tuning folders.

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>

#include <nlohmann/json.hpp>

#include "core/common/files.h"
#include "selfplay/tournament/stats/results_table.h"
#include "tools/commands.h"
#include "tools/options.h"
#include "tools/report/report.h"

namespace fanorona::cli {

namespace {

struct ReportOptions {
    report::ReportInputs inputs;
    std::string out = "report.html";
    bool strict = false;
    bool title_default = true; // no --title given
};

// --prior-draws and --anchor refit a tournament's table: refused without one, and an anchor
// that names none of its players is an error (not a note on the page).
void check_rating_options(const report::ReportInputs& in) {
    if (!in.prior_draws && in.anchor.empty()) return;
    if (in.tournament.empty())
        throw std::invalid_argument(std::string(in.prior_draws ? "--prior-draws" : "--anchor") +
                                    ": refits a tournament's ratings: give --tournament DIR "
                                    "(or --loop DIR)");
    std::ifstream file(in.tournament + "/results.json");
    if (!file) return; // the page notes the missing file
    std::vector<std::string> names;
    try {
        const nlohmann::json j = nlohmann::json::parse(file);
        for (const auto& p : j.at("table").at("players"))
            names.push_back(p.at("name").get<std::string>());
    } catch (const std::exception&) {
        return; // the page notes the malformed file
    }
    (void)stats::rating_options(names, in.prior_draws, in.anchor);
}

void run_report(ReportOptions o) {
    if (!o.inputs.loop.empty()) { // the loop's final match and SPSA run, unless given
        const report::ReportInputs loop = report::loop_report_inputs(o.inputs.loop);
        if (o.inputs.tournament.empty()) o.inputs.tournament = loop.tournament;
        if (o.inputs.spsa.empty()) o.inputs.spsa = loop.spsa;
        if (o.title_default) o.inputs.title = loop.title;
    }
    if (!o.inputs.engine_log.empty() && !std::filesystem::is_regular_file(o.inputs.engine_log))
        throw std::invalid_argument("--log " + o.inputs.engine_log + ": no such file");
    for (const auto* dir : {&o.inputs.loop, &o.inputs.selfplay, &o.inputs.tournament,
                            &o.inputs.opening_stats, &o.inputs.tune, &o.inputs.spsa})
        if (!dir->empty() && !std::filesystem::is_directory(*dir))
            throw std::invalid_argument(*dir + ": not a folder");
    check_rating_options(o.inputs);
    const report::Report r = report::build_report(o.inputs);
    const std::filesystem::path out(o.out);
    if (out.has_parent_path()) std::filesystem::create_directories(out.parent_path());
    write_file_atomically(o.out, r.html);
    for (const auto& w : r.warnings)
        std::fprintf(stderr, "fanorona report: warning: %s\n", w.c_str());
    std::printf("wrote %s (%zu bytes, %zu warnings)\n", o.out.c_str(), r.html.size(),
                r.warnings.size());
    if (o.strict && !r.warnings.empty())
        throw std::runtime_error(std::to_string(r.warnings.size()) +
                                 " inputs could not be read (see the warnings)");
}

} // namespace

void add_report_command(CLI::App& app) {
    auto o = std::make_shared<ReportOptions>();
    auto* cmd = app.add_subcommand(
        "report", "Write one self-contained HTML page (boards, opening tree, tournament table, "
                  "Elo and SPRT curves, loss curves, changed weights) from result folders");
    declare_path(cmd->add_option("--out", o->out, "The HTML file to write")->capture_default_str(),
                 PathRole::OutputFile);
    declare_path(
        cmd->add_option("--loop", o->inputs.loop,
                        "A `fanorona loop` folder (history.json, iter-N/...): the iterations, each "
                        "one's runs, the final match, an opening explorer of its games"),
        PathRole::InputFolder);
    declare_path(cmd->add_option("--selfplay", o->inputs.selfplay,
                                 "A `fanorona selfplay` folder (summary.json, games.tsv)"),
                 PathRole::InputFolder, {"summary.json", "games.tsv", "settings.json"});
    declare_path(
        cmd->add_option("--tournament", o->inputs.tournament,
                        "A `fanorona tournament` folder (results.json, live.jsonl, games.tsv)"),
        PathRole::InputFolder, {"results.json", "live.jsonl", "games.tsv", "settings.json"});
    declare_path(cmd->add_option("--opening-stats", o->inputs.opening_stats,
                                 "A `fanorona openings --out` folder (openings.json)"),
                 PathRole::InputFolder, {"openings.json"});
    declare_path(
        cmd->add_option("--tune", o->inputs.tune,
                        "A `fanorona tune` output folder (tune.json, loss.csv, weights files)"),
        PathRole::InputFolder);
    declare_path(
        cmd->add_option("--spsa", o->inputs.spsa,
                        "A `fanorona spsa` folder (spsa.json, spsa.csv: the parameter history)"),
        PathRole::InputFolder, {"spsa.json", "spsa.csv"});
    declare_path(cmd->add_option("--log", o->inputs.engine_log,
                                 "The engine log of the run (its --log FILE; docs/formats.md): "
                                 "each game's lines in the game browser"),
                 PathRole::InputFile);
    cmd->add_option("--title", o->inputs.title, "The page's title")->capture_default_str();
    cmd->add_option("--tree-depth", o->inputs.tree_depth, "Opening tree: turns shown")
        ->check(CLI::Range(1, 200))
        ->capture_default_str();
    cmd->add_option("--tree-share", o->inputs.tree_share,
                    "Opening tree: fold moves chosen in less than this share of a position's "
                    "games")
        ->check(CLI::Range(0.0, 1.0))
        ->capture_default_str();
    cmd->add_option("--max-frames", o->inputs.max_frames,
                    "Game viewer: show at most this many turns of a game")
        ->check(CLI::Range(1, 100000))
        ->capture_default_str();
    add_rating_options(*cmd, o->inputs.prior_draws, o->inputs.anchor); // the tournament's table
    cmd->add_flag("--strict", o->strict,
                  "Fail (exit code 1, after writing the page) when an input cannot be read");
    cmd->callback([o, cmd] {
        o->title_default = cmd->count("--title") == 0;
        run_report(*o);
    });
}

} // namespace fanorona::cli
