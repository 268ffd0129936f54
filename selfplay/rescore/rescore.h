#pragma once
// Rescoring corpus games (`fanorona rescore`, selfplay/rescore/rescore_run.h): the positions of a
// game searched again by one engine and their scores replaced, so that a corpus's labels improve
// without new games. A game is the unit of work: one Searcher, configured for the game's rules
// and cleared at its start (as a self-play engine's is), searches its positions in turn order,
// each with the game's history up to it. So a game's new scores depend only on the game and the
// settings, never on which worker, thread or rank searched it, nor on what it searched before
// (under depth and node limits; --movetime makes them depend on timing).

#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "core/common/seam.h"
#include "selfplay/engine/engine_spec.h"
#include "selfplay/formats/corpus_file.h"

namespace fanorona {

// What a rescore searches with and which positions it scores. Invariant: engine.kind is
// Kind::Engine and the spec is validated.
struct RescoreSettings {
    EngineSpec engine;
    // Score every position of a game, not only those that had a score (a game's end position is
    // one of its positions only when it has a score, so it is never added).
    bool all = false;
};

// What rescoring searched: positions searched and their nodes.
struct RescoreCount {
    std::uint64_t positions = 0, nodes = 0;
    RescoreCount& operator+=(const RescoreCount& o) {
        positions += o.positions;
        nodes += o.nodes;
        return *this;
    }
};

// Whether rescoring searches the position at `ply` of `game` (ply == moves: its end position).
bool rescored(const CorpusGame& game, std::size_t ply, bool all);

// `game` with new scores: `searcher`, configured by settings.engine for the game's rules (the
// corpus's, with the game's ruleset) and cleared, searches each position that rescored() names,
// in order, with the game's history; every other field is unchanged and the other positions keep
// no score. Adds what it searched to `count`.
CorpusGame rescore_game(const CorpusGame& game, const Rules& corpus_rules,
                        const RescoreSettings& settings, Searcher& searcher, RescoreCount& count);

// Claims up to n games [first, last) of a list; an empty range when none are left to start.
using RescoreClaim = std::function<std::pair<std::size_t, std::size_t>(std::size_t n)>;
// Receives the rescored game at place k of the list, with what it searched.
using RescoreDeliver = std::function<void(std::size_t k, CorpusGame&& game, const RescoreCount&)>;
// Told, as the game at place k of the list is done, what it searched.
using RescoreProgress = std::function<void(std::size_t k, const RescoreCount&)>;

// Rescores lists of games on oneTBB workers, each with a Searcher of its own kept from list to
// list (cleared for each game), and, when the seam below has other ranks, on them too.
class GameRescorer {
public:
    // `threads` 0: all cores. Throws what EngineSpec::configure throws (the hash table).
    GameRescorer(const Rules& corpus_rules, const RescoreSettings& settings, int threads);
    ~GameRescorer();
    GameRescorer(const GameRescorer&) = delete;
    GameRescorer& operator=(const GameRescorer&) = delete;

    // Rescores games[0..n) into results (resized to games.size()), calling `on_done` (from one
    // thread at a time) as each game is done. Games start in order, one at a time per worker
    // (blocks of them per remote rank); none starts once interrupt_flag() is set or a worker
    // failed, and the games started are finished. Returns n, the games done, a prefix of the list
    // (all of it unless interrupted); rethrows the first failure.
    std::size_t rescore(const std::vector<CorpusGame>& games, std::vector<CorpusGame>& results,
                        const RescoreProgress& on_done = {});

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// The seam (core/common/seam.h) through which rescoring reaches other machines: the program
// installs it at start-up (cluster::install, from main()); without it, as in the tests and in a
// run of one process, every game is rescored here.
struct RemoteRescorer {
    std::function<bool()> available; // other ranks are there
    // Has the other ranks rescore the games of `games` that `claim` hands out (each rank with
    // `threads` workers, 0: all its cores) and hands each result to `deliver` (from this thread);
    // returns when every rank is done, then throws the first rank's error.
    std::function<void(const std::vector<CorpusGame>& games, const Rules& corpus_rules,
                       const RescoreSettings& settings, int threads, const RescoreClaim& claim,
                       const RescoreDeliver& deliver)>
        rescore;
};

// The installed rescorer (Seam<RemoteRescorer>::install); empty until then.
inline const RemoteRescorer& remote_rescorer() {
    return Seam<RemoteRescorer>::get();
}

} // namespace fanorona
