#include "selfplay/batch/run_files.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fanorona {

namespace fs = std::filesystem;

namespace {

std::string error_text() {
    return std::strerror(errno);
}

// Byte offsets just after each complete line of the games file (comments excluded), and the
// offset where the header ends.
struct GamesScan {
    std::vector<std::uint64_t> game_ends;
    std::uint64_t header_end = 0;
    bool has_header = false;
};

GamesScan scan_games(const std::string& path) {
    GamesScan scan;
    const std::string text = read_text_file(path);
    std::uint64_t pos = 0;
    while (pos < text.size()) {
        const auto end = text.find('\n', pos);
        if (end == std::string::npos) break;
        if (text[pos] == '#') {
            scan.has_header = true;
            if (scan.game_ends.empty()) scan.header_end = end + 1;
        } else if (end > pos) {
            scan.game_ends.push_back(end + 1);
        }
        pos = end + 1;
    }
    return scan;
}

} // namespace

void check_resume_settings(const std::string& dir, const nlohmann::json& now,
                           const std::vector<std::string>& free_keys) {
    const std::string path = dir + "/settings.json";
    nlohmann::json before;
    try {
        before = nlohmann::json::parse(read_text_file(path));
    } catch (const std::exception& e) {
        throw std::runtime_error(path + ": cannot resume: " + e.what());
    }
    for (const auto& [key, value] : now.items()) {
        if (std::find(free_keys.begin(), free_keys.end(), key) != free_keys.end()) continue;
        if (!before.contains(key) || before[key] != value)
            throw std::runtime_error(path + ": cannot resume: setting '" + key + "' was " +
                                     (before.contains(key) ? before[key].dump() : "absent") +
                                     ", now " + value.dump());
    }
}

RunFiles::RunFiles(const std::string& dir, const GamesHeader& header, bool log_positions,
                   bool resume)
    : dir_(dir) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) throw RunFilesError(dir + ": cannot create the output folder: " + ec.message());
    const std::string gpath = games_path(dir), ppath = positions_path(dir);
    const bool games_exist = fs::exists(gpath);
    std::uint64_t games_keep = 0, positions_keep = 0;
    if (games_exist) {
        const GamesScan scan = scan_games(gpath);
        if (!resume && !scan.game_ends.empty())
            throw RunFilesError(gpath + ": already holds games; use --resume to continue the "
                                        "run, or choose another --out folder");
        std::uint64_t n = scan.game_ends.size();
        if (log_positions && fs::exists(ppath)) {
            const PositionLog log = scan_position_log(ppath, [](const auto&) {});
            if (log.header != PositionLogHeader{header.variant, header.ruleset})
                throw RunFilesError(ppath + ": header: variant or rules differ from this run");
            n = std::min<std::uint64_t>(n, log.chunks);
            // Offset after the first n chunks: rescan counting sizes.
            std::uint64_t offset = 16, chunks = 0;
            scan_position_log(ppath, [&](const std::vector<PositionRecord>& recs) {
                if (chunks++ < n) {
                    offset += 12 + recs.size() * kPositionRecordBytes;
                    positions_ += recs.size();
                }
            });
            positions_keep = offset;
        } else if (log_positions) {
            n = 0;
        }
        existing_ = n;
        games_keep = n ? scan.game_ends[n - 1] : (scan.has_header ? scan.header_end : 0);
        if (!scan.has_header) games_keep = 0;
        fs::resize_file(gpath, games_keep, ec);
        if (ec) throw RunFilesError(gpath + ": cannot cut the torn tail: " + ec.message());
        if (log_positions && fs::exists(ppath)) {
            fs::resize_file(ppath, positions_keep, ec);
            if (ec) throw RunFilesError(ppath + ": cannot cut the torn tail: " + ec.message());
        }
    }
    games_ = std::fopen(gpath.c_str(), "ab");
    if (!games_) throw RunFilesError(gpath + ": cannot open for writing: " + error_text());
    if (games_keep == 0) write(games_, games_header_lines(header), gpath);
    if (log_positions) {
        const bool fresh = !fs::exists(ppath) || fs::file_size(ppath) == 0;
        positions_file_ = std::fopen(ppath.c_str(), "ab");
        if (!positions_file_)
            throw RunFilesError(ppath + ": cannot open for writing: " + error_text());
        if (fresh)
            write(positions_file_, encode_log_header({header.variant, header.ruleset}), ppath);
    }
}

RunFiles::~RunFiles() {
    if (games_) std::fclose(games_);
    if (positions_file_) std::fclose(positions_file_);
}

void RunFiles::write(std::FILE* f, const std::string& bytes, const std::string& path) {
    if (std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size() || std::fflush(f) != 0)
        throw RunFilesError(path + ": write failed: " + error_text());
}

void RunFiles::append(const PlayedGame& game) {
    // The chunk first: a game counts once its games.tsv line is complete, and resume cuts a
    // chunk that has no line.
    if (positions_file_) {
        write(positions_file_, encode_chunk(game.positions), positions_path(dir_));
        positions_ += game.positions.size();
    }
    write(games_, format_game_record(game.record), games_path(dir_));
}

} // namespace fanorona
