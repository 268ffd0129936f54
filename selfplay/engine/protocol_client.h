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
#include "selfplay/engine/engine_log.h"
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
    EngineLogTarget log;           // every line both ways and the engine's standard error, or none
    std::string dir;               // the engine's working folder ("": the run's own)
};

// An engine's answer to `go`. `sent` is when the go line was written and `received` when the
// bestmove line was read (a referee's view of the time used); depth, nodes, time_ms (the engine's
// own `info time`, milliseconds) and score are the last ones its `info` lines gave (-1 and none
// when they gave none; score in centi-pieces for the side to move, `cp` scores only).
struct EngineReply {
    Move move{0, 0, 0};
    std::optional<int> score;
    int depth = -1;
    std::int64_t nodes = -1;
    std::int64_t time_ms = -1;
    std::string line; // the bestmove line
    std::chrono::steady_clock::time_point sent, received;
};

// One engine program, started on demand. Every wait has a deadline counted from its request
// (start-up to `uciok`, `isready` to `readyok`, `go` to `bestmove`, `quit` to the exit): lines the
// engine writes meanwhile do not extend it. A signal (interrupt_flag()) ends any wait with
// Interrupted after `quit` and the reaping of the process. Every failure throws PlayerFault with
// its reason
// ("crash": it could not start, exited or closed its input; "hang": no uciok or readyok in time;
// "timeout": no bestmove in time; "illegal-move": a malformed or illegal bestmove) and kills the
// process first (its standard error's last line is added to the detail, and with a log "see the
// engine log FILE"), so the next start() starts it again. With a log (config.log) every line
// written and read goes to it, and what the engine wrote to its standard error is logged as it is
// found: before each line read from the engine, and before a fault.
class ProtocolClient {
public:
    explicit ProtocolClient(ProtocolClientConfig config) : config_(std::move(config)) {}
    ~ProtocolClient() {
        try {
            quit();
        } catch (...) { // a log that cannot be written: the process goes all the same
        }
    }
    ProtocolClient(const ProtocolClient&) = delete;
    ProtocolClient& operator=(const ProtocolClient&) = delete;

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
    // Sends `go_line` and reads until `bestmove`, waiting at most `wait_ms` from the moment
    // `go` is written (however many `info` lines come); the move is checked legal in the
    // game's position. The numbers of `info` lines are clamped to MoveNumberRanges
    // (selfplay/formats/games_file.h) or dropped when they are not numbers.
    EngineReply go(const Game& game, const std::string& go_line, int wait_ms);
    // Sends `quit`, waits at most kQuitWaitMs for the engine to exit, then kills and reaps it
    // (and what it started). Nothing when it does not run. Also done when the client goes.
    void quit();
    static constexpr int kQuitWaitMs = 1000;
    // The game the lines logged from now on belong to (none until set).
    void set_game(std::uint64_t game) { game_ = game; }

    // The engine's `id name` (empty until it sent one).
    const std::string& engine_name() const { return engine_name_; }
    // How often the engine was started after its first start.
    int restarts() const { return restarts_; }

private:
    [[noreturn]] void fault(const std::string& reason, const std::string& detail);
    std::string expect(const std::string& token, int timeout_ms, const std::string& step);
    // Quits the engine and throws Interrupted.
    [[noreturn]] void interrupted();
    // Writes a line to the engine (and the log); false when the engine no longer reads.
    bool send(const std::string& line);
    // Reads a line from the engine by `deadline`, logging first its standard error so far, then
    // the line; Interrupted when a signal came.
    ChildProcess::ReadStatus receive(std::string& line, ChildProcess::Deadline deadline);
    // Logs the whole lines the engine wrote to its standard error since the last call (with
    // `all` a last unfinished one too).
    void log_errors(bool all);
    void log(LogDirection direction, std::string_view text);

    ProtocolClientConfig config_;
    ChildProcess process_;
    std::string engine_name_;
    int restarts_ = -1; // the first start is not a restart
    std::optional<std::uint64_t> game_;
    std::string errors_; // standard error read but not logged yet (an unfinished line)
};

} // namespace fanorona
