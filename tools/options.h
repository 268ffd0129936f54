#pragma once
// Option groups shared by subcommands: the board (variant, rules, start position) and the engine.

#include <charconv>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/board/position.h"
#include "core/builtins.h"
#include "core/common/memory.h"
#include "core/nnue/architecture.h"
#include "selfplay/engine/engine_file.h"
#include "selfplay/engine/engine_spec.h"
#include "selfplay/games/adjudication.h"
#include "selfplay/games/driver.h"
#include "tools/paths.h"
#include "tools/setting_options.h"

namespace fanorona::cli {

// Refuses, in every option of `app` and its subcommands that takes unsigned numbers (CLI11's
// type name UINT: counts, budgets, seeds), a value that is not a whole number from 0 to 2^64-1:
// the C library would wrap "-1" to 2^64-1 and clamp larger values silently. main() applies it
// once, after every command is declared, so no option can miss it.
inline void refuse_wrapped_unsigned(CLI::App& app) {
    const CLI::Validator whole(
        [](std::string& value) -> std::string {
            std::uint64_t parsed = 0;
            const char* end = value.data() + value.size();
            const auto [at, error] = std::from_chars(value.data(), end, parsed);
            if (value.empty() || error != std::errc() || at != end)
                return "'" + value + "' is not a whole number from 0 to 18446744073709551615";
            return std::string();
        },
        "");
    for (CLI::Option* option : app.get_options())
        if (option->get_type_name().rfind("UINT", 0) == 0) option->check(whole);
    for (CLI::App* sub : app.get_subcommands({})) refuse_wrapped_unsigned(*sub);
}

// The --variant, --rules and --fen options as a user typed them.
struct BoardOptions {
    std::string variant = "tsivy";
    std::string rules = "standard";
    std::string fen;
    CLI::Option* fen_option = nullptr; // tells `--fen ""` (an error) from no --fen

    // Adds --variant and --rules, and --fen unless the command starts its games from openings.
    void add_to(CLI::App& cmd, bool with_fen = true);
    Rules make_rules() const;       // throws std::invalid_argument on unknown names
    Position make_position() const; // the --fen position, or the start position
};

// Accepts what parse_variant accepts (the one parser of variant names).
inline CLI::Validator variant_validator() {
    return CLI::Validator(
        [](std::string& s) {
            return parse_variant(s) ? std::string()
                                    : "'" + s + "' is not a variant: " + std::string(kVariantHelp);
        },
        "VARIANT");
}

inline void BoardOptions::add_to(CLI::App& cmd, bool with_fen) {
    cmd.add_option("--variant", variant, "Board: " + std::string(kVariantHelp))
        ->check(variant_validator())
        ->capture_default_str();
    cmd.add_option("--rules", rules,
                   "Rule set: standard, firstturn (no chained capture on each side's first turn) "
                   "or vela (White is the beneficiary; see docs/rules.md)")
        ->check(CLI::IsMember({"standard", "firstturn", "vela"}))
        ->capture_default_str();
    if (!with_fen) return;
    fen_option = cmd.add_option(
        "--fen", fen,
        "Start from this position string (default: the start position): ranks from "
        "the top down separated by '/', W and B for pieces, a digit for a run of empty "
        "points, then w or b for the side to move, optionally followed by the turns "
        "since the last capture and the turn number, e.g. "
        "\"BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w\"");
}

inline Rules BoardOptions::make_rules() const {
    Rules r;
    r.variant = *parse_variant(variant);
    r.ruleset = *parse_ruleset(rules);
    return r;
}

inline Position BoardOptions::make_position() const {
    const Variant v = *parse_variant(variant);
    if (fen.empty() && !(fen_option && fen_option->count() > 0)) return Position::start(v);
    try {
        return Position::from_string(fen, v);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument("--fen: " + std::string(e.what()));
    }
}

} // namespace fanorona::cli

namespace fanorona::cli {

// The help of every --weights option (one meaning in every command): a file or a built-in name.
inline std::string weights_option_help(const std::string& what = "Weights") {
    return what + " file, or built-in weights by name: " + builtin_names("weights");
}

// The help of every --net option: a file, a built-in name or none, and when the default plays.
inline std::string net_option_help() {
    return "Network file (fanorona-net 1, docs/formats.md), or a built-in network by name: " +
           builtin_names("net") +
           "; none: no network. A network chosen for another board than the command's is "
           "refused. The default network plays on its own board only (the weights elsewhere), "
           "and only while no weights are chosen (--weights, a weight by --param or --params): "
           "--weights tuned alone is the linear engine";
}

// The engine options every searching command shares (--weights, --net, --depth, --nodes,
// --movetime,
// --hash, --tables, --params FILE, --param NAME=VALUE), as typed; apply() maps them onto
// EngineSpec::set, so ranges, defaults and errors are the spec's own. `with_limits` false leaves
// out the limits (bench has its own fixed depth).
struct EngineOptions {
    std::string weights, depth, nodes, movetime, hash, tables, params_file, net;
    std::vector<std::string> params;

    void add_to(CLI::App& cmd, bool with_limits = true);
    // Sets each given option on `spec` (a limit given replaces the spec's limits: --nodes over a
    // --player's depth plays nodes alone); throws std::invalid_argument "--OPTION: why" (--hash
    // beyond the machine's memory too).
    void apply(EngineSpec& spec) const;
    // Refuses --net of another board than `rules`' and --tables under `rules` the tables do not
    // serve, naming the options (the spec's own
    // check_rules names the engine, and the default name "fanorona" read "fanorona: fanorona:").
    void check_rules(const EngineSpec& spec, const Rules& rules) const;
};

inline void EngineOptions::add_to(CLI::App& cmd, bool with_limits) {
    auto range = [](const char* key) {
        for (const SpecRange& r : EngineSpec::ranges())
            if (std::string_view(key) == r.key)
                return " (" + std::to_string(r.min) + " to " + std::to_string(r.max) + " " +
                       r.what + ")";
        return std::string();
    };
    // An empty value names nothing (`--net ''` once meant the default): refused, as in a spec.
    const CLI::Validator named(
        [](std::string& value) {
            return value.empty() ? std::string("an empty value names nothing") : std::string();
        },
        "");
    declare_path(cmd.add_option("--weights", weights, weights_option_help())->check(named),
                 PathRole::InputFile);
    declare_path(cmd.add_option("--net", net, net_option_help())->check(named),
                 PathRole::InputFile);
    if (with_limits) {
        auto* d = cmd.add_option("--depth", depth,
                                 "Search depth per move" + range("depth") + "; the default " +
                                     std::to_string(EngineSpec::kDefaultDepth) +
                                     " when no limit is given");
        auto* n = cmd.add_option("--nodes", nodes, "Search nodes per move" + range("nodes"));
        auto* t = cmd.add_option("--movetime", movetime,
                                 "Milliseconds per move" + range("movetime") +
                                     "; games then depend on timing");
        d->type_name("INT"); // a whole number, as --depth in every command (the spec reads it)
        (void)n, (void)t;
    }
    cmd.add_option("--hash", hash,
                   "Transposition table per engine, MB" + range("hash") + "; default " +
                       std::to_string(EngineSpec::kDefaultHashMb))
        ->check(named)
        ->type_name("INT"); // MB, as --hash in every command
    declare_path(cmd.add_option("--tables", tables,
                                "Endgame tables folder (built by 'fanorona tables build'): the "
                                "search probes them and plays table positions by their values "
                                "(standard rules only)")
                     ->check(named),
                 PathRole::InputFolder);
    std::string names;
    const SearchParams defaults; // list() views this table: it must outlive the loop
    for (const SearchParam& p : defaults.list())
        names += std::string(names.empty() ? "" : ", ") + p.name;
    declare_path(
        cmd.add_option(
               "--params", params_file,
               "Parameters file (fanorona-params 1: NAME VALUE lines of search parameters and "
               "weights, as `fanorona spsa` writes; docs/formats.md), or built-in search "
               "parameters by name: " +
                   builtin_names("params") + "; --param overrides it")
            ->check(named),
        PathRole::InputFile);
    declare_path(
        cmd.add_option("--param", params,
                       "Set a search parameter or an evaluation weight (by its name in the weights "
                       "file, e.g. material_mg), NAME=VALUE (repeatable). Parameters: " +
                           names),
        PathRole::NotAPath);
}

inline void EngineOptions::apply(EngineSpec& spec) const {
    auto set = [&spec](const char* option, const char* key, const std::string& value) {
        if (value.empty()) return;
        try {
            spec.set(key, value);
        } catch (const std::invalid_argument& e) {
            throw std::invalid_argument(std::string(option) + ": " + e.what());
        }
    };
    if (!depth.empty() || !nodes.empty() || !movetime.empty()) {
        spec.limits.depth = 0;
        spec.limits.nodes = 0;
        spec.limits.movetime_ms = 0;
    }
    set("--weights", "weights", weights);
    set("--depth", "depth", depth);
    set("--nodes", "nodes", nodes);
    set("--movetime", "movetime", movetime);
    set("--hash", "hash", hash);
    set("--params", "params", params_file);
    set("--tables", "tables", tables);
    set("--net", "net", net);
    for (const std::string& p : params) {
        const auto eq = p.find('=');
        if (eq == std::string::npos || eq == 0)
            throw std::invalid_argument("--param: expected NAME=VALUE, found '" + p + "'");
        if (!find_tunable(p.substr(0, eq)))
            throw std::invalid_argument("--param: unknown search parameter or weight '" +
                                        p.substr(0, eq) + "'");
        set("--param", p.substr(0, eq).c_str(), p.substr(eq + 1));
    }
    spec.validate();
    if (!hash.empty()) check_memory("--hash " + hash, std::uint64_t(spec.hash_mb) << 20);
}

inline void EngineOptions::check_rules(const EngineSpec& spec, const Rules& rules) const {
    if (spec.kind != EngineSpec::Kind::Engine) return;
    if (!net.empty() && spec.net && spec.net->arch.variant != rules.variant)
        throw std::invalid_argument("--net " + net + ": a network of the " +
                                    std::string(variant_name(spec.net->arch.variant)) +
                                    " board; the command's board is " +
                                    std::string(variant_name(rules.variant)) + " (--variant)");
    if (!spec.tables) return;
    if (!spec.tables->serve(rules))
        throw std::invalid_argument(
            "--tables " + tables +
            ": endgame tables serve the standard "
            "rules (with their no-capture limit, or none) only, not --rules " +
            std::string(ruleset_name(rules.ruleset)));
    // Tables of another board, or a folder with a material missing (Tablebase::unusable_for).
    if (const std::string why = spec.tables->unusable_for(rules); !why.empty())
        throw std::invalid_argument("--tables " + tables + ": " + why);
}

} // namespace fanorona::cli

namespace fanorona::cli {

// --player SPEC and --engines FILE of a command that tunes one engine (spsa, loop): the engine
// as a --player spec (e.g. conf=NAME of the engines file), the engine options applied over it.
struct BaseEngineOptions {
    std::string player, engines, each; // each: --each KEY=V,... under --player's own keys

    void add_to(CLI::App& cmd);
    // The spec of --player ("": `spec` as it is); throws std::invalid_argument.
    void apply(EngineSpec& spec) const;
};

// --engines FILE: the engines file that --player conf=NAME takes engines from.
inline CLI::Option* add_engines_option(CLI::App& cmd, std::string& engines_path) {
    return declare_path(
        cmd.add_option("--engines", engines_path,
                       "Engines file (JSON, docs/formats.md): named engine configurations "
                       "that --player conf=NAME[,key=value...] plays, the keys after conf= "
                       "applied over the file's"),
        PathRole::InputFile);
}

// --prior-draws N and --anchor NAME[=ELO]: how a ratings table is fitted (tournament, report).
inline void add_rating_options(CLI::App& cmd, std::optional<double>& prior_draws,
                               std::string& anchor) {
    cmd.add_option("--prior-draws", prior_draws,
                   "Virtual draws added to every pairing that played, pulling the ratings "
                   "together (as BayesElo's prior). Default: none while the ratings exist "
                   "without, else 2 (a player who won or lost every game); 0: never")
        ->check(CLI::Range(0.0, 1e9));
    cmd.add_option("--anchor", anchor,
                   "Rate player NAME at ELO (default 0) and the others from it, instead of a "
                   "mean of 0");
}

// --each KEY=V,...: settings applied to every --player, its own keys overriding them.
inline CLI::Option* add_each_option(CLI::App& cmd, std::string& each) {
    // Its cmd=, net=, weights=... name input files as a --player's do.
    return declare_path(
        cmd.add_option("--each", each,
                       "Settings applied to every --player, in its language (e.g. "
                       "tc=10+0.1,timemargin=200): each player's own keys (and its engines "
                       "file entry) override them; a key a player cannot take is refused"),
        PathRole::EngineSpecs);
}

// The specs of --player texts (EngineSpec::parse's language, or conf=NAME with keys over engine
// NAME of the engines file at `engines_path`; "": none), in order. The one reader of --player and
// --engines for every command; throws std::invalid_argument "--engines: ..." or
// "--player: ...".
// `each` (--each KEY=V,...) is applied to every player first, its own keys over it.
inline std::vector<EngineSpec> player_specs(const std::vector<std::string>& players,
                                            const std::string& engines_path,
                                            const std::string& each = "") {
    std::optional<EngineFile> file;
    if (!engines_path.empty()) {
        try {
            file = read_engine_file(engines_path);
        } catch (const std::exception& e) {
            throw std::invalid_argument("--engines: " + std::string(e.what()));
        }
    }
    SpecSettings each_settings;
    try {
        each_settings = split_settings(each);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument("--each: " + std::string(e.what()));
    }
    for (const auto& [key, value] : each_settings)
        if (key == "name" || key == "conf")
            throw std::invalid_argument("--each: " + key + "=" + value +
                                        ": a key of one player, not of every player");
    std::vector<EngineSpec> specs;
    for (const std::string& p : players) {
        try {
            specs.push_back(player_spec(p, file ? &*file : nullptr, each_settings));
        } catch (const std::invalid_argument& e) {
            throw std::invalid_argument("--player: " + std::string(e.what()));
        }
    }
    return specs;
}

inline void BaseEngineOptions::apply(EngineSpec& spec) const {
    if (player.empty()) {
        if (!engines.empty())
            throw std::invalid_argument(
                "--engines: give --player conf=NAME to play one of its engines");
        return;
    }
    spec = player_specs({player}, engines, each).front();
}

inline void BaseEngineOptions::add_to(CLI::App& cmd) {
    declare_path(
        cmd.add_option("--player", player,
                       "The engine as a --player spec (the toolkit's engine: weights=, depth=, "
                       "PARAM=V...; conf=NAME plays engine NAME of --engines); the engine options "
                       "apply over it"),
        PathRole::EngineSpecs);
    add_engines_option(cmd, engines);
    add_each_option(cmd, each);
}

// The defaults of the options that decide games, the same in every command that plays them
// (selfplay, tournament, spsa, the loop): openings of 6 random turns and, in self-play, a random
// move with chance 0.1 in each side's first 12 turns after the opening. Without exploration the
// two games of a self-play pair (one opening, colours swapped, the same engine on both sides)
// are one game twice.
inline constexpr const char* kDefaultOpenings = "random:6";
inline constexpr double kDefaultEpsilon = 0.1;
inline constexpr int kDefaultExploreTurns = 12;

// --threads N, the one thread limit of every command (0: all cores).
inline void add_threads_option(CLI::App& cmd, int& threads) {
    cmd.add_option("--threads", threads, "Worker threads (0: all cores)")
        ->capture_default_str()
        ->check(CLI::Range(0, 1024));
}

// --openings SPEC: where games start (OpeningSpec::parse reads it).
inline void add_openings_option(CLI::App& cmd, std::string& openings) {
    declare_path(
        cmd.add_option("--openings", openings,
                       "random:TURNS (random turns from the start), a suite FILE, or start")
            ->capture_default_str(),
        PathRole::InputFile);
}

// --seed S: the one seed of a run's games.
inline void add_seed_option(CLI::App& cmd, std::uint64_t& seed) {
    cmd.add_option("--seed", seed, "Seed: the same seed and settings play the same games")
        ->capture_default_str();
}

// The files a run folder holds (selfplay/games/run_folder.h): no other output of the command may be
// one.
inline const std::vector<std::string> kRunFolderFiles = {
    "games.tsv",    "settings.json", "positions.bin", "corpus.fcorpus", "summary.json",
    "results.json", "results.txt",   "spsa.json",     "params.txt"};

// --out DIR, --resume (`may_change`: what a resume may change) and --quiet of a run folder
// (`writes`: the files written in it, which no other output may be).
inline void add_folder_options(CLI::App& cmd, std::string& out_dir, bool& resume, bool& quiet,
                               const std::string& may_change,
                               const std::vector<std::string>& writes = kRunFolderFiles) {
    declare_path(cmd.add_option("--out", out_dir, "Output folder (created; see docs/formats.md)")
                     ->capture_default_str(),
                 PathRole::OutputFolder, writes);
    cmd.add_flag("--resume", resume,
                 "Continue the run in --out where it stopped (same settings; " + may_change +
                     " may change)");
    cmd.add_flag("--quiet", quiet, "No progress output");
}

// --log FILE: the engine log (selfplay/engine/engine_log.h, docs/formats.md), one meaning in
// every command: the lines between a referee and an engine, one tab-separated line each with the
// milliseconds since the start. `what` says whose lines (the run's external engines, or in
// `fanorona engine` its own) and whether the file is emptied.
inline void add_engine_log_option(CLI::App& cmd, std::string& path, const std::string& what) {
    declare_path(cmd.add_option("--log", path,
                                "Engine log (one tab-separated line each, with the milliseconds "
                                "since the start; docs/formats.md): " +
                                    what),
                 PathRole::Log);
}

// --report-interval SECONDS: how often a run rewrites its folder's report.html while it goes (a
// live page that reloads itself; tools/report/live_report.h); 0: no page, neither live nor final.
constexpr double kDefaultReportInterval = 60;
inline void add_report_interval_option(CLI::App& cmd, double& seconds) {
    seconds = kDefaultReportInterval;
    declare_path(cmd.add_option("--report-interval", seconds,
                                "Rewrite the run folder's report.html every this many seconds "
                                "while the run goes (the page reloads itself until the run ends; "
                                "0: no report.html)")
                     ->capture_default_str()
                     ->check(CLI::Range(0.0, 1e6)),
                 PathRole::NotAPath);
}

// --epsilon and --explore-turns: self-play exploration, with the defaults above.
inline void add_exploration_options(CLI::App& cmd, double& epsilon, int& turns) {
    epsilon = kDefaultEpsilon;
    turns = kDefaultExploreTurns;
    cmd.add_option("--epsilon", epsilon,
                   "Self-play exploration: probability of a random move in the first "
                   "--explore-turns")
        ->capture_default_str()
        ->check(CLI::Range(0.0, 1.0));
    cmd.add_option("--explore-turns", turns,
                   "Self-play exploration: how many turns after the opening may be random")
        ->capture_default_str()
        ->check(CLI::Range(0, 1000));
}

// What --log writes in the commands that play games (external engines; built-in players have
// no lines).
inline constexpr const char* kRunEngineLogWhat =
    "every line sent to and received from each external engine (cmd=) and what it writes to its "
    "standard error, with the game and the player; a forfeit's message names the log. Emptied "
    "at the start, added to by --resume";

// The options of every command that plays games through the driver (selfplay, tournament,
// spsa): openings, seed, Vela series, adjudication, threads, the output folder, resume, quiet
// and the engine log. The loop declares the ones it passes on to its runs with the functions above.
struct RunOptions {
    std::string openings = kDefaultOpenings;
    std::string openings_order = "sequential";
    std::string series = "none";
    std::string adjudicate_tables;

    void add_to(CLI::App& cmd, RunConfig& run);
    // Fills the fields that need parsing (the openings, the series).
    void apply(RunConfig& run) const {
        run.setting_options = run_setting_options();
        run.openings = OpeningSpec::parse(openings);
        run.openings.shuffled = openings_order == "random";
        if (run.openings.shuffled && run.openings.kind != OpeningSpec::Kind::File)
            throw std::invalid_argument(
                "--openings-order random: needs a suite FILE as --openings");
        run.vela_series = series == "vela";
        try {
            open_adjudication_tables(run.adjudication, adjudicate_tables);
        } catch (const std::exception& e) {
            throw std::invalid_argument("--adjudicate-tables: " + std::string(e.what()));
        }
    }
};

inline void RunOptions::add_to(CLI::App& cmd, RunConfig& run) {
    add_openings_option(cmd, openings);
    declare_path(
        cmd.add_option("--openings-order", openings_order,
                       "A suite's openings in file order (sequential), or shuffled by --seed "
                       "(random: another seed plays other openings of a large suite)")
            ->capture_default_str()
            ->check(CLI::IsMember({"sequential", "random"})),
        PathRole::NotAPath);
    add_seed_option(cmd, run.seed);
    cmd.add_option("--series", series,
                   "vela: games in series of a normal game and a Vela game whose White is the "
                   "normal game's loser (a drawn normal game ends the series); --games counts "
                   "game places, 2 per series")
        ->capture_default_str()
        ->check(CLI::IsMember({"none", "vela"}));
    add_threads_option(cmd, run.threads);
    add_folder_options(cmd, run.out_dir, run.resume, run.quiet, "--games");
    cmd.add_option("--max-turns", run.adjudication.max_turns,
                   "Adjudicate a draw (length-cap) after this many turns (0: never)")
        ->capture_default_str()
        ->check(CLI::Range(0, 100000));
    cmd.add_option("--win-margin", run.adjudication.win_margin,
                   "Adjudicate a win when both sides' scores pass this many centi-pieces (0: off)")
        ->capture_default_str()
        ->check(CLI::Range(0, 100000));
    cmd.add_option("--win-turns", run.adjudication.win_turns,
                   "... for this many consecutive turns of each side")
        ->capture_default_str()
        ->check(CLI::Range(1, 1000));
    cmd.add_option("--draw-margin", run.adjudication.draw_margin,
                   "Adjudicate a draw (draw-adjudication) when both sides' scores stay below "
                   "this many centi-pieces in size (0: off)")
        ->capture_default_str()
        ->check(CLI::Range(0, 100000));
    cmd.add_option("--draw-turns", run.adjudication.draw_turns,
                   "... for this many consecutive turns of each side")
        ->capture_default_str()
        ->check(CLI::Range(1, 1000));
    cmd.add_option("--draw-after", run.adjudication.draw_after,
                   "... in a game of at least this many turns (the opening's included)")
        ->capture_default_str()
        ->check(CLI::Range(0, 100000));
    cmd.add_option_function<std::string>(
           "--draw-adjudicate",
           [&run](const std::string& text) { parse_draw_adjudication(text, run.adjudication); },
           "The draw adjudication in one option, as fastchess's and cutechess's -draw: "
           "after=N,turns=M,score=S (movenumber=N full moves, 2N turns, and movecount= too; score "
           "20 "
           "when not given), "
           "e.g. after=40,turns=8,score=20 (the same as --draw-after 40 --draw-turns 8 "
           "--draw-margin 20)")
        ->excludes("--draw-margin")
        ->excludes("--draw-turns")
        ->excludes("--draw-after");
    declare_path(
        cmd.add_option("--adjudicate-tables", adjudicate_tables,
                       "End a game as soon as its position is in these endgame tables, with the "
                       "tables' result (reason 'tables'; standard rules only)"),
        PathRole::InputFolder);
    add_engine_log_option(cmd, run.engine_log_path, kRunEngineLogWhat);
}

// The value of a --k option (the sigmoid scale of tune and train): empty for "auto", else the
// positive number it spells; anything else is an error naming the option.
inline std::optional<double> parse_sigmoid_scale(const std::string& text) {
    if (text == "auto") return std::nullopt;
    std::size_t used = 0;
    double k = 0;
    try {
        k = std::stod(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != text.size() || !(k > 0) || !std::isfinite(k))
        throw std::invalid_argument("--k: expected auto or a positive number, found '" + text +
                                    "'");
    return k;
}

// Refuses, in every option of `app` and its subcommands that takes real numbers (CLI11's type
// name FLOAT: rates, lambdas, margins), a value that is not a finite number: "nan", "inf" and
// "1e400" would pass CLI11's own conversion and poison every result computed from them. main()
// applies it once, after every command is declared, so no option can miss it.
inline void refuse_non_finite(CLI::App& app) {
    const CLI::Validator finite(
        [](std::string& value) -> std::string {
            double parsed = 0;
            const char* begin = value.data() + (value.rfind('+', 0) == 0 ? 1 : 0);
            const char* end = value.data() + value.size();
            const auto [at, error] = std::from_chars(begin, end, parsed);
            if (value.empty() || error != std::errc() || at != end || !std::isfinite(parsed))
                return "'" + value + "' is not a finite number";
            return std::string();
        },
        "");
    for (CLI::Option* option : app.get_options())
        if (option->get_type_name().rfind("FLOAT", 0) == 0) option->check(finite);
    for (CLI::App* sub : app.get_subcommands({})) refuse_non_finite(*sub);
}

} // namespace fanorona::cli
