#pragma once
// What travels between the ranks of an MPI job for `fanorona rescore` (selfplay/rescore/rescore.h):
// the settings as JSON (the engine in EngineSpec's one JSON form, which positions to score, the
// threads of each rank, the corpus's rules); the games of a block as 64-bit words; and the new
// scores back as bytes. Encoding then decoding gives back the same games and scores.

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "selfplay/mpi/identity.h"
#include "selfplay/rescore/rescore.h"

namespace fanorona {

// What a rescore job reads on each rank: its engine's weights, parameters, network and tables.
Fingerprints rescore_fingerprints(const RescoreSettings& settings);

// The settings of a rescore job ("kind": "rescore") with rank 0's fingerprints; decoding opens
// the engine's files here and throws std::runtime_error naming the first whose fingerprint
// differs from rank 0's (check_job_fingerprints).
nlohmann::json encode_rescore_job(const Rules& corpus_rules, const RescoreSettings& settings,
                                  int threads);
struct RescoreJob {
    Rules rules;
    RescoreSettings settings;
    int threads = 0;
};
RescoreJob decode_rescore_job(const nlohmann::json& j);

// A game as words: [index][ruleset | side to move << 2 | has end score << 3][white pieces]
// [black pieces][turns since capture][turn][turns n], then per turn [captured][from | to << 8 |
// searched << 16]. The receiver's game has a score (0, a placeholder) exactly at the positions
// rescored(game, ply, all) names, so rescore_game with `all` false searches those.
void append_game_words(std::vector<std::uint64_t>& out, const CorpusGame& game, bool all);
// Reads a game at `at` and moves past it; throws std::runtime_error for damaged words (a start
// that is not a position of the corpus's board, a turn that is not legal).
CorpusGame take_game_words(const std::vector<std::uint64_t>& words, std::size_t& at,
                           const Rules& corpus_rules);

// A rescored game: its place k in the job's list, what it searched and the scores of its searched
// positions in order ([k u64][positions u64][nodes u64][n u32][n x i32], repeated).
struct RescoreResult {
    std::uint64_t k = 0;
    RescoreCount count;
    std::vector<int> scores;
};
void append_rescore_result(std::string& out, std::uint64_t k, const CorpusGame& rescored_game,
                           const RescoreCount& count);
std::vector<RescoreResult> decode_rescore_results(const std::string& bytes);
// `game` with the result's scores at the positions rescored(game, ply, all) names and none
// elsewhere; throws std::runtime_error when the result holds another number of scores.
CorpusGame apply_rescore_result(const CorpusGame& game, const RescoreResult& result, bool all);

} // namespace fanorona
