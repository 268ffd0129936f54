#pragma once
// Progress of long runs on stderr: on a terminal, one line redrawn at most a few times a second;
// elsewhere (a file, a pipe, a batch system's log), plain lines, at most one a second and at least
// one every 10 s while work finishes; nothing when the user asked for quiet. Also the seconds
// since the command started, which the runs report as their duration.

#include <chrono>
#include <cstdint>
#include <string>

namespace fanorona {

// How a ProgressLine shows itself: as stderr is (Auto), or forced (for tests).
enum class ProgressMode { Auto, Terminal, Plain };

class ProgressLine {
public:
    // `total`: the work scheduled; with `open_ended` only a cap (an SPRT's games), shown as
    // "up to" with no time left.
    ProgressLine(std::uint64_t total, bool quiet, ProgressMode mode = ProgressMode::Auto,
                 bool open_ended = false);
    // Shows `done` games finished out of the total and an extra text (e.g. W/D/L); `force`
    // shows it whatever the time since the last.
    void update(std::uint64_t done, const std::string& extra, bool force = false);
    void finish(); // ends the line (plain: prints the last state if it was not printed)
    // Prints `text` as a line of its own on stderr (even when quiet), above the progress line.
    void note(const std::string& text);
    // Prints a block of lines on stdout (even when quiet: the user asked for it, e.g. the
    // ratings every N pairs), above the progress line.
    void block(const std::string& text);
    double elapsed_seconds() const;
    bool plain() const { return enabled_ && !terminal_; }

private:
    std::string text(std::uint64_t done, const std::string& extra) const;

    std::uint64_t total_;
    std::uint64_t start_done_ = 0;
    bool enabled_;
    bool terminal_;
    bool open_ended_;
    bool started_ = false;
    bool drawn_ = false;
    bool pending_ = false; // plain: an update not printed yet
    std::uint64_t last_done_ = 0;
    std::string last_extra_;
    std::chrono::steady_clock::time_point start_, last_;
};

std::string format_duration(double seconds); // "1h02m", "4m35s", "12s"

// Seconds since the command started (since the first call, which main() makes first thing).
double seconds_since_start();

} // namespace fanorona
