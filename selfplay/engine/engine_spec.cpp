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

// Whether `key` names a file or folder the engine reads (a path, or for some a built-in name).
bool reads_file(std::string_view key) {
    for (const char* k : {"weights", "vela_weights", "params", "net", "tables"})
        if (key == k) return true;
    return false;
}

// Refuses a NUL byte in a key or value: it would cut a program's name, an argument, an option
// line (C strings, protocol lines) or a name shown in an error message. File and folder names
// (the files read, the working folder dir=) refuse it where they are opened, with their own
// message.
void refuse_nul_byte(std::string_view key, std::string_view value) {
    const bool path_key = reads_file(key) || key == "dir";
    if ((path_key || value.find('\0') == std::string_view::npos) &&
        key.find('\0') == std::string_view::npos)
        return;
    std::string shown(key);
    for (char& ch : shown)
        if (ch == '\0') ch = '?';
    throw std::invalid_argument(shown + ": the value contains a NUL byte");
}

// Sets one key of a spec: the handlers of EngineSpec::set, one per key of its table.
using KeySetter = void (*)(EngineSpec& s, std::string_view key, std::string_view value);

void set_weights(EngineSpec& s, std::string_view, std::string_view value) {
    Weights w = load_weights_file(std::string(value));
    for (const auto& [k, v] : s.weight_values) w.values[std::size_t(feature_index(k))] = v;
    s.weights = w;
    s.weights_name = weights_display_name(std::string(value));
    s.drop_default_network();
}

void set_vela_weights(EngineSpec& s, std::string_view, std::string_view value) {
    s.vela_weights = load_weights_file(std::string(value));
    s.vela_weights_name = weights_display_name(std::string(value));
    s.drop_default_network();
}

void set_params(EngineSpec& s, std::string_view, std::string_view value) {
    if (const BuiltinFile* b = find_builtin("params", value)) {
        s.params_name = std::string(b->name);
        return;
    }
    // All or nothing: the lines go onto a copy, which replaces this spec once all are valid.
    EngineSpec next = s;
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
    s = std::move(next);
}

void set_tc(EngineSpec& s, std::string_view key, std::string_view value) {
    if (value == "none") { // no clock (e.g. over an engines file's tc)
        s.time_control.base_ms = s.time_control.inc_ms = s.time_control.moves = 0;
        return;
    }
    s.time_control = parse_tc(key, value, s.time_control);
}

void set_cmd(EngineSpec& s, std::string_view key, std::string_view value) {
    if (value.empty()) bad(key, value, "expected a program");
    s.kind = EngineSpec::Kind::External;
    s.argv.assign(1, std::string(value));
}

void set_args(EngineSpec& s, std::string_view key, std::string_view value) {
    if (s.kind != EngineSpec::Kind::External || s.argv.empty()) bad(key, value, "args without cmd");
    s.argv.resize(1);
    for (std::string& w : split_words(value)) s.argv.push_back(std::move(w));
}

// One argument as given, spaces and commas included.
void set_arg(EngineSpec& s, std::string_view key, std::string_view value) {
    if (s.kind != EngineSpec::Kind::External || s.argv.empty()) bad(key, value, "arg without cmd");
    s.argv.emplace_back(value);
}

void set_dir(EngineSpec& s, std::string_view key, std::string_view value) {
    if (value.empty()) {
        s.dir.clear();
        return;
    }
    std::error_code error;
    if (!std::filesystem::is_directory(std::string(value), error))
        bad(key, value, "no such folder (the engine's working folder)");
    s.dir = std::string(value);
}

void set_restart(EngineSpec& s, std::string_view key, std::string_view value) {
    if (value == "on")
        s.restart = true;
    else if (value == "off")
        s.restart = false;
    else
        bad(key, value, "expected on (a fresh engine process each game) or off");
}

// option.NAME: a later value of the same option replaces the earlier one, in its place.
void set_engine_option(EngineSpec& s, std::string_view key, std::string_view value) {
    if (key.size() == 7) bad(key, value, "expected option.NAME=VALUE");
    const std::string option(key.substr(7));
    auto same = [&](const auto& kv) { return kv.first == option; };
    if (auto it = std::find_if(s.options.begin(), s.options.end(), same); it != s.options.end())
        it->second = std::string(value);
    else
        s.options.emplace_back(option, std::string(value));
}

void set_tables(EngineSpec& s, std::string_view key, std::string_view value) {
    if (value.empty() || value == "none") {
        s.tables.reset();
        s.tables_dir.clear();
        return;
    }
    try {
        s.tables = tables::open_tables(std::string(value));
    } catch (const std::exception& e) {
        bad(key, value, e.what());
    }
    s.tables_dir = std::string(value);
}

void set_net(EngineSpec& s, std::string_view key, std::string_view value) {
    if (value.empty() || value == "none") {
        s.net.reset();
        s.net_path.clear();
        s.net_chosen = true;
        return;
    }
    try {
        const std::shared_ptr<const NetFile> f = load_net_file(std::string(value));
        s.net = std::shared_ptr<const nnue::Network>(f, &f->net); // shares the file's network
    } catch (const std::exception& e) {
        bad(key, value, e.what());
    }
    const BuiltinFile* b = find_builtin("net", value);
    s.net_path = b ? std::string(b->name) : std::string(value);
    s.net_chosen = true;
}

void set_builtin(EngineSpec& s, std::string_view key, std::string_view value) {
    if (value == "random")
        s.kind = EngineSpec::Kind::Random;
    else if (value == "greedy")
        s.kind = EngineSpec::Kind::Greedy;
    else
        bad(key, value, "expected random or greedy");
}

// A search parameter or an evaluation weight by name: any key not in the table.
void set_tunable(EngineSpec& s, std::string_view key, std::string_view value) {
    const auto t = find_tunable(key);
    if (!t)
        throw std::invalid_argument(
            "unknown key '" + std::string(key) +
            "' (name, weights, vela_weights, params, depth, nodes, movetime, tc, "
            "timemargin, hash, cmd, args, arg, dir, restart, option.NAME, timeout, startup, "
            "builtin, tables, net, a search parameter or a weight)");
    const int v = int(parse_whole(t->name, value, t->min, t->max));
    if (t->weight) {
        put(s.weight_values, t->name, v);
        s.weights.values[std::size_t(feature_index(t->name))] = v;
        s.drop_default_network();
    } else {
        put(s.params, t->name, v);
    }
}

// A key of EngineSpec::set and what sets it.
struct SpecKey {
    std::string_view key;
    KeySetter set;
};

// The keys, each with its handler (the small ones here: a name, a number in its range).
const SpecKey kSpecKeys[] = {
    {"name", [](EngineSpec& s, auto, auto v) { s.name = std::string(v); }},
    {"weights", set_weights},
    {"vela_weights", set_vela_weights},
    {"params", set_params},
    {"depth", [](EngineSpec& s, auto k, auto v) { s.limits.depth = int(parse_ranged(k, v)); }},
    {"nodes",
     [](EngineSpec& s, auto k, auto v) { s.limits.nodes = std::uint64_t(parse_ranged(k, v)); }},
    {"movetime",
     [](EngineSpec& s, auto k, auto v) { s.limits.movetime_ms = int(parse_ranged(k, v)); }},
    {"hash", [](EngineSpec& s, auto k, auto v) { s.hash_mb = std::size_t(parse_ranged(k, v)); }},
    {"tc", set_tc},
    {"timemargin",
     [](EngineSpec& s, auto k, auto v) { s.time_control.margin_ms = int(parse_ranged(k, v)); }},
    {"timeout", [](EngineSpec& s, auto k, auto v) { s.timeout_ms = int(parse_ranged(k, v)); }},
    {"startup",
     [](EngineSpec& s, auto k, auto v) { s.startup_timeout_ms = int(parse_ranged(k, v)); }},
    {"cmd", set_cmd},
    {"args", set_args},
    {"arg", set_arg},
    {"dir", set_dir},
    {"restart", set_restart},
    {"tables", set_tables},
    {"net", set_net},
    {"builtin", set_builtin},
};

} // namespace

void EngineSpec::set(std::string_view key, std::string_view value) {
    refuse_nul_byte(key, value);
    for (const SpecKey& k : kSpecKeys)
        if (key == k.key) return k.set(*this, key, value);
    if (key.rfind("option.", 0) == 0) return set_engine_option(*this, key, value);
    set_tunable(*this, key, value);
}

bool builtin_only_key(std::string_view key) {
    if (reads_file(key) || key == "hash") return true;
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

namespace {

// The settings as a --player would write them ("key=value,..."), for errors; refused when not
// UTF-8 text (a spec is written as JSON: run settings, MPI jobs).
std::string settings_text(const SpecSettings& settings) {
    std::string text;
    for (const auto& [key, value] : settings) text += (text.empty() ? "" : ",") + key + "=" + value;
    if (valid_utf8(text) != text)
        throw std::invalid_argument("not UTF-8 text (an engine spec is written as JSON)");
    return text;
}

// What the first pass over the settings leaves for later: whether cmd and builtin came, and
// where the args and arg settings stand (applied after cmd, wherever they stand).
struct SettingsPass {
    bool has_cmd = false, has_builtin = false;
    std::optional<std::size_t> args_at; // the last args=
    std::vector<std::size_t> arg_at;    // the arg= settings, in order
};

// Step 1 of from_settings: each setting onto `s` in order, but args and arg; `at` the one
// being set.
SettingsPass set_in_order(EngineSpec& s, const SpecSettings& settings, std::size_t& at) {
    SettingsPass pass;
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
            pass.args_at = i;
            continue;
        }
        if (key == "arg") { // after cmd and args, each in order
            pass.arg_at.push_back(i);
            continue;
        }
        pass.has_cmd |= key == "cmd";
        pass.has_builtin |= key == "builtin";
        at = i;
        // A file key given empty is a mistake (set() takes "" from the run settings as none).
        if (value.empty() && reads_file(key))
            bad(key, value,
                key == "tables" ? "empty (give a tables folder or none)"
                : key == "net"  ? "empty (give a path, a built-in name or none)"
                                : "empty (give a path or a built-in name)");
        s.set(key, value);
    }
    return pass;
}

// The setoption of `fanorona engine` (and the usual Hash) that does what a key of the toolkit's
// engine does: "" when none.
std::string engine_option_for(const std::string& key) {
    static const std::pair<const char*, const char*> kOptions[] = {
        {"hash", "Hash"}, {"weights", "Weights"}, {"vela_weights", "VelaWeights"},
        {"net", "Net"},   {"tables", "Tables"},   {"params", "Params"},
    };
    for (const auto& [k, option] : kOptions)
        if (key == k) return option;
    if (const auto t = find_tunable(key); t && !t->weight) return t->name;
    return "";
}

// Step 2 of from_settings: refuses the keys that the kind of player cannot take, whatever their
// place in the spec; `at` the one at fault.
void refuse_foreign_keys(const EngineSpec& s, const SpecSettings& settings, std::size_t& at) {
    using Kind = EngineSpec::Kind;
    for (std::size_t i = 0; i < settings.size(); ++i) {
        const auto& [key, value] = settings[i];
        at = i;
        const std::string kv = key + "=" + value;
        if (s.kind != Kind::Engine && builtin_only_key(key)) {
            if (s.kind != Kind::External)
                throw std::invalid_argument(s.name + ": " + kv +
                                            ": a setting of the toolkit's engine; a baseline "
                                            "player (builtin=) takes none");
            const std::string option = engine_option_for(key);
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
}

} // namespace

EngineSpec EngineSpec::from_settings(const SpecSettings& settings, std::size_t* failed) {
    std::size_t unused = 0;
    std::size_t& at = failed ? *failed : unused;
    at = settings.size();
    const std::string text = settings_text(settings);
    EngineSpec s;
    s.name.clear();
    // Step 1. Each setting in order (args and arg wait for cmd).
    const SettingsPass pass = set_in_order(s, settings, at);
    at = settings.size();
    if (s.name.empty()) throw std::invalid_argument("'" + text + "': name=... is required");
    if (pass.has_cmd && pass.has_builtin)
        throw std::invalid_argument(s.name + ": cmd and builtin exclude each other");
    // Step 2. Keys that the kind of player cannot take.
    refuse_foreign_keys(s, settings, at);
    at = settings.size();
    // Step 3. args, then each arg in order.
    if (pass.args_at) {
        at = *pass.args_at;
        s.set("args", settings[at].second);
        at = settings.size();
    }
    for (const std::size_t i : pass.arg_at) {
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
