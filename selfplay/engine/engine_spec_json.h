#pragma once
// The one JSON form of an EngineSpec, with everything it holds (what travels to the other ranks
// of an MPI job is then the same spec):
//   {"kind": "engine" | "external" | "random" | "greedy", "name": "A",
//    "weights": <Weights, selfplay/formats/weights_json.h>, "weights_name": "new.txt",
//    "vela_weights": <Weights> or null, "vela_weights_name": "",
//    "depth": 4, "nodes": 0, "movetime": 0, "tc": [base_ms, inc_ms, margin_ms, moves], "hash": 16,
//    "params_name": "tuned", "params": [["LmrBase", 80], ...], "weight_values": [["material_mg",
//    104], ...], "argv": ["prog", "-x"], "options": [["Hash", "32"], ...], "timeout": 60000,
//    "startup": 5000, "tables": "DIR" or ""}
// Every member is required. Reading opens the tables folder again (EngineSpec::set("tables")),
// so the reader must see the same path.

#include <nlohmann/json.hpp>

#include "selfplay/engine/engine_spec.h"

namespace fanorona {

void to_json(nlohmann::json& j, const EngineSpec& s);
// Throws std::invalid_argument "engine spec: ..." for a missing member or a value of the wrong
// type, and what EngineSpec::set throws for a tables folder that cannot be opened.
void from_json(const nlohmann::json& j, EngineSpec& s);

} // namespace fanorona
