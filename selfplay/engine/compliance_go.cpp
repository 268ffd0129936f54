// The compliance checker's groups over searches: every `go` limit, `go infinite` and `stop`,
// `isready` while searching, time discipline under movetimes and clocks, the info lines, `quit`.

#include <chrono>
#include <optional>
#include <thread>

#include "core/timeman.h"
#include "selfplay/engine/compliance_positions.h"
#include "selfplay/engine/compliance_run.h"

namespace fanorona {

namespace {

// How long a `go infinite` runs before the checker sends `isready` or `stop`.
constexpr int kInfiniteMs = 300;
// How long a `go movetime` runs before the checker sends `isready`, and how late its readyok may
// come after the search's bestmove (an answer to an isready that crossed the search's end).
constexpr int kIsreadyAfterMs = 100;
constexpr int kIsreadyLateMs = 250;

// A tsivy game with `plies` random moves (fewer when it ends first) whose side to move is
// `side`: one more move when it is the other side's turn.
Game game_with_mover(Rng& rng, int plies, Color side) {
    Game g = random_game(Rules{}, plies, rng);
    for (int tries = 0;
         tries < 100 && (g.position().side_to_move() != side ||
                         count_moves(g.position(), g.rules()) < 2 || g.outcome().over());
         ++tries)
        g = random_game(Rules{}, plies + (tries % 2), rng);
    return g;
}

} // namespace

void ComplianceRun::group_go() {
    const int wait = config_.answer_timeout_ms;
    const Game game = game_with_mover(rng_, 8, Color::White);
    check_go_limits(game);
    check("bare go", [&](CheckBuilder& c) { check_bare_go(c, game, wait); });
    // A search that does not read its input answers isready only after its bestmove: seen under
    // a movetime (an engine that answers at once is checked under `go infinite` below).
    check("isready during movetime",
          [&](CheckBuilder& c) { check_isready_during_movetime(c, game); });
    check("infinite then stop", [&](CheckBuilder& c) { check_infinite_then_stop(c, game, wait); });
    check("isready during infinite",
          [&](CheckBuilder& c) { check_isready_during_infinite(c, game, wait); });
}

void ComplianceRun::check_go_limits(const Game& game) {
    const int wait = config_.answer_timeout_ms;
    check("depth", [&](CheckBuilder& c) {
        for (int depth : {1, 3}) {
            const std::string go_line = "go depth " + std::to_string(depth);
            const SearchReply r = search(c, game, go_line, wait);
            if (r.depth && *r.depth > depth)
                c.warn("'" + go_line + "' reported 'info depth " + std::to_string(*r.depth) + "'");
            c.note += (c.note.empty() ? "" : "; ") + go_line + ": " + ms_text(r.ms);
        }
    });
    check("nodes", [&](CheckBuilder& c) {
        const SearchReply r = search(c, game, "go nodes 1000", wait);
        c.note = "answered after " + ms_text(r.ms);
    });
    check("movetime", [&](CheckBuilder& c) {
        const int movetime = 200;
        const SearchReply r = search(c, game, "go movetime " + std::to_string(movetime),
                                     movetime + TimeMargins::kMeasureGraceMs);
        sample(report_.movetime, r, movetime);
        c.note = "answered after " + ms_text(r.ms) + " (judged under time)";
    });
    check("clocks with increment", [&](CheckBuilder& c) {
        const SearchReply r = search(c, game, "go wtime 2000 btime 2000 winc 100 binc 100",
                                     2000 + TimeMargins::kMeasureGraceMs);
        sample(report_.clock, r, 2000);
        c.note = "answered after " + ms_text(r.ms) + " (judged under time)";
    });
    check("clocks with movestogo", [&](CheckBuilder& c) {
        const SearchReply r = search(c, game, "go wtime 2000 btime 2000 movestogo 20",
                                     2000 + TimeMargins::kMeasureGraceMs);
        sample(report_.clock, r, 2000);
        c.note = "answered after " + ms_text(r.ms) + " (judged under time)";
    });
}

SearchReply ComplianceRun::start_search(CheckBuilder& c, const Game& game,
                                        const std::string& go_line) {
    set_board(c, game.rules());
    session_.send(position_command(game));
    SearchReply r;
    r.go = go_line;
    session_.send(go_line);
    return r;
}

void ComplianceRun::finish_search(CheckBuilder& c, const Game& game, SearchReply& r,
                                  const std::string& best) {
    r.line = best;
    r.move = second_word(best);
    judge(c, game, r);
    refuse_errors(c, sync("the bestmove of '" + r.go + "'"), "the bestmove of '" + r.go + "'",
                  false);
}

void ComplianceRun::check_bare_go(CheckBuilder& c, const Game& game, int wait) {
    SearchReply r = start_search(c, game, "go");
    const auto t0 = std::chrono::steady_clock::now();
    auto line = session_.read_until("bestmove", wait, r.before, "'bestmove' after 'go'");
    if (!line) {
        session_.send("stop");
        line = session_.read_until("bestmove", wait, r.before, "'bestmove' after 'stop'");
        if (!line)
            throw EngineFault("hang", "no bestmove within " + std::to_string(wait) +
                                          " ms after 'go', nor after 'stop'");
        c.warn("a bare 'go' was answered only after 'stop' (docs/rules.md: it searches to "
               "the engine's own limits)");
    }
    r.ms = ms_since(t0);
    finish_search(c, game, r, *line);
    c.note = "answered after " + ms_text(r.ms);
}

void ComplianceRun::check_isready_during_movetime(CheckBuilder& c, const Game& game) {
    const int movetime = 500;
    const int bound = movetime + TimeMargins::kMeasureGraceMs;
    SearchReply r = start_search(c, game, "go movetime " + std::to_string(movetime));
    std::optional<std::string> best =
        session_.read_until("bestmove", kIsreadyAfterMs, r.before, "'bestmove'");
    if (best) {
        c.note = "not checked: the engine answered at once (see 'isready during infinite')";
    } else {
        // Step 1. isready while the search runs; a bestmove among the lines before readyok.
        session_.send("isready");
        const auto t0 = std::chrono::steady_clock::now();
        std::vector<std::string> lines;
        if (!session_.read_until("readyok", bound, lines, "'readyok' while searching"))
            throw EngineFault("hang", "no readyok within " + std::to_string(bound) +
                                          " ms of 'isready' during '" + r.go + "'");
        const double delay = ms_since(t0);
        for (const std::string& l : lines)
            if (first_word(l) == "bestmove" && !best)
                best = l;
            else
                r.before.push_back(l);
        // Step 2. The verdict: a readyok that waited for the bestmove fails.
        if (best && delay > kIsreadyLateMs)
            c.fail("readyok only after the bestmove, " + ms_text(delay) +
                   " after 'isready' (docs/rules.md: 'isready' is answered while a search "
                   "runs)");
        else
            c.note = "readyok after " + ms_text(delay) +
                     (best ? ", as the search ended" : " while searching");
        // Step 3. The bestmove, when it has not come yet.
        if (!best) best = session_.read_until("bestmove", bound, r.before, "'bestmove'");
        if (!best)
            throw EngineFault("hang", "no bestmove within " + std::to_string(bound) +
                                          " ms after '" + r.go + "'");
    }
    finish_search(c, game, r, *best);
}

void ComplianceRun::check_infinite_then_stop(CheckBuilder& c, const Game& game, int wait) {
    SearchReply r = start_search(c, game, "go infinite");
    auto line = session_.read_until("bestmove", kInfiniteMs, r.before, "'bestmove'");
    if (line) {
        c.warn("'" + *line +
               "' before 'stop' (docs/rules.md: a 'go infinite' answers only "
               "after 'stop')");
    } else {
        session_.send("stop");
        const auto t0 = std::chrono::steady_clock::now();
        line = session_.read_until("bestmove", wait, r.before, "'bestmove' after 'stop'");
        if (!line)
            throw EngineFault("hang", "no bestmove within " + std::to_string(wait) +
                                          " ms after 'stop' (the search goes on)");
        c.note = "bestmove " + ms_text(ms_since(t0)) + " after stop";
    }
    finish_search(c, game, r, *line);
}

void ComplianceRun::check_isready_during_infinite(CheckBuilder& c, const Game& game, int wait) {
    SearchReply r = start_search(c, game, "go infinite");
    auto best = session_.read_until("bestmove", kInfiniteMs, r.before, "'bestmove'");
    if (best) {
        c.warn("not checked: '" + *best + "' came before 'stop'");
    } else {
        // Step 1. isready while the search runs; a bestmove among the lines before readyok.
        session_.send("isready");
        const auto t0 = std::chrono::steady_clock::now();
        std::vector<std::string> lines;
        const auto ready = session_.read_until("readyok", wait, lines, "'readyok' while searching");
        for (const std::string& l : lines)
            if (first_word(l) == "bestmove")
                best = l;
            else
                r.before.push_back(l);
        // Step 2. The verdict.
        if (!ready) {
            c.fail("no readyok within " + std::to_string(wait) +
                   " ms of 'isready' while searching");
        } else if (best) {
            c.warn("not checked: '" + *best + "' came before 'stop'");
        } else {
            c.note = "readyok after " + ms_text(ms_since(t0));
        }
        // Step 3. Stop the search; then the readyok owed, if it did not come.
        if (!best) {
            session_.send("stop");
            best = session_.read_until("bestmove", wait, r.before, "'bestmove' after 'stop'");
            if (!best)
                throw EngineFault("hang", "no bestmove within " + std::to_string(wait) +
                                              " ms after 'stop'");
        }
        if (!ready) { // the readyok owed
            std::vector<std::string> after;
            if (session_.read_until("readyok", wait, after, "'readyok'"))
                c.problems.back() += " (it came after the bestmove)";
            else
                throw EngineFault("hang", "no readyok within " + std::to_string(wait) +
                                              " ms after the bestmove");
        }
    }
    finish_search(c, game, r, *best);
}

void ComplianceRun::group_time() {
    // Movetimes: a few searches of each length, from two positions.
    check("movetime", [&](CheckBuilder& c) {
        const Game positions[] = {Game(Rules{}), game_with_mover(rng_, 10, Color::Black)};
        bool enough = false; // one search past the grace is enough to see
        for (int movetime : {50, 100, 200})
            for (const Game& g : positions) {
                if (enough) break;
                const SearchReply r = search(c, g, "go movetime " + std::to_string(movetime),
                                             movetime + TimeMargins::kMeasureGraceMs);
                sample(report_.movetime, r, movetime);
                enough = r.ms - movetime > TimeMargins::kReplyGraceMs;
            }
        judge_lateness(c, report_.movetime, "late past the movetime", kLateWarningMs,
                       TimeMargins::kReplyGraceMs);
    });
    // Clocks: the side to move's clock is the one to keep; the other side's may be far longer.
    check("clock", [&](CheckBuilder& c) {
        struct Case {
            Color mover;
            int wtime, btime, winc, binc;
        };
        const Case cases[] = {{Color::White, 1000, 1000, 100, 100},
                              {Color::Black, 60000, 300, 0, 0},
                              {Color::White, 300, 60000, 0, 0},
                              {Color::Black, 1000, 1000, 50, 50},
                              {Color::White, 100, 100, 0, 0}};
        bool enough = false; // one search past the grace is enough to see
        for (const Case& k : cases) {
            if (enough) break;
            const Game g = game_with_mover(rng_, 6, k.mover);
            const std::string go_line = "go wtime " + std::to_string(k.wtime) + " btime " +
                                        std::to_string(k.btime) + " winc " +
                                        std::to_string(k.winc) + " binc " + std::to_string(k.binc);
            const int left = g.position().side_to_move() == Color::White ? k.wtime : k.btime;
            const SearchReply r = search(c, g, go_line, left + TimeMargins::kMeasureGraceMs);
            sample(report_.clock, r, left);
            enough = r.ms - left > TimeMargins::kClockGraceMs;
        }
        judge_lateness(c, report_.clock, "past the clock", 0, TimeMargins::kClockGraceMs);
    });
}

void ComplianceRun::group_info() {
    check("info lines", [&](CheckBuilder& c) {
        const InfoTally& t = infos_;
        c.note = std::to_string(t.searches) + " searches: " + std::to_string(t.with_info) +
                 " with info lines, " + std::to_string(t.with_depth) + " with a depth, " +
                 std::to_string(t.with_score) + " with a score";
        if (t.searches > 0 && t.with_info == 0)
            c.warn("no info lines in " + std::to_string(t.searches) +
                   " searches: a referee sees no depth and no score");
        else if (t.with_info > 0 && (t.with_depth == 0 || t.with_score == 0))
            c.warn(c.note + ": a referee sees no " +
                   (t.with_depth == 0 && t.with_score == 0 ? std::string("depth and no score")
                    : t.with_depth == 0                    ? std::string("depth")
                                                           : std::string("score")));
        if (t.malformed)
            c.warn(std::to_string(t.malformed) + " malformed info lines, the first " +
                   t.first_malformed);
        if (t.bad_pv)
            c.warn(std::to_string(t.bad_pv) + " info lines with an illegal pv, the first " +
                   t.first_bad_pv);
    });
}

void ComplianceRun::group_quit() {
    check("quit", [&](CheckBuilder& c) {
        session_.send("quit");
        const auto t0 = std::chrono::steady_clock::now();
        const auto code = session_.wait_exit(config_.answer_timeout_ms);
        const double ms = ms_since(t0);
        if (!code) {
            c.fail("still running " + ms_text(ms) + " after 'quit'");
            session_.kill();
            return;
        }
        if (*code != 0) c.warn("exit status " + std::to_string(*code) + " after 'quit'");
        c.note = "exited after " + ms_text(ms) + " with status " + std::to_string(*code);
    });
}

} // namespace fanorona
