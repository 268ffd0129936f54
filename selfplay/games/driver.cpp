#include "selfplay/games/driver.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "core/common/progress.h"
#include "core/common/thread_limit.h"
#include "selfplay/engine/process.h"
#include "selfplay/formats/net_file.h"
#include "selfplay/formats/rules_json.h"
#include "selfplay/formats/weights_fingerprint.h"
#include "selfplay/games/batch_runner.h"
#include "selfplay/games/program_info.h"
#include "selfplay/games/remote_link.h"
#include "selfplay/games/scheduled_games.h"

namespace fanorona {

namespace {

// The seed of the Vela games' openings ("VELA" mixed into the run's seed).
std::uint64_t vela_seed(std::uint64_t seed) {
    return seed ^ 0x56454C4100000000ULL;
}

// The indices of this shard's games, in order.
std::vector<std::uint64_t> shard_indices(const RunConfig& c) {
    std::vector<std::uint64_t> indices;
    for (std::uint64_t i = std::uint64_t(c.shard_index); i < c.games;
         i += std::uint64_t(c.shard_count))
        indices.push_back(i);
    return indices;
}

// After this many forfeit warnings in a session, one summary line at the end.
constexpr std::uint64_t kForfeitWarnings = 3;

// The run's folder: its settings (a resume may change the number of games), the games file's
// header, the positions log, the live stream and summary files, and this shard's game indices.
RunFolderSpec run_folder_spec(const RunConfig& c) {
    RunFolderSpec folder;
    folder.dir = c.out_dir;
    folder.settings = settings_json(c);
    folder.free_keys = {"games"};
    folder.header = GamesHeader{c.rules.variant, c.rules.ruleset, c.vela_series};
    folder.log_positions = c.log_positions;
    folder.corpus = c.corpus;
    folder.live_path = c.live_path;
    folder.summary_files = c.summary_files;
    folder.summary_format = c.summary_format;
    folder.first_index = std::uint64_t(c.shard_index);
    folder.index_step = std::uint64_t(c.shard_count);
    folder.resume = c.resume;
    folder.setting_options = c.setting_options;
    return folder;
}

// The openings of the schedule's rounds (random ones drawn lazily, as the pairs need them); a
// match from a suite file with fewer openings than rounds gets a warning (its games repeat).
RunOpenings load_run_openings(const RunConfig& c, const Schedule& schedule) {
    RunOpenings openings = run_openings(c.openings, c.rules, c.seed);
    const std::size_t suite = openings.list().size();
    if (!c.quiet && c.pairing != Pairing::SelfPlay && c.openings.kind == OpeningSpec::Kind::File &&
        suite < schedule.rounds_for(c.games))
        std::fprintf(stderr,
                     "warning: %llu rounds but %zu openings in %s: openings repeat, and "
                     "deterministic players replay the same games (the error bars are then too "
                     "narrow)\n",
                     static_cast<unsigned long long>(schedule.rounds_for(c.games)), suite,
                     c.openings.path.c_str());
    return openings;
}

// The Vela games' openings: the same spec under Vela rules, from their own seed (none without a
// Vela series).
RunOpenings vela_series_openings(const RunConfig& c) {
    Rules vela_rules = c.rules;
    vela_rules.ruleset = RuleSet::Vela;
    return c.vela_series ? run_openings(c.openings, vela_rules, vela_seed(c.seed)) : RunOpenings();
}

// A normal game of a Vela series: its slot, result and index (its Vela game's colours follow
// from them).
struct NormalGame {
    GameSlot slot;
    GameResult result = GameResult::Draw;
    std::uint64_t index = 0;
};

// Runs a task every `seconds` on a thread of its own until destroyed (RunConfig::on_interval);
// the task's exceptions are dropped, and destruction waits for a task under way.
class PeriodicTask {
public:
    PeriodicTask(double seconds, std::function<void()> task) {
        if (seconds <= 0 || !task) return;
        thread_ = std::thread([this, seconds, task = std::move(task)] {
            const auto period = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                std::chrono::duration<double>(seconds));
            std::unique_lock lock(mutex_);
            while (!cv_.wait_for(lock, period, [this] { return stopping_; })) {
                lock.unlock();
                try {
                    task();
                } catch (...) { // a page not written this time is written the next
                }
                lock.lock();
            }
        });
    }
    ~PeriodicTask() {
        if (!thread_.joinable()) return;
        {
            const std::lock_guard lock(mutex_);
            stopping_ = true;
        }
        cv_.notify_all();
        thread_.join();
    }
    PeriodicTask(const PeriodicTask&) = delete;
    PeriodicTask& operator=(const PeriodicTask&) = delete;

private:
    std::mutex mutex_;
    std::condition_variable cv_;
    bool stopping_ = false;
    std::thread thread_;
};

// A run's games in schedule order between the steps: the players' descriptions (in a staged run
// the current stage's), the last normal game of a series seen (replayed or written), and while
// the games are played, the games in the folder and the forfeits of this session.
struct GameRun {
    const RunConfig& c;
    const Schedule& schedule;
    RunFolder& files;
    GameObserver& observer;
    std::vector<std::string> descriptions;
    std::optional<NormalGame> last_normal;
    std::vector<EngineSpec> stage_specs; // a staged run: the current stage's players
    std::atomic<bool> stop{false};       // no new game starts (the observer has seen enough)
    std::uint64_t done = 0;              // games in the folder
    std::uint64_t forfeits = 0;          // games forfeited in this session
    GamesByRank by_rank; // this session's games by rank, when other ranks play (else empty)

    std::shared_ptr<EngineLog> engine_log; // the run's open engine log, or none

    GameRun(const RunConfig& config, const Schedule& s, RunFolder& folder, GameObserver& o)
        : c(config), schedule(s), files(folder), observer(o) {
        for (const EngineSpec& p : c.players) descriptions.push_back(p.description());
    }

    GameSlot real_slot(std::uint64_t index, bool* skipped) const;
    void note_game(const GameRecord& g, const GameSlot& slot);
    void begin_stage(std::uint64_t stage);
    std::uint64_t replay_existing(const std::vector<std::uint64_t>& indices);
    void replay_game(const GameRecord& g, std::uint64_t index);
    void play(ScheduledGames& scheduled, RemotePlayers* remote,
              const std::vector<std::uint64_t>& indices, std::uint64_t existing,
              RunOutcome& outcome);
    std::uint64_t play_stages(ScheduledGames& scheduled, RemotePlayers* remote,
                              std::uint64_t existing,
                              const std::function<void(PlayedGame&&)>& sink);
    std::uint64_t play_vela_series(ScheduledGames& scheduled, RemotePlayers* remote,
                                   std::uint64_t existing,
                                   const std::function<void(PlayedGame&&)>& sink);
    void write_game(PlayedGame&& game, ProgressLine& progress);
};

// The slot of game `index` with a Vela game's real colours; `skipped` when its series ended.
GameSlot GameRun::real_slot(std::uint64_t index, bool* skipped) const {
    GameSlot slot = schedule.slot(index);
    *skipped = false;
    if (slot.vela) {
        if (!last_normal || last_normal->index + 1 != index)
            throw std::logic_error("Vela game without its normal game");
        *skipped =
            !vela_colours(slot, last_normal->slot, last_normal->result == GameResult::WhiteWins,
                          last_normal->result == GameResult::BlackWins);
    }
    return slot;
}

// Remembers a normal game of a Vela series seen, replayed or written: its Vela game follows.
void GameRun::note_game(const GameRecord& g, const GameSlot& slot) {
    if (c.vela_series && !slot.vela) last_normal = NormalGame{slot, g.result, g.index};
}

// A staged run: the players of stage `stage`, checked against the run's, into `descriptions`.
void GameRun::begin_stage(std::uint64_t stage) {
    std::vector<EngineSpec> specs = c.stage_players(stage);
    if (specs.size() != c.players.size())
        throw std::logic_error("stage_players: a stage needs as many players as the run");
    for (std::size_t p = 0; p < specs.size(); ++p) {
        specs[p].validate();
        if (specs[p].name != c.players[p].name)
            throw std::logic_error("stage_players: a stage's players keep the run's names");
        descriptions[p] = specs[p].description();
    }
    stage_specs = std::move(specs);
}

// Step 1: the games already in the folder, each checked and replayed to the observer; returns
// their count. Throws std::runtime_error when the folder holds more games than this shard's
// schedule (`indices`).
std::uint64_t GameRun::replay_existing(const std::vector<std::uint64_t>& indices) {
    const std::uint64_t existing =
        std::min<std::uint64_t>(files.games_already_written(), indices.size());
    if (files.games_already_written() > indices.size())
        throw std::runtime_error(RunFolder::games_path(c.out_dir) + ": holds " +
                                 std::to_string(files.games_already_written()) +
                                 " games, more than the " + std::to_string(indices.size()) +
                                 " scheduled (--games may grow on a resume, not shrink)");
    if (existing > 0) {
        const GamesFile old = read_games_file(RunFolder::games_path(c.out_dir));
        for (std::uint64_t k = 0; k < existing; ++k) replay_game(old.games[k], indices[k]);
    }
    return existing;
}

// Replays a game of the folder, which must be the scheduled game `index` (its index, players and
// kind); throws std::runtime_error naming what was expected otherwise.
void GameRun::replay_game(const GameRecord& g, std::uint64_t index) {
    if (c.stage_games && index % c.stage_games == 0) begin_stage(index / c.stage_games);
    bool skipped = false;
    const GameSlot slot = real_slot(index, &skipped);
    const GameKind kind = !slot.vela ? GameKind::Normal
                          : skipped  ? GameKind::Skipped
                                     : GameKind::Vela;
    if (g.index != index || g.white != descriptions[std::size_t(slot.white)] ||
        g.black != descriptions[std::size_t(slot.black)] || g.kind != kind)
        throw std::runtime_error(
            RunFolder::games_path(c.out_dir) + ": game " + std::to_string(g.index) +
            " does not match this run's schedule (expected game " + std::to_string(index) + ", " +
            descriptions[std::size_t(slot.white)] + " against " +
            descriptions[std::size_t(slot.black)] +
            (c.vela_series ? ", " + std::string(game_kind_name(kind)) : std::string()) + ")");
    note_game(g, slot);
    observer.replay(g, slot);
}

// Step 3: plays the games of `indices` (after the `existing` ones) and writes each in order,
// unless the observer has already seen enough; the games played go into the outcome with the
// games in the folder and the session's time.
void GameRun::play(ScheduledGames& scheduled, RemotePlayers* remote,
                   const std::vector<std::uint64_t>& indices, std::uint64_t existing,
                   RunOutcome& outcome) {
    stop = observer.finished();
    ProgressLine progress(outcome.scheduled, c.quiet, ProgressMode::Auto, observer.open_ended());
    done = existing;
    const std::function<void(PlayedGame &&)> sink = [&](PlayedGame&& game) {
        write_game(std::move(game), progress);
    };
    if (!stop) {
        progress.update(done, observer.progress(), true);
        if (c.stage_games) {
            outcome.played_now = play_stages(scheduled, remote, existing, sink);
        } else if (!c.vela_series) {
            auto play_game = [&](std::uint64_t index) { return scheduled.play(index); };
            outcome.played_now =
                run_batch(indices, BatchOptions{c.threads, &stop, remote}, play_game, sink);
        } else {
            outcome.played_now = play_vela_series(scheduled, remote, existing, sink);
        }
        progress.finish();
        if (forfeits > kForfeitWarnings)
            progress.note("fanorona: warning: " + std::to_string(forfeits) +
                          " games forfeited by a player in this session (the reasons are in " +
                          "games.tsv's reason column)");
    }
    outcome.seconds = progress.elapsed_seconds();
    outcome.games = done;
}

// Stage by stage: the next stage's players exist once this one's games are all in. Returns the
// games played.
std::uint64_t GameRun::play_stages(ScheduledGames& scheduled, RemotePlayers* remote,
                                   std::uint64_t existing,
                                   const std::function<void(PlayedGame&&)>& sink) {
    auto play_game = [&](std::uint64_t index) { return scheduled.play(index); };
    std::uint64_t played = 0;
    if (existing % c.stage_games != 0) scheduled.set_players(stage_specs);
    while (done < c.games && !stop && !interrupt_flag()) {
        const std::uint64_t stage = done / c.stage_games;
        const std::uint64_t end = std::min(c.games, (stage + 1) * c.stage_games);
        if (done % c.stage_games == 0) {
            begin_stage(stage);
            scheduled.set_players(stage_specs);
        }
        std::vector<std::uint64_t> part;
        for (std::uint64_t i = done; i < end; ++i) part.push_back(i);
        played += run_batch(part, BatchOptions{c.threads, &stop, remote}, play_game, sink);
        if (done < end) break; // stopped or interrupted inside the stage
    }
    return played;
}

// Series by series (a normal game, then its Vela game); a resume that stopped between a series'
// two games plays its Vela game first. Returns the games played or skipped.
std::uint64_t GameRun::play_vela_series(ScheduledGames& scheduled, RemotePlayers* remote,
                                        std::uint64_t existing,
                                        const std::function<void(PlayedGame&&)>& sink) {
    auto play_series = [&](std::uint64_t series) { return scheduled.play_series(series); };
    std::uint64_t played = 0;
    std::uint64_t first_series = existing / 2;
    if (existing % 2 == 1) {
        std::vector<PlayedGame> rest;
        try {
            rest = scheduled.play_series(first_series, last_normal->result);
        } catch (const Interrupted&) {
            return played; // abandoned, not written
        }
        for (PlayedGame& g : rest) {
            sink(std::move(g));
            ++played;
        }
        ++first_series;
    }
    std::vector<std::uint64_t> series;
    for (std::uint64_t s = first_series; s < c.games / 2; ++s) series.push_back(s);
    played += run_unit_batch(series, BatchOptions{c.threads, &stop, remote}, play_series, sink);
    return played;
}

// Writes a game in order, then lets the observer count it; a forfeit gets a warning (the first
// few), and `stop` is raised once the observer has seen enough.
void GameRun::write_game(PlayedGame&& game, ProgressLine& progress) {
    files.append(game);
    ++done;
    if (!by_rank.empty()) count_game(by_rank, game);
    // A fault the protocol client reported names the log already; a loss on the clock, which
    // the referee decides, gets it here.
    const bool name_log = engine_log && game.record.reason == "timeout" &&
                          game.fault.find("see the engine log") == std::string::npos;
    if (!game.fault.empty() && ++forfeits <= kForfeitWarnings)
        progress.note("fanorona: warning: game " + std::to_string(game.record.index) +
                      (by_rank.empty() ? "" : " (rank " + std::to_string(game.rank) + ")") + ": " +
                      game.fault + (name_log ? "; see the engine log " + engine_log->path() : ""));
    bool skipped = false;
    const GameSlot slot = real_slot(game.record.index, &skipped);
    note_game(game.record, slot);
    observer.add(game, slot, files);
    if (const std::string block = observer.take_block(); !block.empty()) progress.block(block);
    if (observer.finished()) stop = true;
    progress.update(done, observer.progress());
}

} // namespace

RunOutcome run_games(const RunConfig& c, GameObserver& observer, const RunFinisher& finish) {
    c.validate();
    const ThreadLimit limit(c.threads);
    const Schedule schedule = c.schedule();
    // The engine log first (that it is none of the run's inputs and files the command's option
    // layer checked before the run: tools/paths.h).
    RunConfig played = c; // with the open log, for the players
    if (!played.engine_log && !c.engine_log_path.empty())
        played.engine_log = std::make_shared<EngineLog>(c.engine_log_path, c.resume);
    RunFolder files(run_folder_spec(c));
    RunOpenings openings = load_run_openings(c, schedule);
    RunOpenings vela_openings = vela_series_openings(c);
    GameRun run(c, schedule, files, observer);
    run.engine_log = played.engine_log;

    // Step 1. The games already in the folder: each must be the scheduled game at its place.
    std::vector<std::uint64_t> indices = shard_indices(c);
    RunOutcome outcome;
    outcome.scheduled = indices.size();
    const std::uint64_t existing = run.replay_existing(indices);
    indices.erase(indices.begin(), indices.begin() + std::ptrdiff_t(existing));
    const std::uint64_t positions_before = files.positions_written();

    // Step 2. Play the rest on oneTBB workers, each with its own players, and on the other ranks
    // of an MPI job, which receive the settings and openings (a Vela series is one unit of two
    // games there too).
    ScheduledGames scheduled(std::move(played), openings, vela_openings);
    const std::unique_ptr<RemotePlayers> remote =
        remote_link().players ? remote_link().players(scheduled) : nullptr;
    if (remote) run.by_rank.resize(std::size_t(remote->ranks()));

    // Step 3. Write each game in order, then let the observer count it.
    {
        const PeriodicTask live(c.interval_seconds, c.on_interval);
        run.play(scheduled, remote.get(), indices, existing, outcome);
    }
    outcome.by_rank = std::move(run.by_rank);
    outcome.engine_names = scheduled.engine_names();
    files.flush(); // the corpus's last games
    outcome.interrupted = outcome.games < outcome.scheduled && !observer.finished();
    outcome.positions = files.positions_written();
    outcome.new_positions = outcome.positions - positions_before;
    if (finish) finish(outcome, files);
    return outcome;
}

} // namespace fanorona
