#pragma once
// One engine configuration, written once: what plays (the toolkit's engine with its weights,
// limits, hash and search parameters; an external program; a baseline mover) and under which
// name. Every place that configures an engine maps onto these fields through set():
//   the --player key=value language      name=A,weights=FILE,depth=4,hash=16,LmrBase=80,tables=DIR
//                                         name=B,cmd=PATH,args=-x -y,option.Hash=32,depth=6
//                                         name=E,cmd=./eng,dir=DIR,arg=a b,arg=c\,d,restart=on
//                                         name=C,tc=40/60+0.5,timemargin=200
//                                         name=R,builtin=random | builtin=greedy
//                                         name=T,params=tuned.txt,material_mg=104
//   command-line options                  --weights, --depth, --nodes, --movetime, --hash,
//   --tables, --params FILE, --param NAME=VALUE (tools/options.h EngineOptions)
//   the engine protocol's setoption       Hash, Weights, Params, Tables, Net, and each search
//                                         parameter (and net=FILE|NAME|none, --net for a network)
// A parameters file (selfplay/formats/params_file.h) is a list of NAME VALUE settings of search
// parameters and evaluation weights, each applied through set() like a --param; an engines file
// (selfplay/engine/engine_file.h) holds the settings of named specs, played by conf=NAME.
// One set of ranges and defaults lives here (kRanges), for all of them. With no options the spec
// plays the engine's defaults, core/builtins.h (the default network on its board, the
// tuned weights elsewhere, the tuned search parameters); net=none plays the tuned weights
// everywhere, weights=tuned too (weights chosen explicitly play without the default network), and
// weights=handset,params=handset is the hand-set engine.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/builtins.h"
#include "core/evaluate.h"
#include "core/search.h"
#include "selfplay/engine/engine_log.h"
#include "selfplay/engine/player.h"
#include "selfplay/formats/games_file.h" // player_name_of: a description's name
#include "selfplay/formats/weights_file.h"

namespace fanorona {

// A value tunable by name: a search parameter (core/search_params.h) or an evaluation weight
// (a feature name such as material_mg), with its canonical name and accepted range.
struct TunableInfo {
    std::string name;
    int min = 0, max = 0;
    bool weight = false;
};
// The tunable value called `name` (search parameters case-insensitively), or nullopt.
std::optional<TunableInfo> find_tunable(std::string_view name);

// A spec's settings as given, (key, value) in order: what "key=value,key=value" holds.
using SpecSettings = std::vector<std::pair<std::string, std::string>>;
// Splits "key=value,key=value" (empty items skipped; "\," is a comma inside a value, as in
// arg=a\,b); throws std::invalid_argument for an item that is not key=value.
SpecSettings split_settings(const std::string& text);

// The accepted range of a numeric key.
struct SpecRange {
    const char* key;
    long long min, max;
    const char* what; // for help texts and errors: "plies", "MB", ...
};

// Holds one engine's settings. Invariants after validate(): a non-empty name without '(',
// spaces, tabs or commas; exactly one kind; an engine has at least one limit (a depth of
// kDefaultDepth when none was given); every number inside its range.
struct EngineSpec {
    enum class Kind { Engine, External, Random, Greedy };
    static constexpr int kDefaultDepth = SearchLimits::kDefaultDepth;
    static constexpr std::size_t kDefaultHashMb = 16;
    static const std::vector<SpecRange>& ranges(); // depth, nodes, movetime, hash, timeout, ...

    Kind kind = Kind::Engine;
    std::string name = "fanorona";
    Weights weights = load_weights_file("default");
    std::string weights_name = default_builtin("weights"); // the file's or built-in's name
    // Weights for Vela games (`vela_weights=FILE`: e.g. fitted by `tune --game-rules vela`);
    // unset: `weights` in every game.
    std::optional<Weights> vela_weights;
    std::string vela_weights_name;
    SearchLimits limits;      // depth, nodes, movetime (clocks come from tc)
    TimeControl time_control; // tc= (base, increment, turns per period), timemargin= (margin)
    std::size_t hash_mb = kDefaultHashMb;
    // The built-in search parameters (params=NAME: handset, tuned) that `params` apply over,
    // whatever the order (as weight_values over weights).
    std::string params_name = default_builtin("params");
    std::vector<std::pair<std::string, int>> params; // search parameters, as given
    // Evaluation weights set by name, as given; already in `weights`, and applied again over a
    // weights file set later (a named weight wins over the file whatever the order).
    std::vector<std::pair<std::string, int>> weight_values;
    std::vector<std::string> argv; // external: program and arguments
    std::string dir;               // external: its working folder (dir=; "" the run's own)
    bool restart = false;          // external: a fresh process each game (restart=on)
    // External: setoption pairs, one per option name (a later value replaces an earlier one).
    std::vector<std::pair<std::string, std::string>> options;
    int timeout_ms = 60000;        // external: longest wait for a depth/node-limited move
    int startup_timeout_ms = 5000; // external: longest wait for uciok / readyok
    std::string tables_dir;        // endgame tables folder ("" none), opened at set()
    std::shared_ptr<const EndgameProbe> tables; // shared by every copy of the spec
    // A network (`net=FILE|NAME`, selfplay/formats/net_file.h; "" none), read at set(): the engine
    // evaluates with it on the network's board, with the weights elsewhere. Shared by every copy.
    // The default network (core/builtins.h) is part of the default evaluation: weights
    // chosen explicitly (weights=, vela_weights=, a weight by name, a parameters file that sets
    // one) play with no network unless a network is chosen explicitly too (net_chosen), in any
    // order.
    std::string net_path = default_builtin("net");
    std::shared_ptr<const nnue::Network> net = default_network();
    bool net_chosen = false; // net= was given (a network, or none)
    // The default network (core/builtins.h), parsed once per process and shared.
    static std::shared_ptr<const nnue::Network> default_network();

    // Sets one key (case-sensitive keys; search parameter names case-insensitive; a weight by its
    // feature name). Throws std::invalid_argument "KEY=VALUE: why" for an unknown key or a value
    // out of range; a weights or parameters file (params=FILE) is read at once (errors name the
    // file and line).
    void set(std::string_view key, std::string_view value);
    // Parses "key=value,key=value" onto a default spec and validates it: from_settings of
    // split_settings(text).
    static EngineSpec parse(const std::string& text);
    // The one parser of settings: each goes through set() in order (a later value of a key wins;
    // args, then each arg in order, after cmd wherever they stand), then the spec is validated.
    // name is required; cmd and builtin exclude each other; a key of the toolkit's engine
    // (builtin_only_key) on a cmd= or builtin= player, or a key of an external engine on another,
    // is refused naming the key. Throws what set() throws (std::invalid_argument; FileError for
    // a weights file that cannot be read) and std::invalid_argument for the spec as a whole; with
    // `failed`, *failed is then the index of the setting at fault (settings.size(): the whole).
    static EngineSpec from_settings(const SpecSettings& settings, std::size_t* failed = nullptr);
    // Checks the fields together (kinds, args without cmd) and fills the default depth.
    void validate();

    // "A(weights=new.txt,LmrBase=80,depth=4)": the name and what decides its play, as the games
    // file shows it. Two specs with the same description play the same moves.
    std::string description() const;
    // The limits an engine searches with: `limits`, or depth kDefaultDepth when none is set.
    SearchLimits search_limits() const;
    // The weights for games under `rules`: vela_weights in Vela games when set, else weights.
    const Weights& weights_for(const Rules& rules) const;
    // Gives `searcher` this spec's weights for `rules`, hash size and parameters; all or
    // nothing: when it throws (std::bad_alloc for the hash table) the searcher is unchanged.
    void configure(Searcher& searcher, const Rules& rules = Rules{}) const;
    // Throws std::invalid_argument when the spec's tables cannot serve games under `rules`
    // (other rules, no table of the board, a table a missing one makes unusable).
    void check_rules(const Rules& rules) const;
    // The search parameters table with this spec's values.
    SearchParams search_params() const;
    // The current value of a tunable (find_tunable) name; throws std::invalid_argument if unknown.
    int tunable_value(std::string_view name) const;
    // The weights set by name stay in `weights` but stop applying over a weights file set later:
    // for a caller whose later weights files already hold them (the loop's).
    void fold_named_weights() { weight_values.clear(); }
    // The default network stops playing (weights were chosen, or a command improves weights);
    // a network chosen by net= stays.
    void drop_default_network();
};

// Whether `key` sets only the toolkit's own engine (weights, vela_weights, net, hash, tables,
// params, a search parameter or a weight by name): an external or baseline player cannot take it.
bool builtin_only_key(std::string_view key);
// Whether `key` sets only an external engine (args, arg, option.NAME, timeout, startup, dir,
// restart).
bool external_only_key(std::string_view key);

struct ExternalEngineConfig; // selfplay/engine/external_player.h

// How an external spec's program is run: its command, options, limits and timeouts, its lines
// logged to `log` (none: nullptr) under the spec's name. Tournaments and check-engine use it.
ExternalEngineConfig external_engine_config(const EngineSpec& spec, EngineLog* log);

// A player object for one worker, built from a spec (each worker owns its own searchers and
// external processes). An external engine writes its lines to `log` (none: nullptr) under the
// spec's name.
std::unique_ptr<Player> make_player(const EngineSpec& spec, const Rules& rules, std::uint64_t seed,
                                    EngineLog* log = nullptr);

} // namespace fanorona
