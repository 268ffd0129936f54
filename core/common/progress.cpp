// The progress display of long runs (progress.h): a redrawn line on a terminal, plain lines
// elsewhere.
#include "core/common/progress.h"

#include <algorithm>
#include <cstdio>
#include <unistd.h>

namespace fanorona {

namespace {

bool stderr_is_terminal() {
    return isatty(STDERR_FILENO) != 0;
}

} // namespace

double seconds_since_start() {
    static const auto start = std::chrono::steady_clock::now();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

ProgressLine::ProgressLine(std::uint64_t total, bool quiet, ProgressMode mode, bool open_ended)
    : total_(total), enabled_(!quiet),
      terminal_(mode == ProgressMode::Terminal ||
                (mode == ProgressMode::Auto && stderr_is_terminal())),
      open_ended_(open_ended), start_(std::chrono::steady_clock::now()), last_(start_) {}

double ProgressLine::elapsed_seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

std::string format_duration(double s) {
    char buf[32];
    const long t = long(s + 0.5);
    if (t >= 3600)
        std::snprintf(buf, sizeof buf, "%ldh%02ldm", t / 3600, t / 60 % 60);
    else if (t >= 60)
        std::snprintf(buf, sizeof buf, "%ldm%02lds", t / 60, t % 60);
    else
        std::snprintf(buf, sizeof buf, "%lds", t);
    return buf;
}

std::string ProgressLine::text(std::uint64_t done, const std::string& extra) const {
    const double secs = elapsed_seconds();
    const double rate = secs > 0 ? double(done - start_done_) / secs : 0.0;
    char buf[96];
    if (open_ended_)
        std::snprintf(buf, sizeof buf, "%llu games (up to %llu)",
                      static_cast<unsigned long long>(done),
                      static_cast<unsigned long long>(total_));
    else
        std::snprintf(buf, sizeof buf, "%llu/%llu games", static_cast<unsigned long long>(done),
                      static_cast<unsigned long long>(total_));
    std::string s = buf;
    if (!extra.empty()) s += "  " + extra;
    std::snprintf(buf, sizeof buf, "  %.2f games/s", rate);
    s += buf;
    if (!open_ended_)
        s += "  ETA " +
             (rate > 0 && total_ > done ? format_duration(double(total_ - done) / rate) : "-");
    return s;
}

void ProgressLine::update(std::uint64_t done, const std::string& extra, bool force) {
    if (!started_) {
        started_ = true;
        start_done_ = done;
    }
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    if (terminal_) {
        if (!force && now - last_ < std::chrono::milliseconds(250)) return;
        last_ = now;
        std::fprintf(stderr, "\r\033[K%s", text(done, extra).c_str());
        std::fflush(stderr);
        drawn_ = true;
        return;
    }
    // Plain lines: the gap grows with the run, from 1 s in the first 10 s to 10 s after 100 s.
    const double gap = std::clamp(elapsed_seconds() / 10, 1.0, 10.0);
    if (!force && drawn_ && std::chrono::duration<double>(now - last_).count() < gap) {
        pending_ = true;
        last_done_ = done;
        last_extra_ = extra;
        return;
    }
    last_ = now;
    std::fprintf(stderr, "%s\n", text(done, extra).c_str());
    std::fflush(stderr);
    drawn_ = true;
    pending_ = false;
}

void ProgressLine::note(const std::string& text) {
    if (enabled_ && terminal_ && drawn_) std::fprintf(stderr, "\r\033[K");
    std::fprintf(stderr, "%s\n", text.c_str());
    std::fflush(stderr);
}

void ProgressLine::block(const std::string& text) {
    if (enabled_ && terminal_ && drawn_) {
        std::fprintf(stderr, "\r\033[K");
        std::fflush(stderr);
    }
    std::fprintf(stdout, "%s", text.c_str());
    std::fflush(stdout);
}

void ProgressLine::finish() {
    if (enabled_ && terminal_ && drawn_) std::fprintf(stderr, "\n");
    if (enabled_ && !terminal_ && pending_) {
        std::fprintf(stderr, "%s\n", text(last_done_, last_extra_).c_str());
        std::fflush(stderr);
    }
    drawn_ = false;
    pending_ = false;
}

} // namespace fanorona
