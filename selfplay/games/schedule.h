#pragma once
// The schedule of a run of games: who plays whom, with which colours, from which opening. One
// formula for self-play, gauntlets and round robins, so that every command plays the same games
// for the same settings and seed.

#include <cstdint>
#include <utility>
#include <vector>

namespace fanorona {

// How players meet. Self-play is one player against itself (the pairing (0, 0)).
enum class Pairing { SelfPlay, Gauntlet, RoundRobin };

// The place of one game in the schedule.
struct GameSlot {
    int first = 0, second = 0; // the pairing's players (first is White in the pair's first game)
    int white = 0, black = 0;  // player indices
    int pairing = 0;           // index into Schedule::pairings
    bool first_of_pair = true; // the pair's second game swaps the colours
    std::uint64_t opening = 0; // index into the opening list (before wrapping around)
    // Vela series only: the game's place in its series (series number index / 2). A Vela game's
    // white and black are those of its normal game until vela_colours() sets them.
    bool vela = false;
};

// The colours of a series' Vela game from its normal game's slot and result: the loser of the
// normal game is White (the beneficiary), the winner Black. Returns false for a drawn normal game:
// the series ends there and its Vela game is not played (skipped).
inline bool vela_colours(GameSlot& vela_slot, const GameSlot& normal_slot, bool white_won,
                         bool black_won) {
    if (!white_won && !black_won) return false;
    vela_slot.white = white_won ? normal_slot.black : normal_slot.white;
    vela_slot.black = white_won ? normal_slot.white : normal_slot.black;
    return true;
}

// Games come in colour-swapped pairs: game i belongs to pair i / 2 of pairing (i / 2) % P, and a
// round (one pair of every pairing) shares one opening, number i / (2 P).
// With Vela series every unit above is a series of two game places instead of one game: game i is
// game i % 2 of series i / 2 (0 the normal game, 1 the Vela game), series s is laid out as game s
// above (pairs of series with the normal game's colours swapped, from one opening), and a round
// is 4 P places. Invariant: pairings is not empty.
struct Schedule {
    std::vector<std::pair<int, int>> pairings;
    bool series = false;

    static Schedule make(Pairing pairing, int players, bool series = false) {
        Schedule s;
        s.series = series;
        if (pairing == Pairing::SelfPlay) s.pairings.emplace_back(0, 0);
        for (int a = 0; a < players; ++a)
            for (int b = a + 1; b < players; ++b)
                if (pairing == Pairing::RoundRobin || (pairing == Pairing::Gauntlet && a == 0))
                    s.pairings.emplace_back(a, b);
        return s;
    }
    std::uint64_t games_per_round() const { return (series ? 4 : 2) * pairings.size(); }
    // Rounds needed for `games` games (the openings a run needs).
    std::uint64_t rounds_for(std::uint64_t games) const {
        return (games + games_per_round() - 1) / games_per_round();
    }
    GameSlot slot(std::uint64_t index) const {
        if (series) {
            GameSlot g = unit_slot(index / 2);
            g.opening = index / games_per_round();
            g.vela = index % 2 == 1;
            return g;
        }
        return unit_slot(index);
    }

private:
    GameSlot unit_slot(std::uint64_t index) const {
        GameSlot g;
        g.pairing = int((index / 2) % pairings.size());
        g.first = pairings[std::size_t(g.pairing)].first;
        g.second = pairings[std::size_t(g.pairing)].second;
        g.first_of_pair = index % 2 == 0;
        g.white = g.first_of_pair ? g.first : g.second;
        g.black = g.first_of_pair ? g.second : g.first;
        g.opening = index / games_per_round();
        return g;
    }
};

} // namespace fanorona
