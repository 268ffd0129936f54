#include "selfplay/engine/engine_spec_json.h"

#include <stdexcept>
#include <string>

#include "core/builtins.h"
#include "selfplay/formats/weights_json.h"

namespace fanorona {

namespace {

const char* spec_kind_name(EngineSpec::Kind k) {
    switch (k) {
    case EngineSpec::Kind::Engine:
        return "engine";
    case EngineSpec::Kind::External:
        return "external";
    case EngineSpec::Kind::Random:
        return "random";
    case EngineSpec::Kind::Greedy:
        return "greedy";
    }
    return "engine";
}

EngineSpec::Kind spec_kind_of(const std::string& s) {
    if (s == "engine") return EngineSpec::Kind::Engine;
    if (s == "external") return EngineSpec::Kind::External;
    if (s == "random") return EngineSpec::Kind::Random;
    if (s == "greedy") return EngineSpec::Kind::Greedy;
    throw std::invalid_argument("engine spec: \"kind\": unknown kind '" + s + "'");
}

// Member `key` of `j` as a T; errors name the member.
template <class T> T spec_member(const nlohmann::json& j, const char* key) {
    const auto it = j.find(key);
    if (it == j.end())
        throw std::invalid_argument(std::string("engine spec: missing \"") + key + "\"");
    try {
        return it->get<T>();
    } catch (const nlohmann::json::exception&) {
        throw std::invalid_argument(std::string("engine spec: \"") + key +
                                    "\": a value of the wrong type");
    } catch (const std::invalid_argument& e) { // from the member's own from_json (weights)
        throw std::invalid_argument(std::string("engine spec: \"") + key + "\": " + e.what());
    }
}

} // namespace

void to_json(nlohmann::json& j, const EngineSpec& s) {
    j = {{"kind", spec_kind_name(s.kind)},
         {"name", s.name},
         {"weights", s.weights},
         {"weights_name", s.weights_name},
         {"vela_weights", s.vela_weights ? nlohmann::json(*s.vela_weights) : nlohmann::json()},
         {"vela_weights_name", s.vela_weights_name},
         {"depth", s.limits.depth},
         {"nodes", s.limits.nodes},
         {"movetime", s.limits.movetime_ms},
         {"tc",
          {s.time_control.base_ms, s.time_control.inc_ms, s.time_control.margin_ms,
           s.time_control.moves}},
         {"hash", s.hash_mb},
         {"params_name", s.params_name},
         {"params", s.params},
         {"weight_values", s.weight_values},
         {"argv", s.argv},
         {"options", s.options},
         {"timeout", s.timeout_ms},
         {"startup", s.startup_timeout_ms},
         {"tables", s.tables_dir},
         {"net", s.net_path},
         {"net_chosen", s.net_chosen}};
    // Only when set, so that the specs written before them keep their form.
    if (!s.dir.empty()) j["dir"] = s.dir;
    if (s.restart) j["restart"] = true;
}

void from_json(const nlohmann::json& j, EngineSpec& spec) {
    if (!j.is_object()) throw std::invalid_argument("engine spec: expected a JSON object");
    EngineSpec s;
    s.kind = spec_kind_of(spec_member<std::string>(j, "kind"));
    s.name = spec_member<std::string>(j, "name");
    s.weights = spec_member<Weights>(j, "weights");
    s.weights_name = spec_member<std::string>(j, "weights_name");
    if (!spec_member<nlohmann::json>(j, "vela_weights").is_null())
        s.vela_weights = spec_member<Weights>(j, "vela_weights");
    s.vela_weights_name = spec_member<std::string>(j, "vela_weights_name");
    s.limits.depth = spec_member<int>(j, "depth");
    s.limits.nodes = spec_member<std::uint64_t>(j, "nodes");
    s.limits.movetime_ms = spec_member<int>(j, "movetime");
    const auto tc = spec_member<std::vector<int>>(j, "tc");
    if (tc.size() != 3 && tc.size() != 4) // 3: written before moves-in-time controls
        throw std::invalid_argument(
            "engine spec: \"tc\": expected [base_ms, inc_ms, margin_ms, moves]");
    s.time_control = {tc[0], tc[1], tc[2], tc.size() == 4 ? tc[3] : 0};
    s.hash_mb = spec_member<std::size_t>(j, "hash");
    s.params_name = spec_member<std::string>(j, "params_name");
    if (const BuiltinFile* b = find_builtin("params", s.params_name);
        !b || b->name != s.params_name)
        throw std::invalid_argument("engine spec: \"params_name\": '" + s.params_name +
                                    "' is not built-in parameters (" + builtin_names("params") +
                                    ")");
    s.params = spec_member<decltype(s.params)>(j, "params");
    s.weight_values = spec_member<decltype(s.weight_values)>(j, "weight_values");
    s.argv = spec_member<decltype(s.argv)>(j, "argv");
    s.options = spec_member<decltype(s.options)>(j, "options");
    s.timeout_ms = spec_member<int>(j, "timeout");
    s.startup_timeout_ms = spec_member<int>(j, "startup");
    if (j.contains("dir")) s.dir = spec_member<std::string>(j, "dir");
    if (j.contains("restart")) s.restart = spec_member<bool>(j, "restart");
    s.set("tables", spec_member<std::string>(j, "tables"));
    // The network is read again (a built-in one by name); no "net" member (a spec written before
    // networks) plays none, and no "net_chosen" member (written before the default network)
    // keeps its network (or none) when weights are set later, as then.
    s.set("net", j.contains("net") ? spec_member<std::string>(j, "net") : std::string());
    s.net_chosen = !j.contains("net_chosen") || spec_member<bool>(j, "net_chosen");
    spec = std::move(s);
}

} // namespace fanorona
