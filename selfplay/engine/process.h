#pragma once
// A child process with pipes to its standard input and output, read line by line with deadlines
// that what the child writes cannot extend; the one way the program runs other programs (the
// tournament's engines, timeuse, check-engine).

#include <chrono>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace fanorona {

// Why `program` (a path, or a name searched in PATH as execvp does) cannot be started: "" when it
// can (a regular file we may execute), else a reason for a one-line error ("No such file or
// directory", "is a folder, not a program", "is not a regular file", "Permission denied (the
// file is not executable)", "contains a NUL byte"). A relative path with a '/' is found from the
// working folder `dir` ("": this process's), where the child runs it.
std::string program_problem(const std::string& program, const std::string& dir = "");

// Owns one running child (or none). Invariant: pid_ > 0 exactly while a child was started and
// not yet reaped, and then pid_ is also its process group; the destructor kills that group and
// reaps the child.
class ChildProcess {
public:
    ChildProcess() = default;
    ~ChildProcess();
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    // Starts `argv[0]` (searched in PATH) in a process group of its own, with its standard error
    // kept in an anonymous file (see last_error_line; at most kMaxErrorLogBytes of it are kept),
    // in the working folder `dir` ("": this process's; a relative argv[0] with a '/' is then
    // found from `dir`), with default signal dispositions, no blocked signal, and SIGKILL when
    // this process dies (PR_SET_PDEATHSIG: no engine outlives its referee). Throws
    // std::runtime_error naming the command and the reason (program_problem, or the exec errno)
    // when it cannot be started.
    void start(const std::vector<std::string>& argv, const std::string& dir = "");
    // The last non-empty line the child wrote to its standard error since it was started or
    // since clear_error_log() (at most 300 characters), or "" when it wrote none.
    std::string last_error_line() const;
    // Forgets what the child wrote to its standard error so far (a chatty engine's log does
    // not grow without end: the external player clears it at each new game).
    void clear_error_log();
    // Appends to `out` what the child wrote to its standard error since the last call (or since
    // it was started or the log cleared); false when it wrote nothing new.
    bool read_new_errors(std::string& out);
    bool running() const { return pid_ > 0; }
    // Writes one line; false when the child no longer reads (it died).
    bool write_line(const std::string& line);
    // Interrupted: interrupt_flag() (selfplay/engine/interrupt.h) was set while waiting.
    enum class ReadStatus { Line, Timeout, Closed, Interrupted };
    using Deadline = std::chrono::steady_clock::time_point;
    // Reads the next line (without '\n'), waiting at most until `deadline`: lines the child
    // writes meanwhile do not extend it. A line longer than kMaxLineBytes is returned cut to that
    // length and the rest of it is dropped.
    ReadStatus read_line(std::string& line, Deadline deadline);
    // The same with a deadline timeout_ms from now.
    ReadStatus read_line(std::string& line, int timeout_ms);

    static constexpr std::size_t kMaxLineBytes = 64 * 1024;
    static constexpr off_t kMaxErrorLogBytes = 1 << 20; // then only its last 4 KiB are kept
    // Waits at most wait_ms for the child to end by itself, then reaps it: its exit code (128 +
    // the signal that ended it), or nullopt when it still runs (it keeps running) or none runs.
    std::optional<int> wait_exit(int wait_ms);
    // Kills (SIGKILL) the child's whole process group (what it started dies with it) and reaps
    // the child.
    void kill();

private:
    // Keeps the standard error's file under kMaxErrorLogBytes.
    void bound_error_log();

    pid_t pid_ = -1;
    int to_child_ = -1;
    int from_child_ = -1;
    int error_log_ = -1;      // the anonymous file the child's standard error goes to (or -1)
    off_t errors_read_ = 0;   // the bytes of it that read_new_errors() has returned
    std::string buffer_;      // bytes read from the child: [head_, end) not yet returned
    std::size_t head_ = 0;    // where the next line starts in buffer_
    std::size_t scanned_ = 0; // buffer_[head_, scanned_) holds no '\n'
    bool dropping_ = false;   // the rest of a line cut at kMaxLineBytes is being dropped
};

} // namespace fanorona
