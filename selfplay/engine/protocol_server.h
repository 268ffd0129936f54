#pragma once
// The engine side of the text protocol of docs/rules.md (UCI-like), over any pair of streams so
// that tests can drive it. The search runs on its own thread, so `stop` and `isready` are answered
// while it thinks.

#include <condition_variable>
#include <iosfwd>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/board/game.h"
#include "core/search.h"
#include "selfplay/engine/engine_log.h"
#include "selfplay/engine/engine_spec.h"

namespace fanorona {

// One engine session. Invariant: at most one search thread runs, and every `go` is answered by
// exactly one `bestmove` line (a `go infinite` only after `stop`, `quit` or the end of input).
class EngineProtocol {
public:
    // The engine starts with `spec`'s weights, hash and search parameters; a bare `go` searches
    // with its limits. If `in` is tied to `out` (as std::cin is to std::cout) it is untied: only
    // the protocol writes `out`, one whole line at a time under a lock.
    EngineProtocol(std::istream& in, std::ostream& out, const EngineSpec& spec = EngineSpec{});
    ~EngineProtocol();
    EngineProtocol(const EngineProtocol&) = delete;
    EngineProtocol& operator=(const EngineProtocol&) = delete;

    // Reads and answers commands until `quit` or the end of input (which waits for a running
    // search to answer; a `go infinite` search is stopped).
    void run();

    // Handles one command line; returns false for `quit`.
    bool handle(const std::string& line);

    // Writes every line read (">", to the engine) and written ("<") to `log` from now on (game
    // and player "-"); nullptr: none. The log must outlive the session.
    void set_log(EngineLog* log) { log_ = log; }

private:
    void send(const std::string& line);
    void error(const std::string& message);
    void cmd_uci();
    void cmd_setoption(const std::vector<std::string>& words);
    void set_rules_option(const std::string& key, const std::string& value); // Variant, Rules
    void cmd_position(const std::vector<std::string>& words);
    void cmd_go(const std::vector<std::string>& words);
    void stop_search(); // stops a running search and waits for its bestmove
    void wait_search(); // waits for a running search to answer by itself

public:
    // The moves of a principal variation from the game's position, in notation.
    static std::string pv_string(const Game& game, const std::vector<Move>& pv);
    // "info depth D seldepth S score cp X|mate N nodes N nps N time MS" (without the pv).
    static std::string info_line(const IterationInfo& info);

private:
    std::istream& in_;
    std::ostream& out_;
    std::mutex out_mutex_;
    EngineLog* log_ = nullptr;
    EngineSpec spec_; // what the searcher is set to (Hash, Weights, parameters)
    Searcher searcher_;
    Rules rules_;
    Game game_;

    std::thread thread_;
    std::mutex state_mutex_;
    std::condition_variable state_cv_;
    bool stop_requested_ = false; // set by stop/quit; releases an infinite search's bestmove
    bool searching_ = false;
    bool infinite_ = false;
};

} // namespace fanorona
