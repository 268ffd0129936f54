#pragma once
// The user's options behind the keys of the settings files a --resume checks, for the messages of
// a refused resume: the lower layers (selfplay/games/run_folder.h) name settings keys and are given
// these tables (RunConfig::setting_options, RescoreConfig::setting_options).

#include "selfplay/games/run_folder.h"

namespace fanorona {

// The options behind the keys of a game run's settings.json (settings_json() in
// selfplay/games/driver.h, with tournament and SPSA keys): selfplay, tournament, spsa and the
// loop's runs.
inline const SettingOptions& run_setting_options() {
    static const SettingOptions options = {
        {"variant", "--variant"},
        {"rules", "--rules"},
        {"players", "the engines (--player, --engines, or --weights, --net, --depth, --nodes, "
                    "--movetime, --hash, --tables, --params, --param)"},
        {"weights_fingerprints", "the weights (--weights, or a weights file changed since)"},
        {"net_fingerprints", "the networks (--net, or a network file changed since)"},
        {"pairing", "--pairing"},
        {"games", "--games"},
        {"openings", "--openings"},
        {"seed", "--seed"},
        {"max_turns", "--max-turns"},
        {"win_margin", "--win-margin"},
        {"win_turns", "--win-turns"},
        {"epsilon", "--epsilon"},
        {"explore_turns", "--explore-turns"},
        {"log_positions", "--log-positions"},
        {"corpus", "--corpus"},
        {"shard", "--shard"},
        {"series", "--series"},
        {"openings_order", "--openings-order"},
        {"adjudicate_tables", "--adjudicate-tables"},
        {"draw_margin", "--draw-margin"},
        {"draw_turns", "--draw-turns"},
        {"draw_after", "--draw-after"},
        {"sprt", "--sprt"},
        {"spsa.base", "the engine options (--player, --weights, --depth, --nodes, --movetime, "
                      "--hash, --tables, --params)"},
        {"spsa.params", "--param"},
        {"spsa.pairs", "--games"},
        {"spsa.batch", "--iteration-pairs"},
        {"spsa.alpha", "--alpha"},
        {"spsa.gamma", "--gamma"},
        {"spsa.A", "--a-ratio"},
    };
    return options;
}

// The options behind the keys of rescore's OUT.settings.json.
inline const SettingOptions& rescore_setting_options() {
    static const SettingOptions options = {
        {"inputs", "the input corpora (CORPUS...)"},
        {"engine", "the engine options (--weights, --net, --depth, --nodes, --movetime, --hash, "
                   "--tables, --params, --param)"},
        {"weights_fingerprint", "the weights (--weights, or a weights file changed since)"},
        {"net_fingerprint", "the network (--net, or a network file changed since)"},
        {"all", "--all"},
        {"block_games", "--block-games"},
        {"variant", "the inputs' board"},
        {"rules", "the inputs' rules"},
    };
    return options;
}

} // namespace fanorona
