#include "selfplay/formats/games_file.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <fstream>
#include <span>
#include <sstream>

#include "core/board/replay.h"
#include "core/common/files.h"
#include "selfplay/formats/formats.h"

namespace fanorona {

namespace {

std::vector<std::string> split_on(const std::string& s, char sep) {
    std::vector<std::string> parts;
    std::string cur;
    for (char c : s) {
        if (c == sep) {
            parts.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    parts.push_back(cur);
    return parts;
}

std::vector<std::string> words(const std::string& s) {
    std::vector<std::string> out;
    std::istringstream in(s);
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

[[noreturn]] void fail(const std::string& where, const std::string& field,
                       const std::string& problem) {
    throw GamesFileError(where + ": " + field + ": " + problem);
}

std::uint64_t parse_unsigned(const std::string& text, const std::string& where,
                             const std::string& field) {
    if (text.empty() || text.size() > 18 ||
        text.find_first_not_of("0123456789") != std::string::npos)
        fail(where, field, "expected a whole number, found '" + text + "'");
    return std::stoull(text);
}

GameResult parse_result(const std::string& text, const std::string& where) {
    if (text == "1-0") return GameResult::WhiteWins;
    if (text == "0-1") return GameResult::BlackWins;
    if (text == "1/2-1/2") return GameResult::Draw;
    fail(where, "result", "expected 1-0, 0-1 or 1/2-1/2, found '" + text + "'");
}

} // namespace

std::string_view game_kind_name(GameKind k) {
    return k == GameKind::Normal ? "normal" : k == GameKind::Vela ? "vela" : "skipped";
}

std::string_view GamesHeader::version() const {
    return move_stats ? (micro_times ? kGamesMicroFormatVersion : kGamesStatsFormatVersion)
           : series   ? kGamesSeriesFormatVersion
                      : kGamesFormatVersion;
}

std::string games_header_lines(const GamesHeader& header) {
    return "# " + std::string(kGamesFormatName) + " " + std::string(header.version()) +
           " variant=" + std::string(variant_name(header.variant)) +
           " rules=" + std::string(ruleset_name(header.ruleset)) +
           (header.series ? " series=vela" : "") +
           "\n#index\twhite\tblack\tresult\treason\tturns\topening_turns\tstart\tmoves\tscores" +
           (header.series ? "\tkind\tbeneficiary" : "") +
           (header.move_stats ? "\ttimes\tdepths\tnodes" : "") +
           (header.move_stats && header.micro_times ? "\tclocks\tlatencies" : "") + "\n";
}

namespace {

// One per-move column: the entries separated by spaces, '-' for an unknown one (below 0); a lone
// '-' when no entry is known.
template <class Value>
void append_stats_column(std::string& line, const std::vector<MoveStats>& stats, Value value,
                         std::int64_t max) {
    line += '\t';
    if (stats.empty()) {
        line += '-';
        return;
    }
    bool any = false;
    for (const MoveStats& s : stats) any |= value(s) >= 0;
    if (!any) {
        line += '-';
        return;
    }
    char buffer[24];
    for (std::size_t i = 0; i < stats.size(); ++i) {
        if (i) line += ' ';
        const std::int64_t v = std::min<std::int64_t>(value(stats[i]), max);
        if (v < 0) {
            line += '-';
            continue;
        }
        const auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, v);
        line.append(buffer, end);
    }
}

// Reads one per-move column into the field `field` of stats (sized to the moves by the caller):
// '-' alone (nothing known), or one whole number or '-' per move.
template <class T>
void parse_stats_column(const std::string& text, std::vector<MoveStats>& stats, T MoveStats::*field,
                        std::int64_t max, const std::string& where, const char* name) {
    if (text == "-") return;
    const auto entries = words(text);
    if (entries.size() != stats.size())
        fail(where, name,
             "has " + std::to_string(entries.size()) + " entries for " +
                 std::to_string(stats.size()) + " moves");
    for (std::size_t i = 0; i < entries.size(); ++i) {
        if (entries[i] == "-") continue;
        const std::uint64_t v = parse_unsigned(entries[i], where, name);
        if (v > std::uint64_t(max))
            fail(where, name, "'" + entries[i] + "' is larger than " + std::to_string(max));
        stats[i].*field = T(v);
    }
}

} // namespace

std::string format_game_record(const GameRecord& r, bool series, bool move_stats,
                               bool micro_times) {
    std::string line = std::to_string(r.index) + '\t' + r.white + '\t' + r.black + '\t' +
                       std::string(result_name(r.result)) + '\t' + r.reason + '\t' +
                       std::to_string(r.moves.size()) + '\t' + std::to_string(r.opening_turns) +
                       '\t' + r.start + '\t';
    if (r.moves.empty()) line += '-';
    for (size_t i = 0; i < r.moves.size(); ++i) line += (i ? " " : "") + r.moves[i];
    line += '\t';
    bool any_score = false;
    for (const auto& s : r.scores) any_score |= s.has_value();
    if (!any_score) {
        line += '-';
    } else {
        for (size_t i = 0; i < r.scores.size(); ++i)
            line +=
                (i ? " " : "") +
                (r.scores[i] ? std::to_string(std::clamp(*r.scores[i], -MoveNumberRanges::kMaxScore,
                                                         MoveNumberRanges::kMaxScore))
                             : "-");
    }
    if (series)
        line += '\t' + std::string(game_kind_name(r.kind)) + '\t' +
                (r.beneficiary.empty() ? std::string("-") : r.beneficiary);
    if (move_stats) {
        using R = MoveNumberRanges;
        append_stats_column(
            line, r.stats,
            [micro_times](const MoveStats& s) {
                return micro_times || s.time_us < 0 ? s.time_us : s.time_us / 1000;
            },
            micro_times ? R::kMaxTimeUs : R::kMaxTimeMs);
        append_stats_column(
            line, r.stats, [](const MoveStats& s) { return s.depth; }, R::kMaxDepth);
        append_stats_column(
            line, r.stats, [](const MoveStats& s) { return s.nodes; }, R::kMaxNodes);
        if (micro_times) {
            append_stats_column(
                line, r.stats, [](const MoveStats& s) { return s.clock_ms; }, R::kMaxClockMs);
            append_stats_column(
                line, r.stats, [](const MoveStats& s) { return s.latency_us; }, R::kMaxLatencyUs);
        }
    }
    return line + '\n';
}

namespace {

// The scores column ("-": none) onto `r`, whose moves are read.
void parse_scores_column(const std::string& col, GameRecord& r, const std::string& where) {
    if (col == "-") return;
    const auto s = words(col);
    if (s.size() != r.moves.size())
        fail(where, "scores",
             "has " + std::to_string(s.size()) + " entries for " + std::to_string(r.moves.size()) +
                 " moves");
    for (const auto& w : s) {
        if (w == "-") {
            r.scores.push_back(std::nullopt);
            continue;
        }
        try {
            size_t used = 0;
            const int v = std::stoi(w, &used);
            if (used != w.size()) throw std::invalid_argument(w);
            r.scores.push_back(v);
        } catch (const std::exception&) {
            fail(where, "scores", "not a number: '" + w + "'");
        }
        if (const int v = *r.scores.back();
            v > MoveNumberRanges::kMaxScore || v < -MoveNumberRanges::kMaxScore)
            fail(where, "scores",
                 "'" + w + "' is beyond +-" + std::to_string(MoveNumberRanges::kMaxScore));
    }
    // Entries that are all '-' say what a lone '-' says (and what the writer writes then).
    if (std::none_of(r.scores.begin(), r.scores.end(), [](const auto& v) { return v; }))
        r.scores.clear();
}

// The series columns (version 2: kind and beneficiary) onto `r`.
void parse_series_columns(const std::string& kind, const std::string& beneficiary, GameRecord& r,
                          const std::string& where) {
    if (kind == "normal")
        r.kind = GameKind::Normal;
    else if (kind == "vela")
        r.kind = GameKind::Vela;
    else if (kind == "skipped")
        r.kind = GameKind::Skipped;
    else
        fail(where, "kind", "expected normal, vela or skipped, found '" + kind + "'");
    if (beneficiary != "-") r.beneficiary = beneficiary;
    if (r.kind == GameKind::Vela && r.beneficiary != r.white)
        fail(where, "beneficiary", "a Vela game's beneficiary is its White player");
    if (r.kind != GameKind::Vela && !r.beneficiary.empty())
        fail(where, "beneficiary", "only a Vela game has one ('-')");
}

// The per-move columns from cols[first] on (version 3: times in ms, depths, nodes; version 4:
// times in microseconds, depths, nodes, clocks, latencies) onto `r`, whose moves are read.
void parse_stats_columns(const std::vector<std::string>& cols, std::size_t first, bool micro_times,
                         GameRecord& r, const std::string& where) {
    r.stats.resize(r.moves.size());
    using R = MoveNumberRanges;
    parse_stats_column(cols[first], r.stats, &MoveStats::time_us,
                       micro_times ? R::kMaxTimeUs : R::kMaxTimeMs, where, "times");
    if (!micro_times)
        for (MoveStats& s : r.stats)
            if (s.time_us >= 0) s.time_us *= 1000;
    parse_stats_column(cols[first + 1], r.stats, &MoveStats::depth, R::kMaxDepth, where, "depths");
    parse_stats_column(cols[first + 2], r.stats, &MoveStats::nodes, R::kMaxNodes, where, "nodes");
    if (micro_times) {
        parse_stats_column(cols[first + 3], r.stats, &MoveStats::clock_ms, R::kMaxClockMs, where,
                           "clocks");
        parse_stats_column(cols[first + 4], r.stats, &MoveStats::latency_us, R::kMaxLatencyUs,
                           where, "latencies");
    }
    // Entries all '-' say what three lone '-' say (and what the writer writes then).
    if (std::none_of(r.stats.begin(), r.stats.end(), [](const MoveStats& s) { return s.known(); }))
        r.stats.clear();
}

} // namespace

GameRecord parse_game_record(const std::string& line, const std::string& where, bool micro_times) {
    const auto cols = split_on(line, '\t');
    const std::size_t stats_columns = micro_times ? 5 : 3; // version 4 or 3
    if (cols.size() != 10 && cols.size() != 12 && cols.size() != 10 + stats_columns &&
        cols.size() != 12 + stats_columns)
        fail(where, "line",
             micro_times ? "expected 10 (version 1), 12 (version 2), 15 or 17 (version 4) "
                           "tab-separated columns, found " +
                               std::to_string(cols.size())
                         : "expected 10 (version 1), 12 (version 2), 13 or 15 (version 3) "
                           "tab-separated columns, found " +
                               std::to_string(cols.size()));
    const bool series = cols.size() == 12 || cols.size() == 12 + stats_columns;
    // Step 1. The game's columns (version 1).
    GameRecord r;
    r.index = parse_unsigned(cols[0], where, "index");
    r.white = cols[1];
    r.black = cols[2];
    if (r.white.empty()) fail(where, "white", "empty player name");
    if (r.black.empty()) fail(where, "black", "empty player name");
    r.result = parse_result(cols[3], where);
    r.reason = cols[4];
    if (r.reason.empty()) fail(where, "reason", "empty");
    const std::uint64_t turns = parse_unsigned(cols[5], where, "turns");
    r.opening_turns = int(parse_unsigned(cols[6], where, "opening_turns"));
    r.start = cols[7];
    if (r.start.empty()) fail(where, "start", "empty position string");
    if (cols[8] != "-") r.moves = words(cols[8]);
    if (r.moves.size() != turns)
        fail(where, "moves",
             "has " + std::to_string(r.moves.size()) + " moves but turns says " +
                 std::to_string(turns));
    if (std::uint64_t(r.opening_turns) > turns)
        fail(where, "opening_turns", "larger than the number of turns");
    parse_scores_column(cols[9], r, where);
    // Step 2. The series columns (version 2), then the per-move columns (versions 3 and 4).
    if (series) parse_series_columns(cols[10], cols[11], r, where);
    if (cols.size() >= 10 + stats_columns)
        parse_stats_columns(cols, series ? 12 : 10, micro_times, r, where);
    return r;
}

GamesFile read_games_file(const std::string& path) {
    std::string text;
    try {
        text = read_file_bytes(path, kGamesFileLimits);
    } catch (const FileError& e) {
        throw GamesFileError(e.what());
    }
    GamesFile file;
    bool header_seen = false;
    size_t pos = 0;
    int line_no = 0;
    while (pos < text.size()) {
        const size_t end = text.find('\n', pos);
        if (end == std::string::npos) break; // torn last line: dropped
        std::string line = text.substr(pos, end - pos);
        pos = end + 1;
        ++line_no;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        const std::string where = path + ":" + std::to_string(line_no);
        if (line.rfind("# " + std::string(kGamesFormatName), 0) == 0) {
            const auto head = words(line);
            if (head.size() < 3 || head[1] != kGamesFormatName)
                fail(where, "header",
                     "expected '# " + std::string(kGamesFormatName) + " " +
                         std::string(kGamesFormatVersion) + " variant=... rules=...'");
            if (head[2] != kGamesFormatVersion && head[2] != kGamesSeriesFormatVersion &&
                head[2] != kGamesStatsFormatVersion && head[2] != kGamesMicroFormatVersion)
                fail(where, "header",
                     "games file format version " + head[2] +
                         " (this build reads versions 1, 2, 3 and 4)");
            file.header.series = head[2] == kGamesSeriesFormatVersion;
            file.header.move_stats =
                head[2] == kGamesStatsFormatVersion || head[2] == kGamesMicroFormatVersion;
            file.header.micro_times = head[2] == kGamesMicroFormatVersion;
            if (header_seen || line_no != 1)
                fail(where, "header",
                     "the '# " + std::string(kGamesFormatName) +
                         "' line must be the first line, once");
            for (const auto& w : words(line)) {
                if (w.rfind("variant=", 0) == 0) {
                    const auto v = parse_variant(w.substr(8));
                    if (!v) fail(where, "variant", "unknown variant '" + w.substr(8) + "'");
                    file.header.variant = *v;
                } else if (w.rfind("rules=", 0) == 0) {
                    const auto r = parse_ruleset(w.substr(6));
                    if (!r) fail(where, "rules", "unknown rules '" + w.substr(6) + "'");
                    file.header.ruleset = *r;
                } else if (w.rfind("series=", 0) == 0) {
                    if (w != "series=vela")
                        fail(where, "series", "unknown series '" + w.substr(7) + "'");
                    file.header.series = true;
                }
            }
            header_seen = true;
            continue;
        }
        if (line.empty() || line[0] == '#') continue;
        if (!header_seen)
            fail(where, "header", "missing '# " + std::string(kGamesFormatName) + "' header line");
        file.games.push_back(parse_game_record(line, where, file.header.micro_times));
        const std::size_t want = file.header.columns();
        if (std::size_t(std::count(line.begin(), line.end(), '\t')) + 1 != want)
            fail(where, "line",
                 "expected " + std::to_string(want) + " tab-separated columns in a version " +
                     std::string(file.header.version()) +
                     (file.header.series ? " file of series" : " file"));
    }
    if (!header_seen)
        throw GamesFileError(path + ":1: header: missing '# " + std::string(kGamesFormatName) +
                             "' header line");
    return file;
}

Game replay_game(const GameRecord& record, const Rules& rules, const std::string& where,
                 std::size_t max_moves) {
    Position start;
    try {
        start = Position::from_string(record.start, rules.variant);
    } catch (const std::invalid_argument& e) {
        fail(where, "start", e.what());
    }
    Game game(rules, start);
    try {
        play_moves(game, std::span(record.moves).first(std::min(max_moves, record.moves.size())));
    } catch (const ReplayError& e) {
        fail(where, "moves", e.what());
    }
    return game;
}

std::string player_name_of(const std::string& description) {
    return description.substr(0, description.find('('));
}

} // namespace fanorona
