// The referee's side of the engine protocol: deadlines per request, `info` numbers bounded.

#include "selfplay/engine/protocol_client.h"

#include <algorithm>
#include <cstdint>

#include "core/board/notation.h"
#include "selfplay/engine/interrupt.h"
#include "selfplay/formats/games_file.h"

namespace fanorona {

namespace {

using SteadyClock = std::chrono::steady_clock;

// The whole number of a word ("-12", "+3", "99999999999999999999" saturated to about 9.2e18),
// or nothing when the word is not one.
std::optional<std::int64_t> whole_number(std::string_view w) {
    bool negative = false;
    if (!w.empty() && (w[0] == '-' || w[0] == '+')) {
        negative = w[0] == '-';
        w.remove_prefix(1);
    }
    if (w.empty()) return std::nullopt;
    constexpr std::uint64_t kCap = std::uint64_t(INT64_MAX);
    std::uint64_t v = 0;
    for (char c : w) {
        if (c < '0' || c > '9') return std::nullopt;
        v = v > (kCap - 9) / 10 ? kCap : v * 10 + std::uint64_t(c - '0');
    }
    return negative ? -std::int64_t(v) : std::int64_t(v);
}

// A count the engine reports (depth, nodes, time): clamped to [0, max], dropped (-1) when negative
// or not a number.
std::int64_t reported_count(std::string_view w, std::int64_t max) {
    const auto v = whole_number(w);
    return v && *v >= 0 ? std::min(*v, max) : -1;
}

// The words of a line, split on spaces and tabs (views into it).
std::vector<std::string_view> info_words(std::string_view line) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
        const std::size_t start = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
        if (i > start) out.push_back(line.substr(start, i - start));
    }
    return out;
}

// A fault's detail with, when there is a log, where to read the whole exchange.
std::string naming_log(const std::string& detail, const EngineLogTarget& log) {
    return log.log ? detail + "; see the engine log " + log.log->path() : detail;
}

} // namespace

void ProtocolClient::log(LogDirection direction, std::string_view text) {
    config_.log.log->write(game_, config_.log.player, direction, text);
}

void ProtocolClient::log_errors(bool all) {
    if (!process_.read_new_errors(errors_) && !(all && !errors_.empty())) return;
    std::size_t start = 0;
    for (std::size_t nl; (nl = errors_.find('\n', start)) != std::string::npos; start = nl + 1) {
        std::string_view line(errors_.data() + start, nl - start);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        log(LogDirection::Stderr, line);
    }
    errors_.erase(0, start);
    if (all && !errors_.empty()) {
        log(LogDirection::Stderr, errors_);
        errors_.clear();
    }
}

bool ProtocolClient::send(const std::string& line) {
    if (config_.log.log) log(LogDirection::ToEngine, line);
    return process_.write_line(line);
}

void ProtocolClient::quit() {
    if (!process_.running()) return;
    send("quit");
    process_.wait_exit(kQuitWaitMs);
    if (config_.log.log) log_errors(true);
    process_.kill();
}

void ProtocolClient::interrupted() {
    quit();
    throw Interrupted();
}

ChildProcess::ReadStatus ProtocolClient::receive(std::string& line,
                                                 ChildProcess::Deadline deadline) {
    const ChildProcess::ReadStatus status = process_.read_line(line, deadline);
    if (status == ChildProcess::ReadStatus::Interrupted) interrupted();
    if (config_.log.log) {
        log_errors(false); // written before the line was read: logged before it
        if (status == ChildProcess::ReadStatus::Line) log(LogDirection::FromEngine, line);
    }
    return status;
}

void ProtocolClient::fault(const std::string& reason, const std::string& detail) {
    if (config_.log.log) log_errors(true);
    const std::string said = process_.last_error_line(); // before kill(): the engine's last words
    process_.kill();                                     // started again by the next start()
    throw PlayerFault(
        reason,
        naming_log(said.empty() ? detail : detail + "; its standard error: " + said, config_.log));
}

std::string ProtocolClient::expect(const std::string& token, int timeout_ms,
                                   const std::string& step) {
    const auto deadline = SteadyClock::now() + std::chrono::milliseconds(timeout_ms);
    std::string line;
    while (true) {
        switch (receive(line, deadline)) {
        case ChildProcess::ReadStatus::Interrupted:
        case ChildProcess::ReadStatus::Closed:
            fault("crash", "engine exited during " + step);
        case ChildProcess::ReadStatus::Timeout:
            fault("hang", "engine did not answer '" + token + "' during " + step + " within " +
                              std::to_string(timeout_ms) + " ms");
        case ChildProcess::ReadStatus::Line:
            if (line.rfind("id name ", 0) == 0) engine_name_ = line.substr(8);
            if (line == token || line.rfind(token + " ", 0) == 0) return line;
        }
    }
}

bool ProtocolClient::start() {
    if (process_.running()) return false;
    try {
        process_.start(config_.argv, config_.dir);
    } catch (const std::runtime_error& e) {
        throw PlayerFault("crash", naming_log(e.what(), config_.log));
    }
    errors_.clear();
    ++restarts_;
    // An engine that ends at once (a bad option on its command line) may be gone before "uci" is
    // written: that is the same crash as its exit while we wait for uciok, and is named so.
    if (!send("uci"))
        fault("crash", process_.wait_exit(1000) ? "engine exited during start-up"
                                                : "engine closed its input at start-up");
    expect("uciok", config_.startup_timeout_ms, "start-up");
    std::vector<std::pair<std::string, std::string>> options = config_.options;
    if (config_.rules.variant != Variant::Tsivy)
        options.emplace_back("Variant", std::string(variant_name(config_.rules.variant)));
    if (config_.rules.ruleset != RuleSet::Standard)
        options.emplace_back("Rules", std::string(ruleset_name(config_.rules.ruleset)));
    for (const auto& [name, value] : options) send("setoption name " + name + " value " + value);
    return true;
}

void ProtocolClient::sync(const std::string& step) {
    send("isready");
    expect("readyok", config_.startup_timeout_ms, step);
}

void ProtocolClient::new_game() {
    if (config_.log.log) log_errors(true); // what it said after the last game, before it goes
    process_.clear_error_log();
    send("ucinewgame");
    sync("a new game");
}

void ProtocolClient::send_position(const Game& game) {
    const Position start = Position::start(game.rules().variant);
    std::string position =
        game.start() == start ? "position startpos" : "position fen " + game.start().to_string();
    if (!game.moves().empty()) position += " moves " + game.moves_string();
    if (!send(position)) fault("crash", "engine closed its input");
}

EngineReply ProtocolClient::go(const Game& game, const std::string& go_line, int wait_ms) {
    using R = MoveNumberRanges;
    EngineReply reply;
    reply.sent = SteadyClock::now();
    const auto deadline = reply.sent + std::chrono::milliseconds(wait_ms);
    if (!send(go_line)) fault("crash", "engine closed its input");
    std::string line;
    while (true) {
        switch (receive(line, deadline)) {
        case ChildProcess::ReadStatus::Interrupted:
        case ChildProcess::ReadStatus::Closed:
            fault("crash", "engine exited while thinking");
        case ChildProcess::ReadStatus::Timeout:
            fault("timeout", "no bestmove within " + std::to_string(wait_ms) + " ms");
        case ChildProcess::ReadStatus::Line:
            break;
        }
        const std::vector<std::string_view> words = info_words(line);
        if (words.empty()) continue;
        if (words[0] == "info") {
            for (std::size_t i = 1; i < words.size(); ++i) {
                const std::string_view w = words[i];
                const std::string_view next = i + 1 < words.size() ? words[i + 1] : "";
                if (w == "depth") {
                    if (const auto d = reported_count(next, R::kMaxDepth); d >= 0)
                        reply.depth = int(d);
                    ++i;
                } else if (w == "nodes") {
                    if (const auto n = reported_count(next, R::kMaxNodes); n >= 0) reply.nodes = n;
                    ++i;
                } else if (w == "time") {
                    if (const auto t = reported_count(next, R::kMaxTimeMs); t >= 0)
                        reply.time_ms = t;
                    ++i;
                } else if (w == "score") {
                    const std::string_view value = i + 2 < words.size() ? words[i + 2] : "";
                    if (next == "cp")
                        if (const auto v = whole_number(value))
                            reply.score =
                                int(std::clamp<std::int64_t>(*v, -R::kMaxScore, R::kMaxScore));
                    i += 2;
                } else if (w == "pv" || w == "string") {
                    break; // the rest is moves or text
                }
            }
        } else if (words[0] == "bestmove") {
            reply.received = SteadyClock::now();
            reply.line = line;
            if (words.size() < 2) fault("illegal-move", "malformed line '" + line + "'");
            const std::string text(words[1]);
            try {
                reply.move = parse_move(game.position(), game.rules(), text);
            } catch (const MoveError& e) {
                fault("illegal-move", "bestmove '" + text + "': " + e.what());
            }
            return reply;
        }
    }
}

} // namespace fanorona
