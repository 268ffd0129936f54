#pragma once
// The inside of the compliance checker (selfplay/engine/compliance.h): one run over one engine,
// its groups of checks (compliance_setup.cpp: start-up, options, new game;
// compliance_play.cpp: positions, variants, random positions; compliance_go.cpp: go limits,
// time, info lines, quit) and the steps they share (compliance.cpp).

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/board/game.h"
#include "core/common/rng.h"
#include "selfplay/engine/compliance_report.h"
#include "selfplay/engine/compliance_session.h"

namespace fanorona {

// An option the engine advertised: "option name N type T [default D] [min A] [max B] [var V]...".
// Invariant after parse_option_line(): name and type are not empty.
struct AdvertisedOption {
    std::string name, type;
    std::optional<std::string> default_value;
    std::optional<long long> min, max;
    std::vector<std::string> vars;
};
// Parses an option line; throws std::invalid_argument saying what is wrong (no name, no type, a
// spin's bound that is not an integer).
AdvertisedOption parse_option_line(const std::string& line);

// True for an integer word of at most 18 characters ("-12", "400"): std::stoll reads it.
bool is_integer(const std::string& word);
// True for an error line, "info string error..." (docs/rules.md, Errors).
bool is_error_line(const std::string& line);

// Milliseconds since `t`.
double ms_since(std::chrono::steady_clock::time_point t);
// "12 ms": a duration rounded to the millisecond.
std::string ms_text(double ms);

// The verdict of one check while it runs: the worst status so far, what went wrong (in order)
// and, for a pass, what it saw.
struct CheckBuilder {
    CheckStatus status = CheckStatus::Pass;
    std::vector<std::string> problems;
    std::string note;
    void fail(const std::string& why) { raise(CheckStatus::Fail, why); }
    void warn(const std::string& why) { raise(CheckStatus::Warn, why); }
    void raise(CheckStatus s, const std::string& why);
    std::string detail() const;
};

// An engine's answer to one `go`: its bestmove line ("" when none came) and what came before it.
struct SearchReply {
    std::string go;
    std::string line;
    std::string move; // the word after `bestmove`
    double ms = 0;    // from `go` written to `bestmove` read
    std::vector<std::string> before;
    std::optional<int> depth; // the last `info depth`
};

// What the engine's `info` lines said over all searches. Invariant: each count is at most
// `searches`.
struct InfoTally {
    int searches = 0, with_info = 0, with_depth = 0, with_score = 0;
    int malformed = 0, bad_pv = 0;
    std::string first_malformed, first_bad_pv;
    // Counts one search's info lines, its pv moves checked from `game`'s position.
    void add(const Game& game, const SearchReply& reply);
};

// A group ends early (the engine faulted); `counted` when the fault counts towards the limit.
struct GroupEnd {
    bool counted = true;
};

class ComplianceRun {
public:
    explicit ComplianceRun(const ComplianceConfig& config);
    ComplianceReport run();

private:
    using Body = std::function<void(CheckBuilder&)>;

    // The groups, in the order they run.
    void group_startup();
    void group_options();
    void group_game();
    void group_positions();
    void group_variants();
    void group_go();
    void group_random();
    void group_time();
    void group_info();
    void group_quit();

    // The steps of group_startup: the option lines read (into options_), each judged; the
    // boards the Variant and Rules options claim (their names into `claimed`).
    void read_option_lines(CheckBuilder& c, const std::vector<std::string>& lines);
    void claim_boards(CheckBuilder& c, std::vector<std::string>& claimed);
    // The checks of group_go: its limits (depth, nodes, movetime, clocks), then the rest in order.
    void check_go_limits(const Game& game);
    void check_bare_go(CheckBuilder& c, const Game& game, int wait);
    void check_isready_during_movetime(CheckBuilder& c, const Game& game);
    void check_infinite_then_stop(CheckBuilder& c, const Game& game, int wait);
    void check_isready_during_infinite(CheckBuilder& c, const Game& game, int wait);
    // Sets up `game` and sends `go_line`: the reply to fill in.
    SearchReply start_search(CheckBuilder& c, const Game& game, const std::string& go_line);
    // Takes `best` as the reply's bestmove line, judges the reply and syncs.
    void finish_search(CheckBuilder& c, const Game& game, SearchReply& r, const std::string& best);
    // Runs one group (a skip row when the engine cannot run any more; the engine started again
    // first when a fault killed it and the group needs it).
    void run_group(const std::string& name, void (ComplianceRun::*body)(),
                   bool needs_engine = true);
    // Runs one check and records it. A fault in it gives the check `on_fault` (with the fault's
    // reason) and ends the group (GroupEnd; a fault of a Warn check does not count). Its lines
    // are those exchanged since it began, or with `continued` since the check before began.
    void check(const std::string& name, const Body& body, CheckStatus on_fault = CheckStatus::Fail,
               bool continued = false);
    // Starts the engine: `uci` to `uciok` (the lines between into `lines`), then the config's
    // options and `isready`. Throws EngineFault.
    void start_engine(std::vector<std::string>& lines);
    // Sends the config's options (setoption), noting the board they set: the lines sent.
    std::vector<std::string> send_configured_options();

    // `isready` and its `readyok`: the lines before it.
    std::vector<std::string> sync(const std::string& after);
    // sync(), where a bestmove or an error line is a failure of `c`.
    void sync_clean(CheckBuilder& c, const std::string& after);
    // Flags the error lines among `lines` (and bestmoves, unless allowed) as failures of `c`.
    void refuse_errors(CheckBuilder& c, const std::vector<std::string>& lines,
                       const std::string& after, bool bestmove_allowed);
    // Sends `go_line` and reads its bestmove (EngineFault "hang" after wait_ms).
    SearchReply go(const std::string& go_line, int wait_ms);
    // Judges a reply in `game`: errors and a missing, malformed or illegal move fail `c`; its
    // info lines are tallied. True when the move is legal (or rightly "(none)").
    bool judge(CheckBuilder& c, const Game& game, const SearchReply& reply);
    // Sets up `game` (its position line), searches with `go_line`, judges, syncs.
    SearchReply search(CheckBuilder& c, const Game& game, const std::string& go_line, int wait_ms);
    // Tells the engine the board and rule set when they changed: `ucinewgame`, the Variant and
    // Rules options, `ucinewgame` and `isready`; a refusal fails `c`.
    void set_board(CheckBuilder& c, const Rules& rules);
    // `setoption name N [value V]` and `isready`: the lines before readyok.
    std::vector<std::string> set_option(const std::string& name,
                                        const std::optional<std::string>& value);
    // The value the config gives option `name` (case-insensitive), if any.
    std::optional<std::string> configured(const std::string& name) const;
    // The advertised option called `name` (case-insensitive), or nullptr.
    const AdvertisedOption* advertised(const std::string& name) const;
    // Takes note of a Variant or Rules option set to `value`.
    void note_board_option(const std::string& name, const std::string& value);

    // A timed sample: reply minus the time given, into `into`.
    static void sample(Lateness& into, const SearchReply& reply, int given_ms);
    // The verdict on a lateness distribution: warn past warn_ms, fail past fail_ms.
    static void judge_lateness(CheckBuilder& c, const Lateness& l, const std::string& what,
                               int warn_ms, int fail_ms);

    const ComplianceConfig& config_;
    EngineSession session_;
    ComplianceReport report_;
    std::string group_;
    Rng rng_;
    std::vector<AdvertisedOption> options_;
    std::vector<std::pair<Variant, std::string>> variants_; // claimed besides tsivy, as spelled
    std::vector<std::pair<RuleSet, std::string>> rulesets_; // claimed besides standard
    std::string tsivy_name_ = "tsivy", standard_name_ = "standard"; // as the engine spells them
    Rules default_board_; // the board and rule set of the Variant and Rules options' defaults
    Rules board_;         // what the engine was told
    bool told_ = true;    // board_ is what the engine plays (false after a refused Variant/Rules)
    InfoTally infos_;
    bool started_ = false; // uciok came once
    int faults_ = 0;
    std::string stop_reason_; // why no further group runs ("" while they do)
};

} // namespace fanorona
