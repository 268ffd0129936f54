#pragma once
// The checker's line-level hold on the engine under check (selfplay/engine/compliance.h): a child
// process whose every line sent and received is kept, with its time, for the check that runs.

#include <chrono>
#include <deque>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "selfplay/engine/compliance_report.h"
#include "selfplay/engine/process.h"

namespace fanorona {

// A fault that ends a group of checks: the engine exited or could not start ("crash"), or did not
// answer in time ("hang"). what() says what it was doing or waiting for.
struct EngineFault : std::runtime_error {
    EngineFault(std::string kind_, const std::string& detail)
        : std::runtime_error(detail), kind(std::move(kind_)) {}
    std::string kind;
};

// One engine program and the transcript of the current check. Invariant: every line written to
// or read from the program since the check began is in the transcript, in order (each cut to
// 2000 characters), unless a caller cut it back; past 2000 lines only the first and the last
// 1000 are kept, with the number of those between.
class EngineSession {
public:
    explicit EngineSession(std::vector<std::string> argv) : argv_(std::move(argv)) {}

    // Starts the program (a running one is killed first); EngineFault "crash" when it cannot.
    void start();
    void kill() { process_.kill(); }
    bool running() const { return process_.running(); }

    // Writes one line; EngineFault "crash" when the program no longer reads.
    void send(const std::string& line);
    // The next line within timeout_ms, or nullopt at the timeout; EngineFault "crash" when the
    // program closed its output (it exited), `waiting` naming what for.
    std::optional<std::string> read(int timeout_ms, const std::string& waiting);
    // Reads until a line whose first word is `word`, returned; the lines before it are appended
    // to `before` (up to 5000 of them). nullopt when none came within timeout_ms (in all).
    std::optional<std::string> read_until(std::string_view word, int timeout_ms,
                                          std::vector<std::string>& before,
                                          const std::string& waiting);
    // read_until, with EngineFault "hang" at the timeout: "no WORD within MS ms after WHAT".
    std::string expect(std::string_view word, int timeout_ms, std::vector<std::string>& before,
                       const std::string& after);
    // Waits at most wait_ms for the program to exit (after `quit`): its exit code, or nullopt.
    std::optional<int> wait_exit(int wait_ms) { return process_.wait_exit(wait_ms); }

    // The lines of the current check (a line saying how many were not kept stands for those);
    // a new check starts an empty transcript and its clock.
    std::vector<ExchangedLine> transcript() const;
    // How many lines the check exchanged so far.
    std::size_t transcript_size() const { return head_.size() + dropped_ + tail_.size(); }
    void new_transcript();
    // Keeps only the first `lines` lines of the transcript (as far as they are kept).
    void cut_transcript(std::size_t lines);

private:
    void record(bool sent, const std::string& text);

    std::vector<std::string> argv_;
    ChildProcess process_;
    std::vector<ExchangedLine> head_; // the first lines of the check
    std::deque<ExchangedLine> tail_;  // the last lines after head_ (all while none is dropped)
    std::size_t dropped_ = 0;         // the lines between head_ and tail_ not kept
    std::chrono::steady_clock::time_point epoch_ = std::chrono::steady_clock::now();
};

// The first word of a line ("" for a blank one).
std::string first_word(std::string_view line);
// The word after the first one ("" when none): the move of "bestmove M [ponder P]".
std::string second_word(std::string_view line);

} // namespace fanorona
