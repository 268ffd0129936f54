// Fuzz target: protocol input (EngineProtocol::handle), one command per line, as a GUI or a
// tournament manager would send them. Searches are kept cheap: every number of a `go` line is
// capped (depth 2, 300 nodes, 5 ms), a `go` without a depth or node limit gets one, Hash is
// capped at 4 MB and Weights may only be `default` (a fuzzed path could name a device that never
// ends). Promises checked: no exception escapes, every output line is whole, and no `go` gets
// more than one bestmove.

#include <sstream>

#include "core/common/text.h"
#include "selfplay/engine/protocol_server.h"
#include "tests/fuzz/fuzz_target.h"

namespace {

bool all_digits(const std::string& w) {
    const std::size_t start = !w.empty() && w[0] == '+';
    if (w.size() <= start) return false;
    for (std::size_t i = start; i < w.size(); ++i)
        if (w[i] < '0' || w[i] > '9') return false;
    return true;
}

// The line with the caps applied (see the top of the file).
std::string cheap(const std::string& line) {
    std::vector<std::string> words = fanorona::split_words(line);
    if (words.empty()) return line;
    if (words[0] == "go" && words.size() > 1) {
        bool limited = false;
        for (std::size_t i = 1; i + 1 < words.size(); ++i) {
            const std::string& k = words[i];
            if (!all_digits(words[i + 1])) continue;
            const char* cap = k == "depth" ? "2" : k == "nodes" ? "300" : "5";
            if (words[i + 1].size() > 4 || std::stoi(words[i + 1]) > std::stoi(cap))
                words[i + 1] = cap;
            limited = limited || k == "depth" || k == "nodes";
        }
        if (!limited) {
            words.push_back("nodes");
            words.push_back("300");
        }
        return fanorona::join(words);
    }
    if (words[0] == "setoption") {
        std::size_t value_at = words.size();
        for (std::size_t i = 2; i < words.size(); ++i)
            if (words[i] == "value") {
                value_at = i;
                break;
            }
        std::vector<std::string> name(words.begin() + std::min<std::size_t>(2, words.size()),
                                      words.begin() + value_at);
        const std::string key = fanorona::lower(fanorona::join(name));
        if (value_at + 1 < words.size() && key == "hash") {
            if (!all_digits(words[value_at + 1]) || words[value_at + 1].size() > 1 ||
                words[value_at + 1] > "4")
                words[value_at + 1] = "4";
            return fanorona::join(words);
        }
        if (value_at + 1 < words.size() && key == "weights") {
            words.resize(value_at + 1);
            words.push_back("default");
            return fanorona::join(words);
        }
    }
    return line;
}

} // namespace

FUZZ_TARGET(protocol) {
    using namespace fanorona;
    std::istringstream in;
    std::ostringstream out;
    EngineSpec spec;
    spec.hash_mb = 1;
    spec.limits.depth = 1;
    int gos = 0;
    {
        EngineProtocol protocol(in, out, spec);
        const std::string_view text = fuzz::as_text(data, size);
        std::size_t at = 0;
        while (at < text.size()) {
            const std::size_t end = std::min(text.find('\n', at), text.size());
            const std::string line = cheap(std::string(text.substr(at, end - at)));
            at = end + 1;
            if (!fanorona::split_words(line).empty() && fanorona::split_words(line)[0] == "go")
                ++gos;
            bool more = true;
            try {
                more = protocol.handle(line);
            } catch (const std::exception& e) {
                fuzz::fail(std::string("handle() threw: ") + e.what());
            }
            if (!more) break;
        }
        protocol.handle("stop");
    }
    const std::string output = out.str();
    fuzz::check(output.empty() || output.back() == '\n', "the last output line is torn");
    int bestmoves = 0;
    std::istringstream lines(output);
    for (std::string l; std::getline(lines, l);) bestmoves += l.rfind("bestmove", 0) == 0;
    fuzz::check(bestmoves <= gos, "more bestmove lines than go commands");
    return 0;
}
