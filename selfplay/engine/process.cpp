#include "selfplay/engine/process.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <stdexcept>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace fanorona {

ChildProcess::~ChildProcess() {
    kill();
    if (error_log_ >= 0) close(error_log_);
}

void ChildProcess::clear_error_log() {
    if (error_log_ < 0) return;
    // The child shares the file offset: back to 0, so that its next line starts the file.
    if (ftruncate(error_log_, 0) == 0) lseek(error_log_, 0, SEEK_SET);
    errors_read_ = 0;
}

bool ChildProcess::read_new_errors(std::string& out) {
    struct stat st {};
    if (error_log_ < 0 || fstat(error_log_, &st) != 0 || st.st_size <= errors_read_) return false;
    const std::size_t before = out.size();
    char chunk[4096];
    while (errors_read_ < st.st_size) {
        const ssize_t n = pread(error_log_, chunk, sizeof chunk, errors_read_);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        out.append(chunk, std::size_t(n));
        errors_read_ += n;
    }
    return out.size() > before;
}

std::string ChildProcess::last_error_line() const {
    struct stat st {};
    if (error_log_ < 0 || fstat(error_log_, &st) != 0 || st.st_size <= 0) return "";
    char tail[4096];
    const off_t from = std::max<off_t>(0, st.st_size - off_t(sizeof tail));
    const ssize_t n = pread(error_log_, tail, sizeof tail, from);
    if (n <= 0) return "";
    std::string text(tail, std::size_t(n));
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' '))
        text.pop_back();
    const auto nl = text.find_last_of('\n');
    std::string line = nl == std::string::npos ? text : text.substr(nl + 1);
    if (line.size() > 300) line = line.substr(0, 297) + "...";
    return line;
}

void ChildProcess::start(const std::vector<std::string>& argv, const std::string& dir) {
    kill();
    if (argv.empty()) throw std::runtime_error("no command to start");
    std::signal(SIGPIPE, SIG_IGN); // a dead child shows as a failed write, not a signal
    if (error_log_ < 0) error_log_ = memfd_create("engine-stderr", MFD_CLOEXEC); // -1: discarded
    clear_error_log();
    int in_pipe[2], out_pipe[2], err_pipe[2];
    if (pipe2(in_pipe, O_CLOEXEC) != 0 || pipe2(out_pipe, O_CLOEXEC) != 0 ||
        pipe2(err_pipe, O_CLOEXEC) != 0)
        throw std::runtime_error("cannot create pipes: " + std::string(std::strerror(errno)));
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("cannot fork: " + std::string(std::strerror(errno)));
    if (pid == 0) {
        // Its own process group, so that kill() reaches whatever it starts (a wrapper script's
        // engine, a background helper) and not only the direct child.
        setpgid(0, 0);
        dup2(in_pipe[0], STDIN_FILENO);
        dup2(out_pipe[1], STDOUT_FILENO);
        // dup2 clears close-on-exec on the copy; without the log, standard error is discarded.
        const int err = error_log_ >= 0 ? error_log_ : open("/dev/null", O_WRONLY);
        if (err >= 0) dup2(err, STDERR_FILENO);
        if (dir.empty() || chdir(dir.c_str()) == 0) execvp(args[0], args.data());
        const int e = errno; // tell the parent why chdir or exec failed
        (void)!write(err_pipe[1], &e, sizeof e);
        _exit(127);
    }
    setpgid(pid, pid); // also here: whichever of parent and child runs first sets it
    close(in_pipe[0]);
    close(out_pipe[1]);
    close(err_pipe[1]);
    // The pipe closes on a successful exec (O_CLOEXEC); a failed exec sends its errno first.
    int exec_errno = 0;
    ssize_t n;
    do {
        n = read(err_pipe[0], &exec_errno, sizeof exec_errno);
    } while (n < 0 && errno == EINTR);
    close(err_pipe[0]);
    if (n == sizeof exec_errno) {
        close(in_pipe[1]);
        close(out_pipe[0]);
        waitpid(pid, nullptr, 0);
        throw std::runtime_error("cannot start engine command '" + argv[0] + "'" +
                                 (dir.empty() ? "" : " in folder '" + dir + "'") + ": " +
                                 std::strerror(exec_errno));
    }
    pid_ = pid;
    to_child_ = in_pipe[1];
    from_child_ = out_pipe[0];
    buffer_.clear();
}

bool ChildProcess::write_line(const std::string& line) {
    if (pid_ <= 0) return false;
    const std::string data = line + "\n";
    std::size_t done = 0;
    while (done < data.size()) {
        const ssize_t n = ::write(to_child_, data.data() + done, data.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += std::size_t(n);
    }
    return true;
}

ChildProcess::ReadStatus ChildProcess::read_line(std::string& line, int timeout_ms) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    while (true) {
        const auto nl = buffer_.find('\n');
        if (nl != std::string::npos) {
            line = buffer_.substr(0, nl);
            if (!line.empty() && line.back() == '\r') line.pop_back();
            buffer_.erase(0, nl + 1);
            return ReadStatus::Line;
        }
        if (pid_ <= 0) return ReadStatus::Closed;
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                              deadline - std::chrono::steady_clock::now())
                              .count();
        if (left <= 0) return ReadStatus::Timeout;
        pollfd p{from_child_, POLLIN, 0};
        const int r = poll(&p, 1, int(left));
        if (r < 0 && errno == EINTR) continue;
        if (r == 0) return ReadStatus::Timeout;
        char chunk[4096];
        const ssize_t n = ::read(from_child_, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return ReadStatus::Closed;
        buffer_.append(chunk, std::size_t(n));
    }
}

std::optional<int> ChildProcess::wait_exit(int wait_ms) {
    if (pid_ <= 0) return std::nullopt;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(wait_ms);
    while (true) {
        int status = 0;
        const pid_t r = waitpid(pid_, &status, WNOHANG);
        if (r == pid_) {
            ::kill(-pid_, SIGKILL); // what it started and left in its group goes with it
            pid_ = -1;              // reaped: kill() only closes the pipes
            kill();
            return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        }
        if (r < 0 && errno != EINTR) return std::nullopt;
        if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
        usleep(2000);
    }
}

void ChildProcess::kill() {
    if (to_child_ >= 0) close(to_child_);
    if (from_child_ >= 0) close(from_child_);
    to_child_ = from_child_ = -1;
    if (pid_ > 0) {
        // The whole process group: the child and everything it started that stayed in it.
        if (::kill(-pid_, SIGKILL) != 0) ::kill(pid_, SIGKILL);
        waitpid(pid_, nullptr, 0);
    }
    pid_ = -1;
    buffer_.clear();
}

} // namespace fanorona
