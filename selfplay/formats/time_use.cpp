#include "selfplay/formats/time_use.h"

#include <algorithm>
#include <stdexcept>

namespace fanorona {

std::vector<PlayerTimeUse> time_use_by_player(const std::vector<GameRecord>& games,
                                              Variant variant) {
    std::vector<PlayerTimeUse> players;
    auto player = [&players](const std::string& description) {
        const std::string name = player_name_of(description);
        for (std::size_t k = 0; k < players.size(); ++k)
            if (players[k].name == name) return k;
        players.push_back(PlayerTimeUse{});
        players.back().name = name;
        return players.size() - 1;
    };
    for (const GameRecord& g : games) {
        if (!g.played()) continue;
        Color first;
        try {
            first = Position::from_string(g.start, variant).side_to_move();
        } catch (const std::invalid_argument&) {
            continue;
        }
        // Both players appear, in the order of the games, even without a told move.
        const std::size_t by_colour[2] = {player(g.white), player(g.black)};
        for (std::size_t i = std::size_t(g.opening_turns); i < g.moves.size(); ++i) {
            const bool white = (i % 2 == 0) == (first == Color::White);
            PlayerTimeUse& p = players[by_colour[white ? 0 : 1]];
            ++p.moves;
            if (i >= g.stats.size()) continue;
            const MoveStats& s = g.stats[i];
            const double ms = double(s.time_us) / 1000;
            if (s.time_us >= 0) {
                ++p.timed;
                p.total_ms += ms;
                p.max_ms = std::max(p.max_ms, ms);
                if (p.ms_by_turn.size() <= i) {
                    p.ms_by_turn.resize(i + 1, 0.0);
                    p.timed_by_turn.resize(i + 1, 0.0);
                }
                p.ms_by_turn[i] += ms;
                p.timed_by_turn[i] += 1;
            }
            if (s.latency_us >= 0) {
                ++p.with_latency;
                p.latency_sum_ms += double(s.latency_us) / 1000;
            }
            if (s.clock_ms >= 0 && (p.min_clock_ms < 0 || s.clock_ms < p.min_clock_ms))
                p.min_clock_ms = s.clock_ms;
            if (s.depth >= 0) {
                ++p.with_depth;
                p.depth_sum += s.depth;
            }
            if (s.nodes >= 0) {
                ++p.with_nodes;
                p.nodes_sum += double(s.nodes);
                if (s.time_us >= 0) {
                    p.timed_nodes += double(s.nodes);
                    p.nodes_time_ms += ms;
                    ++p.nodes_timed;
                    p.nodes_zero += s.time_us == 0;
                }
            }
        }
    }
    for (PlayerTimeUse& p : players)
        for (std::size_t t = 0; t < p.ms_by_turn.size(); ++t)
            if (p.timed_by_turn[t] > 0) p.ms_by_turn[t] /= p.timed_by_turn[t];
    return players;
}

} // namespace fanorona
