#include "selfplay/engine/compliance_session.h"

#include <algorithm>

#include "selfplay/engine/interrupt.h"

namespace fanorona {

namespace {

// The longest line kept in a transcript (an engine may write a megabyte on one line), and the
// lines kept of one check or one wait (an engine may flood its output): memory stays bounded.
constexpr std::size_t kMaxKeptLine = 2000;
constexpr std::size_t kHeadLines = 1000, kTailLines = 1000;
constexpr std::size_t kMaxKeptLines = 5000;

} // namespace

std::string first_word(std::string_view line) {
    const auto start = line.find_first_not_of(" \t");
    if (start == std::string_view::npos) return "";
    const auto end = line.find_first_of(" \t", start);
    return std::string(line.substr(start, end == std::string_view::npos ? end : end - start));
}

std::string second_word(std::string_view line) {
    const auto start = line.find_first_not_of(" \t");
    if (start == std::string_view::npos) return "";
    const auto gap = line.find_first_of(" \t", start);
    if (gap == std::string_view::npos) return "";
    return first_word(line.substr(gap));
}

void EngineSession::start() {
    try {
        process_.start(argv_);
    } catch (const std::runtime_error& e) {
        throw EngineFault("crash", e.what());
    }
}

void EngineSession::record(bool sent, const std::string& text) {
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - epoch_)
            .count();
    ExchangedLine line{sent, ms,
                       text.size() > kMaxKeptLine ? text.substr(0, kMaxKeptLine) + "..." : text};
    if (head_.size() < kHeadLines) {
        head_.push_back(std::move(line));
        return;
    }
    tail_.push_back(std::move(line));
    if (tail_.size() > kTailLines) {
        tail_.pop_front();
        ++dropped_;
    }
}

std::vector<ExchangedLine> EngineSession::transcript() const {
    std::vector<ExchangedLine> out = head_;
    if (dropped_ > 0)
        out.push_back({false, tail_.empty() ? 0 : tail_.front().ms,
                       "(" + std::to_string(dropped_) + " lines not kept)"});
    out.insert(out.end(), tail_.begin(), tail_.end());
    return out;
}

void EngineSession::new_transcript() {
    head_.clear();
    tail_.clear();
    dropped_ = 0;
    epoch_ = std::chrono::steady_clock::now();
}

void EngineSession::cut_transcript(std::size_t lines) {
    if (lines >= transcript_size()) return;
    if (lines <= head_.size()) {
        head_.resize(lines);
        tail_.clear();
        dropped_ = 0;
    } else if (lines - head_.size() <= dropped_) {
        dropped_ = lines - head_.size(); // what is kept of them is gone
        tail_.clear();
    } else {
        tail_.resize(lines - head_.size() - dropped_);
    }
}

void EngineSession::send(const std::string& line) {
    record(true, line);
    if (!process_.write_line(line)) {
        const std::string said = process_.last_error_line();
        const auto code = process_.wait_exit(200);
        throw EngineFault("crash", "the engine no longer reads its input (it exited" +
                                       (code ? " with status " + std::to_string(*code) : "") +
                                       ") when sent '" + line + "'" +
                                       (said.empty() ? "" : "; its standard error: " + said));
    }
}

std::optional<std::string> EngineSession::read(int timeout_ms, const std::string& waiting) {
    std::string line;
    switch (process_.read_line(line, std::max(timeout_ms, 0))) {
    case ChildProcess::ReadStatus::Line:
        record(false, line);
        return line;
    case ChildProcess::ReadStatus::Timeout:
        return std::nullopt;
    case ChildProcess::ReadStatus::Interrupted:
        process_.kill();
        throw Interrupted();
    case ChildProcess::ReadStatus::Closed:
        break;
    }
    const std::string said = process_.last_error_line();
    const auto code = process_.wait_exit(500);
    process_.kill();
    throw EngineFault("crash", "the engine exited" +
                                   (code ? " with status " + std::to_string(*code) : "") +
                                   " while waiting for " + waiting +
                                   (said.empty() ? "" : "; its standard error: " + said));
}

std::optional<std::string> EngineSession::read_until(std::string_view word, int timeout_ms,
                                                     std::vector<std::string>& before,
                                                     const std::string& waiting) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    while (true) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                              deadline - std::chrono::steady_clock::now())
                              .count();
        auto line = read(int(std::max<long long>(left, 0)), waiting);
        if (!line) return std::nullopt;
        if (first_word(*line) == word) return line;
        if (before.size() < kMaxKeptLines) before.push_back(std::move(*line));
    }
}

std::string EngineSession::expect(std::string_view word, int timeout_ms,
                                  std::vector<std::string>& before, const std::string& after) {
    const std::string waiting = "'" + std::string(word) + "' after " + after;
    auto line = read_until(word, timeout_ms, before, waiting);
    if (!line)
        throw EngineFault("hang", "no '" + std::string(word) + "' within " +
                                      std::to_string(timeout_ms) + " ms after " + after);
    return *line;
}

} // namespace fanorona
