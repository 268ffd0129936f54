#pragma once
// A one-line progress display on stderr for long runs, redrawn at most a few times a second,
// shown only when stderr is a terminal and the user did not ask for quiet.

#include <chrono>
#include <cstdint>
#include <string>

namespace fanorona {

class ProgressLine {
public:
    ProgressLine(std::uint64_t total, bool quiet);
    // Redraws with `done` games finished out of the total and an extra text (e.g. W/D/L).
    void update(std::uint64_t done, const std::string& extra, bool force = false);
    void finish(); // ends the line
    // Prints `text` as a line of its own on stderr (even when quiet), above the progress line.
    void note(const std::string& text);
    double elapsed_seconds() const;

private:
    std::uint64_t total_;
    std::uint64_t start_done_ = 0;
    bool enabled_;
    bool started_ = false;
    bool drawn_ = false;
    std::chrono::steady_clock::time_point start_, last_;
};

std::string format_duration(double seconds); // "1h02m", "4m35s", "12s"

} // namespace fanorona
