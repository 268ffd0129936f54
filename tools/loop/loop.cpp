#include "tools/loop/loop.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <optional>

#include "common/weights_file.h"
#include "common/weights_fingerprint.h"
#include "core/weights.h"
#include "selfplay/batch/run_folder.h"
#include "selfplay/openings/search_book.h"
#include "selfplay/selfplay.h"
#include "selfplay/tournament/tournament.h"
#include "stats/elo.h"
#include "stats/stats_json.h"
#include "tools/report/report.h"
#include "tuner/tune.h"

namespace fanorona {

namespace fs = std::filesystem;
using Json = nlohmann::json;

namespace {

void say(const LoopConfig& c, const std::string& text) {
    if (!c.quiet) std::fprintf(stderr, "%s\n", text.c_str());
}

Json loop_settings(const LoopConfig& c) {
    return {{"format", "fanorona-loop-settings 1"},
            {"variant", variant_name(c.rules.variant)},
            {"rules", ruleset_name(c.rules.ruleset)},
            {"iterations", c.iterations},
            {"games", c.games},
            {"depth", c.limits.depth},
            {"nodes", c.limits.nodes},
            {"start_weights", c.start_weights},
            {"verify_games", c.verify_games},
            {"final_games", c.final_games},
            {"sprt", c.sprt ? c.sprt->to_string() : ""},
            {"accept_los", c.accept_los},
            {"window", c.window},
            {"selfplay_openings", c.selfplay_openings},
            {"match_openings", c.match_openings},
            {"epsilon", c.epsilon},
            {"explore_turns", c.explore_turns},
            {"optimizer", c.optimizer},
            {"l2", c.l2},
            {"seed", c.seed}};
}

// A match of `candidate` against `base` weights; returns the tournament result.
TournamentResult match(const LoopConfig& c, const std::string& dir, const std::string& candidate,
                       const std::string& base, std::uint64_t games, bool use_sprt,
                       const std::string& openings, bool fresh = false) {
    TournamentConfig t;
    t.rules = c.rules;
    PlayerSpec a, b;
    a.name = "new";
    a.weights = candidate;
    a.limits = c.limits;
    b.name = "base";
    b.weights = base;
    b.limits = c.limits;
    t.players = {a, b};
    t.rounds = std::max<std::uint64_t>(1, games / 2);
    t.openings = OpeningSpec::parse(openings);
    t.seed = c.seed;
    if (use_sprt) t.sprt = c.sprt;
    t.concurrency = c.threads;
    t.out_dir = dir;
    // The final match is replayed when the loop grew: its candidate may have changed.
    if (fresh && fs::exists(dir)) {
        const auto old = Json::parse(read_text_file(dir + "/settings.json"));
        if (old.value("weights_fingerprints", Json()) !=
            Json::array({weights_fingerprint(load_weights_file(candidate)),
                         weights_fingerprint(load_weights_file(base))}))
            fs::remove_all(dir);
    }
    t.resume = true;
    t.quiet = c.quiet;
    TournamentResult r = run_tournament(t);
    if (r.interrupted) throw std::runtime_error("interrupted: run again with --resume");
    return r;
}

// A suite of balanced openings scored by a short search with the start weights, built once.
std::string balanced_openings(const LoopConfig& c) {
    if (c.match_openings != "balanced") return c.match_openings;
    const std::string path = c.out_dir + "/openings.txt";
    if (fs::exists(path)) return path;
    // Thousands of openings, so that matches do not replay the same games: every position
    // after 4 turns (17075 on the 5x9 board), scored by a depth-2 search.
    say(c, "building a balanced opening suite (positions after 4 turns, scored at depth 2)");
    auto openings = enumerate_openings(c.rules, 4);
    score_openings(openings, c.rules, default_weights(), 2, c.threads);
    auto book = balanced_search_book(openings, ScoreRange{-60, 60});
    if (book.size() < 8) book = balanced_search_book(openings, ScoreRange{-150, 150});
    if (book.empty()) return "random:4";
    write_file_atomically(path, format_book(book, {"balanced openings for the loop's matches"}));
    return path;
}

} // namespace

Json run_loop(const LoopConfig& c) {
    if (c.iterations < 1) throw std::invalid_argument("--iterations must be at least 1");
    const FolderLock lock(c.out_dir); // creates the folder; one loop at a time in it
    const Json settings = loop_settings(c);
    const std::string settings_path = c.out_dir + "/settings.json";
    if (fs::exists(settings_path)) {
        if (!c.resume)
            throw std::runtime_error(c.out_dir + " already holds a loop: use --resume to continue "
                                                 "it, or choose another --out folder");
        check_resume_settings(c.out_dir, settings, {"iterations"});
    }
    write_file_atomically(settings_path, settings.dump(2) + "\n");

    // The start weights are copied in, so the folder says everything about the run.
    const std::string start = c.out_dir + "/start.txt";
    if (!fs::exists(start))
        write_file_atomically(
            start, format_weights(load_weights_file(c.start_weights),
                                  {"start weights of the loop, from " + c.start_weights}));
    const std::string match_openings = balanced_openings(c);

    Json iterations = Json::array();
    std::string current = start;
    for (int n = 1; n <= c.iterations; ++n) {
        const std::string dir = c.out_dir + "/iter-" + std::to_string(n);
        say(c, "iteration " + std::to_string(n) + ": self-play (" + std::to_string(c.games) +
                   " games)");
        // Step 1. Self-play with the current weights.
        SelfplayConfig sp;
        sp.rules = c.rules;
        sp.games = c.games;
        sp.limits = c.limits;
        sp.weights = load_weights_file(current);
        sp.weights_name = fs::path(current).filename().string();
        sp.openings = OpeningSpec::parse(c.selfplay_openings);
        sp.seed = c.seed * 1000 + std::uint64_t(n);
        sp.exploration = {c.epsilon, c.explore_turns};
        sp.threads = c.threads;
        sp.out_dir = dir + "/selfplay";
        sp.resume = true;
        sp.quiet = c.quiet;
        const SelfplaySummary played = run_selfplay(sp);
        if (played.interrupted) throw std::runtime_error("interrupted: run again with --resume");

        // Step 2. Tune on the window of recent iterations, from the current weights.
        const std::string tuned = dir + "/tune/weights.txt";
        Json tune_info;
        if (!fs::exists(tuned)) {
            say(c, "iteration " + std::to_string(n) + ": tuning");
            TuneConfig t;
            for (int k = std::max(1, n - c.window + 1); k <= n; ++k)
                t.data.push_back(c.out_dir + "/iter-" + std::to_string(k) +
                                 "/selfplay/positions.bin");
            t.start = load_weights_file(current);
            t.start_name = current;
            const std::string partial = dir + "/tune.partial";
            fs::remove_all(partial);
            t.out = partial + "/weights.txt";
            const auto kind = parse_optimizer(c.optimizer);
            if (!kind) throw std::invalid_argument("--optimizer: expected adam, newton or lbfgs");
            t.optimizer.kind = *kind;
            t.l2 = c.l2;
            t.seed = c.seed + std::uint64_t(n);
            t.threads = c.threads;
            const TuneReport report = run_tune(t, [&](const std::string& line) {
                if (!c.quiet) std::fprintf(stderr, "  %s\n", line.c_str());
            });
            write_tune_outputs(t, report);
            fs::remove_all(dir + "/tune");
            fs::rename(partial, dir + "/tune"); // the step counts as done only once complete
        }
        tune_info = Json::parse(read_text_file(dir + "/tune/tune.json"));

        // Step 3. Verify: the tuned weights against the current ones (unless the tuner kept every
        // weight: the same engine twice proves nothing).
        const bool unchanged = tune_info.value("changed_weights", Json::array()).empty();
        std::optional<TournamentResult> m;
        if (unchanged) {
            say(c, "iteration " + std::to_string(n) + ": the tuner changed no weight, no match");
        } else {
            say(c, "iteration " + std::to_string(n) + ": verification match");
            m = match(c, dir + "/match", tuned, current, c.verify_games, c.sprt.has_value(),
                      match_openings);
        }
        const stats::EloEstimate e =
            m ? stats::estimate_elo(m->results.pentanomial(0, 1)) : stats::EloEstimate{};
        const bool accepted = m && (m->sprt ? m->sprt->verdict == stats::SprtVerdict::AcceptH1
                                            : std::isfinite(e.los) && e.los >= c.accept_los);
        Json record = {{"iteration", n},
                       {"current_before", current},
                       {"candidate", tuned},
                       {"accepted", accepted},
                       {"selfplay",
                        {{"games", played.games},
                         {"positions", played.positions},
                         {"draws", played.draws},
                         {"white_wins", played.white_wins},
                         {"black_wins", played.black_wins}}},
                       {"tune",
                        {{"k", tune_info.value("k", 0.0)},
                         {"start_validation_loss", tune_info.value("start_validation_loss", 0.0)},
                         {"final_validation_loss", tune_info.value("final_validation_loss", 0.0)}}},
                       {"match", m ? stats::to_json(e)
                                   : Json{{"games", 0}, {"note", "the tuner changed no weight"}}}};
        if (m && m->sprt) record["match"]["sprt"] = stats::verdict_name(m->sprt->verdict);
        // Step 4. Keep the winner.
        if (accepted) current = tuned;
        record["current_after"] = current;
        iterations.push_back(record);
        say(c, "iteration " + std::to_string(n) + ": " + (accepted ? "accepted" : "rejected"));
        Json partial_history = {{"settings", settings}, {"iterations", iterations}};
        write_file_atomically(c.out_dir + "/history.json", partial_history.dump(2) + "\n");
    }

    // Finally: the last weights against the start weights.
    Json final_json;
    if (current != start) {
        say(c, "final match: last accepted weights against the start weights");
        const TournamentResult f = match(c, c.out_dir + "/final", current, start, c.final_games,
                                         false, match_openings, true);
        final_json = stats::to_json(stats::estimate_elo(f.results.pentanomial(0, 1)));
    } else {
        final_json = {{"games", 0},
                      {"elo", 0.0},
                      {"elo_error95", 0.0},
                      {"note", "no iteration was accepted: the weights did not change"}};
    }
    final_json["weights"] = current;
    Json history = {{"settings", settings}, {"iterations", iterations}, {"final", final_json}};

    // The report: the last iteration's self-play and tuning, and the final match (or the last
    // verification match when nothing was accepted).
    report::ReportInputs inputs;
    const std::string last = c.out_dir + "/iter-" + std::to_string(c.iterations);
    inputs.selfplay = last + "/selfplay";
    inputs.tune = last + "/tune";
    if (fs::exists(c.out_dir + "/final/results.json") && current != start)
        inputs.tournament = c.out_dir + "/final";
    else // the latest verification match, if the tuner ever changed a weight
        for (int n = c.iterations; n >= 1 && inputs.tournament.empty(); --n)
            if (const std::string d = c.out_dir + "/iter-" + std::to_string(n) + "/match";
                fs::exists(d + "/results.json"))
                inputs.tournament = d;
    inputs.title = "Fanorona Lab loop: " + c.out_dir;
    const report::Report page = report::build_report(inputs);
    for (const std::string& w : page.warnings) say(c, "report: " + w);
    const std::string report_path = c.out_dir + "/report.html";
    write_file_atomically(report_path, page.html);
    history["report"] = report_path;
    write_file_atomically(c.out_dir + "/history.json", history.dump(2) + "\n");
    if (fs::exists(current))
        fs::copy_file(current, c.out_dir + "/final_weights.txt",
                      fs::copy_options::overwrite_existing);
    return history;
}

} // namespace fanorona
