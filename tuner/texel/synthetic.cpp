#include "tuner/texel/synthetic.h"

#include <algorithm>
#include <cmath>
#include <fstream>

#include "core/board/playout.h"
#include "core/common/rng.h"
#include "core/weights.h"

namespace fanorona {

std::vector<PositionRecord> random_playout_game(const Rules& rules, std::uint32_t game_index,
                                                std::uint64_t seed, int max_turns) {
    Rng rng = Rng::derive(seed, 0x9A70, game_index);
    Game game(rules, Position::start(rules.variant));
    std::vector<PositionRecord> records;
    const auto choose = [&rng](const Game&, const MoveList& moves) {
        return rng.below(std::uint64_t(moves.size()));
    };
    random_playout(game, {.max_turns = max_turns}, choose, [&](const Game& at) {
        records.push_back(PositionRecord::of(at.position(), game_index));
    });
    const GameResult result = game.outcome().over() ? game.outcome().result : GameResult::Draw;
    for (PositionRecord& r : records) r.result = result;
    return records;
}

void write_position_log(const std::string& path, const PositionLogHeader& header,
                        const std::vector<std::vector<PositionRecord>>& games) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) throw PositionLogError(path + ": cannot open for writing");
    out << encode_log_header(header);
    for (const auto& g : games) out << encode_chunk(g);
    if (!out.flush()) throw PositionLogError(path + ": write failed");
}

void label_from_weights(std::vector<std::vector<PositionRecord>>& games, const Rules& rules,
                        const Weights& w, double k, std::uint64_t seed) {
    Features f;
    std::uint64_t index = 0;
    for (auto& game : games)
        for (PositionRecord& r : game) {
            const Position pos = r.position(rules.variant);
            extract_features(pos, rules, f);
            double sum = 0;
            for (int i = 0; i < f.count; ++i)
                sum += double(f.entries[i].value) * w.values[f.entries[i].index];
            const double e = eval_of_sum(sum);
            const double p_win = 1.0 / (1.0 + std::exp(-k * e));
            const bool mover_wins = Rng::derive(seed, 0x1AB, index++).uniform() < p_win;
            const bool white_wins = mover_wins == (r.side_to_move == Color::White);
            r.result = white_wins ? GameResult::WhiteWins : GameResult::BlackWins;
        }
}

std::vector<std::vector<PositionRecord>> labelled_playout_games(const Rules& rules, int games,
                                                                std::uint64_t seed, int max_turns) {
    std::vector<std::vector<PositionRecord>> out;
    for (int g = 0; g < games; ++g)
        out.push_back(random_playout_game(rules, std::uint32_t(g), seed, max_turns));
    label_from_weights(out, rules, handset_weights(), 0.004, seed);
    for (auto& game : out)
        for (PositionRecord& r : game)
            r.score = std::int16_t(std::clamp(
                evaluate(r.position(rules.variant), rules, handset_weights()), -2000, 2000));
    return out;
}

} // namespace fanorona
