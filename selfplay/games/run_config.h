#pragma once
// The settings of a run of games (RunConfig), their checks and the settings.json that records
// them: what the driver (driver.h) runs and what plays each game (scheduled_games.h), below both.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "selfplay/engine/engine_log.h"
#include "selfplay/engine/engine_spec.h"
#include "selfplay/games/game_runner.h"
#include "selfplay/games/run_folder.h"
#include "selfplay/games/schedule.h"

namespace fanorona {

// Everything about a run of games. The games depend only on the fields settings_json() writes
// (threads, the folder and display options never change a byte of them).
struct RunConfig {
    std::string kind = "selfplay"; // what the run is, as settings.json records it
    Rules rules;
    std::vector<EngineSpec> players;
    Pairing pairing = Pairing::SelfPlay;
    std::uint64_t games = 100; // scheduled games (all shards together); with series: game places
    // Vela series (`--series vela`): games come in series of a normal game under `rules` and a
    // Vela game whose White (the beneficiary) is the normal game's loser; a drawn normal game ends
    // the series (its Vela place holds a `skipped` line). See Schedule for the layout.
    bool vela_series = false;
    OpeningSpec openings = OpeningSpec::parse("random:4");
    std::uint64_t seed = 1;
    AdjudicationConfig adjudication;
    ExplorationConfig exploration;
    bool log_positions = true;
    bool corpus = false; // corpus.fcorpus: every game, chained turn by turn (docs/formats.md)
    int shard_index = 0; // play only the games whose index % shard_count == shard_index
    int shard_count = 1;
    // Players chosen stage by stage (SPSA): with stage_games > 0 the games come in stages of that
    // many (whole pairs), and stage s is played by stage_players(s): as many specs as `players`,
    // with the same names (`players` are stage 0's for settings.json). stage_players(s) is
    // called once per stage, in order, only after every game of the stages before it reached the
    // observer (replayed or played), so it may depend on their results; on a resume it is called
    // again for the stages in the folder, whose games must then match its specs.
    std::uint64_t stage_games = 0;
    std::function<std::vector<EngineSpec>(std::uint64_t stage)> stage_players;
    nlohmann::json extra_settings = nlohmann::json::object(); // e.g. the SPRT of a tournament
    std::string live_path; // a stream of one JSON line per game pair (tournaments); "": none
    std::vector<std::string> summary_files; // written at the end (RunFolder::finish)
    std::string summary_format;             // the "format" of summary_files[0]

    int threads = 0; // 0: all cores
    std::string out_dir = "run";
    bool resume = false;
    // The user's option behind each settings key, for a refused resume's message (the command's
    // layer gives them: tools/setting_options.h); none: the message names the settings key.
    SettingOptions setting_options;
    bool quiet = false;
    // The engine log (--log FILE; "": none): external engines' lines both ways and their standard
    // error. run_games() opens it (emptied, or added to on a resume) unless `engine_log` is open
    // already (the loop's, one log for all its runs). Neither changes a game: settings.json
    // holds neither.
    std::string engine_log_path;
    std::shared_ptr<EngineLog> engine_log;
    // Called every `interval_seconds` while the games are played (0 or no function: never), from
    // a thread of its own so that no game waits for it (the tools pass the live report page's
    // writer, which reads only the folder's files); an exception it throws is dropped. It is not
    // called after the last game: the caller writes its final files itself.
    double interval_seconds = 0;
    std::function<void()> on_interval;

    Schedule schedule() const { return Schedule::make(pairing, int(players.size()), vela_series); }
    // The rules of a game: `rules`, or for the Vela game of a series the same with Vela.
    Rules rules_of(const GameSlot& slot) const {
        Rules r = rules;
        if (slot.vela) r.ruleset = RuleSet::Vela;
        return r;
    }
    // Throws std::invalid_argument with a one-line message naming the bad setting.
    void validate() const;
};

// settings.json of a run: the format, the kind, and every field that decides the games.
nlohmann::json settings_json(const RunConfig& config);

} // namespace fanorona
