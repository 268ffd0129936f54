#include "engine/external_player.h"

#include <sstream>

#include "core/notation.h"

namespace fanorona {

void ExternalPlayer::fault(const std::string& reason, const std::string& detail) {
    const std::string said = process_.last_error_line(); // before kill(): the engine's last words
    process_.kill();                                     // restarted at the next move
    throw PlayerFault(reason, said.empty() ? detail : detail + "; its standard error: " + said);
}

std::string ExternalPlayer::expect(const std::string& token, int timeout_ms,
                                   const std::string& step) {
    std::string line;
    while (true) {
        switch (process_.read_line(line, timeout_ms)) {
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

void ExternalPlayer::ensure_started() {
    if (process_.running()) return;
    try {
        process_.start(config_.argv);
    } catch (const std::runtime_error& e) {
        throw PlayerFault("crash", e.what());
    }
    ++restarts_;
    need_new_game_ = true;
    if (!process_.write_line("uci")) fault("crash", "engine closed its input at start-up");
    expect("uciok", config_.startup_timeout_ms, "start-up");
    std::vector<std::pair<std::string, std::string>> options = config_.options;
    if (rules_.variant != Variant::Tsivy)
        options.emplace_back("Variant", std::string(variant_name(rules_.variant)));
    if (rules_.ruleset != RuleSet::Standard)
        options.emplace_back("Rules", std::string(ruleset_name(rules_.ruleset)));
    for (const auto& [name, value] : options)
        process_.write_line("setoption name " + name + " value " + value);
}

MoveChoice ExternalPlayer::choose(const Game& game, const Clock& clock) {
    ensure_started();
    if (need_new_game_) {
        process_.clear_error_log();
        process_.write_line("ucinewgame");
        process_.write_line("isready");
        expect("readyok", config_.startup_timeout_ms, "a new game");
        need_new_game_ = false;
    }
    const Position start = Position::start(game.rules().variant);
    std::string position =
        game.start() == start ? "position startpos" : "position fen " + game.start().to_string();
    if (!game.moves().empty()) position += " moves " + game.moves_string();
    std::string go = "go";
    int wait_ms = config_.fixed_limit_timeout_ms;
    const int mover = int(game.position().side_to_move());
    if (clock.enabled) {
        go += " wtime " + std::to_string(clock.time_ms[0]) + " btime " +
              std::to_string(clock.time_ms[1]) + " winc " + std::to_string(clock.inc_ms[0]) +
              " binc " + std::to_string(clock.inc_ms[1]);
        wait_ms = clock.time_ms[mover] + config_.move_margin_ms;
    } else if (config_.limits.movetime_ms) {
        go += " movetime " + std::to_string(config_.limits.movetime_ms);
        wait_ms = config_.limits.movetime_ms + config_.move_margin_ms;
    } else {
        if (config_.limits.depth) go += " depth " + std::to_string(config_.limits.depth);
        if (config_.limits.nodes) go += " nodes " + std::to_string(config_.limits.nodes);
    }
    if (!process_.write_line(position) || !process_.write_line(go))
        fault("crash", "engine closed its input");

    MoveChoice choice;
    std::string line;
    while (true) {
        switch (process_.read_line(line, wait_ms)) {
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
                if (w == "depth") words >> choice.depth;
                if (w == "score") {
                    std::string kind;
                    int value = 0;
                    if (words >> kind >> value && kind == "cp") choice.score = value;
                }
                if (w == "pv") break;
            }
        } else if (word == "bestmove") {
            std::string text;
            if (!(words >> text)) fault("illegal-move", "malformed line '" + line + "'");
            try {
                choice.move = parse_move(game.position(), game.rules(), text);
            } catch (const MoveError& e) {
                fault("illegal-move", "bestmove '" + text + "': " + e.what());
            }
            return choice;
        }
    }
}

} // namespace fanorona
