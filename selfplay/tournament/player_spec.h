#pragma once
// A tournament player as the user describes it on the command line:
//   name=A,weights=FILE,depth=4,hash=16,LmrBase=80        the toolkit's engine with settings
//   name=B,cmd=PATH,args=-x -y,option.Hash=32,depth=6     an external program (engine protocol)
//   name=R,builtin=random | builtin=greedy                baseline movers

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/search.h"
#include "selfplay/engine/external_player.h"
#include "selfplay/game/game_runner.h"

namespace fanorona {

// Parsed settings of one player. Invariant after parse(): a non-empty name without '(' or tabs,
// and exactly one kind (engine, external or builtin).
struct PlayerSpec {
    enum class Kind { Engine, External, Random, Greedy } kind = Kind::Engine;
    std::string name;
    std::string weights = "default";
    SearchLimits limits;
    TimeControl time_control;
    std::size_t hash_mb = 16;
    std::vector<std::pair<std::string, int>> params;          // search parameters by name
    std::vector<std::string> argv;                            // external: program and arguments
    std::vector<std::pair<std::string, std::string>> options; // external: setoption pairs
    int timeout_ms = 60000;        // external: longest wait for a depth/node-limited move
    int startup_timeout_ms = 5000; // external: longest wait for uciok / readyok

    // Throws std::invalid_argument naming the bad key; weights files and parameters are checked.
    static PlayerSpec parse(const std::string& text);
    // "A(depth=4,weights=new.txt)": the name and what decides its play, as the games file shows.
    std::string description() const;
};

// A player object for one worker, built from a spec (each worker owns its own searchers and
// external processes).
std::unique_ptr<Player> make_player(const PlayerSpec& spec, const Rules& rules, std::uint64_t seed);

// The weights an engine player uses (its file, or the built-in defaults).
Weights load_player_weights(const PlayerSpec& spec);

// The name part of a description: "A(depth=4)" -> "A".
std::string player_name_of(const std::string& description);

} // namespace fanorona
