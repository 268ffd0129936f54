#include "selfplay/engine/external_player.h"

#include <algorithm>
#include <chrono>

#include "core/timeman.h"

namespace fanorona {

FixedLimitGo fixed_limit_go(const ExternalEngineConfig& c) {
    if (c.limits.movetime_ms)
        return {"go movetime " + std::to_string(c.limits.movetime_ms),
                c.limits.movetime_ms + TimeMargins::kReplyGraceMs};
    std::string go = "go";
    if (c.limits.depth) go += " depth " + std::to_string(c.limits.depth);
    if (c.limits.nodes) go += " nodes " + std::to_string(c.limits.nodes);
    return {go, c.fixed_limit_timeout_ms};
}

MoveChoice ExternalPlayer::choose(const Game& game, const Clock& clock) {
    if (client_.start()) need_new_game_ = true;
    if (need_new_game_) {
        client_.new_game();
        need_new_game_ = false;
    }
    std::string go = "go";
    int wait_ms = config_.fixed_limit_timeout_ms;
    const int mover = int(game.position().side_to_move());
    if (clock.enabled) {
        // Each clocked side's time: an opponent without a clock (a depth- or node-limited
        // player, whose time reads 0: a clocked side at 0 has lost) is left out, not sent as 0.
        for (int side : {0, 1})
            if (side == mover || clock.time_ms[side] > 0)
                go += std::string(side == 0 ? " wtime " : " btime ") +
                      std::to_string(clock.time_ms[side]);
        for (int side : {0, 1})
            if (side == mover || clock.time_ms[side] > 0)
                go += std::string(side == 0 ? " winc " : " binc ") +
                      std::to_string(clock.inc_ms[side]);
        if (clock.moves_to_go[mover] > 0)
            go += " movestogo " + std::to_string(clock.moves_to_go[mover]);
        // Waited for at least as long as its clock's margin forgives.
        wait_ms =
            clock.time_ms[mover] + std::max(TimeMargins::kReplyGraceMs, config_.clock_margin_ms);
    } else {
        const FixedLimitGo fixed = fixed_limit_go(config_);
        go = fixed.line;
        wait_ms = fixed.wait_ms;
    }
    client_.send_position(game);
    const EngineReply reply = client_.go(game, go, wait_ms);
    MoveChoice choice;
    choice.move = reply.move;
    choice.score = reply.score;
    choice.depth = reply.depth;
    choice.nodes = reply.nodes;
    choice.time_us = std::int64_t(
        std::chrono::duration_cast<std::chrono::microseconds>(reply.received - reply.sent).count());
    // What the engine does not count of its own time (start-up of its search, writing, the pipe);
    // an engine that tells more than the referee measured (its clock rounds up) gets 0.
    if (reply.time_ms >= 0)
        choice.latency_us = std::max<std::int64_t>(choice.time_us - reply.time_ms * 1000, 0);
    return choice;
}

} // namespace fanorona
