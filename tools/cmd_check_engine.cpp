// `fanorona check-engine`: runs an external engine through every part of the engine protocol of
// docs/rules.md and prints a table of checks (selfplay/engine/compliance.h).

#include <cstdio>
#include <memory>
#include <unistd.h>

#include "core/common/files.h"
#include "core/timeman.h"
#include "selfplay/engine/compliance.h"
#include "selfplay/engine/engine_spec.h"
#include "selfplay/formats/json_text.h"
#include "tools/commands.h"
#include "tools/options.h"

namespace fanorona::cli {

namespace {

struct CheckEngineOptions {
    std::string player;
    std::string engines; // --engines FILE
    int positions = 200;
    int timeout_ms = 3000;
    std::uint64_t seed = 1;
    std::string json_out;
};

// The checker's configuration from a --player spec: its program, options and start-up timeout,
// and its limits (when it has some) for the random positions.
ComplianceConfig config_from(const CheckEngineOptions& o) {
    // A name plays no part here: a spec without one (or a conf= one) is named for the parser.
    auto has = [&o](const std::string& key) {
        return o.player.rfind(key + "=", 0) == 0 ||
               o.player.find("," + key + "=") != std::string::npos;
    };
    const bool named = has("name") || has("conf");
    const EngineSpec spec =
        player_specs({named ? o.player : "name=engine," + o.player}, o.engines).front();
    if (spec.kind != EngineSpec::Kind::External)
        throw std::invalid_argument("--player: check-engine checks a program: give cmd=PROGRAM "
                                    "(and args=...), e.g. 'cmd=./my-engine,args=--uci'");
    ComplianceConfig c;
    c.engine = external_engine_config(spec, nullptr);
    c.answer_timeout_ms = o.timeout_ms;
    c.positions = o.positions;
    c.seed = o.seed;
    if (named) c.player = spec.name;
    if (isatty(STDERR_FILENO))
        c.on_group = [](const std::string& group) {
            std::fprintf(stderr, "\rchecking %-20s", group.c_str());
            std::fflush(stderr);
        };
    return c;
}

void run_check_engine(const CheckEngineOptions& o) {
    const ComplianceConfig config = config_from(o);
    if (!o.json_out.empty()) check_writable(o.json_out);
    ComplianceReport report = check_engine(config);
    report.player = config.player;
    if (config.on_group) std::fprintf(stderr, "\r%-40s\r", "");
    std::printf("%s", render_compliance_table(report).c_str());
    std::fflush(stdout);
    if (!o.json_out.empty())
        write_file_atomically(o.json_out, to_json_text(compliance_json(config, report), 1) + "\n");
    if (report.failed())
        throw std::runtime_error(
            "check-engine: " + std::to_string(report.count(CheckStatus::Fail)) + " of " +
            std::to_string(report.checks.size()) + " checks failed");
}

} // namespace

void add_check_engine_command(CLI::App& app) {
    auto o = std::make_shared<CheckEngineOptions>();
    auto* cmd = app.add_subcommand(
        "check-engine",
        "Check an engine program against the engine protocol of docs/rules.md: start-up, "
        "options, positions, variants, every go limit, stop, isready while searching, legal "
        "moves in random positions, time discipline, quit; a table of pass/warn/fail");
    declare_path(
        cmd->add_option(
               "--player", o->player,
               "The engine, as a tournament --player (name= optional): "
               "cmd=PATH,args=...,option.X=V,"
               "startup=MS (the uciok wait), and depth=D|nodes=N|movetime=MS for the random "
               "positions (default: depth 1 and nodes 1000 in turn; timeout=MS their wait)")
            ->required(),
        PathRole::EngineSpecs);
    add_engines_option(*cmd, o->engines);
    cmd->add_option("--random-positions", o->positions, "Random positions searched (legal moves)")
        ->capture_default_str()
        ->check(CLI::Range(1, 100000));
    cmd->add_option("--timeout", o->timeout_ms,
                    "Longest wait, ms, for what should come at once: readyok, a depth 1 or "
                    "node-limited search, the bestmove after stop, the exit after quit")
        ->capture_default_str()
        ->check(CLI::Range(100, 600000));
    cmd->add_option("--seed", o->seed, "Seed of the random games the positions come from")
        ->capture_default_str();
    declare_path(cmd->add_option("--json-out", o->json_out,
                                 "Also write the checks and the lines to this JSON file"),
                 PathRole::OutputFile);
    cmd->footer("Exit status 1 when a check fails (warnings pass). A crash or a hang ends its "
                "group of checks and the engine is started again for the next; after " +
                std::to_string(kMaxEngineFaults) +
                " faults no further group runs. Timed searches fail past a referee's grace (" +
                std::to_string(TimeMargins::kReplyGraceMs) + " ms past a movetime, " +
                std::to_string(TimeMargins::kClockGraceMs) + " ms past the clock) and warn " +
                std::to_string(kLateWarningMs) + " ms past a movetime or at all past the clock.");
    cmd->callback([o] { run_check_engine(*o); });
}

} // namespace fanorona::cli
