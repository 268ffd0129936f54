#pragma once
// A player that is another program speaking the engine protocol of RULES.md over pipes. Faults
// (a crash, a hang, an illegal or malformed move) forfeit the game and restart the process.

#include <string>
#include <utility>
#include <vector>

#include "core/search.h"
#include "engine/process.h"
#include "engine/player.h"

namespace fanorona {

struct ExternalEngineConfig {
    std::vector<std::string> argv;                            // program and arguments
    std::vector<std::pair<std::string, std::string>> options; // sent with setoption
    SearchLimits limits;                // depth, nodes or movetime per move (clocks come per game)
    int startup_timeout_ms = 5000;      // for uciok and readyok
    int move_margin_ms = 1000;          // extra time allowed beyond a timed move
    int fixed_limit_timeout_ms = 60000; // a depth or node limited move must answer within this
};

class ExternalPlayer : public Player {
public:
    ExternalPlayer(ExternalEngineConfig config, const Rules& rules)
        : config_(std::move(config)), rules_(rules) {}
    void new_game() override { need_new_game_ = true; }
    MoveChoice choose(const Game& game, const Clock& clock) override;
    const std::string& engine_name() const { return engine_name_; }
    int restarts() const { return restarts_; }

private:
    void ensure_started();
    [[noreturn]] void fault(const std::string& reason, const std::string& detail);
    std::string expect(const std::string& token, int timeout_ms, const std::string& step);

    ExternalEngineConfig config_;
    Rules rules_;
    ChildProcess process_;
    bool need_new_game_ = true;
    std::string engine_name_;
    int restarts_ = -1; // the first start is not a restart
};

} // namespace fanorona
