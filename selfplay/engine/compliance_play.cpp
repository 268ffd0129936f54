// The compliance checker's groups over positions: positions by string and by moves (capture
// chains, compulsory captures, an illegal move, a lost position), the variants and rule sets the
// engine claims, and legal moves in many random positions.

#include "core/board/notation.h"
#include "core/common/text.h"
#include "selfplay/engine/compliance_positions.h"
#include "selfplay/engine/compliance_run.h"

namespace fanorona {

namespace {

// Games tried to find a position of a kind (positions of each kind come within a few).
constexpr int kFindTries = 200;
// The searches of each claimed variant or rule set, besides its start position.
constexpr int kBoardSearches = 4;

} // namespace

void ComplianceRun::group_positions() {
    const Rules tsivy;
    const int wait = config_.answer_timeout_ms;
    // Searches `game` at depth 1; a pass notes the answer.
    auto legal = [&](CheckBuilder& c, const Game& game) {
        const SearchReply r = search(c, game, "go depth 1", wait);
        if (c.status == CheckStatus::Pass) c.note = "'" + r.line + "' after " + ms_text(r.ms);
    };
    // A position of a kind, or a warning that none was found.
    auto with = [&](CheckBuilder& c, const std::function<bool(const Game&)>& wanted,
                    const std::function<void(const Game&)>& then) {
        const auto game = find_position(tsivy, rng_, kFindTries, wanted);
        if (!game) {
            c.warn("no such position found in " + std::to_string(kFindTries) +
                   " random games: not checked");
            return;
        }
        then(*game);
    };
    check("startpos", [&](CheckBuilder& c) { legal(c, Game(tsivy)); });
    check("startpos moves", [&](CheckBuilder& c) { legal(c, random_game(tsivy, 6, rng_)); });
    check("fen", [&](CheckBuilder& c) {
        with(
            c, [](const Game& g) { return g.moves().size() >= 4; },
            [&](const Game& g) { legal(c, position_only(g)); });
    });
    check("fen moves", [&](CheckBuilder& c) {
        with(
            c, [](const Game& g) { return g.moves().size() >= 6; },
            [&](const Game& g) { legal(c, rebased(g, g.moves().size() - 3)); });
    });
    check("capture chain in moves",
          [&](CheckBuilder& c) { with(c, chain_played, [&](const Game& g) { legal(c, g); }); });
    check("capture chain to play", [&](CheckBuilder& c) {
        with(
            c,
            [](const Game& g) {
                return g.moves().size() >= 2 && chain_to_play(g.position(), g.rules());
            },
            [&](const Game& g) { legal(c, position_only(g)); });
    });
    check("compulsory capture", [&](CheckBuilder& c) {
        with(
            c,
            [](const Game& g) {
                return g.moves().size() >= 2 && capture_compulsory(g.position(), g.rules());
            },
            [&](const Game& g) { legal(c, position_only(g)); });
    });
    check("illegal move", [&](CheckBuilder& c) {
        set_board(c, tsivy);
        const std::string bad = "position startpos moves a1a2"; // a2 holds a white piece
        session_.send(bad);
        bool error = false;
        for (const std::string& l : sync("'" + bad + "'")) {
            error = error || is_error_line(l);
            if (first_word(l) == "bestmove") c.fail("'" + l + "' with no search running");
        }
        if (!error)
            c.warn("no 'info string error' line for the illegal move of '" + bad +
                   "' (docs/rules.md, Errors)");
        search(c, Game(tsivy), "go depth 1", wait); // and the session goes on
        if (c.note.empty()) c.note = "refused with an error line; the session goes on";
    });
    // A lost position is never sent by a referee: anything but "bestmove (none)" is a warning.
    check(
        "no legal move",
        [&](CheckBuilder& c) {
            const Game lost(tsivy, Position::from_string("9/9/9/9/4B4 w", Variant::Tsivy));
            set_board(c, tsivy);
            session_.send(position_command(lost));
            const SearchReply r = go("go depth 1", wait);
            if (r.move != "(none)")
                c.warn("'" + r.line + "' where the side to move has no piece (docs/rules.md: " +
                       "'bestmove (none)')");
            for (const std::string& l : sync("the bestmove"))
                if (first_word(l) == "bestmove") c.warn("'" + l + "' with no search running");
            c.note = "'" + r.line + "'";
        },
        CheckStatus::Warn);
}

void ComplianceRun::group_variants() {
    const int wait = config_.answer_timeout_ms;
    if (variants_.empty() && rulesets_.empty()) {
        check("other boards", [&](CheckBuilder& c) {
            c.note = "none claimed (a Variant or Rules option would claim them)";
        });
        return;
    }
    for (const auto& [variant, spelled] : variants_) {
        const Variant v = variant;
        check("Variant " + spelled, [&](CheckBuilder& c) {
            Rules rules;
            rules.variant = v;
            search(c, Game(rules, Position::start(v)), "go depth 1", wait);
            for (int i = 0; i < kBoardSearches; ++i) {
                const Game g = random_position(rules, rng_);
                search(c, i % 2 ? position_only(g) : g, "go depth 1", wait);
            }
            c.note = std::to_string(kBoardSearches + 1) +
                     " searches (startpos, random positions by string and by moves)";
        });
    }
    for (const auto& [ruleset, spelled] : rulesets_) {
        const RuleSet r = ruleset;
        check("Rules " + spelled, [&](CheckBuilder& c) {
            Rules rules;
            rules.ruleset = r;
            search(c, Game(rules), "go depth 1", wait);
            int found = 0;
            for (int i = 0; i < kBoardSearches; ++i) {
                const auto g = find_position(rules, rng_, kFindTries, [&](const Game& x) {
                    return rules_change_moves(x.position(), rules);
                });
                if (!g) break;
                ++found;
                search(c, i % 2 ? position_only(*g) : *g, "go depth 1", wait);
            }
            c.note = "startpos and " + std::to_string(found) +
                     " positions where these rules change the legal moves";
        });
    }
}

void ComplianceRun::group_random() {
    struct Block {
        Rules rules;
        int count = 0;
    };
    std::vector<Block> blocks(1);
    for (const auto& [variant, spelled] : variants_) {
        blocks.emplace_back();
        blocks.back().rules.variant = variant;
    }
    for (const auto& [ruleset, spelled] : rulesets_) {
        blocks.emplace_back();
        blocks.back().rules.ruleset = ruleset;
    }
    // Half on tsivy under the standard rules, the rest shared by the other boards and rule sets.
    const int n = config_.positions;
    blocks[0].count = blocks.size() == 1 ? n : (n + 1) / 2;
    const int rest = n - blocks[0].count;
    for (std::size_t i = 1; i < blocks.size(); ++i)
        blocks[i].count =
            rest / int(blocks.size() - 1) + (int(i - 1) < rest % int(blocks.size() - 1) ? 1 : 0);
    const bool own_limits = config_.go_limits.empty();
    // Under a movetime alone, each search is one more sample of time discipline.
    const auto limit_words = split_words(config_.go_limits);
    const int movetime =
        limit_words.size() == 2 && limit_words[0] == "movetime" && is_integer(limit_words[1])
            ? int(std::stoll(limit_words[1]))
            : 0;
    const int wait = own_limits ? config_.answer_timeout_ms : config_.limit_timeout_ms;
    check("legal moves in " + std::to_string(n) + " positions", [&](CheckBuilder& c) {
        int done = 0, wrong = 0, boards = 0;
        bool kept = false; // the transcript holds the first search that went wrong
        std::string first;
        for (const Block& block : blocks) {
            boards += block.count > 0;
            for (int i = 0; i < block.count; ++i, ++done) {
                Game g = random_position(block.rules, rng_);
                // By moves, by string, by moves, by string then moves.
                if (done % 4 == 1)
                    g = position_only(g);
                else if (done % 4 == 3)
                    g = rebased(g, g.moves().size() / 2);
                const std::string go_line = !own_limits ? "go " + config_.go_limits
                                            : done % 2  ? "go nodes 1000"
                                                        : "go depth 1";
                const std::size_t mark = session_.transcript_size();
                CheckBuilder one;
                const SearchReply r = search(one, g, go_line, wait);
                if (movetime > 0) sample(report_.movetime, r, movetime);
                if (one.status == CheckStatus::Pass || kept) {
                    session_.cut_transcript(mark);
                } else {
                    kept = true;
                    first = one.problems.front();
                }
                if (one.status != CheckStatus::Pass) {
                    ++wrong;
                    c.status = std::max(c.status, one.status);
                }
            }
        }
        if (wrong)
            c.problems.push_back(std::to_string(wrong) + " of " + std::to_string(done) +
                                 " searches went wrong; the first: " + first);
        c.note = std::to_string(done) + " positions on " + std::to_string(boards) +
                 (boards == 1 ? " board" : " boards and rule sets") + ", every bestmove legal";
    });
}

} // namespace fanorona
