#include "core/common/progress.h"

#include <cstdio>
#include <unistd.h>

namespace fanorona {

ProgressLine::ProgressLine(std::uint64_t total, bool quiet)
    : total_(total), enabled_(!quiet && isatty(STDERR_FILENO)),
      start_(std::chrono::steady_clock::now()), last_(start_) {}

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

void ProgressLine::update(std::uint64_t done, const std::string& extra, bool force) {
    if (!started_) {
        started_ = true;
        start_done_ = done;
    }
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    if (!force && now - last_ < std::chrono::milliseconds(250)) return;
    last_ = now;
    const double secs = elapsed_seconds();
    const double rate = secs > 0 ? double(done - start_done_) / secs : 0.0;
    const std::string eta =
        rate > 0 && total_ > done ? format_duration(double(total_ - done) / rate) : "-";
    std::fprintf(stderr, "\r\033[K%llu/%llu games  %s  %.2f games/s  ETA %s",
                 static_cast<unsigned long long>(done), static_cast<unsigned long long>(total_),
                 extra.c_str(), rate, eta.c_str());
    std::fflush(stderr);
    drawn_ = true;
}

void ProgressLine::note(const std::string& text) {
    if (enabled_ && drawn_) std::fprintf(stderr, "\r\033[K");
    std::fprintf(stderr, "%s\n", text.c_str());
    std::fflush(stderr);
}

void ProgressLine::finish() {
    if (enabled_ && drawn_) std::fprintf(stderr, "\n");
    drawn_ = false;
}

} // namespace fanorona
