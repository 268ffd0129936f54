#include "tools/timeuse/timeuse.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "core/bench.h"
#include "core/timeman.h"
#include "selfplay/engine/protocol_client.h"
#include "selfplay/formats/formats.h"
#include "selfplay/formats/rules_json.h"

namespace fanorona {

namespace {

// The wait for uciok and each readyok.
constexpr int kTimeUseStartupMs = 10000;

// The positions: the given ones (each must offer a choice), or the variant's positions of the
// bench that offer one (its start position when there are none).
std::vector<Position> load_positions(const TimeUseConfig& config) {
    const Rules& rules = config.rules;
    const bool given = !config.positions.empty();
    std::vector<std::string> texts = config.positions;
    if (!given)
        for (const BenchPosition& b : bench_positions())
            if (b.variant == rules.variant) texts.emplace_back(b.position);
    std::vector<Position> out;
    for (const std::string& t : texts) {
        Position p;
        try {
            p = Position::from_string(t, rules.variant);
        } catch (const std::invalid_argument& e) {
            throw std::invalid_argument("timeuse: position '" + t + "': " + e.what());
        }
        if (count_moves(p, rules) < 2 && !given) continue; // a forced bench position
        if (count_moves(p, rules) < 2)
            throw std::invalid_argument("timeuse: position '" + t +
                                        "' has fewer than two legal moves: nothing to think about");
        out.push_back(p);
    }
    if (out.empty()) {
        const Position start = Position::start(rules.variant);
        if (count_moves(start, rules) < 2)
            throw std::invalid_argument("timeuse: no position to search (give one with "
                                        "--position)");
        out.push_back(start);
    }
    return out;
}

} // namespace

std::vector<TimeUseRow> measure_time_use(const TimeUseConfig& config,
                                         const std::function<void(const TimeUseRow&)>& on_row) {
    if (config.argv.empty()) throw std::invalid_argument("timeuse: no engine command");
    if (config.repeat < 1) throw std::invalid_argument("timeuse: repeat must be at least 1");
    for (int t : config.movetimes_ms)
        if (t < 1) throw std::invalid_argument("timeuse: a movetime must be at least 1 ms");
    const std::vector<Position> positions = load_positions(config);
    ProtocolClient engine({config.argv, config.options, config.rules, kTimeUseStartupMs, {}, {}});
    try {
        engine.start();
        engine.sync("setting the options");
    } catch (const PlayerFault& e) {
        throw std::runtime_error("timeuse: " + std::string(e.what()));
    }

    // One timed move: `go movetime T` written to `bestmove` read, in milliseconds.
    auto timed_move = [&](const Position& p, int movetime, int* depth) {
        const Game game(config.rules, p);
        const std::string go = "go movetime " + std::to_string(movetime);
        try {
            engine.send_position(game);
            engine.sync("setting a position");
            const EngineReply reply = engine.go(game, go, movetime + TimeMargins::kMeasureGraceMs);
            *depth = std::max(reply.depth, 0); // 0 for an engine that gave none
            return std::chrono::duration<double, std::milli>(reply.received - reply.sent).count();
        } catch (const PlayerFault& e) {
            throw std::runtime_error("timeuse: '" + go + "' in " + p.to_string() + ": " + e.what());
        }
    };

    int unused = 0;
    timed_move(positions[0], 10, &unused); // warm-up: the table, the pages, the caches
    std::vector<TimeUseRow> rows;
    for (int movetime : config.movetimes_ms) {
        TimeUseRow row;
        row.movetime_ms = movetime;
        row.min_ms = 1e18;
        double sum = 0, depth_sum = 0;
        for (int r = 0; r < config.repeat; ++r)
            for (const Position& p : positions) {
                int depth = 0;
                const double ms = timed_move(p, movetime, &depth);
                ++row.moves;
                sum += ms;
                depth_sum += depth;
                row.min_ms = std::min(row.min_ms, ms);
                row.max_ms = std::max(row.max_ms, ms);
                if (ms > movetime) ++row.over;
            }
        row.mean_ms = sum / row.moves;
        row.mean_ratio = row.mean_ms / movetime;
        row.mean_depth = depth_sum / row.moves;
        rows.push_back(row);
        if (on_row) on_row(row);
    }
    engine.quit();
    return rows;
}

nlohmann::json time_use_json(const TimeUseConfig& config, const std::vector<TimeUseRow>& rows) {
    nlohmann::json j = {
        {"format", kTimeuseFormat}, {"engine", config.argv}, {"repeat", config.repeat}};
    put_rules(j, config.rules);
    nlohmann::json opts = nlohmann::json::object();
    for (const auto& [name, value] : config.options) opts[name] = value;
    j["options"] = opts;
    nlohmann::json out = nlohmann::json::array();
    for (const TimeUseRow& r : rows)
        out.push_back({{"movetime_ms", r.movetime_ms},
                       {"moves", r.moves},
                       {"mean_ms", r.mean_ms},
                       {"min_ms", r.min_ms},
                       {"max_ms", r.max_ms},
                       {"mean_ratio", r.mean_ratio},
                       {"over", r.over},
                       {"mean_depth", r.mean_depth}});
    j["rows"] = out;
    return j;
}

std::vector<PlayerTimeUse> games_time_use(const std::vector<std::string>& paths) {
    std::vector<GameRecord> games;
    std::optional<Variant> variant;
    for (const std::string& given : paths) {
        const std::string path =
            std::filesystem::is_directory(given) ? given + "/games.tsv" : given;
        GamesFile file;
        try {
            file = read_games_file(path);
        } catch (const GamesFileError& e) {
            throw std::runtime_error(e.what());
        }
        if (variant && *variant != file.header.variant)
            throw std::runtime_error(
                path + ":1: variant: " + std::string(variant_name(file.header.variant)) +
                ", but the files before are " + std::string(variant_name(*variant)));
        variant = file.header.variant;
        for (GameRecord& g : file.games) games.push_back(std::move(g));
    }
    return time_use_by_player(games, variant.value_or(Variant::Tsivy));
}

namespace {

// A value for the table: '-' when unknown (below 0).
std::string cell(double v, int decimals) {
    if (v < 0) return "-";
    char text[32];
    std::snprintf(text, sizeof text, "%.*f", decimals, v);
    return text;
}

nlohmann::json json_or_null(double v) {
    return v < 0 ? nlohmann::json() : nlohmann::json(v);
}

} // namespace

std::string games_time_use_table(const std::vector<PlayerTimeUse>& players) {
    std::size_t width = 6;
    for (const PlayerTimeUse& p : players) width = std::max(width, p.name.size());
    std::string out;
    char line[256];
    std::snprintf(line, sizeof line, "%-*s %7s %7s %9s %7s %6s %11s %11s %10s %10s\n", int(width),
                  "player", "moves", "timed", "mean ms", "max ms", "depth", "nodes", "nodes/s",
                  "latency ms", "min clock");
    out += line;
    for (const PlayerTimeUse& p : players) {
        std::snprintf(line, sizeof line, "%-*s %7llu %7llu %9s %7s %6s %11s %11s %10s %10s\n",
                      int(width), p.name.c_str(), static_cast<unsigned long long>(p.moves),
                      static_cast<unsigned long long>(p.timed), cell(p.mean_ms(), 2).c_str(),
                      p.timed ? cell(p.max_ms, 2).c_str() : "-", cell(p.mean_depth(), 2).c_str(),
                      cell(p.mean_nodes(), 0).c_str(), cell(p.nodes_per_second(), 0).c_str(),
                      cell(p.mean_latency_ms(), 3).c_str(),
                      cell(double(p.min_clock_ms), 0).c_str());
        out += line;
    }
    return out;
}

nlohmann::json games_time_use_json(const std::vector<std::string>& paths,
                                   const std::vector<PlayerTimeUse>& players) {
    nlohmann::json rows = nlohmann::json::array();
    for (const PlayerTimeUse& p : players)
        rows.push_back({{"player", p.name},
                        {"moves", p.moves},
                        {"timed", p.timed},
                        {"mean_ms", json_or_null(p.mean_ms())},
                        {"max_ms", p.timed ? nlohmann::json(p.max_ms) : nlohmann::json()},
                        {"mean_depth", json_or_null(p.mean_depth())},
                        {"mean_nodes", json_or_null(p.mean_nodes())},
                        {"nodes_per_second", json_or_null(p.nodes_per_second())},
                        {"mean_latency_ms", json_or_null(p.mean_latency_ms())},
                        {"min_clock_ms",
                         p.min_clock_ms < 0 ? nlohmann::json() : nlohmann::json(p.min_clock_ms)}});
    return {{"format", kTimeuseGamesFormat}, {"games", paths}, {"players", rows}};
}

} // namespace fanorona
