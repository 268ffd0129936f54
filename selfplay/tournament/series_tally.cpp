#include "selfplay/tournament/series_tally.h"

#include <cmath>
#include <stdexcept>

#include "core/board/notation.h"
#include "selfplay/tournament/stats/elo.h"
#include "selfplay/tournament/stats/stats_json.h"

namespace fanorona {

namespace {

// One game's result from White's view as a WDL of one game.
stats::WDL white_view(GameResult r) {
    stats::WDL w;
    (r == GameResult::WhiteWins ? w.wins : r == GameResult::BlackWins ? w.losses : w.draws) = 1;
    return w;
}

double mean(std::uint64_t sum, std::uint64_t n) {
    return n ? double(sum) / double(n) : 0.0;
}

nlohmann::json wdl_elo(const stats::WDL& w) {
    nlohmann::json j = stats::to_json(w);
    const stats::EloEstimate e = stats::estimate_elo(w);
    j["elo"] = std::isfinite(e.elo) ? nlohmann::json(e.elo) : nlohmann::json();
    j["elo_error95"] =
        std::isfinite(e.elo_error95) ? nlohmann::json(e.elo_error95) : nlohmann::json();
    return j;
}

nlohmann::json penta_elo(const stats::Pentanomial& p) {
    const stats::EloEstimate e = stats::estimate_elo(p);
    return {{"pentanomial", stats::to_json(p)},
            {"elo", std::isfinite(e.elo) ? nlohmann::json(e.elo) : nlohmann::json()},
            {"elo_error95",
             std::isfinite(e.elo_error95) ? nlohmann::json(e.elo_error95) : nlohmann::json()}};
}

} // namespace

VelaGameFacts vela_game_facts(const GameRecord& record, const Rules& rules) {
    VelaGameFacts f;
    const Game game = replay_game(record, rules, "game " + std::to_string(record.index));
    Game walk(rules, game.start());
    const auto victim = [&] { return popcount(walk.position().pieces(Color::Black)); };
    bool more_moves = false; // the game went on after the restrictions ended
    for (const Move& m : game.moves()) {
        if (victim() <= Rules::kVelaVictimFloor) {
            more_moves = true;
            break;
        }
        walk.play(m);
        ++f.restricted_turns;
    }
    const bool over = walk.outcome().over();
    f.reached_normal_phase = more_moves || (victim() <= Rules::kVelaVictimFloor && !over);
    return f;
}

bool SeriesTally::add(const GameRecord& g, const GameSlot& slot, const Rules& rules) {
    const stats::WDL w = white_view(g.result);
    const bool a_white = slot.white == slot.first;
    if (!slot.vela) {
        normal_white += w;
        normal_of_series_ = a_white ? w : w.flipped();
        normal += normal_of_series_;
        normal_turns += g.moves.size();
        if (slot.first_of_pair) {
            first_normal_ = normal_of_series_;
        } else if (first_normal_) {
            normal_pairs.add_pair(*first_normal_ + normal_of_series_);
            first_normal_.reset();
        }
        return false;
    }
    stats::WDL series_points; // a's view of the whole series
    if (g.kind == GameKind::Skipped) {
        ++skipped;
        series_points = normal_of_series_; // a draw: the series ends drawn
    } else {
        vela += w; // White is the beneficiary
        (a_white ? vela_a : vela_b) += w;
        vela_turns += g.moves.size();
        Rules vela_rules = rules;
        vela_rules.ruleset = RuleSet::Vela;
        const VelaGameFacts f = vela_game_facts(g, vela_rules);
        vela_reached_normal_phase += f.reached_normal_phase;
        vela_restricted_turns += std::uint64_t(f.restricted_turns);
        const stats::WDL vela_a_view = a_white ? w : w.flipped();
        const double points = normal_of_series_.points() + vela_a_view.points();
        (points > 1.0   ? series_points.wins
         : points < 1.0 ? series_points.losses
                        : series_points.draws) = 1;
    }
    series += series_points;
    if (slot.first_of_pair) {
        first_series_ = series_points;
    } else if (first_series_) {
        series_pairs.add_pair(*first_series_ + series_points);
        first_series_.reset();
    }
    return true;
}

nlohmann::json SeriesTally::to_json() const {
    const std::uint64_t vela_games = vela.games();
    return {
        {"normal",
         {{"white_view", stats::to_json(normal_white)},
          {"first_player", wdl_elo(normal)},
          {"pairs", penta_elo(normal_pairs)},
          {"average_turns", mean(normal_turns, normal_white.games())}}},
        {"vela",
         {{"games", vela_games},
          {"beneficiary", wdl_elo(vela)},
          {"first_player_beneficiary", stats::to_json(vela_a)},
          {"second_player_beneficiary", stats::to_json(vela_b)},
          {"victim_reached_normal_phase", vela_reached_normal_phase},
          {"victim_reached_normal_phase_share", mean(vela_reached_normal_phase, vela_games)},
          {"average_turns", mean(vela_turns, vela_games)},
          {"average_restricted_turns", mean(vela_restricted_turns, vela_games)}}},
        {"series",
         {{"series", series.games()},
          {"ended_by_drawn_normal_game", skipped},
          {"first_player", wdl_elo(series)},
          {"pairs", penta_elo(series_pairs)}}},
    };
}

} // namespace fanorona
