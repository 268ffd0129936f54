#include "tuner/position_stream.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "core/common/hash.h"
#include "core/common/rng.h"
#include "selfplay/formats/corpus_file.h"
#include "selfplay/formats/formats.h"

namespace fanorona {

namespace {

// Whether the file starts with a corpus file's magic (anything else is read as a positions log).
bool is_corpus_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    char magic[8] = {};
    return in.read(magic, sizeof magic) && std::string_view(magic, sizeof magic) == kCorpusMagic;
}

// A corpus position with a score as a positions log's record (depth 0: a corpus has none).
PositionRecord corpus_record(const CorpusPosition& p) {
    PositionRecord r = PositionRecord::of(p.position, p.game, *p.score);
    r.result = p.result;
    r.ruleset = p.ruleset;
    return r;
}

} // namespace

PositionStream::PositionStream(const std::vector<std::string>& inputs, const DataFilter& filter,
                               std::uint64_t max_positions)
    : files_(corpus_input_files(inputs)), filter_(filter), max_positions_(max_positions) {
    if (files_.empty()) throw TuneDataError("no positions log given (--data FILE...)");
    for (std::size_t f = 0; f < files_.size(); ++f) {
        const std::string& path = files_[f];
        check_not_given_twice(files_, f);
        corpus_.push_back(is_corpus_file(path));
        if (corpus_[f]) {
            const Rules rules = CorpusReader(path).rules();
            headers_.push_back({rules.variant, rules.ruleset});
        } else {
            headers_.push_back(read_position_log_header(path));
        }
        check_same_rules(path, headers_[f], files_[0], headers_[0]);
        RecordFilter(filter_, headers_[f], path); // refuses tables of another board
        std::error_code ec;
        sizes_.push_back(std::uint64_t(std::filesystem::file_size(path, ec)));
        if (ec) throw TuneDataError(path + ": cannot read its size (" + ec.message() + ")");
        // The identity: a hash of the first record (0 without one), without what only one format
        // holds (a depth; rules said or implied), so that a positions log and its conversion to a
        // corpus have the same.
        std::uint64_t identity = 0, unscored = 0, games = 0;
        read_file(
            f, unscored, games, [&](std::uint64_t, const std::vector<PositionRecord>& records) {
                if (records.empty()) return true;
                PositionRecord r = records.front();
                r.depth = 0;
                r.ruleset = r.rules_or(headers_[f].ruleset);
                const auto bytes = encode_record(r);
                identity = fnv1a64(
                    std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
                return false;
            });
        identities_.push_back(identity);
    }
    rules_.variant = headers_[0].variant;
    rules_.ruleset = headers_[0].ruleset;
}

std::string PositionStream::read_file(
    std::size_t f, std::uint64_t& unscored, std::uint64_t& games,
    const std::function<bool(std::uint64_t, const std::vector<PositionRecord>&)>& on_game) const {
    const std::string& path = files_[f];
    if (corpus_[f]) {
        // Consecutive corpus games of one index (the chains of a logged game) are one game.
        CorpusReader reader(path);
        CorpusGame game;
        std::vector<PositionRecord> records;
        std::uint64_t index = 0;
        bool pending = false; // records holds game `index`, not passed on yet
        while (true) {
            const bool got = reader.next(game) && reader.valid_bytes() <= sizes_[f];
            if (pending && (!got || game.index != index)) {
                ++games;
                if (!on_game(index, records)) return "";
                records.clear();
                pending = false;
            }
            if (!got) break;
            index = game.index;
            pending = true;
            for_each_position(game, [&](const CorpusPosition& p) {
                if (p.score)
                    records.push_back(corpus_record(p));
                else
                    ++unscored;
            });
        }
        return reader.tail_problem();
    }
    // Thrown out of the scan when on_game stops it, and at a chunk that ends beyond the file's
    // size when the stream was made.
    struct Stop {};
    std::uint64_t end = kPositionLogHeaderBytes; // where the chunk read ends
    try {
        const PositionLog log =
            scan_position_log(path, [&](const std::vector<PositionRecord>& chunk) {
                end += kPositionChunkHeaderBytes + chunk.size() * kPositionRecordBytes;
                if (end > sizes_[f]) throw Stop{};
                ++games;
                if (!on_game(chunk.empty() ? 0 : chunk.front().game_index, chunk)) throw Stop{};
            });
        if (!(log.header == headers_[f]))
            check_same_rules(path, log.header, files_[0], headers_[0]);
        return log.tail_problem;
    } catch (const Stop&) {
        return "";
    }
}

StreamPass
PositionStream::for_each_game(const std::function<void(const StreamGame&)>& on_game) const {
    if (held_pass_) {
        for (const HeldGame& g : held_games_)
            on_game({g.file, g.index,
                     std::span<const PositionRecord>(held_records_).subspan(g.begin, g.count)});
        return *held_pass_;
    }
    StreamPass pass;
    std::vector<PositionRecord> kept;
    bool full = false; // the stream has yielded max_positions
    for (std::size_t f = 0; f < files_.size() && !full; ++f) {
        const RecordFilter filter(filter_, headers_[f], files_[f]);
        std::uint64_t games = 0;
        const std::string tail =
            read_file(f, pass.unscored, games,
                      [&](std::uint64_t index, const std::vector<PositionRecord>& records) {
                          kept.clear();
                          for (PositionRecord r : records) {
                              if (max_positions_ && pass.positions + kept.size() >= max_positions_)
                                  break;
                              if (filter.keep(r, pass)) kept.push_back(r);
                          }
                          if (!kept.empty()) {
                              pass.positions += kept.size();
                              ++pass.games;
                              on_game({std::uint32_t(f), index, kept});
                          }
                          full = max_positions_ && pass.positions >= max_positions_;
                          return !full;
                      });
        if (!tail.empty())
            pass.warnings.push_back(files_[f] + ": " + tail + "; the " + std::to_string(games) +
                                    " intact games before it were read");
    }
    return pass;
}

bool PositionStream::hold(std::uint64_t max_bytes) {
    held_pass_.reset();
    std::vector<PositionRecord> records;
    std::vector<HeldGame> games;
    bool fits = true;
    StreamPass pass = for_each_game([&](const StreamGame& g) {
        if (!fits) return;
        if ((records.size() + g.records.size()) * sizeof(PositionRecord) > max_bytes) {
            fits = false;
            std::vector<PositionRecord>().swap(records);
            std::vector<HeldGame>().swap(games);
            return;
        }
        games.push_back({g.file, g.index, records.size(), g.records.size()});
        records.insert(records.end(), g.records.begin(), g.records.end());
    });
    if (!fits) return false;
    records.shrink_to_fit();
    games.shrink_to_fit();
    held_records_ = std::move(records);
    held_games_ = std::move(games);
    held_pass_ = std::move(pass);
    return true;
}

std::uint64_t PositionStream::held_bytes() const {
    return held_pass_ ? held_records_.size() * sizeof(PositionRecord) +
                            held_games_.size() * sizeof(HeldGame)
                      : 0;
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
