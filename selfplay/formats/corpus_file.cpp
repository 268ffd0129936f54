#include "selfplay/formats/corpus_file.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <filesystem>
#include <limits>

#include <zstd.h>

#include "core/common/text.h"
#include "selfplay/formats/binary_bytes.h"
#include "selfplay/formats/formats.h"

namespace fanorona {

namespace {

constexpr std::uint32_t kBlockMagic = 0x4B4C4243; // "CBLK" little-endian
constexpr int kZstdLevel = 12;
constexpr std::uint64_t kMaxCounter = std::uint64_t(1) << 30; // turn numbers, turns since capture

// The reasons a games file writes, by code (0: unknown); kLiteralReason: the text follows.
constexpr std::array<std::string_view, 15> kReasons = {"",
                                                       "capture-all",
                                                       "no-moves",
                                                       "repetition",
                                                       "no-capture-limit",
                                                       "length-cap",
                                                       "adjudication",
                                                       "tables",
                                                       "three-in-a-row",
                                                       "series-over",
                                                       "illegal-move",
                                                       "crash",
                                                       "timeout",
                                                       "hang",
                                                       "none"};
constexpr std::uint8_t kLiteralReason = 255;
constexpr std::size_t kMaxReasonBytes = 255;

// The game header's flag bits.
constexpr std::uint8_t kExplicitStart = 1 << 4;
constexpr std::uint8_t kHasEndScore = 1 << 5;

void put_varint(std::string& out, std::uint64_t v) {
    while (v >= 0x80) {
        out += char(std::uint8_t(v) | 0x80);
        v >>= 7;
    }
    out += char(std::uint8_t(v));
}
std::uint64_t zigzag(std::int64_t v) {
    return (std::uint64_t(v) << 1) ^ std::uint64_t(v >> 63);
}
std::int64_t unzigzag(std::uint64_t v) {
    return std::int64_t(v >> 1) ^ -std::int64_t(v & 1);
}

// A score as stored: 0 for none, else 1 + zigzag(score + previous), `previous` being the score
// of the turn before (the opponent's view, so about minus this one) or 0 when it has none.
std::uint64_t score_code(std::optional<int> score, std::optional<int> previous) {
    if (!score) return 0;
    return 1 + zigzag(std::int64_t(*score) + std::int64_t(previous.value_or(0)));
}

int result_code(GameResult r) {
    return r == GameResult::BlackWins ? 0 : r == GameResult::Draw ? 1 : 2;
}

// A block's checksum: its header's bytes before the checksum, then its payload.
std::uint32_t block_checksum(const std::uint8_t* head, const void* payload, std::size_t size) {
    return crc32_of(payload, size, crc32_of(head, kCorpusBlockHeaderBytes - 4));
}

// Canonical order of turns: by start point, end point, captured set. A turn's index is its place
// in this order among the position's legal turns (independent of the generator's own order).
bool turn_less(const Move& a, const Move& b) {
    if (a.from != b.from) return a.from < b.from;
    if (a.to != b.to) return a.to < b.to;
    return a.captured < b.captured;
}

Rules game_rules(const Rules& corpus, RuleSet ruleset) {
    Rules r = corpus;
    r.ruleset = ruleset;
    return r;
}

// Checks a file header; returns the rules it holds, or throws naming the file and field.
Rules decode_header(const std::uint8_t* head, const std::string& path) {
    if (std::memcmp(head, kCorpusMagic.data(), 8) != 0)
        throw CorpusError(path + ": header: wrong magic, not a fanorona corpus file");
    const auto version = get_le(head + 8, 2);
    if (version != kCorpusVersion)
        throw CorpusError(path + ": header: format version " + std::to_string(version) +
                          " (this build reads version " + std::to_string(kCorpusVersion) + ")");
    if (head[10] >= kVariantCount)
        throw CorpusError(path + ": header: unknown variant code " + std::to_string(head[10]));
    if (head[11] > 2)
        throw CorpusError(path + ": header: unknown rules code " + std::to_string(head[11]));
    Rules r;
    r.variant = Variant(head[10]);
    r.ruleset = RuleSet(head[11]);
    r.repetition_count = int(get_le(head + 12, 2));
    r.no_capture_limit = int(get_le(head + 14, 2));
    // A corpus holds games played under a repetition rule: 0 (none) or 1 (every position a draw
    // at once) are no writer's.
    if (r.repetition_count < 2)
        throw CorpusError(path + ": header: repetition count " +
                          std::to_string(r.repetition_count) + " (at least 2)");
    return r;
}

// A block header's fields, and why it cannot start an intact block ("" when it can).
struct BlockHead {
    std::uint32_t compressed = 0, raw = 0, games = 0, positions = 0;
    std::uint64_t first_game = 0;
    std::uint32_t crc = 0;
};
std::string check_block_head(const std::uint8_t* h, BlockHead& b) {
    if (get_le(h, 4) != kBlockMagic) return "bad block marker";
    b.compressed = std::uint32_t(get_le(h + 4, 4));
    b.raw = std::uint32_t(get_le(h + 8, 4));
    b.games = std::uint32_t(get_le(h + 12, 4));
    b.positions = std::uint32_t(get_le(h + 16, 4));
    b.first_game = get_le(h + 20, 8);
    b.crc = std::uint32_t(get_le(h + 28, 4));
    if (b.compressed == 0 || b.compressed > kCorpusMaxBlockBytes || b.raw > kCorpusMaxBlockBytes ||
        b.games == 0 || b.games > b.raw || b.positions > b.raw)
        return "implausible block sizes";
    return {};
}

// Reads a block's header and payload at the stream's position; "" when intact, else why not
// (the stream is then past the problem, which ends the intact part).
std::string read_block(std::ifstream& in, BlockHead& b, std::string& payload, bool* at_end) {
    std::uint8_t h[kCorpusBlockHeaderBytes];
    in.read(reinterpret_cast<char*>(h), kCorpusBlockHeaderBytes);
    const auto got = in.gcount();
    *at_end = got == 0;
    if (got == 0) return {};
    if (got < kCorpusBlockHeaderBytes) return "torn block header";
    if (std::string why = check_block_head(h, b); !why.empty()) return why;
    payload.resize(b.compressed);
    in.read(payload.data(), std::streamsize(payload.size()));
    if (std::size_t(in.gcount()) != payload.size()) return "torn block";
    if (block_checksum(h, payload.data(), payload.size()) != b.crc)
        return "checksum mismatch in block";
    return {};
}

// A cursor over one section of a block; every read is bounds-checked.
struct Cursor {
    const std::string& bytes;
    std::size_t& at;
    std::size_t end;
    bool varint(std::uint64_t& v) {
        v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (at >= end) return false;
            const auto b = std::uint8_t(bytes[at++]);
            v |= std::uint64_t(b & 0x7F) << shift;
            if (!(b & 0x80)) return shift < 63 || b <= 1;
        }
        return false;
    }
    bool byte(std::uint8_t& v) {
        if (at >= end) return false;
        v = std::uint8_t(bytes[at++]);
        return true;
    }
};

} // namespace

std::string encode_corpus_header(const Rules& rules) {
    if (rules.repetition_count < 2 || rules.repetition_count > 0xFFFF ||
        rules.no_capture_limit < 0 || rules.no_capture_limit > 0xFFFF)
        throw std::invalid_argument("corpus: the repetition count must lie between 2 and 65535, "
                                    "the no-capture limit between 0 and 65535");
    std::string out(kCorpusHeaderBytes, '\0');
    auto* p = reinterpret_cast<std::uint8_t*>(out.data());
    std::memcpy(p, kCorpusMagic.data(), 8);
    put_le(p + 8, kCorpusVersion, 2);
    p[10] = std::uint8_t(rules.variant);
    p[11] = std::uint8_t(rules.ruleset);
    put_le(p + 12, std::uint64_t(rules.repetition_count), 2);
    put_le(p + 14, std::uint64_t(rules.no_capture_limit), 2);
    return out;
}

CorpusWriter::CorpusWriter(const Rules& rules, CorpusSink sink, bool header_written,
                           std::size_t block_bytes)
    : rules_(rules), sink_(std::move(sink)),
      block_bytes_(std::clamp<std::size_t>(block_bytes, 1, kCorpusMaxBlockBytes / 2)) {
    const std::string header = encode_corpus_header(rules_);
    if (!header_written) {
        sink_(header);
        bytes_ += header.size();
    }
}

void CorpusWriter::add(const CorpusGame& g) {
    const std::string game = "corpus: game " + std::to_string(g.index);
    const auto refuse = [&](const std::string& why) {
        throw std::invalid_argument(game + ": " + why);
    };
    if (g.result == GameResult::Ongoing) refuse("result: a corpus holds finished games");
    if (g.scores.size() != g.moves.size())
        refuse("scores: " + std::to_string(g.scores.size()) + " for " +
               std::to_string(g.moves.size()) + " turns");
    if (int(g.ruleset) > 2) refuse("rules: unknown rules code");
    if (g.opening_turns < 0 || std::size_t(g.opening_turns) > g.moves.size())
        refuse("opening_turns: " + std::to_string(g.opening_turns) + " of " +
               std::to_string(g.moves.size()) + " turns");
    if (g.start.variant() != rules_.variant)
        refuse("start: a position of " + std::string(variant_name(g.start.variant())) +
               " in a corpus of " + std::string(variant_name(rules_.variant)));
    if (std::string why = position_problem(g.start); !why.empty()) refuse("start: " + why);
    if (g.start.turn() < 0 || std::uint64_t(g.start.turn()) > kMaxCounter ||
        g.start.turns_since_capture() < 0 ||
        std::uint64_t(g.start.turns_since_capture()) > kMaxCounter)
        refuse("start: turn counters out of range");
    if (g.reason.size() > kMaxReasonBytes) refuse("reason: longer than 255 bytes");

    const bool explicit_start = !(g.start == Position::start(rules_.variant));
    // Within a block each index is coded against the previous game's plus one; the first game's
    // index is the block header's.
    std::string head;
    const std::uint64_t expected = block_games_ ? last_index_ + 1 : g.index;
    put_varint(head, zigzag(std::int64_t(g.index - expected)));
    head += char(std::uint8_t(result_code(g.result) | int(g.ruleset) << 2 |
                              (explicit_start ? kExplicitStart : 0) |
                              (g.end_score ? kHasEndScore : 0)));
    const auto known = std::find(kReasons.begin(), kReasons.end(), g.reason);
    if (known != kReasons.end()) {
        head += char(std::uint8_t(known - kReasons.begin()));
    } else {
        head += char(kLiteralReason);
        put_varint(head, g.reason.size());
        head += g.reason;
    }
    put_varint(head, g.moves.size());
    put_varint(head, std::uint64_t(g.opening_turns));
    if (explicit_start) {
        put_varint(head, g.start.pieces(Color::White));
        put_varint(head, g.start.pieces(Color::Black));
        head += char(g.start.side_to_move() == Color::White ? 0 : 1);
        put_varint(head, std::uint64_t(g.start.turns_since_capture()));
        put_varint(head, std::uint64_t(g.start.turn()));
    }

    std::string turns, scores;
    const Rules rules = game_rules(rules_, g.ruleset);
    Position pos = g.start;
    MoveList list;
    std::optional<int> previous;
    for (std::size_t i = 0; i < g.moves.size(); ++i) {
        generate_moves(pos, rules, list);
        const Move& m = g.moves[i];
        if (!list.contains(m))
            refuse("turn " + std::to_string(i + 1) + ": not a legal turn in " + pos.to_string());
        if (list.size() > 1)
            put_varint(turns,
                       std::uint64_t(std::count_if(list.begin(), list.end(), [&](const Move& x) {
                           return turn_less(x, m);
                       })));
        put_varint(scores, score_code(g.scores[i], previous));
        previous = g.scores[i];
        pos.make_move(m);
    }
    if (g.end_score) put_varint(scores, score_code(g.end_score, previous));
    if (head.size() + turns.size() + scores.size() > kCorpusMaxBlockBytes / 4)
        refuse("too long for a corpus block");

    if (block_games_ == 0) block_first_ = g.index;
    last_index_ = g.index;
    games_part_ += head;
    turns_part_ += turns;
    scores_part_ += scores;
    ++block_games_;
    block_positions_ += g.positions();
    ++games_;
    positions_ += g.positions();
    if (8 + games_part_.size() + turns_part_.size() + scores_part_.size() >= block_bytes_) flush();
}

void CorpusWriter::flush() {
    if (block_games_ == 0) return;
    std::string raw(8, '\0');
    put_le(reinterpret_cast<std::uint8_t*>(raw.data()), games_part_.size(), 4);
    put_le(reinterpret_cast<std::uint8_t*>(raw.data()) + 4, turns_part_.size(), 4);
    raw += games_part_;
    raw += turns_part_;
    raw += scores_part_;
    std::string block(kCorpusBlockHeaderBytes + ZSTD_compressBound(raw.size()), '\0');
    ZSTD_CCtx* ctx = ZSTD_createCCtx();
    if (!ctx) throw std::bad_alloc();
    ZSTD_CCtx_setParameter(ctx, ZSTD_c_compressionLevel, kZstdLevel);
    const std::size_t n =
        ZSTD_compress2(ctx, block.data() + kCorpusBlockHeaderBytes,
                       block.size() - kCorpusBlockHeaderBytes, raw.data(), raw.size());
    ZSTD_freeCCtx(ctx);
    if (ZSTD_isError(n))
        throw std::runtime_error(std::string("corpus: zstd: ") + ZSTD_getErrorName(n));
    block.resize(kCorpusBlockHeaderBytes + n);
    auto* h = reinterpret_cast<std::uint8_t*>(block.data());
    put_le(h, kBlockMagic, 4);
    put_le(h + 4, n, 4);
    put_le(h + 8, raw.size(), 4);
    put_le(h + 12, block_games_, 4);
    put_le(h + 16, block_positions_, 4);
    put_le(h + 20, block_first_, 8);
    put_le(h + 28, block_checksum(h, h + kCorpusBlockHeaderBytes, n), 4);
    sink_(block);
    bytes_ += block.size();
    ++blocks_;
    games_part_.clear();
    turns_part_.clear();
    scores_part_.clear();
    block_games_ = 0;
    block_positions_ = 0;
}

CorpusReader::CorpusReader(const std::string& path) : path_(path) {
    in_.open(path, std::ios::binary);
    if (!in_) throw CorpusError(path + ": cannot open for reading");
    std::uint8_t head[kCorpusHeaderBytes];
    if (!in_.read(reinterpret_cast<char*>(head), kCorpusHeaderBytes))
        throw CorpusError(path + ": too short for a corpus file header");
    rules_ = decode_header(head, path);
    valid_bytes_ = kCorpusHeaderBytes;
}

void CorpusReader::corrupt(const std::string& what) const {
    throw CorpusError(path_ + ": block at byte " + std::to_string(block_offset_) + ": " + what +
                      " (the block's checksum is intact: not a file of this format's writer)");
}

void CorpusReader::corrupt_game(const std::string& what) const {
    corrupt("game " + std::to_string(games_ + 1) + " of the file: " + what);
}

bool CorpusReader::load_block() {
    BlockHead b;
    std::string payload;
    bool at_end = false;
    const std::string why = read_block(in_, b, payload, &at_end);
    if (at_end) return false;
    if (!why.empty()) {
        tail_problem_ = why + " at byte " + std::to_string(valid_bytes_);
        return false;
    }
    block_offset_ = valid_bytes_;
    const unsigned long long size = ZSTD_getFrameContentSize(payload.data(), payload.size());
    if (size != b.raw) corrupt("the compressed size of the content differs from the header's");
    raw_.resize(b.raw);
    const std::size_t n = ZSTD_decompress(raw_.data(), raw_.size(), payload.data(), payload.size());
    if (ZSTD_isError(n) || n != b.raw)
        corrupt(std::string("zstd: ") + (ZSTD_isError(n) ? ZSTD_getErrorName(n) : "short"));
    if (raw_.size() < 8) corrupt("no section sizes");
    const auto* r = reinterpret_cast<const std::uint8_t*>(raw_.data());
    const std::uint64_t games_bytes = get_le(r, 4), turns_bytes = get_le(r + 4, 4);
    if (8 + games_bytes + turns_bytes > raw_.size()) corrupt("section sizes past the block's end");
    games_at_ = 8;
    games_end_ = turns_at_ = 8 + std::size_t(games_bytes);
    turns_end_ = scores_at_ = turns_at_ + std::size_t(turns_bytes);
    block_games_left_ = b.games;
    block_positions_ = b.positions;
    block_positions_seen_ = 0;
    next_index_ = b.first_game;
    valid_bytes_ += kCorpusBlockHeaderBytes + payload.size();
    ++blocks_;
    return true;
}

std::uint8_t CorpusReader::read_game_head(CorpusGame& g, std::uint64_t& count,
                                          std::uint64_t& positions) {
    Cursor head{raw_, games_at_, games_end_};
    std::uint64_t delta = 0, opening = 0;
    std::uint8_t flags = 0, reason = 0;
    if (!head.varint(delta) || !head.byte(flags) || !head.byte(reason))
        corrupt_game("game header cut short");
    // The index is the previous one's plus one plus the difference; one that would wrap past 0
    // or 2^64-1 is no game's.
    const std::int64_t step = unzigzag(delta);
    if (step < 0 ? std::uint64_t(-(step + 1)) + 1 > next_index_
                 : std::uint64_t(step) > ~std::uint64_t(0) - next_index_)
        corrupt_game("index: " + std::to_string(step) + " from " + std::to_string(next_index_) +
                     " wraps around");
    g.index = next_index_ + std::uint64_t(step);
    const int result = flags & 3, ruleset = (flags >> 2) & 3;
    if (result == 3 || ruleset == 3 || (flags & 0xC0)) corrupt_game("flags: unknown codes");
    g.result = result == 0   ? GameResult::BlackWins
               : result == 1 ? GameResult::Draw
                             : GameResult::WhiteWins;
    g.ruleset = RuleSet(ruleset);
    if (reason == kLiteralReason) {
        std::uint64_t length = 0;
        if (!head.varint(length) || length > kMaxReasonBytes || length > games_end_ - games_at_)
            corrupt_game("reason cut short");
        g.reason = raw_.substr(games_at_, std::size_t(length));
        games_at_ += std::size_t(length);
    } else if (reason < kReasons.size()) {
        g.reason = std::string(kReasons[reason]);
    } else {
        corrupt_game("reason: unknown code " + std::to_string(reason));
    }
    if (!head.varint(count) || !head.varint(opening)) corrupt_game("game header cut short");
    if (count > block_positions_) corrupt_game("more turns than the block header counts");
    positions = count + ((flags & kHasEndScore) ? 1 : 0);
    if (positions > block_positions_ - block_positions_seen_)
        corrupt_game("more positions than the block header counts");
    if (opening > count) corrupt_game("more opening turns than turns");
    g.opening_turns = int(opening);
    return flags;
}

void CorpusReader::read_start(CorpusGame& g, std::uint8_t flags) {
    if (!(flags & kExplicitStart)) {
        g.start = Position::start(rules_.variant);
        return;
    }
    Cursor head{raw_, games_at_, games_end_};
    std::uint64_t white = 0, black = 0, quiet = 0, turn = 0;
    std::uint8_t side = 0;
    if (!head.varint(white) || !head.varint(black) || !head.byte(side) || !head.varint(quiet) ||
        !head.varint(turn))
        corrupt_game("start cut short");
    if (side > 1 || quiet > kMaxCounter || turn > kMaxCounter)
        corrupt_game("start: side or turn counters out of range");
    g.start = Position::from_pieces(rules_.variant, white, black,
                                    side ? Color::Black : Color::White, int(quiet), int(turn));
    if (std::string why = position_problem(g.start); !why.empty()) corrupt_game("start: " + why);
}

void CorpusReader::read_turns(CorpusGame& g, std::uint64_t count, std::uint8_t flags) {
    Cursor turns{raw_, turns_at_, turns_end_};
    Cursor scores{raw_, scores_at_, raw_.size()};
    const Rules rules = game_rules(rules_, g.ruleset);
    g.moves.clear();
    g.scores.clear();
    Position pos = g.start;
    MoveList list;
    std::optional<int> previous;
    const auto read_score = [&](std::size_t turn) {
        std::uint64_t code = 0;
        if (!scores.varint(code))
            corrupt_game("turn " + std::to_string(turn) + ": score cut short");
        if (code == 0) return std::optional<int>();
        const std::int64_t v = unzigzag(code - 1) - std::int64_t(previous.value_or(0));
        if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max())
            corrupt_game("turn " + std::to_string(turn) + ": score out of range");
        return std::optional<int>(int(v));
    };
    for (std::uint64_t i = 0; i < count; ++i) {
        const auto turn = [&] { return "turn " + std::to_string(i + 1); };
        generate_moves(pos, rules, list);
        std::uint64_t k = 0;
        if (list.size() > 1 && !turns.varint(k)) corrupt_game(turn() + ": turn index cut short");
        if (k >= std::uint64_t(list.size()))
            corrupt_game(turn() + ": turn index " + std::to_string(k) + " of " +
                         std::to_string(list.size()) + " legal turns");
        std::nth_element(list.begin(), list.begin() + std::ptrdiff_t(k), list.end(), turn_less);
        const Move m = list[int(k)];
        g.moves.push_back(m);
        g.scores.push_back(read_score(std::size_t(i + 1)));
        previous = g.scores.back();
        pos.make_move(m);
    }
    g.end_score.reset();
    if (flags & kHasEndScore) {
        g.end_score = read_score(std::size_t(count + 1));
        if (!g.end_score) corrupt_game("an end score flagged but absent");
    }
}

bool CorpusReader::next(CorpusGame& g) {
    if (done_) return false;
    if (block_games_left_ == 0 && !load_block()) {
        done_ = true;
        return false;
    }
    // Step 1. The game's header and start; step 2, its turns and scores.
    std::uint64_t count = 0, positions = 0;
    const std::uint8_t flags = read_game_head(g, count, positions);
    read_start(g, flags);
    read_turns(g, count, flags);
    // Step 3. The block's counts; its last game leaves nothing over.
    next_index_ = g.index + 1;
    block_positions_seen_ += positions;
    ++games_;
    if (--block_games_left_ == 0 &&
        (games_at_ != games_end_ || turns_at_ != turns_end_ || scores_at_ != raw_.size() ||
         block_positions_seen_ != block_positions_))
        corrupt("bytes or positions left over after its last game");
    return true;
}

bool CorpusPositionReader::next(CorpusPosition& p) {
    while (true) {
        if (!have_game_) {
            if (!games_.next(game_)) return false;
            pos_ = game_.start;
            ply_ = 0;
            have_game_ = true;
        }
        if (ply_ < game_.positions()) {
            p.position = pos_;
            p.result = game_.result;
            p.ruleset = game_.ruleset;
            p.game = game_.index;
            p.ply = int(ply_);
            if (ply_ < game_.moves.size()) {
                p.move = game_.moves[ply_];
                p.score = game_.scores[ply_];
                pos_.make_move(*p.move);
            } else {
                p.move.reset();
                p.score = game_.end_score;
            }
            ++ply_;
            return true;
        }
        have_game_ = false;
    }
}

std::vector<std::string> corpus_input_files(const std::vector<std::string>& inputs) {
    namespace fs = std::filesystem;
    std::vector<std::string> files;
    for (const std::string& input : inputs) {
        std::error_code ec;
        if (!fs::is_directory(input, ec)) {
            files.push_back(input);
            continue;
        }
        std::vector<std::string> names;
        for (const auto& entry : fs::directory_iterator(input, ec))
            if (entry.path().extension() == ".fcorpus" && entry.is_regular_file(ec))
                names.push_back(entry.path().filename().string());
        if (ec) throw CorpusError(input + ": cannot list the folder (" + ec.message() + ")");
        if (names.empty()) throw CorpusError(input + ": no corpus files (*.fcorpus) in the folder");
        std::sort(names.begin(), names.end(), natural_less);
        for (const std::string& name : names) files.push_back((fs::path(input) / name).string());
    }
    return files;
}

CorpusScan scan_corpus(const std::string& path, const std::optional<Rules>& expected) {
    namespace fs = std::filesystem;
    CorpusScan scan;
    std::error_code ec;
    scan.exists = fs::exists(path, ec);
    if (!scan.exists) return scan;
    scan.size = fs::file_size(path, ec);
    if (ec) throw CorpusError(path + ": cannot read its size: " + ec.message());
    std::ifstream in(path, std::ios::binary);
    if (!in) throw CorpusError(path + ": cannot open for reading");
    if (scan.size < std::uint64_t(kCorpusHeaderBytes)) {
        std::string head(std::size_t(scan.size), '\0');
        in.read(head.data(), std::streamsize(head.size()));
        const std::string want = expected ? encode_corpus_header(*expected)
                                          : std::string(kCorpusMagic) + std::string(8, '\0');
        const std::size_t compared = expected ? head.size() : std::min<std::size_t>(head.size(), 8);
        if (want.compare(0, compared, head, 0, compared) != 0)
            throw CorpusError(path + ": header: not a fanorona corpus file (" +
                              std::to_string(head.size()) + " bytes, wrong magic)");
        return scan; // empty, or the header itself was torn
    }
    std::uint8_t head[kCorpusHeaderBytes];
    in.read(reinterpret_cast<char*>(head), kCorpusHeaderBytes);
    scan.rules = decode_header(head, path);
    scan.has_header = true;
    scan.valid_bytes = kCorpusHeaderBytes;
    std::string payload;
    while (true) {
        BlockHead b;
        bool at_end = false;
        const std::string why = read_block(in, b, payload, &at_end);
        if (at_end) break;
        if (!why.empty()) {
            scan.tail_problem = why + " at byte " + std::to_string(scan.valid_bytes);
            break;
        }
        scan.valid_bytes += kCorpusBlockHeaderBytes + payload.size();
        scan.ends.push_back(scan.valid_bytes);
        scan.first_game.push_back(b.first_game);
        scan.games.push_back(b.games);
        scan.positions.push_back(b.positions);
    }
    return scan;
}

} // namespace fanorona
