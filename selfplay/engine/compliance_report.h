#pragma once
// What `fanorona check-engine` (selfplay/engine/compliance.h) checks and what it found: the
// configuration, each check's result with the lines exchanged, the engine's lateness, and the
// report as a table and as JSON. The checker's steps (compliance_run.h) and its session with the
// engine (compliance_session.h) build on these types.

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "selfplay/engine/external_player.h"

namespace fanorona {

// What to check and how long to wait. `engine` is the program as a tournament runs it
// (external_engine_config of its --player spec): its command, the options sent with setoption
// after `uciok` (chosen over the advertised default when the options are set one by one), its
// start-up timeout, and its limits. With limits, the random positions are searched as a
// tournament would search them (fixed_limit_go); without, they alternate `go depth 1` and `go
// nodes 1000` under answer_timeout_ms. Under a movetime, each of those searches is also a sample
// of the engine's lateness.
struct ComplianceConfig {
    ExternalEngineConfig engine;
    // The longest wait for what should come at once: readyok, a depth 1 or node-limited search,
    // the bestmove after stop, the exit after quit.
    int answer_timeout_ms = 3000;
    int positions = 200; // random positions searched (at least 1)
    std::string player;  // the name the --player spec gave ("": none), for the report
    std::uint64_t seed = 1;
    std::function<void(const std::string& group)> on_group; // told as each group starts
};

enum class CheckStatus { Pass, Warn, Fail, Skip };
std::string_view check_status_name(CheckStatus s); // "pass", "warn", "fail", "skip"

// One line of the exchange: sent to the engine or received from it, `ms` after its check began.
struct ExchangedLine {
    bool sent = false;
    double ms = 0;
    std::string text;
};

// The outcome of one check. `lines` are the lines exchanged during it, kept when it did not pass
// (for a check over many searches: the first search that went wrong).
struct CheckResult {
    std::string group, name;
    CheckStatus status = CheckStatus::Pass;
    std::string detail;
    std::vector<ExchangedLine> lines;
};

// How late an engine answered timed searches: for each search, the time from `go` written to
// `bestmove` read minus the time it was given (its movetime, or all its clock); negative is
// early.
struct Lateness {
    std::vector<double> samples_ms;
    double min() const;
    double median() const;
    double max() const;
};

// Everything check_engine() found. Invariant: checks are in the order they ran.
struct ComplianceReport {
    std::string engine_name; // its `id name`, "" when it sent none
    std::string player;      // the name its --player spec gave it ("": none given)
    std::vector<CheckResult> checks;
    Lateness movetime, clock;
    int count(CheckStatus s) const;
    bool failed() const { return count(CheckStatus::Fail) > 0; }
};

// The lateness past which an answer to a timed search is a warning (a fail past the referees'
// grace, core/timeman.h: TimeMargins::kReplyGraceMs for a movetime, kClockGraceMs for a clock).
inline constexpr int kLateWarningMs = 50;

// After this many faults (crashes, hangs) the remaining groups of checks are skipped.
inline constexpr int kMaxEngineFaults = 3;

// The report as a table (group, check, status, detail; the lines of each check that did not pass
// under it), then the time distributions and the counts.
std::string render_compliance_table(const ComplianceReport& report);

// The report as JSON ("format": "fanorona-check-engine 1"; docs/formats.md).
nlohmann::json compliance_json(const ComplianceConfig& config, const ComplianceReport& report);

} // namespace fanorona
