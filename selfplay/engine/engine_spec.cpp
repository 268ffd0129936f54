#include "selfplay/engine/engine_spec.h"
#include "core/common/text.h"

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "core/features.h"
#include "core/tables/tablebase.h"
#include "core/weights.h"
#include "selfplay/engine/external_player.h"
#include "selfplay/engine/players.h"
#include "selfplay/formats/net_file.h"
#include "selfplay/formats/params_file.h"
#include "selfplay/formats/weights_file.h"

namespace fanorona {

namespace {

constexpr long long kMaxTcMoves = 10000; // turns per period of a moves-in-time control

const SpecRange& range_of(std::string_view key) {
    for (const SpecRange& r : EngineSpec::ranges())
        if (key == r.key) return r;
    throw std::logic_error("no range for " + std::string(key));
}

[[noreturn]] void bad(std::string_view key, std::string_view value, const std::string& why) {
    throw std::invalid_argument(std::string(key) + "=" + std::string(value) + ": " + why);
}

long long parse_whole(std::string_view key, std::string_view value, long long lo, long long hi) {
    const std::string text(value);
    std::size_t used = 0;
    long long v = 0;
    try {
        v = std::stoll(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (text.empty() || used != text.size() || v < lo || v > hi)
        bad(key, value,
            "expected a whole number from " + std::to_string(lo) + " to " + std::to_string(hi));
    return v;
}

long long parse_ranged(std::string_view key, std::string_view value) {
    const SpecRange& r = range_of(key);
    return parse_whole(key, value, r.min, r.max);
}

// "10+0.1" seconds (base + increment), "40/60+0.5" (40 turns of the side in 60 s, then 60 s
// more, and so on, plus 0.5 s a turn), or the same in milliseconds with "ms" (as description()
// writes a time control), onto the clock fields of `tc` (its margin stays).
TimeControl parse_tc(std::string_view key, std::string_view value, TimeControl tc) {
    const char* const form = "expected [turns/]seconds[+increment] such as 10+0.1 or 40/60+0.5, "
                             "or 10000ms+100ms (at most a day)";
    std::string text(value);
    tc.moves = 0;
    if (const auto slash = text.find('/'); slash != std::string::npos) {
        const std::string moves = text.substr(0, slash);
        std::size_t used = 0;
        long long m = 0;
        try {
            m = std::stoll(moves, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (moves.empty() || used != moves.size() ||
            moves.find_first_not_of("0123456789") != std::string::npos || m < 1 || m > kMaxTcMoves)
            bad(key, value, std::string(form) + "; turns from 1 to " + std::to_string(kMaxTcMoves));
        tc.moves = int(m);
        text.erase(0, slash + 1);
    }
    const auto plus = text.find('+');
    // Seconds, or milliseconds with "ms".
    auto seconds = [&](std::string part, bool positive) {
        double scale = 1000;
        if (part.size() > 2 && part.ends_with("ms")) {
            part.resize(part.size() - 2);
            scale = 1;
        }
        // Decimal digits with at most one point: std::stod alone would also take "0x10" (hex),
        // " 5", "inf" and "1e1".
        const bool decimal = part.find_first_not_of("0123456789.") == std::string::npos &&
                             part.find_first_of("0123456789") != std::string::npos &&
                             std::count(part.begin(), part.end(), '.') <= 1;
        std::size_t used = 0;
        double s = -1;
        try {
            if (decimal) s = std::stod(part, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (!decimal || used != part.size() || !(positive ? s > 0 : s >= 0) || s * scale > 86400000)
            bad(key, value, form);
        return int(s * scale);
    };
    tc.base_ms = std::max(1, seconds(text.substr(0, plus), true));
    tc.inc_ms = plus != std::string::npos ? seconds(text.substr(plus + 1), false) : 0;
    return tc;
}

// The toolkit's engine with its own Searcher.
class EnginePlayer : public Player {
public:
    EnginePlayer(const EngineSpec& spec, const Rules& rules)
        : searcher_(spec.hash_mb), player_(searcher_, spec.search_limits()) {
        spec.configure(searcher_, rules);
    }
    void new_game(std::uint64_t game) override { player_.new_game(game); }
    MoveChoice choose(const Game& game, const Clock& clock) override {
        return player_.choose(game, clock);
    }

private:
    Searcher searcher_;
    SearchPlayer player_;
};

// Replaces or appends (name, value) in a list of named values.
void put(std::vector<std::pair<std::string, int>>& list, const std::string& name, int value) {
    auto same = [&](const auto& kv) { return kv.first == name; };
    list.erase(std::remove_if(list.begin(), list.end(), same), list.end());
    list.emplace_back(name, value);
}

} // namespace

std::optional<TunableInfo> find_tunable(std::string_view name) {
    const SearchParams defaults;
    if (const SearchParam* p = defaults.find(name))
        return TunableInfo{p->name, p->min, p->max, false};
    const int f = feature_index(name);
    if (f >= 0) return TunableInfo{std::string(feature_name(f)), -kMaxWeight, kMaxWeight, true};
    return std::nullopt;
}

int EngineSpec::tunable_value(std::string_view name) const {
    const auto t = find_tunable(name);
    if (!t)
        throw std::invalid_argument("'" + std::string(name) +
                                    "' is not a search parameter or an evaluation weight");
    if (t->weight) return weights.values[std::size_t(feature_index(t->name))];
    return search_params().get(t->name);
}

std::shared_ptr<const nnue::Network> EngineSpec::default_network() {
    const std::shared_ptr<const NetFile> f = load_net_file(default_builtin("net"));
    return {f, &f->net};
}

void EngineSpec::drop_default_network() {
    if (net_chosen) return;
    net.reset();
    net_path.clear();
}

const std::vector<SpecRange>& EngineSpec::ranges() {
    static const std::vector<SpecRange> table = {
        {"depth", 1, 60, "plies"},
        {"nodes", 1, 1LL << 40, "nodes per move"},
        {"movetime", 1, 3600000, "milliseconds per move"},
        {"hash", 1, 65536, "MB"},
        {"timeout", 1, 86400000, "milliseconds"},
        {"startup", 1, 600000, "milliseconds"},
        {"timemargin", 0, 86400000, "milliseconds"},
    };
    return table;
}

namespace {

// Refuses a NUL byte in a key or value: it would cut a program's name, an argument, an option
// line (C strings, protocol lines) or a name shown in an error message. File names refuse it
// where they are opened, with the file's own message.
void refuse_nul_byte(std::string_view key, std::string_view value) {
    const bool file_key = key == "weights" || key == "vela_weights" || key == "params" ||
                          key == "net" || key == "tables" || key == "dir";
    if ((file_key || value.find('\0') == std::string_view::npos) &&
        key.find('\0') == std::string_view::npos)
        return;
    std::string shown(key);
    for (char& ch : shown)
        if (ch == '\0') ch = '?';
    throw std::invalid_argument(shown + ": the value contains a NUL byte");
}

} // namespace

void EngineSpec::set(std::string_view key, std::string_view value) {
    refuse_nul_byte(key, value);
    if (key == "name") {
        name = std::string(value);
    } else if (key == "weights") {
        Weights w = load_weights_file(std::string(value));
        for (const auto& [k, v] : weight_values) w.values[std::size_t(feature_index(k))] = v;
        weights = w;
        weights_name = weights_display_name(std::string(value));
        drop_default_network();
    } else if (key == "vela_weights") {
        vela_weights = load_weights_file(std::string(value));
        vela_weights_name = weights_display_name(std::string(value));
        drop_default_network();
    } else if (key == "params") {
        if (const BuiltinFile* b = find_builtin("params", value)) {
            params_name = std::string(b->name);
            return;
        }
        // All or nothing: the lines go onto a copy, which replaces this spec once all are valid.
        EngineSpec next = *this;
        for (const ParamsLine& line : read_params_file(std::string(value))) {
            if (!find_tunable(line.name))
                throw std::invalid_argument(std::string(value) + ":" + std::to_string(line.line) +
                                            ": " + line.name +
                                            ": not a search parameter or an evaluation weight");
            try {
                next.set(line.name, line.value);
            } catch (const std::invalid_argument& e) {
                throw std::invalid_argument(std::string(value) + ":" + std::to_string(line.line) +
                                            ": " + e.what());
            }
        }
        *this = std::move(next);
    } else if (key == "depth") {
        limits.depth = int(parse_ranged(key, value));
    } else if (key == "nodes") {
        limits.nodes = std::uint64_t(parse_ranged(key, value));
    } else if (key == "movetime") {
        limits.movetime_ms = int(parse_ranged(key, value));
    } else if (key == "hash") {
        hash_mb = std::size_t(parse_ranged(key, value));
    } else if (key == "tc") {
        if (value == "none") { // no clock (e.g. over an engines file's tc)
            time_control.base_ms = time_control.inc_ms = time_control.moves = 0;
            return;
        }
        time_control = parse_tc(key, value, time_control);
    } else if (key == "timemargin") {
        time_control.margin_ms = int(parse_ranged(key, value));
    } else if (key == "timeout") {
        timeout_ms = int(parse_ranged(key, value));
    } else if (key == "startup") {
        startup_timeout_ms = int(parse_ranged(key, value));
    } else if (key == "cmd") {
        if (value.empty()) bad(key, value, "expected a program");
        kind = Kind::External;
        argv.assign(1, std::string(value));
    } else if (key == "args") {
        if (kind != Kind::External || argv.empty()) bad(key, value, "args without cmd");
        argv.resize(1);
        for (std::string& w : split_words(value)) argv.push_back(std::move(w));
    } else if (key == "arg") { // one argument as given, spaces and commas included
        if (kind != Kind::External || argv.empty()) bad(key, value, "arg without cmd");
        argv.emplace_back(value);
    } else if (key == "dir") {
        if (value.empty()) {
            dir.clear();
            return;
        }
        std::error_code error;
        if (!std::filesystem::is_directory(std::string(value), error))
            bad(key, value, "no such folder (the engine's working folder)");
        dir = std::string(value);
    } else if (key == "restart") {
        if (value == "on")
            restart = true;
        else if (value == "off")
            restart = false;
        else
            bad(key, value, "expected on (a fresh engine process each game) or off");
    } else if (key.rfind("option.", 0) == 0) {
        if (key.size() == 7) bad(key, value, "expected option.NAME=VALUE");
        // A later value of the same option replaces the earlier one, in its place.
        const std::string option(key.substr(7));
        auto same = [&](const auto& kv) { return kv.first == option; };
        if (auto it = std::find_if(options.begin(), options.end(), same); it != options.end())
            it->second = std::string(value);
        else
            options.emplace_back(option, std::string(value));
    } else if (key == "tables") {
        if (value.empty() || value == "none") {
            tables.reset();
            tables_dir.clear();
            return;
        }
        try {
            tables = tables::open_tables(std::string(value));
        } catch (const std::exception& e) {
            bad(key, value, e.what());
        }
        tables_dir = std::string(value);
    } else if (key == "net") {
        if (value.empty() || value == "none") {
            net.reset();
            net_path.clear();
            net_chosen = true;
            return;
        }
        try {
            const std::shared_ptr<const NetFile> f = load_net_file(std::string(value));
            net = std::shared_ptr<const nnue::Network>(f, &f->net); // shares the file's network
        } catch (const std::exception& e) {
            bad(key, value, e.what());
        }
        const BuiltinFile* b = find_builtin("net", value);
        net_path = b ? std::string(b->name) : std::string(value);
        net_chosen = true;
    } else if (key == "builtin") {
        if (value == "random")
            kind = Kind::Random;
        else if (value == "greedy")
            kind = Kind::Greedy;
        else
            bad(key, value, "expected random or greedy");
    } else {
        const auto t = find_tunable(key);
        if (!t)
            throw std::invalid_argument(
                "unknown key '" + std::string(key) +
                "' (name, weights, vela_weights, params, depth, nodes, movetime, tc, "
                "timemargin, hash, cmd, args, arg, dir, restart, option.NAME, timeout, startup, "
                "builtin, tables, net, a search parameter or a weight)");
        const int v = int(parse_whole(t->name, value, t->min, t->max));
        if (t->weight) {
            put(weight_values, t->name, v);
            weights.values[std::size_t(feature_index(t->name))] = v;
            drop_default_network();
        } else {
            put(params, t->name, v);
        }
    }
}

bool builtin_only_key(std::string_view key) {
    for (const char* k : {"weights", "vela_weights", "net", "hash", "tables", "params"})
        if (key == k) return true;
    return key != "name" && find_tunable(key).has_value();
}

bool external_only_key(std::string_view key) {
    for (const char* k : {"args", "arg", "timeout", "startup", "dir", "restart"})
        if (key == k) return true;
    return key.rfind("option.", 0) == 0;
}

SpecSettings split_settings(const std::string& text) {
    SpecSettings out;
    // Items split at each comma not escaped by a backslash ("\," is a comma of the value).
    std::vector<std::string> items(1);
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] == ',') {
            items.back() += ',';
            ++i;
        } else if (text[i] == ',') {
            items.emplace_back();
        } else {
            items.back() += text[i];
        }
    }
    for (const std::string& item : items) {
        if (item.empty()) continue;
        const auto eq = item.find('=');
        if (eq == std::string::npos || eq == 0)
            throw std::invalid_argument("'" + item + "' is not key=value");
        out.emplace_back(item.substr(0, eq), item.substr(eq + 1));
    }
    return out;
}

EngineSpec EngineSpec::parse(const std::string& text) {
    return from_settings(split_settings(text));
}

EngineSpec EngineSpec::from_settings(const SpecSettings& settings, std::size_t* failed) {
    std::size_t unused = 0;
    std::size_t& at = failed ? *failed : unused;
    at = settings.size();
    std::string text; // the settings as a --player would write them, for errors
    for (const auto& [key, value] : settings) text += (text.empty() ? "" : ",") + key + "=" + value;
    // A spec is written as JSON (run settings, MPI jobs), which holds UTF-8 text only.
    if (valid_utf8(text) != text)
        throw std::invalid_argument("not UTF-8 text (an engine spec is written as JSON)");
    EngineSpec s;
    s.name.clear();
    bool has_cmd = false, has_builtin = false;
    std::string args;
    bool has_args = false;
    std::size_t args_at = 0;
    std::vector<std::size_t> arg_at; // the arg= settings, in order
    // Each option's place in s.options, so that many options load in linear time (set() would
    // search the list for each).
    std::unordered_map<std::string, std::size_t> option_at;
    for (std::size_t i = 0; i < settings.size(); ++i) {
        const auto& [key, value] = settings[i];
        if (key.size() > 7 && key.rfind("option.", 0) == 0) { // as set() would, in its place
            refuse_nul_byte(key, value);
            const auto [it, fresh] = option_at.try_emplace(key.substr(7), s.options.size());
            if (fresh)
                s.options.emplace_back(key.substr(7), value);
            else
                s.options[it->second].second = value;
            continue;
        }
        if (key == "args") { // applied after cmd, wherever it stands; the last one counts
            args = value;
            args_at = i;
            has_args = true;
            continue;
        }
        if (key == "arg") { // after cmd and args, each in order
            arg_at.push_back(i);
            continue;
        }
        has_cmd |= key == "cmd";
        has_builtin |= key == "builtin";
        at = i;
        // A file key given empty is a mistake (set() takes "" from the run settings as none).
        if (value.empty() && (key == "net" || key == "weights" || key == "vela_weights" ||
                              key == "tables" || key == "params"))
            bad(key, value,
                key == "tables" ? "empty (give a tables folder or none)"
                : key == "net"  ? "empty (give a path, a built-in name or none)"
                                : "empty (give a path or a built-in name)");
        s.set(key, value);
    }
    at = settings.size();
    if (s.name.empty()) throw std::invalid_argument("'" + text + "': name=... is required");
    if (has_cmd && has_builtin)
        throw std::invalid_argument(s.name + ": cmd and builtin exclude each other");
    // Keys that the kind of player cannot take are refused, whatever their place in the spec.
    for (std::size_t i = 0; i < settings.size(); ++i) {
        const auto& [key, value] = settings[i];
        at = i;
        const std::string kv = key + "=" + value;
        if (s.kind != Kind::Engine && builtin_only_key(key)) {
            if (s.kind != Kind::External)
                throw std::invalid_argument(s.name + ": " + kv +
                                            ": a setting of the toolkit's engine; a baseline "
                                            "player (builtin=) takes none");
            std::string option; // the setoption of `fanorona engine` (and the usual Hash)
            if (key == "hash")
                option = "Hash";
            else if (key == "weights")
                option = "Weights";
            else if (key == "vela_weights")
                option = "VelaWeights";
            else if (key == "net")
                option = "Net";
            else if (key == "tables")
                option = "Tables";
            else if (key == "params")
                option = "Params";
            else if (const auto t = find_tunable(key); t && !t->weight)
                option = t->name;
            throw std::invalid_argument(
                s.name + ": " + kv +
                ": a setting of the toolkit's engine, not of an external one (cmd=)" +
                (option.empty()
                     ? std::string()
                     : "; set the engine's own option with option." + option + "=" + value));
        }
        if (s.kind != Kind::External && external_only_key(key))
            throw std::invalid_argument(
                s.name + ": " + kv + ": a setting of an external engine (cmd=)" +
                (key == "option.Hash" ? "; the toolkit's engine takes hash=" + value
                                      : std::string()));
    }
    at = settings.size();
    if (has_args) {
        at = args_at;
        s.set("args", args);
        at = settings.size();
    }
    for (const std::size_t i : arg_at) {
        at = i;
        s.set("arg", settings[i].second);
        at = settings.size();
    }
    s.validate();
    return s;
}

void EngineSpec::validate() {
    // A name is a word of games files (tab-separated lines), of descriptions (NAME(settings)) and
    // of specs (where "\," escapes a comma).
    const bool control = std::any_of(name.begin(), name.end(),
                                     [](char c) { return (unsigned char)c < 0x20 || c == 0x7f; });
    if (name.empty() || control || name.find_first_of("( ,\\") != std::string::npos)
        throw std::invalid_argument("name '" + valid_utf8(name) +
                                    "': expected a non-empty name without spaces, commas, '(', "
                                    "backslashes or control characters");
    if (kind == Kind::External && argv.empty())
        throw std::invalid_argument(name + ": an external engine needs cmd=PROGRAM");
    if (kind == Kind::Engine && !limits.depth && !limits.nodes && !limits.movetime_ms &&
        !time_control.base_ms)
        limits.depth = kDefaultDepth;
}

std::string EngineSpec::description() const {
    std::string d;
    auto add = [&d](const std::string& part) { d += (d.empty() ? "" : ",") + part; };
    switch (kind) {
    case Kind::Random:
        add("builtin=random");
        break;
    case Kind::Greedy:
        add("builtin=greedy");
        break;
    case Kind::External: {
        std::string cmd;
        for (const auto& a : argv) cmd += (cmd.empty() ? "" : " ") + a;
        add("cmd=" + cmd);
        for (const auto& [k, v] : options) add("option." + k + "=" + v);
        break;
    }
    case Kind::Engine:
        add("weights=" + weights_name);
        add("params=" + params_name);
        if (vela_weights) add("vela_weights=" + vela_weights_name);
        if (net) add("net=" + builtin_display_name("net", net_path));
        for (const auto& [k, v] : weight_values) add(k + "=" + std::to_string(v));
        for (const auto& [k, v] : params) add(k + "=" + std::to_string(v));
        break;
    }
    if (kind == Kind::Engine || kind == Kind::External) {
        if (limits.depth) add("depth=" + std::to_string(limits.depth));
        if (limits.nodes) add("nodes=" + std::to_string(limits.nodes));
        if (limits.movetime_ms) add("movetime=" + std::to_string(limits.movetime_ms));
        if (time_control.base_ms)
            add("tc=" +
                (time_control.moves ? std::to_string(time_control.moves) + "/" : std::string()) +
                std::to_string(time_control.base_ms) + "ms+" + std::to_string(time_control.inc_ms) +
                "ms");
        // Only when not the default, so that older specs keep their descriptions.
        if (time_control.margin_ms != TimeMargins::kClockGraceMs)
            add("timemargin=" + std::to_string(time_control.margin_ms));
    }
    if (kind == Kind::Engine && hash_mb != kDefaultHashMb) add("hash=" + std::to_string(hash_mb));
    if (kind == Kind::Engine && tables) add("tables=" + tables_dir);
    return name + "(" + d + ")";
}

SearchLimits EngineSpec::search_limits() const {
    SearchLimits l = limits;
    if (!l.depth && !l.nodes && !l.movetime_ms && !time_control.base_ms) l.depth = kDefaultDepth;
    return l;
}

SearchParams EngineSpec::search_params() const {
    SearchParams p;
    for (const ParamsLine& line : read_params_file(params_name))
        if (!p.set(line.name, std::stoi(line.value)))
            throw std::logic_error("built-in parameters " + params_name + ": " + line.name);
    for (const auto& [k, v] : params) p.set(k, v);
    return p;
}

const Weights& EngineSpec::weights_for(const Rules& rules) const {
    return rules.ruleset == RuleSet::Vela && vela_weights ? *vela_weights : weights;
}

void EngineSpec::configure(Searcher& searcher, const Rules& rules) const {
    // Everything that can throw comes before the first change, and set_hash_mb is itself
    // all-or-nothing: a failure leaves the searcher as it was.
    const SearchParams p = search_params();
    if (searcher.hash_mb() != hash_mb) searcher.set_hash_mb(hash_mb);
    searcher.set_weights(weights_for(rules));
    searcher.params() = p;
    searcher.set_tables(tables);
    searcher.set_network(net);
}

void EngineSpec::check_rules(const Rules& rules) const {
    if (kind != Kind::Engine) return;
    // A network chosen for the games (the default one plays on its own board only) must be of
    // their board: elsewhere the engine would play its weights without a word.
    if (net_chosen && net && net->arch.variant != rules.variant)
        throw std::invalid_argument(name + ": net=" + net_path + ": a network of the " +
                                    std::string(variant_name(net->arch.variant)) +
                                    " board; the games are on " +
                                    std::string(variant_name(rules.variant)));
    if (!tables) return;
    if (const std::string why = tables->unusable_for(rules); !why.empty())
        throw std::invalid_argument(name + ": tables=" + tables_dir + ": " + why);
}

ExternalEngineConfig external_engine_config(const EngineSpec& spec, EngineLog* log) {
    ExternalEngineConfig c;
    c.argv = spec.argv;
    c.options = spec.options;
    c.limits = spec.limits;
    c.fixed_limit_timeout_ms = spec.timeout_ms;
    c.startup_timeout_ms = spec.startup_timeout_ms;
    c.dir = spec.dir;
    c.clock_margin_ms = spec.time_control.margin_ms;
    c.log = {log, spec.name};
    return c;
}

std::unique_ptr<Player> make_player(const EngineSpec& spec, const Rules& rules, std::uint64_t seed,
                                    EngineLog* log) {
    switch (spec.kind) {
    case EngineSpec::Kind::Engine:
        return std::make_unique<EnginePlayer>(spec, rules);
    case EngineSpec::Kind::Random:
        return std::make_unique<BaselinePlayer>(BaselinePlayer::Kind::Random, seed);
    case EngineSpec::Kind::Greedy:
        return std::make_unique<BaselinePlayer>(BaselinePlayer::Kind::Greedy, seed);
    case EngineSpec::Kind::External:
        return std::make_unique<ExternalPlayer>(external_engine_config(spec, log), rules);
    }
    return nullptr;
}

} // namespace fanorona
