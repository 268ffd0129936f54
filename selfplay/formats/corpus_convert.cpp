#include "selfplay/formats/corpus_convert.h"

#include <algorithm>
#include <climits>

namespace fanorona {

namespace {

// A score from White's view turned to `mover`'s (INT_MIN, which has no opposite, as -INT_MAX).
int mover_view(int white_score, Color mover) {
    if (mover == Color::White) return white_score;
    return white_score == INT_MIN ? INT_MAX : -white_score;
}

// Whether the position after `m` is the logged position `next` (turns since capture compared as
// the log stores them, capped at 255).
bool leads_to(const Position& pos, const Move& m, const PositionRecord& next) {
    Position after = pos;
    after.make_move(m);
    return after.pieces(Color::White) == next.white && after.pieces(Color::Black) == next.black &&
           after.side_to_move() == next.side_to_move &&
           std::min(after.turns_since_capture(), 255) == int(next.turns_since_capture);
}

} // namespace

CorpusGame corpus_game(const GameRecord& record, const Rules& file_rules,
                       const std::string& where) {
    const Rules rules = record.rules(file_rules);
    const Game game = replay_game(record, rules, where);
    CorpusGame g;
    g.index = record.index;
    g.ruleset = rules.ruleset;
    g.start = game.start();
    g.moves = game.moves();
    g.result = record.result;
    g.reason = record.reason;
    g.opening_turns = record.opening_turns;
    Color mover = g.start.side_to_move();
    for (std::size_t i = 0; i < g.moves.size(); ++i, mover = ~mover)
        g.scores.push_back(i < record.scores.size() && record.scores[i]
                               ? std::optional<int>(mover_view(*record.scores[i], mover))
                               : std::nullopt);
    return g;
}

std::vector<CorpusGame> corpus_games(const std::vector<PositionRecord>& records,
                                     const PositionLogHeader& header) {
    std::vector<CorpusGame> games;
    MoveList list;
    Position pos;
    for (std::size_t i = 0; i < records.size(); ++i) {
        const PositionRecord& r = records[i];
        if (i == 0 || games.back().end_score) { // a new chain
            CorpusGame g;
            g.index = r.game_index;
            g.ruleset = r.rules_or(header.ruleset);
            g.start = r.position(header.variant);
            g.result = r.result;
            games.push_back(std::move(g));
            pos = games.back().start;
        }
        CorpusGame& g = games.back();
        bool linked = false;
        if (i + 1 < records.size()) {
            const PositionRecord& next = records[i + 1];
            if (next.game_index == r.game_index && next.result == r.result &&
                next.rules_or(header.ruleset) == g.ruleset && next.turn == r.turn + 1) {
                Rules rules;
                rules.variant = header.variant;
                rules.ruleset = g.ruleset;
                generate_moves(pos, rules, list);
                for (const Move& m : list)
                    if (leads_to(pos, m, next)) {
                        g.moves.push_back(m);
                        g.scores.push_back(r.score);
                        pos.make_move(m);
                        linked = true;
                        break;
                    }
            }
        }
        if (!linked) g.end_score = r.score;
    }
    return games;
}

} // namespace fanorona
