#include "tuner/position_stream.h"

#include <cmath>
#include <filesystem>

#include "core/common/hash.h"
#include "core/common/rng.h"

namespace fanorona {

namespace {

// A hash of the records of a log's first chunk, as stored; 0 without one.
std::uint64_t first_game_identity(const std::string& path) {
    struct Stop {};
    std::uint64_t h = 0;
    try {
        scan_position_log(path, [&h](const std::vector<PositionRecord>& chunk) {
            h = kFnv1a64Basis;
            for (const PositionRecord& r : chunk) {
                const auto bytes = encode_record(r);
                h = fnv1a64(
                    std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), h);
            }
            throw Stop{};
        });
    } catch (const Stop&) {
    }
    return h;
}

} // namespace

PositionStream::PositionStream(std::vector<std::string> files, const DataFilter& filter,
                               std::uint64_t max_positions)
    : files_(std::move(files)), filter_(filter), max_positions_(max_positions) {
    if (files_.empty()) throw TuneDataError("no positions log given (--data FILE...)");
    for (std::size_t f = 0; f < files_.size(); ++f) {
        check_not_given_twice(files_, f);
        headers_.push_back(read_position_log_header(files_[f]));
        check_same_rules(files_[f], headers_[f], files_[0], headers_[0]);
        RecordFilter(filter_, headers_[f], files_[f]); // refuses tables of another board
        std::error_code ec;
        sizes_.push_back(std::uint64_t(std::filesystem::file_size(files_[f], ec)));
        if (ec) throw TuneDataError(files_[f] + ": cannot read its size (" + ec.message() + ")");
        identities_.push_back(first_game_identity(files_[f]));
    }
    rules_.variant = headers_[0].variant;
    rules_.ruleset = headers_[0].ruleset;
}

StreamPass
PositionStream::for_each_game(const std::function<void(const StreamGame&)>& on_game) const {
    // Thrown out of a file's scan once the stream has yielded max_positions, and at a chunk that
    // ends beyond the file's size when the stream was made.
    struct Full {};
    struct End {};
    StreamPass pass;
    std::vector<PositionRecord> kept;
    for (std::size_t f = 0; f < files_.size(); ++f) {
        const std::string& path = files_[f];
        const RecordFilter filter(filter_, headers_[f], path);
        std::uint64_t end = kPositionLogHeaderBytes; // where the chunk read ends
        try {
            const PositionLog log =
                scan_position_log(path, [&](const std::vector<PositionRecord>& chunk) {
                    end += kPositionChunkHeaderBytes + chunk.size() * kPositionRecordBytes;
                    if (end > sizes_[f]) throw End{};
                    kept.clear();
                    for (PositionRecord r : chunk) {
                        if (max_positions_ && pass.positions + kept.size() >= max_positions_) break;
                        if (filter.keep(r, pass)) kept.push_back(r);
                    }
                    if (!kept.empty()) {
                        pass.positions += kept.size();
                        ++pass.games;
                        on_game({std::uint32_t(f), chunk.front().game_index, kept});
                    }
                    if (max_positions_ && pass.positions >= max_positions_) throw Full{};
                });
            if (!(log.header == headers_[f]))
                check_same_rules(path, log.header, files_[0], headers_[0]);
            if (!log.tail_problem.empty())
                pass.warnings.push_back(path + ": " + log.tail_problem + "; the " +
                                        std::to_string(log.chunks) +
                                        " intact games before it were read");
        } catch (const End&) {
        } catch (const Full&) {
            break;
        }
    }
    return pass;
}

GameSplit::GameSplit(std::vector<std::uint64_t> files, double fraction, std::uint64_t seed)
    : fraction_(fraction), seed_(seed), files_(std::move(files)) {
    if (!(fraction >= 0 && fraction < 1))
        throw TuneDataError("validation fraction " + std::to_string(fraction) +
                            " is outside [0, 1)");
    // fraction * 2^64, below 2^64 since fraction < 1.
    threshold_ = fraction > 0 ? std::uint64_t(std::ldexp(fraction, 64)) : 0;
}

std::uint64_t GameSplit::hash(std::uint32_t file, std::uint64_t game) const {
    return Rng::derive(seed_ ^ files_[file], 0x5B117, game).next();
}

void GameSplit::see(std::uint32_t file, std::uint64_t game, std::uint64_t positions) {
    const std::uint64_t h = hash(file, game);
    if (h < threshold_) {
        ++validation_games;
        validation_positions += positions;
    } else {
        ++train_games;
        train_positions += positions;
    }
    if (h <= low_) {
        low_ = h;
        low_positions_ = positions;
    }
    if (h >= high_) {
        high_ = h;
        high_positions_ = positions;
    }
}

void GameSplit::settle() {
    if (fraction_ <= 0) return;
    const std::uint64_t games = train_games + validation_games;
    if (games < 2)
        throw TuneDataError("a validation split needs at least 2 games, the data has " +
                            std::to_string(games) + " (use --validation 0)");
    if (validation_games == 0) { // hold out the game of the lowest hash
        threshold_ = low_ + 1;
        validation_games = 1;
        validation_positions = low_positions_;
        --train_games;
        train_positions -= low_positions_;
    } else if (train_games == 0) { // train on the game of the highest hash
        threshold_ = high_;
        train_games = 1;
        train_positions = high_positions_;
        --validation_games;
        validation_positions -= high_positions_;
    }
}

} // namespace fanorona
