#pragma once
// A player that is another program speaking the engine protocol of docs/rules.md over pipes
// (through the protocol client). Faults (a crash, a hang, an illegal or malformed move) forfeit the
// game and restart the process.

#include <string>
#include <utility>
#include <vector>

#include "core/search.h"
#include "selfplay/engine/player.h"
#include "selfplay/engine/protocol_client.h"

namespace fanorona {

// The program and what it is asked: its limits per move unless the game has clocks. A timed
// move (clock or movetime) may answer TimeMargins::kReplyGraceMs late (core/timeman.h), a clocked
// one at least its clock's margin late.
struct ExternalEngineConfig {
    std::vector<std::string> argv; // program and arguments
    std::string dir;               // its working folder ("": the run's own)
    std::vector<std::pair<std::string, std::string>> options; // sent with setoption
    SearchLimits limits;                // depth, nodes or movetime per move (clocks come per game)
    int startup_timeout_ms = 5000;      // for uciok and readyok
    int fixed_limit_timeout_ms = 60000; // a depth or node limited move must answer within this
    int clock_margin_ms = TimeMargins::kClockGraceMs; // its TimeControl's margin_ms
    EngineLogTarget log; // the run's engine log and this player's name, or none
};

// The go line for a search under the fixed limits (no clock) and the longest wait for its
// bestmove: `go movetime MS` when there is a movetime (waited MS and the reply grace), else `go
// depth D nodes N` with the parts that are set (waited fixed_limit_timeout_ms).
struct FixedLimitGo {
    std::string line;
    int wait_ms = 0;
};
FixedLimitGo fixed_limit_go(const ExternalEngineConfig& c);

class ExternalPlayer : public Player {
public:
    ExternalPlayer(ExternalEngineConfig config, const Rules& rules)
        : config_(std::move(config)),
          client_({config_.argv, config_.options, rules, config_.startup_timeout_ms, config_.log,
                   config_.dir}) {}
    void new_game(std::uint64_t game) override {
        need_new_game_ = true;
        client_.set_game(game);
    }
    MoveChoice choose(const Game& game, const Clock& clock) override;
    const std::string& engine_name() const { return client_.engine_name(); }
    int restarts() const { return client_.restarts(); }

private:
    ExternalEngineConfig config_;
    ProtocolClient client_;
    bool need_new_game_ = true;
};

} // namespace fanorona
