#include "selfplay/games/folder_scan.h"
#include "selfplay/formats/json_text.h"

#include <algorithm>
#include <filesystem>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/common/files.h"
#include "selfplay/formats/formats.h"
#include "selfplay/formats/position_log.h"

namespace fanorona {

namespace fs = std::filesystem;

namespace {

std::vector<std::string> words(const std::string& s) {
    std::vector<std::string> out;
    std::istringstream in(s);
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

// A run folder's file, bounded by the size of its format (its first bytes are checked by the
// scan, which names the field).
std::string read_file(const std::string& path, std::size_t max_bytes) {
    try {
        return read_text_file(path, FileLimits{"run folder", "", max_bytes});
    } catch (const FileError& e) {
        throw RunFolderError(e.what());
    }
}

// The first line of a games header: the format name and version are this build's, the board
// and rules the run's.
void check_games_header_line(const std::string& line, const std::string& expected,
                             const std::string& where) {
    const auto w = words(line);
    if (w.size() < 3 || w[0] != "#" || w[1] != kGamesFormatName)
        throw RunFolderError(where + ": header: not a games file (expected '# " +
                             std::string(kGamesFormatName) + " " +
                             std::string(kGamesStatsFormatVersion) + " ...', found '" +
                             line.substr(0, 60) + "')");
    if (w[2] != kGamesFormatVersion && w[2] != kGamesSeriesFormatVersion &&
        w[2] != kGamesStatsFormatVersion && w[2] != kGamesMicroFormatVersion)
        throw RunFolderError(where + ": header: games file format version " + w[2] +
                             " (this build reads versions 1, 2, 3 and 4)");
    if (line != expected)
        throw RunFolderError(where + ": header: '" + line + "', but this run writes '" + expected +
                             "' (another board, rules or series)");
}

} // namespace

GamesScan scan_games(const std::string& path, const GamesHeader& expected) {
    GamesScan scan;
    scan.exists = fs::exists(path);
    if (!scan.exists) return scan;
    const std::string text = read_file(path, kGamesFileLimits.max_bytes);
    scan.size = text.size();
    std::string header = games_header_lines(expected);
    GamesHeader old_layout = expected; // a file begun by an older build: versions 1 and 2
    old_layout.move_stats = false;
    const std::string old_header = games_header_lines(old_layout);
    GamesHeader milli_layout = expected; // ... and version 3 (the times in milliseconds)
    milli_layout.micro_times = false;
    const std::string milli_header = games_header_lines(milli_layout);
    for (const std::string& h : {header, old_header, milli_header})
        if (text.size() < h.size() && h.compare(0, text.size(), text) == 0)
            return scan; // empty, or the header itself was torn
    std::size_t pos = 0;
    int line_no = 0;
    while (pos < text.size()) {
        const std::size_t end = text.find('\n', pos);
        if (end == std::string::npos) break; // a torn tail
        const std::string line = text.substr(pos, end - pos);
        const std::string where = path + ":" + std::to_string(++line_no);
        if (line_no == 1) {
            if (expected.move_stats && line == old_header.substr(0, old_header.find('\n'))) {
                header = old_header; // its own layout: the lines follow its version
                scan.move_stats = false;
            } else if (expected.micro_times &&
                       line == milli_header.substr(0, milli_header.find('\n'))) {
                header = milli_header; // version 3: goes on in milliseconds
                scan.micro_times = false;
            }
            check_games_header_line(line, header.substr(0, header.find('\n')), where);
        } else if (line_no == 2) {
            const std::size_t first_end = header.find('\n');
            if (line != header.substr(first_end + 1, header.size() - first_end - 2))
                throw RunFolderError(where + ": header: expected the column names line '#index\t"
                                             "white\t...'");
            scan.has_header = true;
            scan.header_end = end + 1;
        } else {
            if (line.empty() || line[0] == '#')
                throw RunFolderError(
                    where + ": line: expected a game, found " +
                    (line.empty() ? std::string("an empty line") : "a comment after the header"));
            try {
                const GameRecord r = parse_game_record(line, where, scan.micro_times);
                scan.index.push_back(r.index);
            } catch (const GamesFileError& e) {
                throw RunFolderError(e.what());
            }
            const std::size_t want = (!scan.move_stats   ? old_layout
                                      : scan.micro_times ? expected
                                                         : milli_layout)
                                         .columns();
            if (std::size_t(std::count(line.begin(), line.end(), '\t')) + 1 != want)
                throw RunFolderError(where + ": line: expected " + std::to_string(want) +
                                     " tab-separated columns, as the header says");
            scan.ends.push_back(end + 1);
            scan.line.push_back(line_no);
        }
        pos = end + 1;
    }
    // (A torn header that is a prefix of this run's returned above.)
    if (line_no == 1) {
        throw RunFolderError(path + ":2: header: torn, and not this run's header");
    } else if (line_no == 0) {
        throw RunFolderError(path + ":1: header: not a games file (no '# " +
                             std::string(kGamesFormatName) + " " + std::string(expected.version()) +
                             "' line)");
    }
    return scan;
}

PositionsScan scan_positions(const std::string& path, const PositionLogHeader& expected) {
    PositionsScan scan;
    scan.exists = fs::exists(path);
    if (!scan.exists) return scan;
    scan.size = fs::file_size(path);
    const std::string want = encode_log_header(expected);
    if (scan.size < std::uint64_t(kPositionLogHeaderBytes)) {
        const std::string text = read_file(path, std::size_t(kPositionLogHeaderBytes));
        if (want.compare(0, text.size(), text) != 0)
            throw RunFolderError(path + ": header: not a fanorona positions log (" +
                                 std::to_string(text.size()) + " bytes, wrong magic)");
        return scan; // empty, or the header itself was torn
    }
    std::uint64_t offset = std::uint64_t(kPositionLogHeaderBytes);
    PositionLog log;
    try {
        log = scan_position_log(path, [&](const std::vector<PositionRecord>& records) {
            offset += 12 + records.size() * kPositionRecordBytes;
            scan.ends.push_back(offset);
            scan.first_game.push_back(records.empty() ? std::nullopt
                                                      : std::optional(records[0].game_index));
        });
    } catch (const PositionLogError& e) {
        throw RunFolderError(e.what());
    }
    if (log.header != expected)
        throw RunFolderError(path + ": header: variant " +
                             std::string(variant_name(log.header.variant)) + ", rules " +
                             std::string(ruleset_name(log.header.ruleset)) + ", but this run is " +
                             std::string(variant_name(expected.variant)) + ", " +
                             std::string(ruleset_name(expected.ruleset)));
    scan.has_header = true;
    scan.tail_problem = log.tail_problem;
    return scan;
}

CorpusScan scan_run_corpus(const std::string& path, const Rules& expected) {
    CorpusScan scan;
    try {
        scan = scan_corpus(path, expected);
    } catch (const CorpusError& e) {
        throw RunFolderError(e.what());
    }
    if (scan.has_header && !(scan.rules == expected))
        throw RunFolderError(path + ": header: variant " +
                             std::string(variant_name(scan.rules.variant)) + ", rules " +
                             std::string(ruleset_name(scan.rules.ruleset)) + ", but this run is " +
                             rules_name(expected));
    return scan;
}

LiveScan scan_live(const std::string& path) {
    LiveScan scan;
    scan.exists = fs::exists(path);
    if (!scan.exists) return scan;
    const std::string text = read_file(path, kGamesFileLimits.max_bytes);
    scan.size = text.size();
    std::size_t pos = 0;
    while (pos < text.size()) {
        const std::size_t end = text.find('\n', pos);
        if (end == std::string::npos) break; // a torn tail
        const std::size_t k = scan.ends.size();
        scan.ends.push_back(end + 1);
        if (scan.valid == k && scan.problem.empty()) {
            const auto j =
                nlohmann::json::parse(text.begin() + std::ptrdiff_t(pos),
                                      text.begin() + std::ptrdiff_t(end), nullptr, false);
            if (j.is_discarded() || !j.is_object())
                scan.problem = "not a JSON object";
            else if (j.value("pair", nlohmann::json()) != nlohmann::json(k))
                scan.problem = "expected the line of pair " + std::to_string(k) + ", found " +
                               to_json_text(j.value("pair", nlohmann::json()));
            else if (j.value("games", nlohmann::json()) != nlohmann::json(2 * k + 2))
                scan.problem = "pair " + std::to_string(k) + " with 'games' " +
                               to_json_text(j.value("games", nlohmann::json())) + ", expected " +
                               std::to_string(2 * k + 2);
            else
                ++scan.valid;
        }
        pos = end + 1;
    }
    return scan;
}

} // namespace fanorona
