#include "selfplay/games/game_runner.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "core/board/notation.h"
#include "core/common/rng.h"
#include "selfplay/engine/engine_spec.h"

namespace fanorona {

namespace {

constexpr std::uint64_t kExplorationStream = 0xE4B1;

GameResult loss_for(Color c) {
    return c == Color::White ? GameResult::BlackWins : GameResult::WhiteWins;
}

// Step 1 of a game: the record's header and the opening's moves, played onto the game.
Game play_opening(const GameSetup& setup, GameRecord& rec) {
    rec.index = setup.index;
    rec.white = setup.white_name;
    rec.black = setup.black_name;
    rec.start = setup.opening.start.to_string();
    // Room for a game of usual length: the per-move vectors grow at most a few times.
    constexpr std::size_t kUsualTurns = 128;
    rec.moves.reserve(kUsualTurns);
    rec.scores.reserve(kUsualTurns);
    rec.stats.reserve(kUsualTurns);
    Game game(setup.rules, setup.opening.start);
    for (const Move& m : setup.opening.moves) {
        rec.moves.push_back(move_to_string(game.position(), setup.rules, m));
        rec.scores.push_back(std::nullopt);
        rec.stats.emplace_back();
        game.play(m);
    }
    rec.opening_turns = int(setup.opening.moves.size());
    return game;
}

// The game's two clocks as the players see them, their time controls, and the time each side
// used under its last whole millisecond.
struct GameClocks {
    Clock clock;
    const TimeControl* tcs[2];
    std::int64_t carried_us[2] = {0, 0};

    explicit GameClocks(const GameSetup& setup)
        : tcs{&setup.time_control, &setup.black_time_control} {
        clock.enabled = setup.time_control.base_ms > 0 || setup.black_time_control.base_ms > 0;
        for (int c = 0; c < 2; ++c) {
            clock.time_ms[c] = tcs[c]->base_ms;
            clock.inc_ms[c] = tcs[c]->inc_ms;
            clock.moves_to_go[c] = tcs[c]->moves;
        }
    }
    // Whether the mover plays on a clock.
    bool runs(Color mover) const { return clock.enabled && tcs[int(mover)]->base_ms > 0; }
    // Charges the move the mover began at `t0`: its clock after the move, or -1 when it lost on
    // time (`fault` then says why, naming `player`).
    std::int64_t charge(Color mover, std::chrono::steady_clock::time_point t0,
                        const std::string& player, std::string& fault) {
        const int c = int(mover);
        // Whole milliseconds off the clock, the rest carried to the side's next move: a
        // player whose moves take under a millisecond each still spends its time.
        carried_us[c] += std::chrono::duration_cast<std::chrono::microseconds>(
                             std::chrono::steady_clock::now() - t0)
                             .count();
        const std::int64_t used = carried_us[c] / 1000;
        carried_us[c] %= 1000;
        int& left = clock.time_ms[c];
        left -= int(used);
        if (left < -tcs[c]->margin_ms) {
            fault = player_name_of(player) + " loses on time (timeout): its move took " +
                    std::to_string(used) + " ms with " + std::to_string(left + int(used)) +
                    " ms on its clock (margin " + std::to_string(tcs[c]->margin_ms) + " ms)";
            return -1;
        }
        left = std::max(left, 0) + clock.inc_ms[c];
        // Moves-in-time: the period's last turn played, the next period's time comes in.
        if (int& to_go = clock.moves_to_go[c]; to_go > 0 && --to_go == 0) {
            left += tcs[c]->base_ms;
            to_go = tcs[c]->moves;
        }
        return left;
    }
};

// What ends a game besides its rules: the length cap, win and draw adjudication, the tables.
struct Adjudicators {
    LengthCap cap;
    WinAdjudicator win;
    DrawAdjudicator draw;
    TableAdjudicator by_tables;

    explicit Adjudicators(const AdjudicationConfig& a)
        : cap(a.max_turns), win(a.win_margin, a.win_turns),
          draw(a.draw_after, a.draw_margin, a.draw_turns), by_tables(a.tables.get()) {}
    // The game's outcome after the mover's move with `score` (seen by the adjudicators).
    Outcome after_move(const Game& game, Color mover, std::optional<int> score) {
        win.record(mover, score);
        draw.record(score);
        Outcome outcome = game.outcome();
        if (!outcome.over())
            if (auto adjudicated = win.check()) outcome = *adjudicated;
        if (!outcome.over())
            if (auto adjudicated = draw.check(game)) outcome = *adjudicated;
        if (!outcome.over())
            if (auto decided = by_tables.check(game)) outcome = *decided;
        return outcome;
    }
};

// Step 2 of a turn: the mover's choice, charged to its clock (`clock_left` after the move).
// False when the mover forfeits or loses on time: `outcome`, the record's reason and the fault
// then say so.
bool player_choice(Player& player, const Game& game, GameClocks& clocks, MoveChoice& choice,
                   std::int64_t& clock_left, PlayedGame& out, Outcome& outcome) {
    GameRecord& rec = out.record;
    const Color mover = game.position().side_to_move();
    const std::string& name = mover == Color::White ? rec.white : rec.black;
    const auto t0 = std::chrono::steady_clock::now();
    try {
        choice = player.choose(game, clocks.clock);
    } catch (const PlayerFault& fault) {
        outcome = Outcome{loss_for(mover), EndReason::None};
        rec.reason = fault.reason;
        out.fault = player_name_of(name) + " forfeits (" + fault.reason + "): " + fault.what();
        return false;
    }
    if (clocks.runs(mover) && (clock_left = clocks.charge(mover, t0, name, out.fault)) < 0) {
        outcome = Outcome{loss_for(mover), EndReason::None};
        rec.reason = "timeout";
        return false;
    }
    return true;
}

// Step 3 of a turn: the move, its score and its statistics onto the record (and the position
// into the log when the player logged it); whether the statistics tell anything.
bool record_move(const GameSetup& setup, const Position& pos, Color mover, MoveChoice& choice,
                 std::int64_t clock_left, PlayedGame& out) {
    GameRecord& rec = out.record;
    if (choice.logged && choice.score)
        out.positions.push_back(PositionRecord::of(pos, setup.index, *choice.score, choice.depth));
    rec.moves.push_back(move_to_string(pos, setup.rules, choice.move));
    // Bounded to the games file's ranges whoever the player is (negation cannot overflow).
    using R = MoveNumberRanges;
    if (choice.score) choice.score = std::clamp(*choice.score, -R::kMaxScore, R::kMaxScore);
    rec.scores.push_back(
        choice.score ? std::optional<int>(mover == Color::White ? *choice.score : -*choice.score)
                     : std::nullopt);
    rec.stats.push_back(MoveStats{std::min<std::int64_t>(choice.time_us, R::kMaxTimeUs),
                                  int(std::min<std::int64_t>(choice.depth, R::kMaxDepth)),
                                  std::min<std::int64_t>(choice.nodes, R::kMaxNodes),
                                  std::min<std::int64_t>(clock_left, R::kMaxClockMs),
                                  std::min<std::int64_t>(choice.latency_us, R::kMaxLatencyUs)});
    return rec.stats.back().known();
}

} // namespace

PlayedGame play_game(const GameSetup& setup, Player& white, Player& black) {
    PlayedGame out;
    GameRecord& rec = out.record;
    // Step 1. The opening.
    Game game = play_opening(setup, rec);
    bool any_stats = false; // whether a player told anything of a move
    white.new_game(setup.index);
    black.new_game(setup.index);
    Adjudicators judges(setup.adjudication);
    Rng explore = Rng::derive(setup.seed, kExplorationStream, setup.index);
    GameClocks clocks(setup);
    int own_turns = 0;
    Outcome outcome = game.outcome();
    if (!outcome.over())
        if (auto decided = judges.by_tables.check(game)) outcome = *decided;
    // Step 2. The turns, each: the mover's choice (a random move while exploring), its clock,
    // the record, the move played and the outcome judged.
    while (!outcome.over()) {
        if (auto capped = judges.cap.check(game)) {
            outcome = *capped;
            break;
        }
        const Position& pos = game.position();
        const Color mover = pos.side_to_move();
        MoveChoice choice;
        std::int64_t clock_left = -1; // the mover's clock after the move, for a clocked mover
        const bool exploring = own_turns < setup.exploration.turns &&
                               setup.exploration.epsilon > 0 &&
                               explore.uniform() < setup.exploration.epsilon;
        if (exploring) {
            MoveList list;
            generate_moves(pos, setup.rules, list);
            choice.move = list[int(explore.below(std::uint64_t(list.size())))];
        } else if (!player_choice(mover == Color::White ? white : black, game, clocks, choice,
                                  clock_left, out, outcome)) {
            break;
        }
        any_stats |= record_move(setup, pos, mover, choice, clock_left, out);
        game.play(choice.move);
        ++own_turns;
        outcome = judges.after_move(game, mover, choice.score);
    }
    // Step 3. The result.
    if (!any_stats) rec.stats.clear(); // as a games file reads back a game that tells nothing
    rec.result = outcome.result;
    if (rec.reason.empty()) rec.reason = std::string(end_reason_name(outcome.reason));
    for (PositionRecord& r : out.positions) r.result = rec.result;
    return out;
}

} // namespace fanorona
