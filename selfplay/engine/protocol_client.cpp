#include "selfplay/engine/protocol_client.h"

#include <sstream>

#include "core/board/notation.h"

namespace fanorona {

namespace {

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

ChildProcess::ReadStatus ProtocolClient::receive(std::string& line, int timeout_ms) {
    const ChildProcess::ReadStatus status = process_.read_line(line, timeout_ms);
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
    std::string line;
    while (true) {
        switch (receive(line, timeout_ms)) {
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
    EngineReply reply;
    reply.sent = std::chrono::steady_clock::now();
    if (!send(go_line)) fault("crash", "engine closed its input");
    std::string line;
    while (true) {
        switch (receive(line, wait_ms)) {
        case ChildProcess::ReadStatus::Closed:
            fault("crash", "engine exited while thinking");
        case ChildProcess::ReadStatus::Timeout:
            fault("timeout", "no bestmove within " + std::to_string(wait_ms) + " ms");
        case ChildProcess::ReadStatus::Line:
            break;
        }
        std::istringstream words(line);
        std::string word;
        words >> word;
        if (word == "info") {
            for (std::string w; words >> w;) {
                if (w == "depth") words >> reply.depth;
                if (w == "nodes") words >> reply.nodes;
                if (w == "score") {
                    std::string kind;
                    int value = 0;
                    if (words >> kind >> value && kind == "cp") reply.score = value;
                }
                if (w == "pv" || w == "string") break; // the rest is moves or text
            }
        } else if (word == "bestmove") {
            reply.received = std::chrono::steady_clock::now();
            reply.line = line;
            std::string text;
            if (!(words >> text)) fault("illegal-move", "malformed line '" + line + "'");
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
