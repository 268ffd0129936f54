#pragma once
// The statistics of a run of Vela series by kind of game: normal games, Vela games (from the
// beneficiary's side) and whole series, for self-play and for matches. Fed in game order by the
// driver's observers; written to summary.json, results.json and the live stream.

#include <cstdint>
#include <optional>

#include <nlohmann/json.hpp>

#include "selfplay/formats/games_file.h"
#include "selfplay/games/schedule.h"
#include "selfplay/tournament/stats/counts.h"

namespace fanorona {

// What a Vela game's moves show beyond its result: whether the victim lived to see the
// restrictions end (Black down to Rules::kVelaVictimFloor pieces with the game still going), and
// at which turn (counted in moves of the record, opening included).
struct VelaGameFacts {
    bool reached_normal_phase = false;
    int restricted_turns = 0; // turns played under the restrictions
};
// Replays a Vela record under `rules` (its ruleset Vela); throws GamesFileError on an illegal move.
VelaGameFacts vela_game_facts(const GameRecord& record, const Rules& rules);

// The counts of one pairing (players a = first, b = second of the schedule's pairing), each from
// the view named. Invariants: normal.games() + skipped + vela games == places seen; a pentanomial
// gets a pair once both series of a mirrored pair are complete.
struct SeriesTally {
    stats::WDL normal_white;         // normal games, White's view
    stats::WDL normal;               // normal games, a's view
    stats::Pentanomial normal_pairs; // the two mirrored normal games of a pair of series, a's view
    stats::WDL vela;                 // Vela games, the beneficiary's view
    stats::WDL vela_a, vela_b; // Vela games with a (b) the beneficiary, the beneficiary's view
    stats::WDL series;         // whole series by points (normal + Vela), a's view
    stats::Pentanomial series_pairs; // two mirrored series, a's view
    std::uint64_t skipped = 0;       // series ended by a drawn normal game (no Vela game)
    std::uint64_t vela_reached_normal_phase = 0; // Vela games where the victim got to normal rules
    std::uint64_t normal_turns = 0, vela_turns = 0, vela_restricted_turns = 0;

    // Counts game `g` at `slot` (a Vela slot with its real colours). Returns true when it
    // completed a series (its Vela place: a Vela game or a skipped one).
    bool add(const GameRecord& g, const GameSlot& slot, const Rules& rules);
    nlohmann::json to_json() const;

private:
    stats::WDL normal_of_series_; // the current series' normal game, a's view
    std::optional<stats::WDL> first_series_, first_normal_; // the pair's first series / normal game
};

} // namespace fanorona
