#include "tuner/dataset.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <numeric>

#include "core/board/movegen.h"
#include "core/common/rng.h"
#include "core/common/text.h"
#include "core/score.h"

namespace fanorona {

namespace {

std::string rules_text(const PositionLogHeader& h) {
    return "variant " + std::string(variant_name(h.variant)) + ", rules " +
           std::string(ruleset_name(h.ruleset));
}

} // namespace

RecordFilter::RecordFilter(const DataFilter& filter, const PositionLogHeader& header,
                           const std::string& path)
    : filter_(filter), header_(header),
      use_tables_(filter.tables && filter.table_positions != DataFilter::TablePositions::Keep) {
    // Tables that cannot relabel this log's board are refused, not silently unused.
    if (use_tables_ && filter.tables->max_pieces(header.variant) < 2)
        throw TuneDataError(path + ": positions of the " +
                            std::string(variant_name(header.variant)) + " board, but the tables " +
                            filter.tables_dir + " hold none of that board");
}

bool RecordFilter::keep(PositionRecord& r, FilterCounts& counts) const {
    ++counts.read;
    const Variant variant = header_.variant;
    if (filter_.only_rules && r.rules_or(header_.ruleset) != *filter_.only_rules) return false;
    Rules table_rules{variant};
    table_rules.ruleset = r.rules_or(header_.ruleset);
    GameResult result = r.result;
    if (use_tables_ && filter_.tables->serve(table_rules) &&
        popcount(r.white | r.black) <= filter_.tables->max_pieces(variant)) {
        if (const auto v = filter_.tables->probe(r.position(variant))) {
            ++counts.table_positions;
            if (filter_.table_positions == DataFilter::TablePositions::Skip) return false;
            const int o = table_outcome(*v, table_rules, r.turns_since_capture);
            const bool white = r.side_to_move == Color::White;
            result = o == 0             ? GameResult::Draw
                     : (o > 0) == white ? GameResult::WhiteWins
                                        : GameResult::BlackWins;
            counts.relabelled += result != r.result;
        }
    }
    if (filter_.skip_decisive && is_decisive(r.score)) {
        ++counts.skipped_decisive;
        return false;
    }
    if (filter_.skip_captures && capturing_pieces(r.position(variant))) {
        ++counts.skipped_captures;
        return false;
    }
    r.result = result;
    return true;
}

void check_not_given_twice(const std::vector<std::string>& files, std::size_t f) {
    for (std::size_t g = 0; g < f; ++g)
        if (files[g] == files[f]) throw TuneDataError(files[f] + ": positions log given twice");
}

void check_same_rules(const std::string& path, const PositionLogHeader& header,
                      const std::string& first_path, const PositionLogHeader& first) {
    if (!(header == first))
        throw TuneDataError(path + ": header: " + rules_text(header) + ", but " + first_path +
                            " has " + rules_text(first) +
                            " (all logs of one tuning run must agree)");
}

TuneDataError no_positions_error(const std::vector<std::string>& files, const FilterCounts& counts,
                                 const DataFilter& filter) {
    return TuneDataError(join(files, ", ") + ": no positions to tune on (" +
                         std::to_string(counts.read) + " read, " +
                         std::to_string(counts.skipped_decisive) + " skipped for decisive scores" +
                         (filter.skip_captures ? ", " + std::to_string(counts.skipped_captures) +
                                                     " where the side to move can capture"
                                               : std::string()) +
                         ")");
}

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
        check_not_given_twice(files, f);
        const auto file = std::uint32_t(f);
        const PositionLogHeader log_header = read_position_log_header(path);
        const RecordFilter keep(filter, log_header, path);
        const PositionLog log = scan_position_log(path, [&](const std::vector<PositionRecord>& c) {
            GameSpan game{file, c.empty() ? 0 : c.front().game_index, data.records.size(), 0};
            for (PositionRecord r : c) {
                if (!keep.keep(r, data)) continue;
                data.records.push_back(r);
                ++game.count;
            }
            if (game.count) data.games.push_back(game);
        });
        if (f == 0) first_header = log.header;
        check_same_rules(path, log.header, files[0], first_header);
        if (!log.tail_problem.empty())
            data.warnings.push_back(path + ": " + log.tail_problem + "; the " +
                                    std::to_string(log.chunks) +
                                    " intact games before it were read");
        data.files.push_back(path);
    }
    data.rules.variant = first_header.variant;
    data.rules.ruleset = first_header.ruleset;
    if (data.records.empty()) throw no_positions_error(files, data, filter);
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
