// The compliance checker's run: groups and checks, and the protocol steps they share.

#include "selfplay/engine/compliance.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <stdexcept>

#include "core/board/notation.h"
#include "core/common/text.h"
#include "selfplay/engine/compliance_positions.h"
#include "selfplay/engine/compliance_run.h"

namespace fanorona {

namespace {

// The most problems a check's detail lists.
constexpr std::size_t kShownProblems = 3;

} // namespace

double ms_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

std::string ms_text(double ms) {
    return std::to_string(int(ms + 0.5)) + " ms";
}

bool is_integer(const std::string& w) {
    std::size_t i = w.size() > 1 && w[0] == '-' ? 1 : 0;
    if (i == w.size()) return false;
    for (; i < w.size(); ++i)
        if (w[i] < '0' || w[i] > '9') return false;
    return w.size() <= 18; // fits a long long
}

// "info string error..." (docs/rules.md, Errors).
bool is_error_line(const std::string& line) {
    const auto words = split_words(line);
    return words.size() >= 3 && words[0] == "info" && words[1] == "string" &&
           words[2].rfind("error", 0) == 0;
}

std::string_view check_status_name(CheckStatus s) {
    switch (s) {
    case CheckStatus::Pass:
        return "pass";
    case CheckStatus::Warn:
        return "warn";
    case CheckStatus::Fail:
        return "fail";
    case CheckStatus::Skip:
        return "skip";
    }
    return "?";
}

double Lateness::min() const {
    return samples_ms.empty() ? 0 : *std::min_element(samples_ms.begin(), samples_ms.end());
}

double Lateness::max() const {
    return samples_ms.empty() ? 0 : *std::max_element(samples_ms.begin(), samples_ms.end());
}

double Lateness::median() const {
    if (samples_ms.empty()) return 0;
    std::vector<double> s = samples_ms;
    std::sort(s.begin(), s.end());
    const std::size_t n = s.size();
    return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

int ComplianceReport::count(CheckStatus s) const {
    return int(std::count_if(checks.begin(), checks.end(),
                             [s](const CheckResult& c) { return c.status == s; }));
}

void CheckBuilder::raise(CheckStatus s, const std::string& why) {
    if (int(s) > int(status)) status = s;
    problems.push_back(why);
}

std::string CheckBuilder::detail() const {
    if (problems.empty()) return note;
    std::string out;
    for (std::size_t i = 0; i < problems.size() && i < kShownProblems; ++i)
        out += (i ? "; " : "") + problems[i];
    if (problems.size() > kShownProblems)
        out += "; and " + std::to_string(problems.size() - kShownProblems) + " more";
    return out;
}

AdvertisedOption parse_option_line(const std::string& line) {
    // option name <words> type <t> [default <words>] [min <n>] [max <n>] [var <words>]...
    const auto words = split_words(line);
    AdvertisedOption o;
    std::string* field = nullptr; // the field the next words belong to
    std::string var;
    std::string min, max;
    bool seen_min = false, seen_max = false;
    std::string default_text;
    bool seen_default = false;
    auto append = [](std::string& to, const std::string& w) { to += (to.empty() ? "" : " ") + w; };
    auto close_var = [&] {
        if (field == &var) o.vars.push_back(var);
        var.clear();
    };
    for (std::size_t i = 1; i < words.size(); ++i) {
        const std::string& w = words[i];
        if (w == "name" && field == nullptr && o.name.empty()) {
            field = &o.name;
        } else if (w == "type" && o.type.empty() && field != &o.type) {
            close_var();
            field = &o.type;
        } else if (w == "default" && !seen_default) {
            close_var();
            seen_default = true;
            field = &default_text;
        } else if (w == "min" && !seen_min) {
            close_var();
            seen_min = true;
            field = &min;
        } else if (w == "max" && !seen_max) {
            close_var();
            seen_max = true;
            field = &max;
        } else if (w == "var") {
            close_var();
            field = &var;
        } else if (field) {
            append(*field, w);
        } else {
            throw std::invalid_argument("'" + w + "' before 'name'");
        }
    }
    close_var();
    if (o.name.empty()) throw std::invalid_argument("no option name");
    if (o.type.empty()) throw std::invalid_argument("no 'type'");
    if (o.type.find(' ') != std::string::npos)
        throw std::invalid_argument("type '" + o.type + "' is more than one word");
    if (seen_default) o.default_value = default_text;
    if (seen_min) {
        if (!is_integer(min)) throw std::invalid_argument("min '" + min + "' is not an integer");
        o.min = std::stoll(min);
    }
    if (seen_max) {
        if (!is_integer(max)) throw std::invalid_argument("max '" + max + "' is not an integer");
        o.max = std::stoll(max);
    }
    return o;
}

void InfoTally::add(const Game& game, const SearchReply& reply) {
    ++searches;
    bool info = false, depth = false, score = false;
    static const char* const kNumbered[] = {"depth",   "seldepth",      "time",     "nodes",
                                            "nps",     "multipv",       "hashfull", "tbhits",
                                            "cpuload", "currmovenumber"};
    for (const std::string& line : reply.before) {
        const auto words = split_words(line);
        if (words.empty() || words[0] != "info") continue;
        info = true;
        auto malformed_line = [&](const std::string& why) {
            if (malformed++ == 0) first_malformed = "'" + line + "': " + why;
        };
        for (std::size_t i = 1; i < words.size(); ++i) {
            const std::string& w = words[i];
            bool numbered = false;
            for (const char* k : kNumbered) numbered = numbered || w == k;
            if (numbered) {
                if (i + 1 >= words.size() || !is_integer(words[i + 1])) {
                    malformed_line(w + " without an integer");
                    break;
                }
                depth = depth || w == "depth";
                ++i;
            } else if (w == "score") {
                if (i + 2 >= words.size() || (words[i + 1] != "cp" && words[i + 1] != "mate") ||
                    !is_integer(words[i + 2])) {
                    malformed_line("score without 'cp N' or 'mate N'");
                    break;
                }
                score = true;
                i += 2;
            } else if (w == "pv") {
                Position p = game.position();
                for (std::size_t j = i + 1; j < words.size(); ++j) {
                    try {
                        p.make_move(parse_move(p, game.rules(), words[j]));
                    } catch (const MoveError& e) {
                        if (bad_pv++ == 0)
                            first_bad_pv = "'" + line + "': pv move " + std::to_string(j - i) +
                                           " '" + words[j] + "': " + e.what();
                        break;
                    }
                }
                break;
            } else if (w == "string" || w == "refutation" || w == "currline") {
                break; // the rest is text or moves of another kind
            } else if (w == "currmove") {
                ++i;
            }
        }
    }
    with_info += info;
    with_depth += depth;
    with_score += score;
}

ComplianceRun::ComplianceRun(const ComplianceConfig& config)
    : config_(config), session_(config.engine.argv), rng_(Rng::derive(config.seed, 0xC4EC, 0)) {}

void ComplianceRun::check(const std::string& name, const Body& body, CheckStatus on_fault,
                          bool continued) {
    CheckResult result{group_, name, CheckStatus::Pass, "", {}};
    CheckBuilder c;
    if (!continued) session_.new_transcript();
    try {
        body(c);
    } catch (const EngineFault& e) {
        c.raise(on_fault, (e.kind == "hang" ? "hang: " : "crash: ") + std::string(e.what()));
        result.status = c.status;
        result.detail = c.detail();
        result.lines = session_.transcript();
        report_.checks.push_back(std::move(result));
        throw GroupEnd{on_fault == CheckStatus::Fail};
    }
    result.status = c.status;
    result.detail = c.detail();
    if (c.status != CheckStatus::Pass) result.lines = session_.transcript();
    report_.checks.push_back(std::move(result));
}

void ComplianceRun::run_group(const std::string& name, void (ComplianceRun::*body)(),
                              bool needs_engine) {
    group_ = name;
    if (!stop_reason_.empty()) {
        report_.checks.push_back(
            {name, "(the group)", CheckStatus::Skip, "not run: " + stop_reason_, {}});
        return;
    }
    if (config_.on_group) config_.on_group(name);
    try {
        if (needs_engine && started_ && !session_.running()) {
            // A fault killed the engine: a fresh one for this group.
            check("start again", [&](CheckBuilder& c) {
                std::vector<std::string> lines;
                start_engine(lines);
                send_configured_options();
                sync("starting again");
                c.note = "started again after the fault";
            });
            report_.checks.pop_back(); // only a failure to start again is worth a row
        }
        (this->*body)();
    } catch (const GroupEnd& e) {
        session_.kill();
        if (e.counted && ++faults_ >= kMaxEngineFaults)
            stop_reason_ = "the engine crashed or hung " + std::to_string(faults_) + " times";
    }
    if (!started_ && stop_reason_.empty()) stop_reason_ = "the engine did not start";
}

void ComplianceRun::start_engine(std::vector<std::string>& lines) {
    session_.start();
    session_.send("uci");
    session_.expect("uciok", config_.engine.startup_timeout_ms, lines, "'uci'");
    started_ = true;
    board_ = default_board_;
    told_ = true;
}

std::vector<std::string> ComplianceRun::send_configured_options() {
    std::vector<std::string> sent;
    for (const auto& [name, value] : config_.engine.options) {
        sent.push_back("setoption name " + name + " value " + value);
        session_.send(sent.back());
        note_board_option(name, value);
    }
    return sent;
}

std::vector<std::string> ComplianceRun::sync(const std::string& after) {
    session_.send("isready");
    std::vector<std::string> before;
    session_.expect("readyok", config_.answer_timeout_ms, before,
                    after.empty() ? "'isready'" : "'isready' (after " + after + ")");
    return before;
}

void ComplianceRun::refuse_errors(CheckBuilder& c, const std::vector<std::string>& lines,
                                  const std::string& after, bool bestmove_allowed) {
    for (const std::string& line : lines) {
        if (is_error_line(line))
            c.fail("the engine reported an error after " + after + ": '" + line + "'");
        else if (!bestmove_allowed && first_word(line) == "bestmove")
            c.fail("'" + line + "' after " + after + " with no search running");
        else if (first_word(line) == "uciok")
            c.warn("'uciok' again after " + after + " (it answers 'uci' once)");
    }
}

void ComplianceRun::sync_clean(CheckBuilder& c, const std::string& after) {
    refuse_errors(c, sync(after), after.empty() ? "'isready'" : after, false);
}

SearchReply ComplianceRun::go(const std::string& go_line, int wait_ms) {
    SearchReply r;
    r.go = go_line;
    const auto sent = std::chrono::steady_clock::now();
    session_.send(go_line);
    const auto line =
        session_.read_until("bestmove", wait_ms, r.before, "'bestmove' after '" + go_line + "'");
    if (!line)
        throw EngineFault("hang", "no bestmove within " + std::to_string(wait_ms) + " ms after '" +
                                      go_line + "'");
    r.ms = ms_since(sent);
    r.line = *line;
    r.move = second_word(*line);
    for (const std::string& l : r.before) {
        const auto words = split_words(l);
        if (words.empty() || words[0] != "info") continue;
        for (std::size_t i = 1; i + 1 < words.size(); ++i)
            if (words[i] == "depth" && is_integer(words[i + 1]))
                r.depth = int(std::clamp(std::stoll(words[i + 1]), -1LL, 1000000LL));
    }
    return r;
}

bool ComplianceRun::judge(CheckBuilder& c, const Game& game, const SearchReply& r) {
    refuse_errors(c, r.before, "'" + r.go + "'", true);
    infos_.add(game, r);
    const Position& pos = game.position();
    const int legal = count_moves(pos, game.rules());
    const std::string where = " in " + pos.to_string() + " (" + position_command(game) + ")";
    if (r.move.empty()) {
        c.fail("malformed answer '" + r.line + "' to '" + r.go + "': no move");
        return false;
    }
    if (r.move == "(none)") {
        if (legal == 0) return true;
        c.fail("'" + r.line + "'" + where + ", which has " + std::to_string(legal) +
               " legal moves");
        return false;
    }
    if (legal == 0) {
        c.fail("'" + r.line + "'" + where + ", where the side to move has no legal move");
        return false;
    }
    try {
        parse_move(pos, game.rules(), r.move);
    } catch (const MoveError& e) {
        c.fail("bestmove '" + r.move + "' is not legal" + where + ": " + e.what());
        return false;
    }
    // After the move only "ponder MOVE" may come (docs/rules.md).
    if (const auto words = split_words(r.line);
        words.size() > 2 && !(words.size() == 4 && words[2] == "ponder"))
        c.warn("'" + r.line + "': words after the move that are not 'ponder MOVE'");
    return true;
}

SearchReply ComplianceRun::search(CheckBuilder& c, const Game& game, const std::string& go_line,
                                  int wait_ms) {
    set_board(c, game.rules());
    session_.send(position_command(game));
    SearchReply r = go(go_line, wait_ms);
    judge(c, game, r);
    refuse_errors(c, sync("the bestmove of '" + go_line + "'"), "the bestmove of '" + go_line + "'",
                  false);
    return r;
}

void ComplianceRun::set_board(CheckBuilder& c, const Rules& rules) {
    if (told_ && board_.variant == rules.variant && board_.ruleset == rules.ruleset) return;
    // A new game first: the engine's current game may not be legal under the new rules (an
    // engine that replays it then reports an error, docs/rules.md).
    session_.send("ucinewgame");
    if (!told_ || board_.variant != rules.variant) {
        std::string name = tsivy_name_;
        for (const auto& [v, spelled] : variants_)
            if (v == rules.variant) name = spelled;
        if (const AdvertisedOption* o = advertised("Variant")) {
            refuse_errors(c, set_option(o->name, name),
                          "'setoption name Variant value " + name + "'", false);
        } else if (rules.variant != Variant::Tsivy) {
            throw std::logic_error("set_board: no Variant option");
        }
    }
    if (!told_ || board_.ruleset != rules.ruleset) {
        std::string name = standard_name_;
        for (const auto& [r, spelled] : rulesets_)
            if (r == rules.ruleset) name = spelled;
        if (const AdvertisedOption* o = advertised("Rules")) {
            refuse_errors(c, set_option(o->name, name), "'setoption name Rules value " + name + "'",
                          false);
        } else if (rules.ruleset != RuleSet::Standard) {
            throw std::logic_error("set_board: no Rules option");
        }
    }
    session_.send("ucinewgame");
    sync_clean(c, "'ucinewgame'");
    board_.variant = rules.variant;
    board_.ruleset = rules.ruleset;
    told_ = c.status != CheckStatus::Fail;
}

std::vector<std::string> ComplianceRun::set_option(const std::string& name,
                                                   const std::optional<std::string>& value) {
    const std::string line = "setoption name " + name + (value ? " value " + *value : "");
    session_.send(line);
    return sync("'" + line + "'");
}

std::optional<std::string> ComplianceRun::configured(const std::string& name) const {
    std::optional<std::string> out;
    for (const auto& [n, v] : config_.engine.options)
        if (lower(n) == lower(name)) out = v;
    return out;
}

const AdvertisedOption* ComplianceRun::advertised(const std::string& name) const {
    for (const AdvertisedOption& o : options_)
        if (lower(o.name) == lower(name)) return &o;
    return nullptr;
}

void ComplianceRun::note_board_option(const std::string& name, const std::string& value) {
    if (lower(name) == "variant") {
        if (const auto v = parse_variant(lower(value))) board_.variant = *v;
    } else if (lower(name) == "rules") {
        if (const auto r = parse_ruleset(lower(value))) board_.ruleset = *r;
    }
}

void ComplianceRun::sample(Lateness& into, const SearchReply& reply, int given_ms) {
    into.samples_ms.push_back(reply.ms - given_ms);
}

void ComplianceRun::judge_lateness(CheckBuilder& c, const Lateness& l, const std::string& what,
                                   int warn_ms, int fail_ms) {
    if (l.samples_ms.empty()) {
        c.warn("no timed search answered");
        return;
    }
    char text[200];
    std::snprintf(text, sizeof text,
                  "%s by min %.1f, median %.1f, max %.1f ms over %zu searches (warn past %d ms, "
                  "fail past %d)",
                  what.c_str(), l.min(), l.median(), l.max(), l.samples_ms.size(), warn_ms,
                  fail_ms);
    c.note = text;
    if (l.max() > fail_ms)
        c.fail(std::string(text));
    else if (l.max() > warn_ms)
        c.warn(std::string(text));
}

ComplianceReport ComplianceRun::run() {
    run_group("start-up", &ComplianceRun::group_startup);
    run_group("options", &ComplianceRun::group_options);
    run_group("new game", &ComplianceRun::group_game);
    run_group("positions", &ComplianceRun::group_positions);
    run_group("variants", &ComplianceRun::group_variants);
    run_group("go", &ComplianceRun::group_go);
    run_group("random positions", &ComplianceRun::group_random);
    run_group("time", &ComplianceRun::group_time);
    run_group("info", &ComplianceRun::group_info, false);
    run_group("quit", &ComplianceRun::group_quit);
    session_.kill();
    return std::move(report_);
}

ComplianceReport check_engine(const ComplianceConfig& config) {
    if (config.engine.argv.empty()) throw std::invalid_argument("check-engine: no engine command");
    if (config.positions < 1)
        throw std::invalid_argument("check-engine: at least one random position");
    if (config.answer_timeout_ms < 1 || config.engine.startup_timeout_ms < 1)
        throw std::invalid_argument("check-engine: a timeout must be at least 1 ms");
    ComplianceRun run(config);
    return run.run();
}

} // namespace fanorona
