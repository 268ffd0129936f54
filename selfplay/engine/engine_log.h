#pragma once
// The engine log (`--log FILE` of the commands that play games, and of `fanorona engine`): every
// line sent to an engine and received from it, and what it wrote to its standard error, with the
// milliseconds since the log was opened, the game and the player. One file for all the workers
// of a run. docs/formats.md describes the file.

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "core/common/append_file.h"
#include "core/common/folder_lock.h"

namespace fanorona {

// Which way a logged line went: to the engine (">"), from the engine ("<"), or the engine's
// standard error ("stderr").
enum class LogDirection { ToEngine, FromEngine, Stderr };
std::string_view log_direction_name(LogDirection d);

// One open engine log. Thread-safe: each line is formatted, then written whole under a lock, so
// the lines of several workers never mix within a line. Invariant: while the object lives this
// process holds FILE.lock (FileLock), and the lines it wrote follow the header lines it wrote
// first (a file added to holds the header lines of each opening).
class EngineLog {
public:
    // Takes the lock of `path`, opens it, emptied unless `append` (a resumed run, an engine started
    // again, adds to its log), and writes the header lines. Throws FileError naming the file.
    EngineLog(const std::string& path, bool append);
    EngineLog(const EngineLog&) = delete;
    EngineLog& operator=(const EngineLog&) = delete;

    const std::string& path() const { return path_; }
    // Appends "MS\tGAME\tPLAYER\tDIRECTION\tTEXT\n": the whole milliseconds since the log was
    // opened, the game's index ("-" for none), the player's name ("-" for none); a tab, carriage
    // return or line feed inside `text` becomes a space. Throws FileError on a failed write.
    void write(std::optional<std::uint64_t> game, std::string_view player, LogDirection direction,
               std::string_view text);

private:
    std::string path_;
    std::unique_ptr<FileLock> lock_;
    std::mutex mutex_;
    AppendFile file_;
    std::chrono::steady_clock::time_point start_;
};

// A log and who speaks in it: what a protocol client (the referee's side of one player) or the
// engine server writes its lines with. Without a log, nothing is written and nothing is read.
struct EngineLogTarget {
    EngineLog* log = nullptr;
    std::string player; // the player's name ("" for none: "-")
};

} // namespace fanorona
