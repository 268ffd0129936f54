// A test engine that speaks the engine protocol of docs/rules.md correctly and plays a random
// legal move, at once, with no info lines (so no depth and no score), unless told a fault.
//   random_engine [--options] [--fault F] [--seed N]
// --options advertises a few options, among them Variant (tsivy, dimy, 3x5) and Rules (standard,
// vela); without it, it advertises none and refuses every setoption. The faults:
//   ignore-stop    a `go infinite` is never answered (`stop` is ignored)
//   busy           `isready` is answered only once a running `go infinite` has answered
//   blocking       a `go movetime T` takes T * 0.9 ms without reading its input
//   overrun        a `go movetime T` is answered T + 1500 ms late
//   vela-unaware   `setoption name Rules value vela` is accepted but the standard rules played
//   no-quit        `quit` is ignored
//   bad-option     an option line without a type is advertised
//   two-answers    every `go` but an infinite one is answered by two bestmove lines
//   slow           every `go` but an infinite one is answered after 300 ms, whatever its clock
//   uciok-twice    `uci` is answered with two uciok lines
//   bestmove-junk  every bestmove line ends with a word that is no part of the protocol
//   absurd         every bestmove comes after an info line of absurd numbers (depth, seldepth,
//                  nodes and time past 2^64, score cp -2147483648)
// tests/test_check_engine.cpp runs `fanorona check-engine` on it.

#include <chrono>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "core/board/game.h"
#include "core/board/notation.h"
#include "core/board/replay.h"
#include "core/common/rng.h"
#include "core/common/text.h"

using namespace fanorona;

namespace {

struct Engine {
    bool options = false;
    std::string fault;
    Rng rng{1};
    Rules rules;
    Game game;
    bool pending = false;       // a `go infinite` not answered yet
    std::string pending_answer; // its bestmove line
    int owed_readyok = 0;       // isready lines to answer after the bestmove (fault busy)

    void say(const std::string& line) { std::cout << line << std::endl; }
    void error(const std::string& why) { say("info string error: " + why); }

    std::string choose() {
        MoveList moves;
        generate_moves(game.position(), rules, moves);
        if (moves.empty()) return "bestmove (none)";
        const Move m = moves[int(rng.below(std::uint64_t(moves.size())))];
        return "bestmove " + move_to_string(game.position(), rules, m);
    }

    void answer_pending() {
        if (!pending) return;
        say(pending_answer);
        pending = false;
        for (; owed_readyok > 0; --owed_readyok) say("readyok");
    }

    void uci() {
        say("id name random-engine");
        say("id author the Fanorona Lab tests");
        if (options) {
            say("option name Variant type combo default tsivy var tsivy var dimy var 3x5");
            say("option name Rules type combo default standard var standard var vela");
            say("option name Noise type spin default 3 min 0 max 10");
            say("option name Verbose type check default false");
            say("option name Book type string default <empty>");
            say("option name Forget type button");
        }
        if (fault == "bad-option") say("option name Broken default 1");
        say("uciok");
        if (fault == "uciok-twice") say("uciok");
    }

    void setoption(const std::vector<std::string>& w) {
        std::string name, value;
        std::size_t i = 2;
        for (; i < w.size() && w[i] != "value"; ++i) name += (name.empty() ? "" : " ") + w[i];
        for (++i; i < w.size(); ++i) value += (value.empty() ? "" : " ") + w[i];
        const std::string key = lower(name);
        if (!options || (key != "variant" && key != "rules" && key != "noise" && key != "verbose" &&
                         key != "book" && key != "forget")) {
            error("unknown option '" + name + "'");
            return;
        }
        if (key == "variant") {
            const auto v = parse_variant(lower(value));
            if (!v || (*v != Variant::Tsivy && *v != Variant::Dimy && variant_name(*v) != "3x5"))
                return error("Variant: '" + value + "'");
            rules.variant = *v;
            game = Game(rules, Position::start(rules.variant));
        } else if (key == "rules") {
            const auto r = parse_ruleset(lower(value));
            if (!r || *r == RuleSet::FirstTurn) return error("Rules: '" + value + "'");
            if (fault != "vela-unaware") rules.ruleset = *r;
            game = Game(rules, Position::start(rules.variant));
        }
    }

    void position(const std::vector<std::string>& w) {
        std::size_t moves_at = w.size();
        for (std::size_t i = 1; i < w.size(); ++i)
            if (w[i] == "moves") {
                moves_at = i;
                break;
            }
        try {
            std::string start;
            if (w.size() >= 2 && w[1] == "startpos")
                start = Position::start(rules.variant).to_string();
            else if (w.size() >= 3 && w[1] == "fen")
                for (std::size_t i = 2; i < moves_at; ++i) start += (i > 2 ? " " : "") + w[i];
            else
                return error("position: expected startpos or fen");
            std::vector<std::string> moves;
            for (std::size_t i = moves_at + 1; i < w.size(); ++i) moves.push_back(w[i]);
            game = replay(rules, start, moves);
        } catch (const std::exception& e) {
            error(std::string("position: ") + e.what());
        }
    }

    void go(const std::vector<std::string>& w) {
        bool infinite = false;
        int movetime = 0;
        for (std::size_t i = 1; i < w.size(); ++i) {
            if (w[i] == "infinite") infinite = true;
            if (w[i] == "movetime" && i + 1 < w.size()) movetime = std::stoi(w[i + 1]);
        }
        const std::string answer = choose();
        if (infinite) {
            pending = true;
            pending_answer = answer;
            return;
        }
        if (fault == "overrun" && movetime > 0)
            std::this_thread::sleep_for(std::chrono::milliseconds(movetime + 1500));
        if (fault == "blocking" && movetime > 0)
            std::this_thread::sleep_for(std::chrono::milliseconds(movetime * 9 / 10));
        if (fault == "slow") std::this_thread::sleep_for(std::chrono::milliseconds(300));
        if (fault == "absurd")
            say("info depth 99999999999999999999999 seldepth 99999999999999999999 nodes "
                "99999999999999999999999 time 99999999999999999999 score cp -2147483648");
        say(fault == "bestmove-junk" ? answer + " junk" : answer);
        if (fault == "two-answers") say(answer);
    }

    // False for quit.
    bool handle(const std::string& line) {
        const auto w = split_words(line);
        if (w.empty()) return true;
        const std::string& cmd = w[0];
        if (cmd == "uci") {
            uci();
        } else if (cmd == "isready") {
            if (pending && fault == "busy")
                ++owed_readyok;
            else
                say("readyok");
        } else if (cmd == "ucinewgame") {
            answer_pending();
            game = Game(rules, Position::start(rules.variant));
        } else if (cmd == "setoption") {
            answer_pending();
            setoption(w);
        } else if (cmd == "position") {
            answer_pending();
            position(w);
        } else if (cmd == "go") {
            if (pending) return error("go: a search is already running"), true;
            go(w);
        } else if (cmd == "stop") {
            if (fault != "ignore-stop") answer_pending();
        } else if (cmd == "quit") {
            if (fault == "no-quit") return true;
            if (fault != "ignore-stop") answer_pending();
            return false;
        } else {
            error("unknown command '" + cmd + "'");
        }
        return true;
    }
};

} // namespace

int main(int argc, char** argv) {
    Engine e;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--options")
            e.options = true;
        else if (a == "--fault" && i + 1 < argc)
            e.fault = argv[++i];
        else if (a == "--seed" && i + 1 < argc)
            e.rng = Rng(std::stoull(argv[++i]));
        else {
            std::cerr << "random_engine: unknown argument '" << a << "'\n";
            return 2;
        }
    }
    std::ios::sync_with_stdio(false);
    for (std::string line; std::getline(std::cin, line);) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (!e.handle(line)) return 0;
    }
    e.answer_pending();
    return 0;
}
