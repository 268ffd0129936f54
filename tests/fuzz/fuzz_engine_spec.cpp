// Fuzz target: player specs (EngineSpec::parse, the --player key=value language). An accepted
// spec keeps its invariants and its description parses back to the same description; a rejected
// one is a one-line std::invalid_argument. Weights and parameters files other than the built-in
// names are not read (the weights target covers their parser; a fuzzed path could name a device).

#include "core/builtins.h"
#include "selfplay/engine/engine_spec.h"
#include "selfplay/engine/engine_spec_json.h"
#include "tests/fuzz/fuzz_target.h"

namespace {

// Whether every KIND=VALUE item (weights=, vela_weights=, params=) names a compiled-in file
// (core/builtins.h).
bool only_builtin(const std::string& text, const std::string& kind) {
    const std::string key = kind + "=";
    for (std::size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + 1)) {
        const std::size_t end = std::min(text.find(',', at), text.size());
        const std::string value = text.substr(at + key.size(), end - at - key.size());
        if (!fanorona::find_builtin(kind, value)) return false;
    }
    return true;
}

} // namespace

FUZZ_TARGET(engine_spec) {
    using namespace fanorona;
    const std::string text(fuzz::as_text(data, size));
    // A spec is one command-line argument or protocol line: no line breaks.
    if (text.find_first_of("\n\r") != std::string::npos || !only_builtin(text, "weights") ||
        !only_builtin(text, "params"))
        return 0;
    EngineSpec spec;
    try {
        spec = EngineSpec::parse(text);
    } catch (const std::invalid_argument& e) {
        fuzz::check_one_line(e);
        return 0;
    }
    fuzz::check(!spec.name.empty() && spec.name.find_first_of("( \t,\\\n") == std::string::npos,
                "a bad name was accepted: '" + spec.name + "'");
    for (const SpecRange& r : EngineSpec::ranges()) {
        long long v = -1;
        const std::string_view key = r.key;
        if (key == "depth") v = spec.limits.depth;
        if (key == "nodes") v = (long long)spec.limits.nodes;
        if (key == "movetime") v = spec.limits.movetime_ms;
        if (key == "hash") v = (long long)spec.hash_mb;
        if (key == "timeout") v = spec.timeout_ms;
        if (key == "startup") v = spec.startup_timeout_ms;
        if (v < 0) continue;
        fuzz::check(v == 0 || (v >= r.min && v <= r.max),
                    std::string(r.key) + " out of range: " + std::to_string(v));
    }
    const std::string d = spec.description();
    fuzz::check(player_name_of(d) == spec.name, "the description's name: " + d);
    // Its JSON form (what travels to other ranks) gives back the same spec.
    try {
        const EngineSpec back =
            nlohmann::json::parse(nlohmann::json(spec).dump()).get<EngineSpec>();
        fuzz::check(back.description() == d && nlohmann::json(back) == nlohmann::json(spec),
                    "JSON round trip: " + d + " -> " + back.description());
    } catch (const std::exception& e) {
        fuzz::fail("the JSON form of " + d + " does not read back: " + e.what());
    }
    if (spec.kind == EngineSpec::Kind::External) return 0; // cmd words are joined in descriptions
    const std::string inner = d.substr(spec.name.size() + 1, d.size() - spec.name.size() - 2);
    EngineSpec again;
    try {
        again = EngineSpec::parse("name=" + spec.name + (inner.empty() ? "" : "," + inner));
    } catch (const std::exception& e) {
        fuzz::fail("the description " + d + " does not parse: " + e.what());
    }
    fuzz::check(again.description() == d,
                "description round trip: " + d + " -> " + again.description());
    return 0;
}
