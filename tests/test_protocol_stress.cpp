// The engine protocol under random command sequences and timings, through real pipes: each `go`
// is answered by exactly one `bestmove`, each `isready` by one `readyok`, no line is torn or
// written twice (every line matches the protocol's grammar), and the engine never dies. Also: an
// option change that runs out of memory leaves a working engine.

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <ext/stdio_filebuf.h>
#include <fcntl.h>
#include <fstream>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include <catch2/catch.hpp>

#include "selfplay/engine/protocol_server.h"

using namespace fanorona;

namespace {

// What one random sequence sent, and how many answers of each kind it must get.
struct Sequence {
    std::vector<std::string> commands; // without '\n'
    std::vector<int> delays_us;        // before each command
    int gos = 0, isreadys = 0, ucis = 0;
};

// A random sequence. A `go` is only sent when no search can be running (after a command that
// stops one: stop, position, setoption, ucinewgame), so that every `go` must be accepted and
// answered; everything else comes at any time.
Sequence random_sequence(std::mt19937& rng) {
    auto pick = [&](int n) { return int(rng() % unsigned(n)); };
    Sequence s;
    bool may_go = true;
    const int length = 3 + pick(14);
    for (int i = 0; i < length; ++i) {
        std::string c;
        switch (pick(12)) {
        case 0:
        case 1:
        case 2:
            if (!may_go) {
                c = "stop";
                may_go = true;
                break;
            }
            switch (pick(5)) {
            case 0:
                c = "go depth " + std::to_string(1 + pick(3));
                break;
            case 1:
                c = "go nodes " + std::to_string(1 + pick(3000));
                break;
            case 2:
                c = "go movetime " + std::to_string(1 + pick(4));
                break;
            case 3:
                c = "go infinite";
                break;
            default:
                c = "go wtime " + std::to_string(1 + pick(50)) + " btime 30 winc 1 binc 1";
            }
            ++s.gos;
            may_go = false;
            break;
        case 3:
            c = "stop";
            may_go = true;
            break;
        case 4:
            c = "isready";
            ++s.isreadys;
            break;
        case 5:
            c = pick(2)   ? "position startpos"
                : pick(2) ? "position fen BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW b"
                          : "position fen nonsense";
            may_go = true;
            break;
        case 6:
            c = pick(2)   ? "setoption name Hash value " + std::to_string(1 + pick(3))
                : pick(2) ? "setoption name Clear Hash"
                          : "setoption name Hash value x";
            may_go = true;
            break;
        case 7:
            c = "ucinewgame";
            may_go = true;
            break;
        case 8:
            c = pick(2)
                    ? "setoption name Variant value " + std::string(pick(2) ? "dimy" : "tsivy")
                    : "setoption name Rules value " + std::string(pick(2) ? "vela" : "standard");
            may_go = true;
            break;
        case 9:
            if (pick(4) == 0) {
                c = "uci";
                ++s.ucis;
            } else {
                c = "isready";
                ++s.isreadys;
            }
            break;
        case 10:
            c = pick(2) ? "no-such-command" : "go depth";
            break; // errors; the latter no go
        default:
            c = "";
        }
        if (c == "go depth") {
            if (!may_go) c = "isready", ++s.isreadys; // "go: a search is already running" instead
        }
        s.commands.push_back(c);
        s.delays_us.push_back(pick(3) == 0 ? pick(300) : 0);
    }
    if (pick(2)) s.commands.push_back("quit"), s.delays_us.push_back(pick(100));
    return s;
}

// The protocol's output grammar (docs/rules.md): anything else is a torn or garbled line.
bool well_formed(const std::string& line) {
    static const std::regex grammar(
        "bestmove (\\(none\\)|[a-i][1-9]\\S*)"
        "|readyok|uciok|id (name|author) .+|option name .+ type .+"
        "|info depth \\d+ seldepth \\d+ score (cp|mate) -?\\d+ nodes \\d+ nps \\d+ time \\d+ "
        "hashfull \\d+ pv"
        "( \\S*)*|info depth 0 nodes \\d+ string stopped early|info string error: .+");
    return std::regex_match(line, grammar);
}

// Runs one sequence against an EngineProtocol reading a pipe (its input stream tied to its
// output, as std::cin is to std::cout) and writing another, the input written by this thread
// with the sequence's delays. Returns the output.
std::string run_through_pipes(const Sequence& s) {
    int cmd[2], res[2];
    REQUIRE(pipe(cmd) == 0);
    REQUIRE(pipe(res) == 0);
    std::string output;
    std::thread reader([&] {
        char buf[4096];
        for (ssize_t n; (n = read(res[0], buf, sizeof buf)) > 0;) output.append(buf, size_t(n));
        close(res[0]);
    });
    std::thread engine([&] {
        __gnu_cxx::stdio_filebuf<char> inbuf(cmd[0], std::ios::in);
        __gnu_cxx::stdio_filebuf<char> outbuf(res[1], std::ios::out);
        std::istream in(&inbuf);
        std::ostream out(&outbuf);
        in.tie(&out);
        EngineSpec spec;
        spec.hash_mb = 1;
        {
            EngineProtocol protocol(in, out, spec);
            protocol.run();
        }
        out.flush();
        outbuf.close(); // closes res[1]: the reader sees the end
        inbuf.close();
    });
    for (std::size_t i = 0; i < s.commands.size(); ++i) {
        if (s.delays_us[i]) std::this_thread::sleep_for(std::chrono::microseconds(s.delays_us[i]));
        const std::string line = s.commands[i] + "\n";
        if (write(cmd[1], line.data(), line.size()) != ssize_t(line.size())) break; // it quit
    }
    close(cmd[1]);
    engine.join();
    reader.join();
    return output;
}

int env_count(const char* name, int fallback) {
    const char* v = std::getenv(name);
    return v && std::atoi(v) > 0 ? std::atoi(v) : fallback;
}

void stress(int sequences, unsigned seed) {
    std::signal(SIGPIPE, SIG_IGN); // a write after the engine quit fails instead
    std::mt19937 rng(seed);
    int lines = 0;
    for (int n = 0; n < sequences; ++n) {
        const Sequence s = random_sequence(rng);
        const std::string output = run_through_pipes(s);
        std::string sent;
        for (const auto& c : s.commands) sent += c + "\n";
        INFO("sequence " << n << ":\n" << sent << "output:\n" << output);
        REQUIRE((output.empty() || output.back() == '\n'));
        int bestmoves = 0, readyoks = 0, uciok = 0;
        std::istringstream in(output);
        for (std::string line; std::getline(in, line); ++lines) {
            INFO(line);
            REQUIRE(well_formed(line));
            bestmoves += line.rfind("bestmove ", 0) == 0;
            readyoks += line == "readyok";
            uciok += line == "uciok";
        }
        REQUIRE(bestmoves == s.gos);
        REQUIRE(readyoks == s.isreadys);
        REQUIRE(uciok == s.ucis);
    }
    WARN(sequences << " random sequences, " << lines << " lines checked");
}

} // namespace

TEST_CASE("random command sequences get one bestmove per go and whole lines and the engine lives",
          "[protocol]") {
    // FANORONA_PROTOCOL_SEQUENCES sets the count (default 300, a few seconds).
    stress(env_count("FANORONA_PROTOCOL_SEQUENCES", 300), 20261130u);
}

TEST_CASE("random command sequences in a long run", "[protocol][slow]") {
    // 3000 by default (about 25 s; CTest runs it, the sanitizer runs skip it); more with
    // FANORONA_PROTOCOL_SEQUENCES, e.g. 20000 ran clean in 170 s.
    stress(env_count("FANORONA_PROTOCOL_SEQUENCES", 3000), 7u);
}

TEST_CASE("an option change that runs out of memory leaves a working engine", "[protocol]") {
    // In a child process whose address space is capped, a larger hash table cannot be had.
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        std::ifstream status("/proc/self/status");
        long vm_kb = 0;
        for (std::string line; std::getline(status, line);)
            if (line.rfind("VmSize:", 0) == 0) vm_kb = std::atol(line.c_str() + 7);
        const rlimit cap{rlim_t(vm_kb + (512 << 10)) << 10, rlim_t(vm_kb + (512 << 10)) << 10};
        if (vm_kb == 0 || setrlimit(RLIMIT_AS, &cap) != 0) _exit(2);
        std::istringstream in("setoption name Hash value 4096\nisready\nuci\n"
                              "position startpos\ngo depth 3\n");
        std::ostringstream out;
        {
            EngineSpec spec;
            spec.hash_mb = 2;
            EngineProtocol protocol(in, out, spec);
            protocol.run();
        }
        const std::string text = out.str();
        const bool ok =
            text.find("info string error: setoption Hash value 4096: out of memory; the engine "
                      "keeps its previous settings\n") != std::string::npos &&
            text.find("readyok\n") != std::string::npos &&
            text.find("option name Hash type spin default 2 ") != std::string::npos &&
            text.find("\nbestmove ") != std::string::npos &&
            text.find("bestmove (none)") == std::string::npos;
        if (!ok) std::fputs(text.c_str(), stderr);
        _exit(ok ? 0 : 1);
    }
    int st = 0;
    REQUIRE(waitpid(pid, &st, 0) == pid);
    REQUIRE(WIFEXITED(st));
    CHECK(WEXITSTATUS(st) == 0);
}
