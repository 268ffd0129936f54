#include "tools/timeuse/timeuse.h"

#include <algorithm>
#include <chrono>
#include <sstream>
#include <stdexcept>

#include "core/bench.h"
#include "core/movegen.h"
#include "core/notation.h"
#include "engine/process.h"

namespace fanorona {

namespace {

using SteadyClock = std::chrono::steady_clock;

// The engine under measurement: lines in and out, every failure a one-line error.
class TimedEngine {
public:
    explicit TimedEngine(const TimeUseConfig& config) {
        try {
            process_.start(config.argv);
        } catch (const std::runtime_error& e) {
            throw std::runtime_error(std::string("timeuse: ") + e.what());
        }
        send("uci");
        expect("uciok", 10000, "start-up");
        for (const auto& [name, value] : config.options)
            send("setoption name " + name + " value " + value);
        send("isready");
        expect("readyok", 10000, "setting the options");
    }
    void send(const std::string& line) {
        if (!process_.write_line(line))
            throw std::runtime_error("timeuse: the engine closed its input at '" + line + "'");
    }
    // Reads lines until one starting with `token`; returns it. `depth` gets the last info depth.
    std::string expect(const std::string& token, int timeout_ms, const std::string& step,
                       int* depth = nullptr) {
        std::string line;
        while (true) {
            switch (process_.read_line(line, timeout_ms)) {
            case ChildProcess::ReadStatus::Closed:
                throw std::runtime_error("timeuse: the engine exited during " + step);
            case ChildProcess::ReadStatus::Timeout:
                throw std::runtime_error("timeuse: no '" + token + "' within " +
                                         std::to_string(timeout_ms) + " ms during " + step);
            case ChildProcess::ReadStatus::Line:
                break;
            }
            if (depth && line.rfind("info depth ", 0) == 0) {
                std::istringstream words(line.substr(11));
                words >> *depth;
            }
            if (line == token || line.rfind(token + " ", 0) == 0) return line;
        }
    }

private:
    ChildProcess process_;
};

// The positions: the given ones (each must offer a choice), or the tsivy positions of the bench
// that offer one.
std::vector<Position> load_positions(const TimeUseConfig& config) {
    const bool given = !config.positions.empty();
    std::vector<std::string> texts = config.positions;
    if (!given)
        for (const BenchPosition& b : bench_positions())
            if (b.variant == Variant::Tsivy) texts.emplace_back(b.position);
    std::vector<Position> out;
    Rules rules;
    for (const std::string& t : texts) {
        Position p;
        try {
            p = Position::from_string(t, Variant::Tsivy);
        } catch (const std::invalid_argument& e) {
            throw std::invalid_argument("timeuse: position '" + t + "': " + e.what());
        }
        if (count_moves(p, rules) < 2 && !given) continue; // a forced bench position
        if (count_moves(p, rules) < 2)
            throw std::invalid_argument("timeuse: position '" + t +
                                        "' has fewer than two legal moves: nothing to think about");
        out.push_back(p);
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
    const Rules rules;
    TimedEngine engine(config);

    // One timed move: `go movetime T` written to `bestmove` read, in milliseconds.
    auto timed_move = [&](const Position& p, int movetime, int* depth) {
        engine.send("position fen " + p.to_string());
        engine.send("isready");
        engine.expect("readyok", 10000, "setting a position");
        const std::string go = "go movetime " + std::to_string(movetime);
        const auto t0 = SteadyClock::now();
        engine.send(go);
        const std::string line =
            engine.expect("bestmove", movetime + config.margin_ms, "'" + go + "'", depth);
        const double ms =
            std::chrono::duration<double, std::milli>(SteadyClock::now() - t0).count();
        const std::string move = line.size() > 9 ? line.substr(9) : "";
        try {
            parse_move(p, rules, move);
        } catch (const MoveError& e) {
            throw std::runtime_error("timeuse: '" + line + "' after '" + go + "' in " +
                                     p.to_string() + ": " + e.what());
        }
        return ms;
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
    engine.send("quit");
    return rows;
}

nlohmann::json time_use_json(const TimeUseConfig& config, const std::vector<TimeUseRow>& rows) {
    nlohmann::json j = {
        {"format", "fanorona-timeuse 1"}, {"engine", config.argv}, {"repeat", config.repeat}};
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

} // namespace fanorona
