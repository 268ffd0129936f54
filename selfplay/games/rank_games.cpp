#include "selfplay/games/rank_games.h"

#include <stdexcept>

namespace fanorona {

std::uint64_t RankGames::forfeit_count() const {
    std::uint64_t n = 0;
    for (const auto& [reason, count] : forfeits) n += count;
    return n;
}

void count_game(GamesByRank& by_rank, const PlayedGame& game) {
    if (game.rank < 0 || std::size_t(game.rank) >= by_rank.size())
        throw std::logic_error("a game of rank " + std::to_string(game.rank) + " of " +
                               std::to_string(by_rank.size()));
    if (!game.record.played()) return;
    RankGames& r = by_rank[std::size_t(game.rank)];
    ++r.games;
    if (!game.fault.empty()) ++r.forfeits[game.record.reason];
}

nlohmann::json by_rank_json(const GamesByRank& by_rank) {
    nlohmann::json out = nlohmann::json::array();
    for (std::size_t rank = 0; rank < by_rank.size(); ++rank) {
        const RankGames& r = by_rank[rank];
        out.push_back({{"rank", rank},
                       {"games", r.games},
                       {"forfeits", r.forfeit_count()},
                       {"forfeit_reasons", nlohmann::json(r.forfeits)}});
    }
    return out;
}

std::string by_rank_text(const GamesByRank& by_rank) {
    bool any = false;
    for (const RankGames& r : by_rank) any = any || r.forfeit_count() > 0;
    if (!any) return "";
    std::string text = "forfeits by rank (this session):";
    for (std::size_t rank = 0; rank < by_rank.size(); ++rank) {
        const RankGames& r = by_rank[rank];
        text += (rank ? "; rank " : " rank ") + std::to_string(rank) + ": " +
                std::to_string(r.forfeit_count()) + " of " + std::to_string(r.games) + " games";
        std::string reasons;
        for (const auto& [reason, count] : r.forfeits)
            reasons += (reasons.empty() ? "" : ", ") + reason + " " + std::to_string(count);
        if (!reasons.empty()) text += " (" + reasons + ")";
    }
    return text + "\n";
}

} // namespace fanorona
