#include "selfplay/games/run_config.h"

#include <set>
#include <stdexcept>

#include "selfplay/engine/process.h"
#include "selfplay/formats/formats.h"
#include "selfplay/formats/net_file.h"
#include "selfplay/formats/rules_json.h"
#include "selfplay/formats/weights_fingerprint.h"
#include "selfplay/games/program_info.h"

namespace fanorona {

namespace {

const char* pairing_name(Pairing p) {
    return p == Pairing::SelfPlay ? "self" : p == Pairing::Gauntlet ? "gauntlet" : "roundrobin";
}

} // namespace

void RunConfig::validate() const {
    if (players.empty()) throw std::invalid_argument("no player given");
    if (pairing == Pairing::SelfPlay && players.size() != 1)
        throw std::invalid_argument("self-play takes exactly one engine");
    if (pairing != Pairing::SelfPlay && players.size() < 2)
        throw std::invalid_argument("a match needs at least two --player");
    std::set<std::string> names;
    for (const EngineSpec& p : players)
        if (!names.insert(p.name).second)
            throw std::invalid_argument("--player: the name '" + p.name + "' is used twice");
    if (games == 0) throw std::invalid_argument("--games must be at least 1");
    if (vela_series) {
        if (games % 2 != 0)
            throw std::invalid_argument("--series vela: --games counts the places of whole series "
                                        "(2 per series), so it must be even");
        if (shard_count != 1)
            throw std::invalid_argument("--series vela cannot be sharded (--shard) yet");
        if (rules.ruleset == RuleSet::Vela)
            throw std::invalid_argument(
                "--series vela: --rules gives the normal games' rules (standard or firstturn)");
    }
    if (stage_games > 0) {
        if (!stage_players) throw std::invalid_argument("a staged run needs stage_players");
        if (stage_games % 2 != 0)
            throw std::invalid_argument("a stage must hold whole game pairs (an even number)");
        if (vela_series) throw std::invalid_argument("--series vela cannot be played in stages");
        if (shard_count != 1) throw std::invalid_argument("a staged run cannot be sharded");
    }
    if (shard_count < 1 || shard_index < 0 || shard_index >= shard_count)
        throw std::invalid_argument("--shard I/N needs 0 <= I < N");
    if (!(exploration.epsilon >= 0 && exploration.epsilon <= 1))
        throw std::invalid_argument("--epsilon must lie between 0 and 1");
    if (exploration.turns < 0) throw std::invalid_argument("--explore-turns must be at least 0");
    if (adjudication.max_turns < 0)
        throw std::invalid_argument("--max-turns must be at least 0 (0: never)");
    if (adjudication.win_margin < 0)
        throw std::invalid_argument("--win-margin must be at least 0 (0: off)");
    if (adjudication.win_turns < 1) throw std::invalid_argument("--win-turns must be at least 1");
    if (adjudication.draw_margin < 0)
        throw std::invalid_argument("--draw-margin must be at least 0 (0: off)");
    if (adjudication.draw_turns < 1) throw std::invalid_argument("--draw-turns must be at least 1");
    if (adjudication.draw_after < 0) throw std::invalid_argument("--draw-after must be at least 0");
    for (const EngineSpec& p : players) {
        p.check_rules(rules);
        // A program that cannot start would forfeit every game: refused before the first.
        if (p.kind == EngineSpec::Kind::External && !p.argv.empty())
            if (const std::string why = program_problem(p.argv[0], p.dir); !why.empty())
                throw std::invalid_argument(p.name + ": cmd=" + p.argv[0] + ": " + why);
    }
    if (adjudication.tables)
        if (const std::string why = adjudication.tables->unusable_for(rules); !why.empty())
            throw std::invalid_argument("--adjudicate-tables " + adjudication.tables_dir + ": " +
                                        why);
}

nlohmann::json settings_json(const RunConfig& c) {
    nlohmann::json players = nlohmann::json::array(), fingerprints = nlohmann::json::array(),
                   net_fingerprints = nlohmann::json::array();
    for (const EngineSpec& p : c.players) {
        const bool own = p.kind == EngineSpec::Kind::Engine;
        players.push_back(p.description());
        fingerprints.push_back(own ? weights_fingerprint(p.weights) : std::string("-"));
        // The spec names a network by its file: a file changed since must not resume the run.
        net_fingerprints.push_back(own && p.net ? net_fingerprint(*p.net) : std::string("-"));
    }
    nlohmann::json j = {
        {"format", kRunSettingsFormat},
        {"kind", c.kind},
        {"players", players},
        {"weights_fingerprints", fingerprints},
        {"net_fingerprints", net_fingerprints},
        {"pairing", pairing_name(c.pairing)},
        {"games", c.games},
        {"openings", c.openings.describe()},
        {"seed", c.seed},
        {"max_turns", c.adjudication.max_turns},
        {"win_margin", c.adjudication.win_margin},
        {"win_turns", c.adjudication.win_turns},
        {"epsilon", c.exploration.epsilon},
        {"explore_turns", c.exploration.turns},
        {"log_positions", c.log_positions},
        {"shard", std::to_string(c.shard_index) + "/" + std::to_string(c.shard_count)},
        {"program", program_json()}, // free on a resume: the folder may go on with a newer build
    };
    put_rules(j, c.rules);
    if (c.vela_series) j["series"] = "vela"; // absent: no series (as before series existed)
    if (c.corpus) j["corpus"] = true;        // absent: no corpus (as before corpus files existed)
    if (c.openings.shuffled) j["openings_order"] = "random"; // absent: file order, as before
    if (c.stage_games > 0) j["stage_games"] = c.stage_games;
    // absent: no table adjudication (as before tables existed)
    if (!c.adjudication.tables_dir.empty()) j["adjudicate_tables"] = c.adjudication.tables_dir;
    if (c.adjudication.draw_margin > 0) { // absent: no draw adjudication (as before it existed)
        j["draw_margin"] = c.adjudication.draw_margin;
        j["draw_turns"] = c.adjudication.draw_turns;
        j["draw_after"] = c.adjudication.draw_after;
    }
    for (const auto& [key, value] : c.extra_settings.items()) j[key] = value;
    return j;
}

} // namespace fanorona
