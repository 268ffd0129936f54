#pragma once
// The games of a session counted by the rank of an MPI job that played them (selfplay/mpi), so
// that one bad machine shows in a run's results: how many games each rank played and how many of
// them a player forfeited, by reason (the reasons of games.tsv, docs/formats.md).

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "selfplay/games/game_runner.h"

namespace fanorona {

// One rank's games of a session. Invariant: the forfeits add up to at most `games`.
struct RankGames {
    std::uint64_t games = 0;                       // games played (a skipped Vela place is none)
    std::map<std::string, std::uint64_t> forfeits; // forfeit reason -> games
    std::uint64_t forfeit_count() const;
};

// Indexed by rank; empty when no other rank played (a run of one process).
using GamesByRank = std::vector<RankGames>;

// Counts `game` for the rank that played it (which must be below by_rank.size()).
void count_game(GamesByRank& by_rank, const PlayedGame& game);
// [{"rank": 0, "games": 12, "forfeits": 0, "forfeit_reasons": {}}, ...], one entry per rank.
nlohmann::json by_rank_json(const GamesByRank& by_rank);
// "forfeits by rank (this session): rank 0: 0 of 12 games; rank 1: 9 of 9 games (crash 9)\n",
// or "" when no rank's game was forfeited.
std::string by_rank_text(const GamesByRank& by_rank);

} // namespace fanorona
