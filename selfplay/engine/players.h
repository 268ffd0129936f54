#pragma once
// The in-process players: the toolkit's own engine (a Searcher with limits), and the baseline
// random and greedy movers used to check strength.

#include <algorithm>
#include <string>

#include "core/board/baseline.h"
#include "core/search.h"
#include "selfplay/engine/player.h"

namespace fanorona {

// The engine: searches each turn with the given limits. The Searcher is borrowed (a worker's
// own), cleared at the start of each game so that a game never depends on earlier ones.
class SearchPlayer : public Player {
public:
    SearchPlayer(Searcher& searcher, const SearchLimits& limits)
        : searcher_(searcher), limits_(limits) {}
    void new_game(std::uint64_t) override { searcher_.clear(); }
    MoveChoice choose(const Game& game, const Clock& clock) override {
        SearchLimits limits = limits_;
        if (clock.enabled) {
            for (int c = 0; c < 2; ++c) {
                limits.time_ms[c] = std::max(1, clock.time_ms[c]);
                limits.inc_ms[c] = clock.inc_ms[c];
            }
            limits.movestogo = clock.moves_to_go[int(game.position().side_to_move())];
        }
        const SearchResult r = searcher_.search(game, limits);
        return MoveChoice{
            r.best, r.score, r.depth, true, std::int64_t(r.seconds * 1e6), std::int64_t(r.nodes)};
    }

private:
    Searcher& searcher_;
    SearchLimits limits_;
};

// Random or greedy (most pieces captured) moves, seeded by the seed and the position.
class BaselinePlayer : public Player {
public:
    enum class Kind { Random, Greedy };
    BaselinePlayer(Kind kind, std::uint64_t seed) : kind_(kind), seed_(seed) {}
    MoveChoice choose(const Game& game, const Clock&) override {
        // Depends on the game only (never on which worker plays it).
        const std::uint64_t s =
            seed_ * 0x9E3779B97F4A7C15ULL ^ game.position().hash() ^ game.moves().size();
        const Move m = kind_ == Kind::Random ? random_move(game.position(), game.rules(), s)
                                             : greedy_move(game.position(), game.rules(), s);
        return MoveChoice{m, std::nullopt, -1, false}; // no search: nothing to tell
    }

private:
    Kind kind_;
    std::uint64_t seed_;
};

} // namespace fanorona
