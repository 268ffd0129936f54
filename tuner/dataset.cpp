#include "tuner/dataset.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <numeric>

#include "core/board/movegen.h"
#include "core/common/rng.h"
#include "core/search.h"

namespace fanorona {

namespace {

std::string rules_text(const PositionLogHeader& h) {
    return "variant " + std::string(variant_name(h.variant)) + ", rules " +
           std::string(ruleset_name(h.ruleset));
}

// Fisher-Yates with the project's portable generator (same order on every platform).

} // namespace

Dataset load_dataset(const std::vector<std::string>& files, const DataFilter& filter) {
    if (files.empty()) throw TuneDataError("no positions log given (--data FILE...)");
    Dataset data;
    // Room for every record the files can hold (their sizes bound it): the records then grow
    // without reallocation, whose doubling would briefly hold up to three times their memory.
    std::uintmax_t capacity = 0;
    for (const std::string& path : files) {
        std::error_code ec;
        const std::uintmax_t bytes = std::filesystem::file_size(path, ec);
        if (!ec) capacity += bytes / kPositionRecordBytes;
    }
    data.records.reserve(
        std::size_t(std::min<std::uintmax_t>(capacity, std::numeric_limits<std::uint32_t>::max())));
    PositionLogHeader first_header;
    for (std::size_t f = 0; f < files.size(); ++f) {
        const std::string& path = files[f];
        for (std::size_t g = 0; g < f; ++g)
            if (files[g] == path) throw TuneDataError(path + ": positions log given twice");
        const auto file = std::uint32_t(f);
        const PositionLogHeader log_header = read_position_log_header(path);
        const RuleSet log_ruleset = log_header.ruleset;
        const Variant log_variant = log_header.variant;
        const bool use_tables =
            filter.tables && filter.table_positions != DataFilter::TablePositions::Keep;
        // Tables that cannot relabel this log's board are refused, not silently unused.
        if (use_tables && filter.tables->max_pieces(log_variant) < 2)
            throw TuneDataError(path + ": positions of the " +
                                std::string(variant_name(log_variant)) + " board, but the tables " +
                                filter.tables_dir + " hold none of that board");
        const PositionLog log = scan_position_log(path, [&](const std::vector<PositionRecord>& c) {
            GameSpan game{file, c.empty() ? 0 : c.front().game_index, data.records.size(), 0};
            for (const PositionRecord& r : c) {
                ++data.read;
                if (filter.only_rules && r.rules_or(log_ruleset) != *filter.only_rules) continue;
                PositionRecord kept = r;
                Rules table_rules{log_variant};
                table_rules.ruleset = r.rules_or(log_ruleset);
                if (use_tables && filter.tables->serve(table_rules) &&
                    popcount(r.white | r.black) <= filter.tables->max_pieces(log_variant)) {
                    if (const auto v = filter.tables->probe(r.position(log_variant))) {
                        ++data.table_positions;
                        if (filter.table_positions == DataFilter::TablePositions::Skip) continue;
                        const int o = table_outcome(*v, table_rules, r.turns_since_capture);
                        const bool white = r.side_to_move == Color::White;
                        kept.result = o == 0             ? GameResult::Draw
                                      : (o > 0) == white ? GameResult::WhiteWins
                                                         : GameResult::BlackWins;
                        data.relabelled += kept.result != r.result;
                    }
                }
                if (filter.skip_decisive && is_decisive(r.score)) {
                    ++data.skipped_decisive;
                    continue;
                }
                if (filter.skip_captures && capturing_pieces(r.position(log_variant))) {
                    ++data.skipped_captures;
                    continue;
                }
                data.records.push_back(kept);
                ++game.count;
            }
            if (game.count) data.games.push_back(game);
        });
        if (f == 0) {
            first_header = log.header;
        } else if (!(log.header == first_header)) {
            throw TuneDataError(path + ": header: " + rules_text(log.header) + ", but " + files[0] +
                                " has " + rules_text(first_header) +
                                " (all logs of one tuning run must agree)");
        }
        if (!log.tail_problem.empty())
            data.warnings.push_back(path + ": " + log.tail_problem + "; the " +
                                    std::to_string(log.chunks) +
                                    " intact games before it were read");
        data.files.push_back(path);
    }
    data.rules.variant = first_header.variant;
    data.rules.ruleset = first_header.ruleset;
    if (data.records.empty()) {
        std::string list;
        for (const auto& f : files) list += (list.empty() ? "" : ", ") + f;
        throw TuneDataError(list + ": no positions to tune on (" + std::to_string(data.read) +
                            " read, " + std::to_string(data.skipped_decisive) +
                            " skipped for decisive scores" +
                            (filter.skip_captures ? ", " + std::to_string(data.skipped_captures) +
                                                        " where the side to move can capture"
                                                  : std::string()) +
                            ")");
    }
    if (data.records.size() > std::numeric_limits<std::uint32_t>::max())
        throw TuneDataError("too many positions (more than 2^32)");
    // Shrinking copies the records: worth it only when filters left much of the room unused.
    if (data.records.capacity() - data.records.size() > data.records.size() / 4)
        data.records.shrink_to_fit();
    return data;
}

DataSplit split_by_game(const Dataset& data, double fraction, std::uint64_t seed) {
    if (!(fraction >= 0 && fraction < 1))
        throw TuneDataError("validation fraction " + std::to_string(fraction) +
                            " is outside [0, 1)");
    const std::size_t n_games = data.games.size();
    std::size_t held = std::size_t(std::llround(fraction * double(n_games)));
    if (fraction > 0) {
        if (n_games < 2)
            throw TuneDataError("a validation split needs at least 2 games, the data has " +
                                std::to_string(n_games) + " (use --validation 0)");
        held = std::clamp<std::size_t>(held, 1, n_games - 1);
    }
    std::vector<std::uint32_t> order(n_games);
    std::iota(order.begin(), order.end(), 0u);
    Rng rng = Rng::derive(seed, 0x5B117, 0);
    rng.shuffle(order);
    std::vector<bool> is_validation(n_games, false);
    for (std::size_t i = 0; i < held; ++i) is_validation[order[i]] = true;

    DataSplit split;
    for (std::size_t g = 0; g < n_games; ++g) {
        const GameSpan& game = data.games[g];
        auto& rows = is_validation[g] ? split.validation : split.train;
        for (std::uint32_t i = 0; i < game.count; ++i)
            rows.push_back(std::uint32_t(game.first + i));
        ++(is_validation[g] ? split.validation_games : split.train_games);
    }
    Rng row_rng = Rng::derive(seed, 0x5B117, 1);
    row_rng.shuffle(split.train);
    return split;
}

} // namespace fanorona
