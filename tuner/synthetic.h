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

} // namespace fanorona
