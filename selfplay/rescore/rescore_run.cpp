#include "selfplay/rescore/rescore_run.h"
#include "selfplay/formats/json_text.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>

#include <tbb/info.h>

#include "core/common/append_file.h"
#include "core/common/files.h"
#include "core/common/folder_lock.h"
#include "core/common/progress.h"
#include "core/common/thread_limit.h"
#include "selfplay/formats/net_file.h"
#include "selfplay/formats/rules_json.h"
#include "selfplay/formats/weights_fingerprint.h"
#include "selfplay/games/batch_runner.h"
#include "selfplay/games/remote_link.h"
#include "selfplay/games/run_folder.h"

namespace fanorona {

namespace fs = std::filesystem;

namespace {

// The games of several corpus files, one file after another.
class InputGames {
public:
    explicit InputGames(const std::vector<std::string>& paths) {
        for (const std::string& p : paths) readers_.push_back(std::make_unique<CorpusReader>(p));
    }
    const std::vector<std::unique_ptr<CorpusReader>>& readers() const { return readers_; }
    bool next(CorpusGame& game) {
        for (; at_ < readers_.size(); ++at_)
            if (readers_[at_]->next(game)) return true;
        return false;
    }
    // Where the game last returned is: "FILE: game N of the file".
    std::string where() const {
        const CorpusReader& r = *readers_[std::min(at_, readers_.size() - 1)];
        return r.path() + ": game " + std::to_string(r.games()) + " of the file";
    }

private:
    std::vector<std::unique_ptr<CorpusReader>> readers_;
    std::size_t at_ = 0;
};

// Whether `out` is `in` rescored: the same game with a score where rescoring searched (the
// scores' values aside).
bool same_but_scores(const CorpusGame& out, const CorpusGame& in, bool all) {
    if (out.index != in.index || out.ruleset != in.ruleset || !(out.start == in.start) ||
        out.moves != in.moves || out.result != in.result || out.reason != in.reason ||
        out.opening_turns != in.opening_turns || out.scores.size() != in.scores.size() ||
        out.end_score.has_value() != in.end_score.has_value())
        return false;
    for (std::size_t i = 0; i < in.moves.size(); ++i)
        if (out.scores[i].has_value() != rescored(in, i, all)) return false;
    return true;
}

} // namespace

nlohmann::json rescore_settings_json(const RescoreConfig& c, const Rules& rules) {
    const EngineSpec& e = c.settings.engine;
    nlohmann::json j = {
        {"format", kRescoreSettingsFormat},
        {"inputs", c.inputs},
        {"engine", e.description()},
        {"weights_fingerprint", weights_fingerprint(e.weights)},
        // The spec names a network by its file: a file changed since must not resume the run.
        {"net_fingerprint", e.net ? net_fingerprint(*e.net) : std::string("-")},
        {"all", c.settings.all},
        {"block_games", c.block_games},
        {"max_games", c.max_games},
    };
    put_rules(j, rules);
    return j;
}

namespace {

// Step 1 of run_rescore: the inputs' one board and rules (the first file's, the output's) and
// their games, into `outcome`.
void read_inputs(const RescoreConfig& c, InputGames& in, RescoreOutcome& outcome) {
    const Rules rules = outcome.rules = in.readers().front()->rules();
    for (const auto& r : in.readers())
        if (!(r->rules() == rules))
            throw std::invalid_argument(r->path() + ": header: " + rules_name(r->rules()) +
                                        ", but " + c.inputs.front() + " is " + rules_name(rules) +
                                        " (a corpus holds one board and rules)");
    c.settings.engine.check_rules(rules);
    for (const std::string& p : c.inputs) {
        const CorpusScan s = scan_corpus(p);
        for (const std::uint64_t g : s.games) outcome.input_games += g;
    }
}

// What a resume keeps of the output: its scan, its whole blocks and their games.
struct ResumePoint {
    CorpusScan scan;
    std::uint64_t blocks = 0, kept = 0;
};

// Checks that the first `kept` games of the output are the inputs' rescored (reading them
// from `in`).
void check_kept_games(const RescoreConfig& c, InputGames& in, std::uint64_t kept) {
    CorpusReader out(c.out);
    CorpusGame og, ig;
    for (std::uint64_t k = 0; k < kept; ++k) {
        if (!out.next(og))
            throw CorpusError(c.out + ": game " + std::to_string(k + 1) +
                              " of its intact blocks cannot be read");
        if (!in.next(ig))
            throw RunFolderError(c.out + ": holds " + std::to_string(kept) +
                                 " games in whole blocks, but the inputs hold only " +
                                 std::to_string(k) + " (not a rescore of these inputs)");
        if (!same_but_scores(og, ig, c.settings.all))
            throw RunFolderError(c.out + ": game " + std::to_string(k + 1) + " (index " +
                                 std::to_string(og.index) + ") is not " + in.where() +
                                 " rescored (not a rescore of these inputs)");
    }
}

// Step 2 of run_rescore: what a resume keeps, every check before the first change.
ResumePoint resume_point(const RescoreConfig& c, InputGames& in, const RescoreOutcome& outcome,
                         const nlohmann::json& settings, const std::string& spath) {
    ResumePoint at{scan_corpus(c.out, outcome.rules)};
    const CorpusScan& scan = at.scan;
    if (scan.has_header && !(scan.rules == outcome.rules))
        throw std::invalid_argument(c.out + ": header: " + rules_name(scan.rules) +
                                    ", but the inputs are " + rules_name(outcome.rules));
    if (scan.ends.empty()) return at;
    if (!c.resume)
        throw RunFolderError(c.out + ": already holds games; use --resume to continue the "
                                     "rescore, or choose another --out");
    if (!fs::exists(spath))
        throw RunFolderError(spath + ": missing, but " + c.out +
                             " holds games: the settings they were rescored with are "
                             "unknown; restore it, or start a new --out");
    check_resume_settings_file(spath, settings, {"max_games"}, c.setting_options);
    // Blocks of block_games games each: a shorter block (the last of a run that stopped)
    // is written again, so the file is the one an uninterrupted run writes; unless it is
    // the last of a finished run (the output then holds every game there is to rescore).
    while (at.blocks < scan.ends.size() && scan.games[at.blocks] == c.block_games)
        at.kept += scan.games[at.blocks++];
    const std::uint64_t target =
        std::min(outcome.input_games, c.max_games ? c.max_games : ~std::uint64_t(0));
    if (at.blocks + 1 == scan.ends.size() && at.kept + scan.games[at.blocks] == target)
        at.kept += scan.games[at.blocks++];
    check_kept_games(c, in, at.kept);
    return at;
}

// Step 3 of run_rescore: resuming, the bytes after the blocks kept go (a torn tail, or blocks
// written again).
void cut_after_kept(const RescoreConfig& c, const ResumePoint& at) {
    const CorpusScan& scan = at.scan;
    const std::uint64_t dropped = at.blocks ? cut_tail(c.out, scan.size, scan.ends[at.blocks - 1])
                                  : !scan.ends.empty() ? scan.size
                                                       : 0;
    if (dropped)
        std::fprintf(stderr, "resume: %s: cut %llu bytes (%s)\n", c.out.c_str(),
                     static_cast<unsigned long long>(dropped),
                     at.blocks < scan.ends.size()
                         ? "blocks shorter than --block-games, to be written again"
                         : scan.tail_problem.c_str());
}

// Step 4 of run_rescore: the rest, a window of whole blocks at a time, rescored in parallel;
// each game is written as soon as every game before it is, and each block once it holds
// block_games games, so an interruption loses at most the games in flight and the block not
// yet written. The games written in all (the kept ones included).
std::uint64_t rescore_rest(const RescoreConfig& c, InputGames& in, GameRescorer& rescorer,
                           CorpusWriter& writer, ProgressLine& progress, RescoreOutcome& outcome) {
    const std::uint64_t kept = outcome.kept_games;
    const std::uint64_t limit_games = c.max_games ? c.max_games : ~std::uint64_t(0);
    const int threads = c.threads > 0 ? c.threads : tbb::info::default_concurrency();
    const std::uint64_t window_games =
        std::max<std::uint64_t>(1,
                                (64 * std::uint64_t(threads) + c.block_games - 1) / c.block_games) *
        c.block_games;
    std::uint64_t written = kept;
    std::vector<CorpusGame> window, results;
    std::vector<char> done; // per game of the window: rescored
    std::size_t next = 0;   // the window's first game not written
    // Called by the rescorer one game at a time (results[k] is in).
    const auto on_done = [&](std::size_t k, const RescoreCount& count) {
        outcome.searched += count;
        ++outcome.games;
        done[k] = 1;
        for (; next < window.size() && done[next]; ++next) {
            writer.add(results[next]);
            if (++written % c.block_games == 0) writer.flush();
        }
        const double secs = progress.elapsed_seconds();
        char extra[64];
        std::snprintf(extra, sizeof extra, "%.0f positions/s",
                      secs > 0 ? double(outcome.searched.positions) / secs : 0.0);
        progress.update(kept + outcome.games, extra);
    };
    CorpusGame g;
    while (written < limit_games) {
        window.clear();
        while (window.size() < window_games && written + window.size() < limit_games && in.next(g))
            window.push_back(g);
        if (window.empty()) break;
        done.assign(window.size(), 0);
        next = 0;
        if (rescorer.rescore(window, results, on_done) < window.size()) {
            outcome.interrupted = true;
            break;
        }
    }
    return written;
}

} // namespace

RescoreOutcome run_rescore(const RescoreConfig& c) {
    if (c.inputs.empty()) throw std::invalid_argument("rescore: no input corpus");
    if (c.block_games < 1) throw std::invalid_argument("--block-games must be at least 1");
    if (c.settings.engine.kind != EngineSpec::Kind::Engine)
        throw std::invalid_argument("rescore: the rescoring engine must be the toolkit's engine");
    const std::string spath = RescoreConfig::settings_path(c.out), sum = c.summary_path();
    check_writable(c.out);
    check_writable(sum);
    const FileLock lock(c.out);
    const ThreadLimit limit(c.threads);

    // Step 1. The inputs.
    InputGames in(c.inputs);
    RescoreOutcome outcome;
    read_inputs(c, in, outcome);
    const Rules rules = outcome.rules;
    const nlohmann::json settings = rescore_settings_json(c, rules);
    // Step 2. The output: what a resume keeps.
    const ResumePoint at = resume_point(c, in, outcome, settings, spath);
    // Step 3. The first change: the settings written, the output cut after what it keeps.
    fs::remove(sum); // the summary of an earlier run
    write_file_atomically(spath, to_json_text(settings, 2) + "\n");
    cut_after_kept(c, at);
    AppendFile file(c.out, at.blocks == 0);
    CorpusWriter writer(
        rules, [&file](const std::string& bytes) { file.append(bytes); }, at.blocks > 0);
    outcome.kept_games = at.kept;

    // Step 4. The rest, rescored.
    install_interrupt_handlers();
    GameRescorer rescorer(rules, c.settings, c.threads);
    const std::uint64_t limit_games = c.max_games ? c.max_games : ~std::uint64_t(0);
    ProgressLine progress(std::min(outcome.input_games, limit_games), c.quiet);
    progress.update(at.kept, "", true);
    const std::uint64_t written = rescore_rest(c, in, rescorer, writer, progress, outcome);
    writer.flush();
    file.close();
    progress.finish();
    // Step 5. The summary.
    outcome.seconds = progress.elapsed_seconds();
    outcome.games = written - at.kept;
    outcome.out_games = written;
    if (!outcome.interrupted && written < limit_games)
        for (const auto& r : in.readers())
            if (!r->tail_problem().empty())
                progress.note("fanorona: " + r->path() + ": " + r->tail_problem() + "; the " +
                              std::to_string(r->games()) + " intact games before it were read");
    write_file_atomically(sum, to_json_text(rescore_summary_json(c, outcome), 2) + "\n");
    return outcome;
}

nlohmann::json rescore_summary_json(const RescoreConfig& c, const RescoreOutcome& o) {
    const auto per_second = [&](double n) { return o.seconds > 0 ? n / o.seconds : 0.0; };
    nlohmann::json j = {
        {"format", kRescoreSummaryFormat},
        {"out", c.out},
        {"settings", rescore_settings_json(c, o.rules)},
        {"input_games", o.input_games},
        {"kept_games", o.kept_games},
        {"games", o.games},
        {"out_games", o.out_games},
        {"positions", o.searched.positions},
        {"nodes", o.searched.nodes},
        {"seconds", o.seconds},
        {"games_per_second", per_second(double(o.games))},
        {"positions_per_second", per_second(double(o.searched.positions))},
        {"nodes_per_second", per_second(double(o.searched.nodes))},
        {"threads", c.threads},
        {"interrupted", o.interrupted},
    };
    if (remote_link().traffic)
        if (const nlohmann::json t = remote_link().traffic(); !t.is_null()) j["cluster"] = t;
    return j;
}

} // namespace fanorona
