// The child process of an engine: started from one long-lived thread (so that PR_SET_PDEATHSIG
// ties it to this process, not to a worker thread that may end), read with deadlines.

#include "selfplay/engine/process.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fcntl.h>
#include <functional>
#include <mutex>
#include <poll.h>
#include <stdexcept>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "selfplay/engine/interrupt.h"

namespace fanorona {

namespace {

// The longest single wait of a read or a write before the interruption flag is looked at again.
constexpr int kPollSliceMs = 50;
// How long a line may take to be written to a child that does not read its input.
constexpr int kWriteTimeoutMs = 10000;

// Runs fork() calls on one thread that lives as long as the process: PR_SET_PDEATHSIG sends its
// signal when the thread that forked ends, and the workers that start engines may end before
// their engines should. Leaked on purpose (never destroyed while its thread waits).
class Spawner {
public:
    static Spawner& get() {
        static Spawner* spawner = new Spawner();
        return *spawner;
    }
    // Runs `fork_child` (which forks and returns the pid or -1 with errno) on the spawner's thread.
    pid_t run(const std::function<pid_t()>& fork_child, int& error) {
        Request request{&fork_child};
        std::unique_lock lock(mutex_);
        queue_.push_back(&request);
        cv_.notify_all();
        cv_.wait(lock, [&] { return request.done; });
        error = request.error;
        return request.pid;
    }

private:
    // One fork asked of the spawner thread, and its answer.
    struct Request {
        const std::function<pid_t()>* fork_child;
        pid_t pid = -1;
        int error = 0;
        bool done = false;
    };
    Spawner() {
        std::thread([this] { serve(); }).detach();
    }
    void serve() {
        std::unique_lock lock(mutex_);
        while (true) {
            cv_.wait(lock, [&] { return !queue_.empty(); });
            Request* r = queue_.front();
            queue_.pop_front();
            lock.unlock();
            r->pid = (*r->fork_child)();
            r->error = errno;
            lock.lock();
            r->done = true;
            cv_.notify_all();
        }
    }
    std::mutex mutex_;
    std::condition_variable cv_;
    std::deque<Request*> queue_;
};

// Milliseconds from now to `deadline` (0 when past), at most `cap`.
int ms_until(ChildProcess::Deadline deadline, int cap) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          deadline - std::chrono::steady_clock::now())
                          .count();
    return int(std::clamp<long long>(left, 0, cap));
}

} // namespace

std::string program_problem(const std::string& program, const std::string& dir) {
    if (program.find('\0') != std::string::npos) return "contains a NUL byte";
    if (program.empty()) return "No such file or directory";
    std::vector<std::string> candidates;
    if (program.find('/') != std::string::npos) {
        candidates.push_back(program.front() == '/' || dir.empty() ? program : dir + "/" + program);
    } else {
        const char* path = std::getenv("PATH");
        const std::string dirs = path ? path : "/bin:/usr/bin";
        std::size_t start = 0;
        while (true) {
            const auto colon = dirs.find(':', start);
            const std::string dir = dirs.substr(start, colon - start);
            candidates.push_back((dir.empty() ? "." : dir) + "/" + program);
            if (colon == std::string::npos) break;
            start = colon + 1;
        }
    }
    std::string problem;
    for (const std::string& c : candidates) {
        struct stat st {};
        if (stat(c.c_str(), &st) != 0) continue;
        std::string why;
        if (S_ISDIR(st.st_mode))
            why = "is a folder, not a program";
        else if (!S_ISREG(st.st_mode))
            why = "is not a regular file";
        else if (access(c.c_str(), X_OK) != 0)
            why = "Permission denied (the file is not executable)";
        else
            return "";
        if (problem.empty()) problem = why;
    }
    return problem.empty() ? "No such file or directory" : problem;
}

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

void ChildProcess::bound_error_log() {
    struct stat st {};
    if (error_log_ < 0 || fstat(error_log_, &st) != 0 || st.st_size <= kMaxErrorLogBytes) return;
    char tail[4096];
    const off_t from = st.st_size - off_t(sizeof tail);
    const ssize_t n = pread(error_log_, tail, sizeof tail, from);
    if (ftruncate(error_log_, 0) != 0) return;
    lseek(error_log_, 0, SEEK_SET); // the child shares the offset: it writes after the tail
    if (n > 0) (void)!write(error_log_, tail, std::size_t(n));
    errors_read_ = std::max<off_t>(0, errors_read_ - from);
}

bool ChildProcess::read_new_errors(std::string& out) {
    bound_error_log();
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
    for (const std::string& a : argv)
        if (a.find('\0') != std::string::npos)
            throw std::runtime_error("cannot start engine command '" + argv[0] +
                                     "': an argument contains a NUL byte");
    if (const std::string why = program_problem(argv[0], dir); !why.empty())
        throw std::runtime_error("cannot start engine command '" + argv[0] + "': " + why);
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
    const pid_t parent = getpid();
    const int error_log = error_log_;
    // Only async-signal-safe calls between fork and exec (other threads may hold locks).
    const std::function<pid_t()> fork_child = [&]() -> pid_t {
        const pid_t pid = fork();
        if (pid != 0) return pid;
        // Its own process group, so that kill() reaches whatever it starts (a wrapper script's
        // engine, a background helper) and not only the direct child.
        setpgid(0, 0);
        // Dies with the referee (the spawner thread lives as long as the process).
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(127); // the referee died before the line above
        // Default dispositions (SIGPIPE, SIGINT... may be ignored here) and no blocked signal.
        struct sigaction dfl {};
        dfl.sa_handler = SIG_DFL;
        sigemptyset(&dfl.sa_mask);
        for (int sig = 1; sig < NSIG; ++sig)
            if (sig != SIGKILL && sig != SIGSTOP) sigaction(sig, &dfl, nullptr);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, nullptr);
        dup2(in_pipe[0], STDIN_FILENO);
        dup2(out_pipe[1], STDOUT_FILENO);
        // dup2 clears close-on-exec on the copy; without the log, standard error is discarded.
        const int err = error_log >= 0 ? error_log : open("/dev/null", O_WRONLY);
        if (err >= 0) dup2(err, STDERR_FILENO);
        if (dir.empty() || chdir(dir.c_str()) == 0) execvp(args[0], args.data());
        const int e = errno; // tell the parent why chdir or exec failed
        (void)!write(err_pipe[1], &e, sizeof e);
        _exit(127);
    };
    int fork_errno = 0;
    const pid_t pid = Spawner::get().run(fork_child, fork_errno);
    if (pid < 0) {
        for (int fd : {in_pipe[0], in_pipe[1], out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]})
            close(fd);
        throw std::runtime_error("cannot fork: " + std::string(std::strerror(fork_errno)));
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
    // Writes never block: a child that does not read its input is waited for with a deadline.
    fcntl(to_child_, F_SETFL, fcntl(to_child_, F_GETFL) | O_NONBLOCK);
    buffer_.clear();
    head_ = scanned_ = 0;
    dropping_ = false;
}

bool ChildProcess::write_line(const std::string& line) {
    if (pid_ <= 0) return false;
    const std::string data = line + "\n";
    const Deadline deadline =
        std::chrono::steady_clock::now() + std::chrono::milliseconds(kWriteTimeoutMs);
    std::size_t done = 0;
    while (done < data.size()) {
        const ssize_t n = ::write(to_child_, data.data() + done, data.size() - done);
        if (n > 0) {
            done += std::size_t(n);
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            // Its input is full: it does not read. Waited for, up to the deadline.
            if (interrupt_flag().load() || ms_until(deadline, 1) <= 0) return false;
            pollfd p{to_child_, POLLOUT, 0};
            poll(&p, 1, ms_until(deadline, kPollSliceMs));
            continue;
        }
        return false;
    }
    return true;
}

ChildProcess::ReadStatus ChildProcess::read_line(std::string& line, int timeout_ms) {
    return read_line(line, std::chrono::steady_clock::now() +
                               std::chrono::milliseconds(std::max(timeout_ms, 0)));
}

ChildProcess::ReadStatus ChildProcess::read_line(std::string& line, Deadline deadline) {
    while (true) {
        if (interrupt_flag().load()) return ReadStatus::Interrupted;
        // Past the deadline nothing more is taken, not even lines already read: a child that
        // floods its output cannot keep the reader busy beyond it.
        if (std::chrono::steady_clock::now() >= deadline) return ReadStatus::Timeout;
        // A whole line in the buffer (each byte is scanned once: linear in what the child writes).
        const auto nl = buffer_.find('\n', scanned_);
        if (nl != std::string::npos) {
            const bool dropped = dropping_; // the end of a line already returned cut
            if (!dropped) {
                line.assign(buffer_.data() + head_, std::min(nl - head_, kMaxLineBytes));
                if (!line.empty() && line.back() == '\r') line.pop_back();
            }
            head_ = scanned_ = nl + 1;
            if (head_ == buffer_.size()) {
                buffer_.clear();
                head_ = scanned_ = 0;
            }
            dropping_ = false;
            if (dropped) continue;
            return ReadStatus::Line;
        }
        scanned_ = buffer_.size();
        if (buffer_.size() - head_ > kMaxLineBytes || (dropping_ && buffer_.size() > head_)) {
            if (!dropping_) { // a line too long: returned cut, the rest of it dropped
                line.assign(buffer_.data() + head_, kMaxLineBytes);
                buffer_.clear();
                head_ = scanned_ = 0;
                dropping_ = true;
                return ReadStatus::Line;
            }
            buffer_.clear();
            head_ = scanned_ = 0;
        }
        if (pid_ <= 0) return ReadStatus::Closed;
        bound_error_log();
        pollfd p{from_child_, POLLIN, 0};
        const int r = poll(&p, 1, ms_until(deadline, kPollSliceMs));
        if (r <= 0) continue; // a slice passed (or EINTR): the flag and the deadline again
        if (head_ > 0) {      // what was returned goes before more is read
            buffer_.erase(0, head_);
            scanned_ -= head_;
            head_ = 0;
        }
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
    head_ = scanned_ = 0;
    dropping_ = false;
}

} // namespace fanorona
