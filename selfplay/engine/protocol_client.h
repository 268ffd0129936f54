#pragma once
// The referee's side of the engine protocol of docs/rules.md: another program started as a child
// process and spoken to over pipes. The tournament's external players (external_player.h) and
// `fanorona timeuse` (tools/timeuse) both talk to engines through here.

#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/board/game.h"
#include "selfplay/engine/player.h"
#include "selfplay/engine/process.h"

namespace fanorona {

// What to start and how to set it up. The rules' variant and rule set are sent as the Variant
// and Rules options when they are not the defaults (tsivy, standard), after `options`.
struct ProtocolClientConfig {
    std::vector<std::string> argv;                            // program and arguments
    std::vector<std::pair<std::string, std::string>> options; // sent with setoption at start
    Rules rules;
    int startup_timeout_ms = 5000; // for uciok and each readyok
};

// An engine's answer to `go`. `sent` is when the go line was written and `received` when the
// bestmove line was read (a referee's view of the time used); depth and score are the last ones
// its `info` lines gave (score in centi-pieces for the side to move, `cp` scores only).
struct EngineReply {
    Move move{0, 0, 0};
    std::optional<int> score;
    int depth = 0;
    std::string line; // the bestmove line
    std::chrono::steady_clock::time_point sent, received;
};

// One engine program, started on demand. Every failure throws PlayerFault with its reason
// ("crash": it could not start, exited or closed its input; "hang": no uciok or readyok in time;
// "timeout": no bestmove in time; "illegal-move": a malformed or illegal bestmove) and kills the
// process first (its standard error's last line is added to the detail), so the next start()
// starts it again.
class ProtocolClient {
public:
    explicit ProtocolClient(ProtocolClientConfig config) : config_(std::move(config)) {}

    // Starts the engine unless it is running: `uci`, `uciok` within the start-up timeout, then
    // the options. True when it was started now (the first time, or again after a fault).
    bool start();
    bool running() const { return process_.running(); }
    // `isready`, then `readyok` within the start-up timeout; `step` names the wait in a fault.
    void sync(const std::string& step);
    // Forgets the engine's error output so far, sends `ucinewgame` and syncs ("a new game").
    void new_game();
    // `position startpos` or `position fen ...` for the game's start, then its moves.
    void send_position(const Game& game);
    // Sends `go_line` and reads until `bestmove`, waiting at most `wait_ms` for each line; the
    // move is checked legal in the game's position.
    EngineReply go(const Game& game, const std::string& go_line, int wait_ms);
    // Sends `quit` (the process is reaped when the client goes).
    void quit() { process_.write_line("quit"); }

    // The engine's `id name` (empty until it sent one).
    const std::string& engine_name() const { return engine_name_; }
    // How often the engine was started after its first start.
    int restarts() const { return restarts_; }

private:
    [[noreturn]] void fault(const std::string& reason, const std::string& detail);
    std::string expect(const std::string& token, int timeout_ms, const std::string& step);

    ProtocolClientConfig config_;
    ChildProcess process_;
    std::string engine_name_;
    int restarts_ = -1; // the first start is not a restart
};

} // namespace fanorona
