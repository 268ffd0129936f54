#include "selfplay/game_runner.h"

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

} // namespace

PlayedGame play_game(const GameSetup& setup, Player& white, Player& black) {
    PlayedGame out;
    GameRecord& rec = out.record;
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
    bool any_stats = false; // whether a player told anything of a move

    white.new_game(setup.index);
    black.new_game(setup.index);
    const LengthCap cap(setup.adjudication.max_turns);
    WinAdjudicator win(setup.adjudication.win_margin, setup.adjudication.win_turns);
    DrawAdjudicator draw(setup.adjudication.draw_after, setup.adjudication.draw_margin,
                         setup.adjudication.draw_turns);
    const TableAdjudicator by_tables(setup.adjudication.tables.get());
    Rng explore = Rng::derive(setup.seed, kExplorationStream, setup.index);
    Clock clock;
    const TimeControl* tcs[2] = {&setup.time_control, &setup.black_time_control};
    clock.enabled = setup.time_control.base_ms > 0 || setup.black_time_control.base_ms > 0;
    for (int c = 0; c < 2; ++c) {
        clock.time_ms[c] = tcs[c]->base_ms;
        clock.inc_ms[c] = tcs[c]->inc_ms;
        clock.moves_to_go[c] = tcs[c]->moves;
    }
    std::int64_t carried_us[2] = {0, 0}; // each clock's time used under its last whole ms
    Outcome outcome{GameResult::Ongoing, EndReason::None};
    int own_turns = 0;
    outcome = game.outcome();
    if (!outcome.over())
        if (auto decided = by_tables.check(game)) outcome = *decided;
    while (!outcome.over()) {
        if (auto capped = cap.check(game)) {
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
        } else {
            const auto t0 = std::chrono::steady_clock::now();
            try {
                choice = (mover == Color::White ? white : black).choose(game, clock);
            } catch (const PlayerFault& fault) {
                outcome = Outcome{loss_for(mover), EndReason::None};
                rec.reason = fault.reason;
                const std::string& player = mover == Color::White ? rec.white : rec.black;
                out.fault =
                    player_name_of(player) + " forfeits (" + fault.reason + "): " + fault.what();
                break;
            }
            if (clock.enabled && tcs[int(mover)]->base_ms > 0) {
                // Whole milliseconds off the clock, the rest carried to the side's next move: a
                // player whose moves take under a millisecond each still spends its time.
                carried_us[int(mover)] += std::chrono::duration_cast<std::chrono::microseconds>(
                                              std::chrono::steady_clock::now() - t0)
                                              .count();
                const std::int64_t used = carried_us[int(mover)] / 1000;
                carried_us[int(mover)] %= 1000;
                int& left = clock.time_ms[int(mover)];
                left -= int(used);
                if (left < -tcs[int(mover)]->margin_ms) {
                    outcome = Outcome{loss_for(mover), EndReason::None};
                    rec.reason = "timeout";
                    const std::string& player = mover == Color::White ? rec.white : rec.black;
                    out.fault = player_name_of(player) +
                                " loses on time (timeout): its move took " + std::to_string(used) +
                                " ms with " + std::to_string(left + int(used)) +
                                " ms on its clock (margin " +
                                std::to_string(tcs[int(mover)]->margin_ms) + " ms)";
                    break;
                }
                left = std::max(left, 0) + clock.inc_ms[int(mover)];
                // Moves-in-time: the period's last turn played, the next period's time comes in.
                if (int& to_go = clock.moves_to_go[int(mover)]; to_go > 0 && --to_go == 0) {
                    left += tcs[int(mover)]->base_ms;
                    to_go = tcs[int(mover)]->moves;
                }
                clock_left = left;
            }
        }
        if (choice.logged && choice.score)
            out.positions.push_back(
                PositionRecord::of(pos, setup.index, *choice.score, choice.depth));
        rec.moves.push_back(move_to_string(pos, setup.rules, choice.move));
        // Bounded to the games file's ranges whoever the player is (negation cannot overflow).
        using R = MoveNumberRanges;
        if (choice.score) choice.score = std::clamp(*choice.score, -R::kMaxScore, R::kMaxScore);
        rec.scores.push_back(
            choice.score
                ? std::optional<int>(mover == Color::White ? *choice.score : -*choice.score)
                : std::nullopt);
        rec.stats.push_back(MoveStats{std::min<std::int64_t>(choice.time_us, R::kMaxTimeUs),
                                      int(std::min<std::int64_t>(choice.depth, R::kMaxDepth)),
                                      std::min<std::int64_t>(choice.nodes, R::kMaxNodes),
                                      std::min<std::int64_t>(clock_left, R::kMaxClockMs),
                                      std::min<std::int64_t>(choice.latency_us, R::kMaxLatencyUs)});
        any_stats |= rec.stats.back().known();
        game.play(choice.move);
        ++own_turns;
        win.record(mover, choice.score);
        draw.record(choice.score);
        outcome = game.outcome();
        if (!outcome.over())
            if (auto adjudicated = win.check()) outcome = *adjudicated;
        if (!outcome.over())
            if (auto adjudicated = draw.check(game)) outcome = *adjudicated;
        if (!outcome.over())
            if (auto decided = by_tables.check(game)) outcome = *decided;
    }
    if (!any_stats) rec.stats.clear(); // as a games file reads back a game that tells nothing
    rec.result = outcome.result;
    if (rec.reason.empty()) rec.reason = std::string(end_reason_name(outcome.reason));
    for (PositionRecord& r : out.positions) r.result = rec.result;
    return out;
}

} // namespace fanorona
