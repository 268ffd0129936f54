#pragma once
// `fanorona check-engine`: a protocol compliance checker. It runs an engine program through every
// part of the engine protocol of docs/rules.md (start-up, options, new games, positions by string
// and by moves, the variants and rule sets it claims, every `go` limit, `isready` while it
// searches, `stop`, legal moves in random positions, time discipline, `quit`) and reports each
// check as pass, warn, fail or skip, with the lines exchanged. Every wait is bounded: a crash or a
// hang is caught and reported, and the engine is started again for the next group of checks.

#include "selfplay/engine/compliance_report.h"

namespace fanorona {

// Runs every check. Throws std::invalid_argument for a bad configuration (no program, no
// positions); whatever the engine does is a check's result.
ComplianceReport check_engine(const ComplianceConfig& config);

} // namespace fanorona
