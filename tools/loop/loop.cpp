#include "tools/loop/loop.h"
#include "selfplay/formats/json_text.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <utility>

#include "core/common/files.h"
#include "core/common/folder_lock.h"
#include "core/common/thread_limit.h"
#include "core/weights.h"
#include "selfplay/formats/formats.h"
#include "selfplay/formats/net_file.h"
#include "selfplay/formats/rules_json.h"
#include "selfplay/formats/weights_file.h"
#include "selfplay/formats/weights_fingerprint.h"
#include "selfplay/games/driver.h"
#include "selfplay/games/run_folder.h"
#include "selfplay/openings/search_book.h"
#include "selfplay/selfplay.h"
#include "selfplay/tournament/stats/elo.h"
#include "selfplay/tournament/stats/stats_json.h"
#include "selfplay/tournament/tournament.h"
#include "tools/loop/train_step.h"
#include "tools/report/live_report.h"
#include "tools/report/report.h"
#include "tools/report/sections.h"
#include "tuner/spsa/spsa.h"

namespace fanorona {

namespace fs = std::filesystem;
using Json = nlohmann::json;

namespace {

// Makes a run of the loop rewrite the loop's report.html as a live page (LoopConfig::
// report_interval) from its history so far; the page's inputs are read when it is written.
void live_loop_page(const LoopConfig& c, RunConfig& run) {
    if (c.report_interval <= 0) return;
    run.interval_seconds = c.report_interval;
    run.on_interval = [dir = c.out_dir, refresh = report::live_refresh_seconds(c.report_interval)] {
        report::ReportInputs page = report::loop_report_inputs(dir);
        page.refresh_seconds = refresh;
        report::write_report(page, dir + "/report.html");
    };
}

// What a loop improves, with the file it lives in (the loop's records name files; play uses
// the values): weights, or in the network loop a network (`net` set; the weights then stay the
// start's, for other boards).
struct NamedWeights {
    Weights values;
    std::string path;
    std::shared_ptr<const nnue::Network> net;

    bool same_as(const NamedWeights& o) const {
        if (net || o.net) return net && o.net && *net == *o.net;
        return values == o.values;
    }
};

// The settings of the network loop's training (absent in the weights loop).
Json net_settings(const LoopConfig& c) {
    const NetTrainConfig& t = c.train;
    // The start network by its file name (as engine descriptions name it: a resume from another
    // folder still matches) and its fingerprint (the check that it is the same network).
    Json s = {{"start", c.engine.net ? fs::path(c.engine.net_path).filename().string()
                                     : std::string("random")},
              {"start_fingerprint", net_fingerprint(loop_start_network(c))},
              {"epochs", t.epochs},
              {"batch", t.batch},
              {"lr", t.lr},
              {"lr_decay", t.lr_decay},
              {"lambda", t.lambda},
              {"k", t.k ? Json(*t.k) : Json("auto")},
              {"valid_fraction", t.valid_fraction},
              {"patience", t.patience},
              {"max_positions", t.max_positions},
              {"keep_decisive", !t.filter.skip_decisive},
              {"skip_captures", t.filter.skip_captures}};
    // Absent at their defaults: older loop folders still resume.
    if (t.shuffle_buffer != kDefaultShuffleBuffer) s["shuffle_buffer"] = t.shuffle_buffer;
    if (t.mirror) s["mirror"] = true;
    if (!t.lr_shape.is_default_shape()) s["lr_schedule"] = t.lr_shape.to_text();
    if (t.lr_shape.shape == LrSchedule::Shape::Cosine) s["lr_min"] = t.lr_min;
    if (t.lr_warmup) s["lr_warmup"] = t.lr_warmup;
    if (t.final_lambda() != t.lambda) s["lambda_end"] = t.final_lambda();
    return s;
}

Json loop_settings(const LoopConfig& c) {
    Json s = {{"format", kLoopSettingsFormat},
              {"iterations", c.iterations},
              {"games", c.games},
              {"engine", c.engine.description()},
              {"start_weights_fingerprint", weights_fingerprint(c.engine.weights)},
              {"verify_games", c.verify_games},
              {"final_games", c.final_games},
              {"sprt", c.sprt ? c.sprt->to_string() : ""},
              {"accept_los", c.accept_los},
              {"window", c.window},
              {"selfplay_openings", c.selfplay_openings},
              {"match_openings", c.match_openings},
              {"epsilon", c.epsilon},
              {"explore_turns", c.explore_turns},
              {"seed", c.seed}};
    if (c.net) { // the network loop trains; the tuner's settings do not apply
        s["net"] = net_settings(c);
    } else {
        s["optimizer"] = c.optimizer;
        s["l2"] = c.l2;
    }
    put_rules(s, c.rules);
    if (c.patterns) s["patterns"] = true; // absent when off: older loop folders still resume
    if (!c.spsa_params.empty()) {         // likewise
        s["spsa_params"] = c.spsa_params;
        s["spsa_games"] = c.spsa_games;
        s["spsa_batch"] = c.spsa_iteration_pairs; // the key run folders hold keeps its name
        s["spsa_nodes"] = c.spsa_nodes;
    }
    if (c.final_movetime_ms > 0) s["final_movetime_ms"] = c.final_movetime_ms;
    return s;
}

// The user's option behind each key of loop_settings, for a refused --resume.
const SettingOptions& loop_setting_options() {
    static const SettingOptions options = {
        {"variant", "--variant"},
        {"rules", "--rules"},
        {"iterations", "--iterations"},
        {"games", "--games"},
        {"engine",
         "the engine options (--weights, --net, --depth, --nodes, --movetime, --hash, --tables, "
         "--params, --param)"},
        {"start_weights_fingerprint", "the start weights (--weights, or its file changed since)"},
        {"verify_games", "--verify-games"},
        {"final_games", "--final-games"},
        {"sprt", "--sprt"},
        {"accept_los", "--accept-los"},
        {"window", "--window"},
        {"selfplay_openings", "--openings"},
        {"match_openings", "--match-openings"},
        {"epsilon", "--epsilon"},
        {"explore_turns", "--explore-turns"},
        {"optimizer", "--optimizer"},
        {"l2", "--l2"},
        {"seed", "--seed"},
        {"patterns", "--patterns"},
        {"spsa_params", "--spsa-param"},
        {"spsa_games", "--spsa-games"},
        {"spsa_batch", "--spsa-iteration-pairs"},
        {"spsa_nodes", "--spsa-nodes"},
        {"final_movetime_ms", "--final-movetime"},
        {"net", "--net (the start network, or its file changed since) or the training options "
                "(--epochs, --batch, --lr, --lr-decay, --lr-schedule, --lr-min, --lr-warmup, "
                "--lambda, --lambda-end, --k, --valid-fraction, "
                "--patience, --max-positions, --shuffle-buffer, --mirror, --keep-decisive, "
                "--skip-captures)"},
    };
    return options;
}

// The loop's engine with other weights (or another network) and another name, set through
// EngineSpec::set as a --player's keys are.
EngineSpec engine_with(const LoopConfig& c, const NamedWeights& w, const std::string& name) {
    EngineSpec e = c.engine;
    e.set("name", name);
    if (w.net) { // the network loop: the start weights, this network
        e.set("net", w.path);
        return e;
    }
    e.fold_named_weights(); // w's file is whole: any named weights of the start are in it
    e.set("weights", w.path);
    return e;
}

// `e` searching with `limits` alone (no clock).
EngineSpec with_limits(EngineSpec e, const SearchLimits& limits) {
    e.limits = limits;
    e.time_control = TimeControl{};
    e.validate();
    return e;
}

// An engine of the final matches: at --final-movetime when given (both sides the same time).
EngineSpec final_engine(const LoopConfig& c, EngineSpec e) {
    if (c.final_movetime_ms <= 0) return e;
    SearchLimits l;
    l.movetime_ms = c.final_movetime_ms;
    return with_limits(std::move(e), l);
}

// A match of `candidate` against `base`; `fresh` replays a folder that holds another pairing.
TournamentResult match(const LoopConfig& c, const std::string& dir, const EngineSpec& candidate,
                       const EngineSpec& base, std::uint64_t games, bool use_sprt,
                       const std::string& openings, bool fresh = false) {
    TournamentConfig t;
    t.run.rules = c.rules;
    t.run.players = {candidate, base};
    t.run.players[0].name = "new";
    t.run.players[1].name = "base";
    t.run.games = 2 * std::max<std::uint64_t>(1, games / 2);
    t.run.openings = OpeningSpec::parse(openings);
    t.run.seed = c.seed;
    if (use_sprt) t.sprt = c.sprt;
    t.run.threads = c.threads;
    t.run.out_dir = dir;
    // The final match is replayed when the loop grew: its candidate may have changed.
    if (fresh && fs::exists(dir + "/settings.json")) {
        const Json old = Json::parse(read_text_file(dir + "/settings.json", kJsonFileLimits));
        const Json now = settings_json(t.run);
        if (old.value("weights_fingerprints", Json()) != now["weights_fingerprints"] ||
            old.value("players", Json()) != now["players"])
            fs::remove_all(dir);
    }
    t.run.resume = true;
    t.run.setting_options = c.run_setting_options;
    t.run.quiet = c.quiet;
    t.run.engine_log = c.engine_log;
    live_loop_page(c, t.run);
    TournamentResult r = run_tournament(t);
    if (r.interrupted) throw std::runtime_error("interrupted: run again with --resume");
    return r;
}

// A suite of balanced openings scored by a short search with the hand-set weights (core's
// handset_weights(), `openings --by-search --weights handset`: the suite stays the one of the
// loops before the tuned engine became the default), built once.
std::string balanced_openings(const LoopConfig& c,
                              const std::function<void(const std::string&)>& say) {
    if (c.match_openings != "balanced") return c.match_openings;
    const std::string path = c.out_dir + "/openings.txt";
    if (fs::exists(path)) return path;
    // Thousands of openings, so that matches do not replay the same games: every position
    // after 4 turns, as `openings --by-search --weights handset` (selfplay/openings/search_book.h).
    say("building a balanced opening suite (positions after " + std::to_string(kBalancedTurns) +
        " turns, scored at depth " + std::to_string(kBalancedDepth) + ")");
    auto openings = enumerate_openings(c.rules, kBalancedTurns);
    score_openings(openings,
                   OpeningScoring{c.rules, handset_weights(), kBalancedDepth, 2, c.threads});
    auto book = balanced_search_book(openings, kBalancedRange);
    if (book.size() < 8) book = balanced_search_book(openings, ScoreRange{-150, 150});
    if (book.empty()) return "random:4";
    write_file_atomically(path, format_book(book, {"balanced openings for the loop's matches"}));
    return path;
}

// Step 2 of an iteration: tunes on the window, or reads the finished step back on a resume.
NamedWeights tune_step(const LoopConfig& c, int n, const NamedWeights& current,
                       const std::function<void(const std::string&)>& say) {
    const std::string dir = c.out_dir + "/iter-" + std::to_string(n);
    const std::string tuned = dir + "/tune/weights.txt";
    if (fs::exists(tuned)) return {load_weights_file(tuned), tuned, nullptr};
    say("iteration " + std::to_string(n) + ": tuning");
    TuneConfig t;
    for (int k = std::max(1, n - c.window + 1); k <= n; ++k)
        t.data.push_back(c.out_dir + "/iter-" + std::to_string(k) + "/selfplay/positions.bin");
    t.start = current.values;
    t.start_name = current.path;
    const std::string partial = dir + "/tune.partial";
    fs::remove_all(partial);
    t.out_dir = partial;
    t.optimizer.kind = *parse_optimizer(c.optimizer);
    t.l2 = c.l2;
    t.patterns.enabled = c.patterns;
    t.seed = c.seed + std::uint64_t(n);
    t.threads = c.threads;
    const TuneReport report = run_tune(t, [&](const std::string& line) { say("  " + line); });
    write_tune_outputs(t, report);
    fs::remove_all(dir + "/tune");
    fs::rename(partial, dir + "/tune"); // the step counts as done only once complete
    return {report.final, tuned, nullptr};
}

// The validation losses of a finished tuning step (for the history), from its tune.json.
Json tune_summary(const std::string& dir) {
    const Json j = Json::parse(read_text_file(dir + "/tune/tune.json", kJsonFileLimits));
    return {{"k", j.value("k", 0.0)},
            {"start_validation_loss", j.value("start_validation_loss", 0.0)},
            {"final_validation_loss", j.value("final_validation_loss", 0.0)}};
}

// A number of history.json (NaN when missing or null) as text, "-" for NaN.
std::string fmt(double v, const char* spec) {
    if (std::isnan(v)) return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, spec, v);
    return buf;
}

// What the SPSA step tunes from `base` (at --spsa-nodes): its values, game pairs per iteration and
// game pairs; the run's folder, openings and seed are the step's own (spsa_config).
SpsaConfig spsa_tuning(const LoopConfig& c, const EngineSpec& base) {
    SpsaConfig s;
    s.base = base;
    if (c.spsa_nodes > 0) {
        SearchLimits l;
        l.nodes = c.spsa_nodes;
        s.base = with_limits(base, l);
    }
    for (const std::string& p : c.spsa_params) s.params.push_back(SpsaParam::parse(p, s.base));
    s.iteration_pairs = c.spsa_iteration_pairs;
    const std::uint64_t per_iteration = 2 * s.iteration_pairs;
    s.pairs = (c.spsa_games + per_iteration - 1) / per_iteration * s.iteration_pairs;
    return s;
}

// The SPSA step's settings: the engine with `current` weights, the loop's match openings.
SpsaConfig spsa_config(const LoopConfig& c, const NamedWeights& current,
                       const std::string& openings) {
    SpsaConfig s = spsa_tuning(c, engine_with(c, current, "base"));
    s.run.rules = c.rules;
    s.run.openings = OpeningSpec::parse(openings);
    s.run.seed = c.seed;
    s.run.threads = c.threads;
    s.run.out_dir = c.out_dir + "/spsa";
    s.run.resume = true;
    s.run.setting_options = c.run_setting_options;
    s.run.quiet = c.quiet;
    s.run.engine_log = c.engine_log;
    live_loop_page(c, s.run);
    return s;
}

// Step 5: runs or resumes the SPSA run in OUT/spsa. A run begun with other weights (the loop
// grew and kept another set) starts afresh: OUT/spsa.weights names the weights it tunes with.
// Returns the run's result and the engine with the tuned values.
std::pair<SpsaResult, EngineSpec> spsa_step(const LoopConfig& c, const NamedWeights& current,
                                            const std::string& openings,
                                            const std::function<void(const std::string&)>& say) {
    const SpsaConfig s = spsa_config(c, current, openings);
    const std::string marker = c.out_dir + "/spsa.weights";
    const std::string fingerprint = weights_fingerprint(current.values) + "\n";
    if (!fs::exists(marker) || read_text_file(marker, kJsonFileLimits) != fingerprint) {
        fs::remove_all(s.run.out_dir);
        write_file_atomically(marker, fingerprint);
    }
    say("spsa: " + std::to_string(2 * s.pairs) + " games over " + std::to_string(s.params.size()) +
        " values, with " + current.path);
    const SpsaResult r = run_spsa(s);
    if (r.interrupted) throw std::runtime_error("interrupted: run again with --resume");
    return {r, spsa_engine(s.base, s.params, r.values, "new")};
}

// The loop's settings into OUT/settings.json. On a folder that holds a loop already: --resume is
// required and the settings must be its own, but for more iterations (never fewer, which would
// drop finished iterations from the history). Throws naming the setting otherwise.
void write_loop_settings(const LoopConfig& c, const Json& settings) {
    const std::string settings_path = c.out_dir + "/settings.json";
    if (fs::exists(settings_path)) {
        if (!c.resume)
            throw std::runtime_error(c.out_dir + " already holds a loop: use --resume to continue "
                                                 "it, or choose another --out folder");
        check_resume_settings(c.out_dir, settings, {"iterations"}, loop_setting_options());
        // Iterations may only grow: fewer would drop finished iterations from the history.
        const Json before = Json::parse(read_text_file(settings_path, kJsonFileLimits));
        const int was = before.value("iterations", 0);
        if (c.iterations < was)
            throw std::invalid_argument(
                "--iterations " + std::to_string(c.iterations) + ": " + c.out_dir +
                " holds a loop of " + std::to_string(was) +
                " iterations; a resume may add iterations, never remove them (give --iterations " +
                std::to_string(was) + " or more)");
    }
    write_file_atomically(settings_path, to_json_text(settings, 2) + "\n");
}

// The start weights (or network), copied into the folder so that it says everything about the
// run (a resume keeps the copy there).
NamedWeights copy_start_weights(const LoopConfig& c) {
    NamedWeights start{c.engine.weights, c.out_dir + "/start.txt", nullptr};
    if (c.net) {
        const LoopNet n = write_start_network(c, loop_start_network(c));
        start.path = n.path;
        start.net = n.net;
    } else if (!fs::exists(start.path)) {
        save_weights_file(start.path, start.values,
                          {"start weights of the loop, from " + c.engine.weights_name});
    }
    return start;
}

// Step 1 of an iteration: self-play with the current weights (resumed in its folder).
SelfplaySummary selfplay_step(const LoopConfig& c, int n, const NamedWeights& current) {
    RunConfig sp;
    sp.rules = c.rules;
    sp.games = c.games;
    sp.players = {engine_with(c, current, c.engine.name)};
    sp.openings = OpeningSpec::parse(c.selfplay_openings);
    sp.seed = c.seed * 1000 + std::uint64_t(n);
    sp.exploration = {c.epsilon, c.explore_turns};
    sp.threads = c.threads;
    sp.out_dir = c.out_dir + "/iter-" + std::to_string(n) + "/selfplay";
    sp.resume = true;
    sp.setting_options = c.run_setting_options;
    sp.quiet = c.quiet;
    sp.engine_log = c.engine_log;
    live_loop_page(c, sp);
    const SelfplaySummary played = run_selfplay(sp);
    if (played.interrupted) throw std::runtime_error("interrupted: run again with --resume");
    return played;
}

// Step 2 of an iteration: the candidate, tuned on the window of recent iterations from the
// current weights (the network loop: a network trained from the current one; `kept_start` then
// says that no epoch beat the current network).
NamedWeights improve_step(const LoopConfig& c, int n, const NamedWeights& current,
                          const std::function<void(const std::string&)>& say, bool& kept_start) {
    kept_start = false;
    if (!c.net) return tune_step(c, n, current, say);
    const LoopNet trained = train_step(c, n, {current.net, current.path}, say);
    const std::string dir = c.out_dir + "/iter-" + std::to_string(n);
    kept_start = train_summary(dir).value("best_epoch", -1) == 0;
    return {c.engine.weights, trained.path, trained.net};
}

// Step 3 of an iteration: the candidate against the current weights in a match, unless the
// tuner kept every weight or the training the current network (`unchanged` says which): the
// same engine twice proves nothing.
std::optional<TournamentResult> verify_step(const LoopConfig& c, int n, const NamedWeights& tuned,
                                            const NamedWeights& current, bool kept_start,
                                            const char* unchanged,
                                            const std::string& match_openings,
                                            const std::function<void(const std::string&)>& say) {
    const std::string it = "iteration " + std::to_string(n) + ": ";
    if (kept_start || tuned.same_as(current)) {
        say(it + unchanged + ", no match");
        return std::nullopt;
    }
    say(it + "verification match");
    return match(c, c.out_dir + "/iter-" + std::to_string(n) + "/match",
                 engine_with(c, tuned, "new"), engine_with(c, current, "base"), c.verify_games,
                 c.sprt.has_value(), match_openings);
}

// One iteration: self-play, tuning (or training), verification, and step 4: the candidate
// becomes the current weights when accepted (by the SPRT, or the LOS of a fixed match). Returns
// the iteration's record for the history.
Json run_iteration(const LoopConfig& c, int n, NamedWeights& current,
                   const std::string& match_openings,
                   const std::function<void(const std::string&)>& say) {
    const std::string dir = c.out_dir + "/iter-" + std::to_string(n);
    const std::string it = "iteration " + std::to_string(n) + ": ";
    say(it + "self-play (" + std::to_string(c.games) + " games)");
    // Step 1. Self-play with the current weights.
    const SelfplaySummary played = selfplay_step(c, n, current);

    // Step 2. Tune on the window of recent iterations, from the current weights (the network
    // loop: train a network, from the current one).
    bool kept_start = false; // the network loop: no epoch beat the current network
    const NamedWeights tuned = improve_step(c, n, current, say, kept_start);
    const char* unchanged = !c.net ? "the tuner changed no weight"
                                   : "no training epoch beat the current network (best epoch 0)";

    // Step 3. Verify: the tuned weights against the current ones (unless the tuner kept every
    // weight, or the training the current network: the same engine twice proves nothing).
    const std::optional<TournamentResult> m =
        verify_step(c, n, tuned, current, kept_start, unchanged, match_openings, say);
    const stats::EloEstimate e =
        m ? stats::estimate_elo(m->results.pentanomial(0, 1)) : stats::EloEstimate{};
    const bool accepted = m && (m->sprt ? m->sprt->verdict == stats::SprtVerdict::AcceptH1
                                        : std::isfinite(e.los) && e.los >= c.accept_los);
    Json record = {{"iteration", n},
                   {"current_before", current.path},
                   {"candidate", tuned.path},
                   {"accepted", accepted},
                   {"selfplay",
                    {{"games", played.games},
                     {"positions", played.positions},
                     {"draws", played.draws},
                     {"white_wins", played.white_wins},
                     {"black_wins", played.black_wins}}},
                   {c.net ? "train" : "tune", c.net ? train_summary(dir) : tune_summary(dir)},
                   {"match", m ? stats::to_json(e) : Json{{"games", 0}, {"note", unchanged}}}};
    if (m && m->sprt) record["match"]["sprt"] = stats::verdict_name(m->sprt->verdict);
    // Step 4. Keep the winner.
    if (accepted) current = tuned;
    record["current_after"] = current.path;
    // The network the next iteration plays, for whoever wants the latest kept one.
    if (c.net)
        write_file_atomically(c.out_dir + "/current.net",
                              read_text_file(current.path, kNetFileLimits));
    say(it + (accepted ? "accepted" : "rejected"));
    return record;
}

// Step 5's result: the SPSA run's summary for the history and the engine with the tuned values
// (at --final-movetime when given).
struct LoopSpsa {
    Json summary;
    EngineSpec engine;
};

// Step 5: runs or resumes the SPSA run (spsa_step), and copies its parameters file to
// OUT/final_params.txt.
LoopSpsa loop_spsa(const LoopConfig& c, const NamedWeights& current,
                   const std::string& match_openings,
                   const std::function<void(const std::string&)>& say) {
    const auto [r, tuned] = spsa_step(c, current, match_openings, say);
    LoopSpsa s{{{"folder", c.out_dir + "/spsa"},
                {"games", r.games},
                {"seconds", r.summary.value("seconds", 0.0)},
                {"params", r.summary.value("params", Json::array())}},
               final_engine(c, tuned)};
    write_file_atomically(c.out_dir + "/final_params.txt",
                          read_text_file(c.out_dir + "/spsa/params.txt", kParamsFileLimits));
    return s;
}

// The final match, the last accepted weights (or network) against the start's, as the history's
// "final" (no match when no iteration was accepted).
Json final_match_json(const LoopConfig& c, const NamedWeights& current, const NamedWeights& start,
                      const EngineSpec& start_engine, const std::string& match_openings,
                      const std::function<void(const std::string&)>& say) {
    Json final_json;
    const char* what = c.net ? "network" : "weights";
    if (!current.same_as(start)) {
        say(std::string("final match: last accepted ") + what + " against the start " + what);
        const TournamentResult f =
            match(c, c.out_dir + "/final", final_engine(c, engine_with(c, current, "new")),
                  start_engine, c.final_games, false, match_openings, true);
        final_json = stats::to_json(stats::estimate_elo(f.results.pentanomial(0, 1)));
    } else {
        final_json = {
            {"games", 0},
            {"elo", 0.0},
            {"elo_error95", 0.0},
            {"note", std::string("no iteration was accepted: the ") + what + " did not change"}};
    }
    final_json[c.net ? "net" : "weights"] = current.path;
    return final_json;
}

// The final match with the SPSA values too (the last accepted weights and the tuned values
// against the start), as the history's "final_spsa".
Json final_spsa_json(const LoopConfig& c, const NamedWeights& current,
                     const EngineSpec& spsa_engine, const EngineSpec& start_engine,
                     const std::string& match_openings,
                     const std::function<void(const std::string&)>& say) {
    say("final match: last accepted weights and the SPSA values against the start");
    const TournamentResult f = match(c, c.out_dir + "/final-spsa", spsa_engine, start_engine,
                                     c.final_games, false, match_openings, true);
    Json j = stats::to_json(stats::estimate_elo(f.results.pentanomial(0, 1)));
    j["weights"] = current.path;
    j["params"] = c.out_dir + "/final_params.txt";
    return j;
}

// The loop's last files: history.json, the report of the whole loop (report::loop_report_inputs
// reads history.json, so it is written first; again after with the report's path, which goes
// into `history`), history.txt, and the final weights or network.
void write_loop_files(const LoopConfig& c, Json& history, const NamedWeights& current,
                      const std::function<void(const std::string&)>& say) {
    const std::string report_path = c.out_dir + "/report.html";
    write_file_atomically(c.out_dir + "/history.json", to_json_text(history, 2) + "\n");
    const report::Report page = report::build_report(report::loop_report_inputs(c.out_dir));
    for (const std::string& w : page.warnings) say("report: " + w);
    write_file_atomically(report_path, page.html);
    history["report"] = report_path;
    write_file_atomically(c.out_dir + "/history.json", to_json_text(history, 2) + "\n");
    write_file_atomically(c.out_dir + "/history.txt", loop_history_table(history));
    if (c.net)
        write_file_atomically(c.out_dir + "/final.net",
                              read_text_file(current.path, kNetFileLimits));
    else
        save_weights_file(c.out_dir + "/final_weights.txt", current.values,
                          {"final weights of the loop in " + c.out_dir, "from " + current.path});
}

} // namespace

EngineSpec loop_engine(const LoopConfig& c) {
    EngineSpec e = c.engine;
    if (!c.net || (e.net && e.net->arch.variant != c.rules.variant)) e.drop_default_network();
    return e;
}

void LoopConfig::validate() const {
    if (iterations < 1) throw std::invalid_argument("--iterations must be at least 1");
    if (games < 2) throw std::invalid_argument("--games must be at least 2");
    if (window < 1) throw std::invalid_argument("--window must be at least 1");
    if (!(accept_los >= 0 && accept_los <= 1))
        throw std::invalid_argument("--accept-los must lie between 0 and 1");
    if (!(epsilon >= 0 && epsilon <= 1))
        throw std::invalid_argument("--epsilon must lie between 0 and 1");
    if (!parse_optimizer(optimizer))
        throw std::invalid_argument("--optimizer: expected adam, newton or lbfgs");
    if (!(l2 >= 0)) throw std::invalid_argument("--l2 must be at least 0");
    if (patterns && !patterns_apply(rules.variant))
        throw std::invalid_argument("--patterns needs the 5x9 board (--variant tsivy)");
    if (engine.kind != EngineSpec::Kind::Engine)
        throw std::invalid_argument("the loop tunes the toolkit's own engine");
    if (!spsa_params.empty()) {
        if (spsa_games < 2) throw std::invalid_argument("--spsa-games must be at least 2");
        if (spsa_iteration_pairs < 1)
            throw std::invalid_argument("--spsa-iteration-pairs must be at least 1");
        // The specs, checked as spsa checks them, before any game of the loop.
        spsa_tuning(*this, engine).validate();
    }
    if (final_movetime_ms < 0 || final_movetime_ms > 3600000)
        throw std::invalid_argument("--final-movetime must lie between 1 and 3600000 ms");
    const EngineSpec played = loop_engine(*this);
    if (net) {
        if (patterns) throw std::invalid_argument("--patterns tunes weights: not with --net");
        if (!spsa_params.empty())
            throw std::invalid_argument("--spsa-param: not with --net (the loop trains networks)");
        if (played.net && played.net->arch.variant != rules.variant)
            throw std::invalid_argument("--net " + played.net_path + ": a network of the " +
                                        std::string(variant_name(played.net->arch.variant)) +
                                        " board; the loop plays " +
                                        std::string(variant_name(rules.variant)) + " (--variant)");
        if (train.epochs < 1) throw std::invalid_argument("--epochs must be at least 1");
        if (train.batch < 1) throw std::invalid_argument("--batch must be at least 1");
        if (!(train.lr > 0)) throw std::invalid_argument("--lr must be positive");
        if (!(train.lambda >= 0 && train.lambda <= 1))
            throw std::invalid_argument("--lambda must lie between 0 and 1");
    } else if (played.net && played.net->arch.variant == rules.variant) {
        // The engine would evaluate with the network: tuning weights it does not use.
        throw std::invalid_argument("a network plays on this board: the loop would tune weights "
                                    "the engine does not use (train the network: loop --net)");
    }
}

Json run_loop(const LoopConfig& config, const std::function<void(const std::string&)>& log) {
    LoopConfig c = config;
    c.engine = loop_engine(config);
    c.validate();
    const std::function<void(const std::string&)> say = [&](const std::string& text) {
        if (!c.quiet && log) log(text);
    };
    const ThreadLimit limit(c.threads); // self-play, opening scoring, tuning and matches
    const FolderLock lock(c.out_dir);   // creates the folder; one loop at a time in it
    if (!c.engine_log_path.empty() && !c.engine_log) {
        // That the log is no input and no file of the folder the option layer checked (its
        // --out declares the folder's files: tools/cmd_loop.cpp).
        c.engine_log = std::make_shared<EngineLog>(c.engine_log_path, c.resume);
    }
    const Json settings = loop_settings(c);
    write_loop_settings(c, settings);
    const NamedWeights start = copy_start_weights(c);
    const std::string match_openings = balanced_openings(c, say);

    // Steps 1 to 4 in each iteration, with the history as it grows.
    Json iterations = Json::array();
    NamedWeights current = start;
    for (int n = 1; n <= c.iterations; ++n) {
        iterations.push_back(run_iteration(c, n, current, match_openings, say));
        const Json partial_history = {{"settings", settings}, {"iterations", iterations}};
        write_file_atomically(c.out_dir + "/history.json", to_json_text(partial_history, 2) + "\n");
    }

    // Step 5 (once, when asked). SPSA over search parameters and weights by name, with the last
    // accepted weights.
    const EngineSpec start_engine = final_engine(c, engine_with(c, start, "base"));
    std::optional<LoopSpsa> spsa;
    if (!c.spsa_params.empty()) spsa = loop_spsa(c, current, match_openings, say);

    // Finally: the last weights against the start weights, then with the SPSA values too.
    const Json final_json = final_match_json(c, current, start, start_engine, match_openings, say);
    Json history = {{"settings", settings}, {"iterations", iterations}, {"final", final_json}};
    if (spsa) {
        const Json j = final_spsa_json(c, current, spsa->engine, start_engine, match_openings, say);
        history["spsa"] = spsa->summary;
        history["final_spsa"] = j;
    }
    write_loop_files(c, history, current, say);
    return history;
}

std::string loop_history_table(const Json& h) {
    std::string out =
        "iter  selfplay games  positions  val.loss start -> tuned   match Elo      LOS    kept\n";
    for (const auto& it : h.value("iterations", Json::array())) {
        const Json& fit = it.contains("train") ? it["train"] : it["tune"]; // loop --net: training
        char line[200];
        std::snprintf(
            line, sizeof line, "%4d  %14llu  %9llu  %10s -> %-8s %6s +- %-5s %5s  %s\n",
            it.value("iteration", 0),
            static_cast<unsigned long long>(it["selfplay"].value("games", std::uint64_t(0))),
            static_cast<unsigned long long>(it["selfplay"].value("positions", std::uint64_t(0))),
            fmt(report::number_at(fit, "start_validation_loss"), "%.5f").c_str(),
            fmt(report::number_at(fit, "final_validation_loss"), "%.5f").c_str(),
            fmt(report::number_at(it["match"], "elo"), "%+.1f").c_str(),
            fmt(report::number_at(it["match"], "elo_error95"), "%.1f").c_str(),
            fmt(report::number_at(it["match"], "los"), "%.3f").c_str(),
            it.value("accepted", false) ? "yes" : "no");
        out += line;
    }
    return out;
}

} // namespace fanorona
