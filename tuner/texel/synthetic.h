#pragma once
// Synthetic data for tests and benchmarks: games of uniformly random legal moves, positions logs
// written from records, and results drawn from a known weight vector through the sigmoid.

#include <cstdint>
#include <string>
#include <vector>

#include "core/evaluate.h"
#include "selfplay/formats/position_log.h"

namespace fanorona {

// One game of uniformly random legal moves from the start position (seeded): a record of every
// position a move is played from, with score 0, depth 0 and the game's result. A game still
// going after `max_turns` turns counts as a draw.
std::vector<PositionRecord> random_playout_game(const Rules& rules, std::uint32_t game_index,
                                                std::uint64_t seed, int max_turns = 300);

// Writes a positions log of these games (one chunk each). Throws PositionLogError.
void write_position_log(const std::string& path, const PositionLogHeader& header,
                        const std::vector<std::vector<PositionRecord>>& games);

// Replaces every record's result by one drawn from the weights: the side to move wins with
// probability sigmoid(k * e), e being the evaluation with `w` in centi-pieces (S / kEvalScale,
// untruncated), and loses otherwise. Seeded, independent per record.
void label_from_weights(std::vector<std::vector<PositionRecord>>& games, const Rules& rules,
                        const Weights& w, double k, std::uint64_t seed);

// `games` random-playout games of `rules` (at most `max_turns` turns, seeded) labelled from the
// hand-set weights: each record's result drawn by label_from_weights (k 0.004) and its score that
// evaluation, clamped to +-2000 (so both halves of a training target carry the same signal).
std::vector<std::vector<PositionRecord>>
labelled_playout_games(const Rules& rules, int games, std::uint64_t seed, int max_turns = 120);

} // namespace fanorona
