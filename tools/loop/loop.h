#pragma once
// The closed loop: self-play with the current weights, tune on the recent data, verify the new
// weights against the current ones in a match, keep them if they win; repeat; finally measure
// the last weights against the start weights. With `net` (loop --net) the same loop improves a
// network: the games play with the current network and each iteration trains a new one
// (`fanorona train`'s code, from the current network's parameters). Weights and tuning results pass
// between the steps in memory; every step also leaves its files, so the loop resumes at the step it
// stopped.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "selfplay/engine/engine_log.h"
#include "selfplay/engine/engine_spec.h"
#include "selfplay/games/run_folder.h"
#include "selfplay/tournament/stats/sprt.h"
#include "tuner/net/train.h"
#include "tuner/texel/tune.h"

namespace fanorona {

// Every setting of a loop. `engine` plays every game (limits, hash, search parameters); its
// weights are the start weights, and with `net` its network (none: a random one) the start
// network.
struct LoopConfig {
    Rules rules;
    int iterations = 3;
    std::uint64_t games = 400; // self-play games per iteration
    EngineSpec engine;
    std::string out_dir = "loop";
    // The options behind the keys of its runs' settings.json, for a refused resume's message
    // (the command's table, tools/setting_options.h); none: the settings keys.
    SettingOptions run_setting_options;
    std::uint64_t verify_games = 200;      // the largest verification match
    std::uint64_t final_games = 400;       // the final match, last weights against the start
    std::optional<stats::SprtConfig> sprt; // verification by SPRT instead of a fixed match
    double accept_los = 0.95;              // fixed match: accept when LOS reaches this
    int window = 2;                        // tune on the data of this many latest iterations
    std::string selfplay_openings = "random:6";
    std::string match_openings = "balanced";
    double epsilon = 0.1; // self-play exploration
    int explore_turns = 12;
    std::string optimizer = "newton";
    // The tuner's own default: the point tables sum to the material term, so without a pull
    // Newton's steps run off along that direction (weights like -331 that play badly).
    double l2 = TuneConfig{}.l2;
    bool patterns = false; // the tune step also fits pattern weights (tune --patterns; 5x9 only)
    // After the iterations, SPSA (fanorona spsa) over these values with the last accepted
    // weights, `spsa_games` games in all (given: NAME[,start,min,max,c_end,r_end], as spsa's
    // --spsa-param); the final match then plays the tuned values too. Empty: no SPSA step.
    std::vector<std::string> spsa_params;
    std::uint64_t spsa_games = 2000;
    std::uint64_t spsa_iteration_pairs = 4;
    // The SPSA games at this many nodes a move (0: the engine's limits). Fixed nodes, not a fixed
    // depth: pruning parameters save nodes, which a fixed depth would not reward, and unlike a
    // movetime the games stay a pure function of the seed.
    std::uint64_t spsa_nodes = 20000;
    // The final matches at this many ms a move for both sides (0: the engine's own limits, as
    // every other game of the loop). Equal time is what strength means to a user.
    int final_movetime_ms = 0;
    // The network loop (loop --net): each iteration trains a network on the window's data instead
    // of tuning weights. The start network is engine.net: a network chosen by net=, or the
    // default network when it plays on the loop's board and no weights are chosen; otherwise a
    // random network of the board's default architecture (as `fanorona net random --seed SEED`).
    // The games' evaluation is the current network on its board (the weights stay the start's).
    // The weights loop plays the weights it tunes: the default network is not part of it.
    bool net = false;
    // The network loop's training settings (train's options: epochs, batch, lr, lr_decay, lambda,
    // k, valid_fraction, patience, max_positions, filter); the data, file, seed, start network
    // and architecture are the loop's.
    NetTrainConfig train;
    std::uint64_t seed = 1;
    int threads = 0; // the limit of every step, tuning included (0: all cores)
    bool resume = false;
    bool quiet = false;
    // The engine log (--log FILE; "": none), one for every run of games of the loop: run_loop()
    // opens it (added to on a resume) into `engine_log`. Neither changes a game.
    std::string engine_log_path;
    std::shared_ptr<EngineLog> engine_log;
    // Every this many seconds while a run of the loop plays, report.html is rewritten as a live
    // page (reloading itself) from the loop's history so far; 0: only the final page.
    double report_interval = 0;

    // Throws std::invalid_argument naming the bad setting.
    void validate() const;
};

// The engine the loop plays and improves (run_loop uses it in place of c.engine): c.engine
// without the default network in the weights loop, and in the network loop when that network
// is of another board (core/builtins.h: the default network is part of the default
// evaluation, not of the weights the loop tunes).
EngineSpec loop_engine(const LoopConfig& c);

// Runs or resumes the loop; `say` receives progress lines (none when config.quiet). Returns
// history.json's content (also written, with history.txt, report.html, final_weights.txt, and
// final_params.txt after an SPSA step).
nlohmann::json run_loop(const LoopConfig& config,
                        const std::function<void(const std::string&)>& say = {});

// The history as a table, for people; history.json has the same for machines.
std::string loop_history_table(const nlohmann::json& history);

} // namespace fanorona
