#include "selfplay/engine/protocol_server.h"
#include "core/common/text.h"

#include <algorithm>
#include <chrono>
#include <istream>
#include <limits>
#include <new>
#include <ostream>
#include <span>
#include <sstream>

#include "core/board/notation.h"
#include "core/board/replay.h"
#include "selfplay/formats/weights_file.h"

namespace fanorona {

namespace {

// The words from `first` to `last` (exclusive) joined by single spaces (text.h's join).
std::string join_words(const std::vector<std::string>& words, std::size_t first, std::size_t last) {
    last = std::min(last, words.size());
    return first < last
               ? join({words.begin() + std::ptrdiff_t(first), words.begin() + std::ptrdiff_t(last)})
               : std::string();
}

// A non-negative integer option value, or an exception naming the option.
long long parse_count(const std::string& word, const std::string& what) {
    std::size_t used = 0;
    long long v = -1;
    try {
        v = std::stoll(word, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used == 0 && !word.empty() && word.find_first_not_of("0123456789") == std::string::npos)
        throw std::invalid_argument(what + ": '" + word + "' is too large (at most " +
                                    std::to_string(std::numeric_limits<long long>::max()) + ")");
    if (used != word.size() || v < 0)
        throw std::invalid_argument(what + ": '" + word + "' is not a non-negative integer");
    return v;
}

} // namespace

EngineProtocol::EngineProtocol(std::istream& in, std::ostream& out, const EngineSpec& spec)
    : in_(in), out_(out), spec_(spec), searcher_(spec.hash_mb) {
    // A stream tied to the output flushes it before each read, from the reading thread and
    // without out_mutex_, while the search thread writes: lines torn or written twice. Only
    // send() touches the output.
    if (in_.tie() == &out_) in_.tie(nullptr);
    spec_.configure(searcher_, rules_);
}

EngineProtocol::~EngineProtocol() {
    stop_search();
}

void EngineProtocol::send(const std::string& line) {
    std::string whole = line; // built first: one write of the whole line, then one flush
    whole += '\n';
    std::lock_guard lock(out_mutex_);
    if (log_) log_->write(std::nullopt, "", LogDirection::FromEngine, line);
    out_.write(whole.data(), std::streamsize(whole.size()));
    out_.flush();
}

void EngineProtocol::error(const std::string& message) {
    send("info string error: " + message);
}

namespace {

// The longest protocol line the engine reads (a position with a whole game's moves is a few KB).
constexpr std::size_t kMaxLineBytes = std::size_t(1) << 20;

// Reads one line of `in` into `line`, keeping at most kMaxLineBytes of it (the rest is read and
// dropped, so memory stays bounded whatever the input); `too_long` says whether any was dropped.
// False at the end of input with nothing read.
bool read_capped_line(std::istream& in, std::string& line, bool& too_long) {
    line.clear();
    too_long = false;
    std::streambuf* buf = in.rdbuf();
    bool any = false;
    for (int c = buf->sbumpc(); c != std::char_traits<char>::eof(); c = buf->sbumpc()) {
        any = true;
        if (c == '\n') return true;
        if (line.size() < kMaxLineBytes)
            line.push_back(char(c));
        else
            too_long = true;
    }
    in.setstate(std::ios::eofbit);
    return any;
}

} // namespace

void EngineProtocol::run() {
    std::string line;
    bool too_long = false;
    while (read_capped_line(in_, line, too_long)) {
        if (log_) log_->write(std::nullopt, "", LogDirection::ToEngine, line);
        if (too_long) {
            error("a line of more than " + std::to_string(kMaxLineBytes >> 20) + " MB, ignored");
            continue;
        }
        if (!handle(line)) return;
    }
    // End of input: let a running search answer (an infinite one is stopped), then quit.
    bool infinite;
    {
        std::lock_guard lock(state_mutex_);
        infinite = searching_ && infinite_;
    }
    if (infinite)
        stop_search();
    else
        wait_search();
}

bool EngineProtocol::handle(const std::string& raw) {
    std::string line = raw;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const std::vector<std::string> words = split_words(line);
    if (words.empty()) return true;
    const std::string cmd = words[0];
    try {
        if (cmd == "uci") {
            cmd_uci();
        } else if (cmd == "isready") {
            send("readyok");
        } else if (cmd == "ucinewgame") {
            stop_search();
            searcher_.clear();
            game_ = Game(rules_, Position::start(rules_.variant));
        } else if (cmd == "setoption") {
            stop_search();
            cmd_setoption(words);
        } else if (cmd == "position") {
            stop_search();
            cmd_position(words);
        } else if (cmd == "go") {
            cmd_go(words);
        } else if (cmd == "stop") {
            stop_search();
        } else if (cmd == "quit") {
            stop_search();
            return false;
        } else {
            error("unknown command '" + (cmd.size() > 64 ? cmd.substr(0, 64) + "..." : cmd) + "'");
        }
    } catch (const std::exception& e) {
        error(e.what());
    }
    return true;
}

void EngineProtocol::cmd_uci() {
    send("id name Fanorona Lab");
    send("id author the Fanorona Lab authors");
    for (const SpecRange& r : EngineSpec::ranges())
        if (std::string_view(r.key) == "hash")
            send("option name Hash type spin default " + std::to_string(spec_.hash_mb) + " min " +
                 std::to_string(r.min) + " max " + std::to_string(r.max));
    send("option name Clear Hash type button");
    send("option name Weights type string default " + spec_.weights_name);
    send("option name VelaWeights type string default " +
         (spec_.vela_weights ? spec_.vela_weights_name : std::string("<Weights>")));
    send("option name Params type string default " + spec_.params_name);
    send("option name Net type string default " +
         (spec_.net_path.empty() ? std::string("none") : spec_.net_path));
    send("option name Tables type string default " +
         (spec_.tables_dir.empty() ? std::string("<empty>") : spec_.tables_dir));
    std::string variants = "option name Variant type combo default tsivy";
    for (int v = 0; v < kVariantCount; ++v)
        variants += " var " + std::string(variant_name(Variant(v)));
    send(variants);
    send("option name Rules type combo default standard var standard var firstturn var vela");
    const SearchParams current = spec_.search_params(); // list() views it: it must outlive the loop
    for (const SearchParam& p : current.list())
        send("option name " + std::string(p.name) + " type spin default " +
             std::to_string(p.value) + " min " + std::to_string(p.min) + " max " +
             std::to_string(p.max));
    send("uciok");
}

void EngineProtocol::cmd_setoption(const std::vector<std::string>& words) {
    // setoption name <name words> [value <value words>]
    if (words.size() < 3 || words[1] != "name")
        throw std::invalid_argument("expected 'setoption name <name> value <value>'");
    std::size_t value_at = words.size();
    for (std::size_t i = 2; i < words.size(); ++i)
        if (words[i] == "value") {
            value_at = i;
            break;
        }
    const std::string name = join_words(words, 2, value_at);
    const std::string key = lower(name);
    const bool has_value = value_at < words.size();
    const std::string value = has_value ? join_words(words, value_at + 1, words.size()) : "";
    if (name.empty()) throw std::invalid_argument("setoption: no option name");
    if (key == "clear hash") {
        searcher_.clear();
        return;
    }
    if (!has_value || value.empty())
        throw std::invalid_argument("setoption " + name + ": no value");
    if (key == "variant" || key == "rules") return set_rules_option(key, value);
    // Hash, Weights, Params, Tables, Net and the search parameters are the engine spec's own
    // keys: the same parser, ranges and errors as --hash, --weights, --params, --tables, --net
    // and --param. The
    // spec changes only once the searcher took the new settings.
    EngineSpec next = spec_;
    const SearchParams names;
    if (key == "hash" || key == "weights" || key == "params")
        next.set(key, value);
    else if (key == "net")
        next.set(key, value == "<empty>" ? "none" : value);
    else if (key == "velaweights" && value == "<Weights>") {
        next.vela_weights.reset(); // the default it advertises: Vela games play `Weights`
        next.vela_weights_name.clear();
    } else if (key == "velaweights")
        next.set("vela_weights", value);
    else if (key == "tables") {
        next.set(key, value == "<empty>" ? "" : value);
        // The rules only (check_rules says why): the board may be set after the tables.
        if (next.tables && !next.tables->serve(rules_)) next.check_rules(rules_);
    } else if (const SearchParam* p = names.find(name))
        next.set(p->name, value);
    else
        throw std::invalid_argument("unknown option '" + name + "'");
    try {
        next.configure(searcher_, rules_); // all or nothing: on failure the searcher is unchanged
    } catch (const std::bad_alloc&) {
        throw std::runtime_error("setoption " + name + " value " + value +
                                 ": out of memory; the engine keeps its previous settings");
    }
    spec_ = std::move(next);
}

void EngineProtocol::set_rules_option(const std::string& key, const std::string& value) {
    if (key == "variant") {
        const auto v = parse_variant(lower(value));
        if (!v)
            throw std::invalid_argument("Variant: '" + value +
                                        "' is not a variant: " + std::string(kVariantHelp));
        rules_.variant = *v;
        game_ = Game(rules_, Position::start(rules_.variant));
    } else if (key == "rules") {
        const auto r = parse_ruleset(lower(value));
        if (!r)
            throw std::invalid_argument("Rules: '" + value +
                                        "' is not standard, firstturn or vela");
        rules_.ruleset = *r;
        spec_.configure(searcher_, rules_); // Vela games may have weights of their own
        // Replay the current game under the new rules, or start over when that is not legal.
        Game replay(rules_, game_.start());
        try {
            Position p = game_.start();
            for (const Move& m : game_.moves()) {
                replay.play(move_to_string(p, game_.rules(), m));
                p.make_move(m);
            }
            game_ = replay;
        } catch (const MoveError&) {
            game_ = Game(rules_, Position::start(rules_.variant));
            throw std::invalid_argument("Rules: the current game is not legal under '" + value +
                                        "'; the position is reset to the start");
        }
    }
}

void EngineProtocol::cmd_position(const std::vector<std::string>& words) {
    if (words.size() < 2) throw std::invalid_argument("expected 'position startpos|fen ...'");
    std::size_t moves_at = words.size();
    for (std::size_t i = 1; i < words.size(); ++i)
        if (words[i] == "moves") {
            moves_at = i;
            break;
        }
    Position start;
    if (words[1] == "startpos") {
        if (moves_at != 2 && !(moves_at == words.size() && words.size() == 2))
            throw std::invalid_argument("position startpos: unexpected '" + words[2] + "'");
        start = Position::start(rules_.variant);
    } else if (words[1] == "fen") {
        const std::string fen = join_words(words, 2, moves_at);
        if (fen.empty()) throw std::invalid_argument("position fen: no position string");
        try {
            start = Position::from_string(fen, rules_.variant);
        } catch (const std::invalid_argument& e) {
            throw std::invalid_argument("position fen: " + std::string(e.what()));
        }
    } else {
        throw std::invalid_argument("position: expected startpos or fen, found '" + words[1] + "'");
    }
    Game game(rules_, start);
    try {
        play_moves(game, std::span(words).subspan(std::min(moves_at + 1, words.size())));
    } catch (const ReplayError& e) {
        throw std::invalid_argument("position: " + std::string(e.what()) +
                                    " (the position is unchanged)");
    }
    game_ = std::move(game);
}

void EngineProtocol::cmd_go(const std::vector<std::string>& words) {
    {
        std::lock_guard lock(state_mutex_);
        if (searching_) throw std::invalid_argument("go: a search is already running");
    }
    // The time counts from the moment the command was read, not from when the search thread
    // starts (which a loaded machine may delay by milliseconds).
    const auto given = std::chrono::steady_clock::now();
    // A bare `go` searches with the engine's own limits (the spec's default depth).
    SearchLimits limits = words.size() == 1 ? spec_.search_limits() : SearchLimits{};
    limits.given = given;
    for (std::size_t i = 1; i < words.size(); ++i) {
        const std::string& w = words[i];
        if (w == "infinite") {
            limits.infinite = true;
            continue;
        }
        if (w == "ponder") continue;
        static const char* const kValued[] = {"depth", "nodes", "movetime", "wtime",
                                              "btime", "winc",  "binc",     "movestogo"};
        bool known = false;
        for (const char* k : kValued) known = known || w == k;
        if (!known) throw std::invalid_argument("go: unknown limit '" + w + "'");
        if (i + 1 >= words.size()) throw std::invalid_argument("go " + w + ": no value");
        const long long v = parse_count(words[++i], "go " + w);
        const int clipped = int(std::min<long long>(v, 1000000000LL));
        if (w == "depth") limits.depth = std::min(clipped, kMaxPly - 1);
        if (w == "nodes") limits.nodes = std::uint64_t(v);
        if (w == "movetime") limits.movetime_ms = clipped;
        if (w == "wtime") limits.time_ms[int(Color::White)] = std::max(clipped, 1);
        if (w == "btime") limits.time_ms[int(Color::Black)] = std::max(clipped, 1);
        if (w == "winc") limits.inc_ms[int(Color::White)] = clipped;
        if (w == "binc") limits.inc_ms[int(Color::Black)] = clipped;
        if (w == "movestogo") limits.movestogo = clipped;
    }
    if (thread_.joinable()) thread_.join();
    {
        std::lock_guard lock(state_mutex_);
        searching_ = true;
        infinite_ = limits.infinite;
        stop_requested_ = false;
    }
    searcher_.clear_stop();
    thread_ = std::thread([this, limits, game = game_] {
        std::string answer;
        try {
            const SearchResult r = searcher_.search(game, limits, [&](const IterationInfo& info) {
                send(info_line(info) + " pv " + pv_string(game, info.pv));
            });
            answer = r.has_move
                         ? "bestmove " + move_to_string(game.position(), game.rules(), r.best)
                         : "bestmove (none)";
            if (r.has_move && r.depth == 0)
                send("info depth 0 nodes " + std::to_string(r.nodes) + " string stopped early");
        } catch (const std::exception& e) {
            error(std::string("search failed: ") + e.what());
            answer = "bestmove (none)";
        }
        std::unique_lock lock(state_mutex_);
        if (limits.infinite) state_cv_.wait(lock, [this] { return stop_requested_; });
        // Not searching any more before the answer is out, so a `go` right after it is accepted.
        searching_ = false;
        send(answer);
        state_cv_.notify_all();
    });
}

void EngineProtocol::stop_search() {
    {
        std::lock_guard lock(state_mutex_);
        if (searching_) {
            stop_requested_ = true;
            searcher_.stop();
            state_cv_.notify_all();
        }
    }
    if (thread_.joinable()) thread_.join();
}

void EngineProtocol::wait_search() {
    if (thread_.joinable()) thread_.join();
}

std::string EngineProtocol::pv_string(const Game& game, const std::vector<Move>& pv) {
    std::string out;
    Position p = game.position();
    for (const Move& m : pv) {
        if (!out.empty()) out += ' ';
        out += move_to_string(p, game.rules(), m);
        p.make_move(m);
    }
    return out;
}

std::string EngineProtocol::info_line(const IterationInfo& info) {
    std::string score;
    if (is_decisive(info.score)) {
        const int plies = plies_to_end(info.score);
        score = "mate " + std::to_string(plies > 0 ? (plies + 1) / 2 : -((-plies + 1) / 2));
    } else {
        score = "cp " + std::to_string(info.score);
    }
    const long long ms = (long long)(info.seconds * 1000);
    const long long nps = info.seconds > 0 ? (long long)(double(info.nodes) / info.seconds) : 0;
    return "info depth " + std::to_string(info.depth) + " seldepth " +
           std::to_string(info.seldepth) + " score " + score + " nodes " +
           std::to_string(info.nodes) + " nps " + std::to_string(nps) + " time " +
           std::to_string(ms) + " hashfull " + std::to_string(info.hashfull);
}

} // namespace fanorona
