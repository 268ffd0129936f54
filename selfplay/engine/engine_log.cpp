#include "selfplay/engine/engine_log.h"

#include <charconv>

#include "selfplay/formats/formats.h"

namespace fanorona {

std::string_view log_direction_name(LogDirection d) {
    return d == LogDirection::ToEngine ? ">" : d == LogDirection::FromEngine ? "<" : "stderr";
}

EngineLog::EngineLog(const std::string& path, bool append)
    : path_(path), lock_(std::make_unique<FileLock>(path)), file_(path, !append),
      start_(std::chrono::steady_clock::now()) {
    // At every opening, also of a file added to: the times below count from here.
    file_.append("# " + std::string(kEngineLogFormat) + "\n#ms\tgame\tplayer\tdir\ttext\n");
}

void EngineLog::write(std::optional<std::uint64_t> game, std::string_view player,
                      LogDirection direction, std::string_view text) {
    std::lock_guard lock(mutex_); // from here: the times grow down the file
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                        std::chrono::steady_clock::now() - start_)
                        .count();
    std::string line;
    line.reserve(text.size() + player.size() + 40);
    char number[24];
    line.append(number, std::to_chars(number, number + sizeof number, ms).ptr);
    line += '\t';
    if (game)
        line.append(number, std::to_chars(number, number + sizeof number, *game).ptr);
    else
        line += '-';
    line += '\t';
    line += player.empty() ? std::string_view("-") : player;
    line += '\t';
    line += log_direction_name(direction);
    line += '\t';
    for (char c : text) line += c == '\t' || c == '\r' || c == '\n' ? ' ' : c;
    line += '\n';
    file_.append(line);
}

} // namespace fanorona
