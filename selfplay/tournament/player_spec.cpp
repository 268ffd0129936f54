#include "selfplay/tournament/player_spec.h"

#include <sstream>

#include "common/files.h"
#include "core/weights.h"
#include "selfplay/game/players.h"

namespace fanorona {

namespace {

long long parse_number(const std::string& key, const std::string& value, long long lo,
                       long long hi) {
    try {
        std::size_t used = 0;
        const long long v = std::stoll(value, &used);
        if (used != value.size() || v < lo || v > hi) throw std::out_of_range(value);
        return v;
    } catch (const std::exception&) {
        throw std::invalid_argument("--player: " + key + "=" + value +
                                    ": expected a whole number from " + std::to_string(lo) +
                                    " to " + std::to_string(hi));
    }
}

// "10+0.1" seconds (base + increment) into a TimeControl.
TimeControl parse_tc(const std::string& value) {
    TimeControl tc;
    const auto plus = value.find('+');
    try {
        std::size_t used = 0;
        const std::string base = value.substr(0, plus);
        const double b = std::stod(base, &used);
        if (used != base.size() || b <= 0) throw std::invalid_argument(value);
        double inc = 0;
        if (plus != std::string::npos) {
            const std::string i = value.substr(plus + 1);
            inc = std::stod(i, &used);
            if (used != i.size() || inc < 0) throw std::invalid_argument(value);
        }
        tc.base_ms = int(b * 1000);
        tc.inc_ms = int(inc * 1000);
    } catch (const std::exception&) {
        throw std::invalid_argument("--player: tc=" + value +
                                    ": expected seconds+increment such as 10+0.1");
    }
    return tc;
}

std::vector<std::string> split_words(const std::string& s) {
    std::istringstream in(s);
    std::vector<std::string> out;
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

Weights load_weights(const std::string& path) {
    if (path == "default") return default_weights();
    return parse_weights(read_text_file(path), path);
}

// The toolkit's engine with its own Searcher.
class EnginePlayer : public Player {
public:
    EnginePlayer(const PlayerSpec& spec)
        : searcher_(spec.hash_mb), player_(searcher_, spec.limits) {
        searcher_.set_weights(load_weights(spec.weights));
        for (const auto& [name, value] : spec.params) searcher_.params().set(name, value);
    }
    void new_game() override { player_.new_game(); }
    MoveChoice choose(const Game& game, const Clock& clock) override {
        return player_.choose(game, clock);
    }

private:
    Searcher searcher_;
    SearchPlayer player_;
};

} // namespace

PlayerSpec PlayerSpec::parse(const std::string& text) {
    PlayerSpec s;
    bool has_cmd = false, has_builtin = false;
    std::string args;
    std::stringstream in(text);
    for (std::string item; std::getline(in, item, ',');) {
        if (item.empty()) continue;
        const auto eq = item.find('=');
        if (eq == std::string::npos || eq == 0)
            throw std::invalid_argument("--player: '" + item + "' is not key=value");
        const std::string key = item.substr(0, eq), value = item.substr(eq + 1);
        if (key == "name")
            s.name = value;
        else if (key == "weights")
            s.weights = value;
        else if (key == "depth")
            s.limits.depth = int(parse_number(key, value, 1, 60));
        else if (key == "nodes")
            s.limits.nodes = std::uint64_t(parse_number(key, value, 1, 1LL << 40));
        else if (key == "movetime")
            s.limits.movetime_ms = int(parse_number(key, value, 1, 3600000));
        else if (key == "hash")
            s.hash_mb = std::size_t(parse_number(key, value, 1, 4096));
        else if (key == "tc")
            s.time_control = parse_tc(value);
        else if (key == "timeout")
            s.timeout_ms = int(parse_number(key, value, 1, 86400000));
        else if (key == "startup")
            s.startup_timeout_ms = int(parse_number(key, value, 1, 600000));
        else if (key == "cmd") {
            s.kind = Kind::External;
            has_cmd = true;
            s.argv = {value};
        } else if (key == "args")
            args = value;
        else if (key.rfind("option.", 0) == 0)
            s.options.emplace_back(key.substr(7), value);
        else if (key == "builtin") {
            has_builtin = true;
            if (value == "random")
                s.kind = Kind::Random;
            else if (value == "greedy")
                s.kind = Kind::Greedy;
            else
                throw std::invalid_argument("--player: builtin=" + value +
                                            ": expected random or greedy");
        } else {
            const SearchParams defaults;
            if (!defaults.find(key))
                throw std::invalid_argument(
                    "--player: unknown key '" + key +
                    "' (name, weights, depth, nodes, movetime, tc, hash, "
                    "cmd, args, option.NAME, timeout, startup, builtin, or a search "
                    "parameter)");
            const SearchParam* p = defaults.find(key);
            s.params.emplace_back(p->name, int(parse_number(key, value, p->min, p->max)));
        }
    }
    if (s.name.empty())
        throw std::invalid_argument("--player '" + text + "': name=... is required");
    if (s.name.find_first_of("(\t ") != std::string::npos)
        throw std::invalid_argument("--player: name '" + s.name +
                                    "' may not hold spaces, tabs or '('");
    if (has_cmd && has_builtin)
        throw std::invalid_argument("--player " + s.name + ": cmd and builtin exclude each other");
    if (has_cmd)
        for (auto& w : split_words(args)) s.argv.push_back(w);
    else if (!args.empty())
        throw std::invalid_argument("--player " + s.name + ": args without cmd");
    if (s.kind == Kind::Engine) {
        if (!s.limits.depth && !s.limits.nodes && !s.limits.movetime_ms && !s.time_control.base_ms)
            s.limits.depth = 4;
        (void)load_weights(s.weights); // fail now, naming the file, not inside a worker
    }
    s.timeout_ms = std::max(s.timeout_ms, 1);
    return s;
}

std::string PlayerSpec::description() const {
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
    case Kind::Engine: {
        const auto slash = weights.find_last_of('/');
        add("weights=" + (slash == std::string::npos ? weights : weights.substr(slash + 1)));
        for (const auto& [k, v] : params) add(k + "=" + std::to_string(v));
        break;
    }
    }
    if (kind == Kind::Engine || kind == Kind::External) {
        if (limits.depth) add("depth=" + std::to_string(limits.depth));
        if (limits.nodes) add("nodes=" + std::to_string(limits.nodes));
        if (limits.movetime_ms) add("movetime=" + std::to_string(limits.movetime_ms));
        if (time_control.base_ms)
            add("tc=" + std::to_string(time_control.base_ms) + "ms+" +
                std::to_string(time_control.inc_ms) + "ms");
    }
    return name + "(" + d + ")";
}

std::unique_ptr<Player> make_player(const PlayerSpec& spec, const Rules& rules,
                                    std::uint64_t seed) {
    switch (spec.kind) {
    case PlayerSpec::Kind::Engine:
        return std::make_unique<EnginePlayer>(spec);
    case PlayerSpec::Kind::Random:
        return std::make_unique<BaselinePlayer>(BaselinePlayer::Kind::Random, seed);
    case PlayerSpec::Kind::Greedy:
        return std::make_unique<BaselinePlayer>(BaselinePlayer::Kind::Greedy, seed);
    case PlayerSpec::Kind::External: {
        ExternalEngineConfig c;
        c.argv = spec.argv;
        c.options = spec.options;
        c.limits = spec.limits;
        c.fixed_limit_timeout_ms = spec.timeout_ms;
        c.startup_timeout_ms = spec.startup_timeout_ms;
        return std::make_unique<ExternalPlayer>(c, rules);
    }
    }
    return nullptr;
}

Weights load_player_weights(const PlayerSpec& spec) {
    return load_weights(spec.weights);
}

std::string player_name_of(const std::string& description) {
    return description.substr(0, description.find('('));
}

} // namespace fanorona
