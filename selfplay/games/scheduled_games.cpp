#include "selfplay/games/scheduled_games.h"

#include "selfplay/engine/external_player.h"

namespace fanorona {

ScheduledGames::ScheduledGames(RunConfig config, RunOpenings openings, RunOpenings vela_openings)
    : config_(std::move(config)), schedule_(config_.schedule()), openings_(std::move(openings)),
      vela_openings_(std::move(vela_openings)) {
    if (openings_.empty() || (config_.vela_series && vela_openings_.empty()))
        throw std::invalid_argument("a run needs at least one opening");
    for (const EngineSpec& p : config_.players) descriptions_.push_back(p.description());
}

std::vector<std::string> ScheduledGames::engine_names() const {
    std::vector<std::string> names(config_.players.size());
    for (const auto& mine : players_)
        for (std::size_t k = 0; k < mine.size(); ++k)
            if (const auto* e = dynamic_cast<const ExternalPlayer*>(mine[k].get()))
                if (std::string& name = names[k % names.size()]; name.empty())
                    name = e->engine_name();
    return names;
}

void ScheduledGames::set_players(std::vector<EngineSpec> players) {
    if (players.size() != config_.players.size())
        throw std::invalid_argument("set_players: a stage needs as many players as the run");
    config_.players = std::move(players);
    descriptions_.clear();
    for (const EngineSpec& p : config_.players) descriptions_.push_back(p.description());
    players_.clear();
}

PlayedGame ScheduledGames::play_slot(std::uint64_t index, const GameSlot& slot) {
    auto& mine = players_.local();
    if (mine.empty()) mine.resize(2 * config_.players.size());
    const Rules rules = config_.rules_of(slot);
    const std::size_t base = slot.vela ? config_.players.size() : 0;
    const auto white = std::size_t(slot.white), black = std::size_t(slot.black);
    for (std::size_t p : {white, black})
        if (!mine[base + p])
            mine[base + p] =
                make_player(config_.players[p], rules, config_.seed, config_.engine_log.get());
    GameSetup setup;
    setup.rules = rules;
    setup.opening = slot.vela ? vela_openings_.at(slot.opening) : openings_.at(slot.opening);
    setup.index = index;
    setup.seed = config_.seed;
    setup.adjudication = config_.adjudication;
    setup.exploration = config_.exploration;
    setup.time_control = config_.players[white].time_control;
    setup.black_time_control = config_.players[black].time_control;
    setup.white_name = descriptions_[white];
    setup.black_name = descriptions_[black];
    PlayedGame game = play_game(setup, *mine[base + white], *mine[base + black]);
    // restart=on: the engine's process ends with its game; the next game starts a fresh one.
    for (std::size_t p : {white, black})
        if (config_.players[p].restart) mine[base + p].reset();
    if (!config_.log_positions) game.positions.clear();
    if (config_.vela_series) {
        game.record.kind = slot.vela ? GameKind::Vela : GameKind::Normal;
        if (slot.vela) game.record.beneficiary = game.record.white;
        for (PositionRecord& r : game.positions) r.ruleset = rules.ruleset;
    }
    return game;
}

std::vector<PlayedGame> ScheduledGames::play_series(std::uint64_t series,
                                                    std::optional<GameResult> normal) {
    std::vector<PlayedGame> games;
    const GameSlot normal_slot = schedule_.slot(2 * series);
    if (!normal) {
        games.push_back(play_slot(2 * series, normal_slot));
        normal = games.back().record.result;
    }
    GameSlot vela = schedule_.slot(2 * series + 1);
    if (vela_colours(vela, normal_slot, *normal == GameResult::WhiteWins,
                     *normal == GameResult::BlackWins)) {
        games.push_back(play_slot(2 * series + 1, vela));
    } else {
        PlayedGame skip;
        skip.record.index = 2 * series + 1;
        skip.record.white = descriptions_[std::size_t(vela.white)];
        skip.record.black = descriptions_[std::size_t(vela.black)];
        skip.record.result = GameResult::Draw;
        skip.record.reason = "series-over";
        skip.record.start = Position::start(config_.rules.variant).to_string();
        skip.record.kind = GameKind::Skipped;
        games.push_back(std::move(skip));
    }
    return games;
}

} // namespace fanorona
