#include "selfplay/driver/scheduled_games.h"

namespace fanorona {

ScheduledGames::ScheduledGames(RunConfig config, std::vector<Opening> openings)
    : config_(std::move(config)), schedule_(config_.schedule()), openings_(std::move(openings)) {
    if (openings_.empty()) throw std::invalid_argument("a run needs at least one opening");
    for (const EngineSpec& p : config_.players) descriptions_.push_back(p.description());
}

PlayedGame ScheduledGames::play(std::uint64_t index) {
    auto& mine = players_.local();
    if (mine.empty()) mine.resize(config_.players.size());
    const GameSlot slot = schedule_.slot(index);
    const auto white = std::size_t(slot.white), black = std::size_t(slot.black);
    for (std::size_t p : {white, black})
        if (!mine[p]) mine[p] = make_player(config_.players[p], config_.rules, config_.seed);
    GameSetup setup;
    setup.rules = config_.rules;
    setup.opening = openings_[slot.opening % openings_.size()];
    setup.index = index;
    setup.seed = config_.seed;
    setup.adjudication = config_.adjudication;
    setup.exploration = config_.exploration;
    setup.time_control = config_.players[white].time_control;
    setup.black_time_control = config_.players[black].time_control;
    setup.white_name = descriptions_[white];
    setup.black_name = descriptions_[black];
    PlayedGame game = play_game(setup, *mine[white], *mine[black]);
    if (!config_.log_positions) game.positions.clear();
    return game;
}

} // namespace fanorona
