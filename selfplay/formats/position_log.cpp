#include "selfplay/formats/position_log.h"

#include <algorithm>
#include <cstring>
#include <fstream>

#include "selfplay/formats/binary_bytes.h"
#include "selfplay/formats/formats.h"

namespace fanorona {

namespace {

constexpr std::uint32_t kChunkMagic = 0x4B4E4843; // "CHNK" little-endian
constexpr std::uint32_t kMaxChunkRecords = 1u << 20;

std::uint32_t checksum(const std::uint8_t* data, std::size_t n) {
    return crc32_of(data, n);
}

} // namespace

PositionRecord PositionRecord::of(const Position& pos, std::uint64_t game, int score, int depth) {
    PositionRecord r;
    r.white = pos.pieces(Color::White);
    r.black = pos.pieces(Color::Black);
    r.game_index = std::uint32_t(game);
    r.turn = std::uint16_t(std::min(pos.turn(), 65535));
    r.score = std::int16_t(std::clamp(score, -32767, 32767));
    r.depth = std::uint8_t(std::clamp(depth, 0, 255));
    r.turns_since_capture = std::uint8_t(std::min(pos.turns_since_capture(), 255));
    r.side_to_move = pos.side_to_move();
    return r;
}

Position PositionRecord::position(Variant v) const {
    return Position::from_pieces(v, white, black, side_to_move, turns_since_capture, turn);
}

std::array<std::uint8_t, kPositionRecordBytes> encode_record(const PositionRecord& r) {
    std::array<std::uint8_t, kPositionRecordBytes> b{};
    put_le(&b[0], r.white, 6);
    put_le(&b[6], r.black, 6);
    put_le(&b[12], r.game_index, 4);
    put_le(&b[16], r.turn, 2);
    put_le(&b[18], std::uint16_t(r.score), 2);
    b[20] = r.depth;
    b[21] = r.turns_since_capture;
    const int result = r.result == GameResult::BlackWins ? 0 : r.result == GameResult::Draw ? 1 : 2;
    b[22] = std::uint8_t((r.side_to_move == Color::Black ? 1 : 0) | (result << 1));
    b[23] = r.ruleset ? std::uint8_t(1 + int(*r.ruleset)) : 0;
    return b;
}

PositionRecord decode_record(const std::uint8_t* b) {
    PositionRecord r;
    r.white = get_le(&b[0], 6);
    r.black = get_le(&b[6], 6);
    r.game_index = std::uint32_t(get_le(&b[12], 4));
    r.turn = std::uint16_t(get_le(&b[16], 2));
    r.score = std::int16_t(std::uint16_t(get_le(&b[18], 2)));
    r.depth = b[20];
    r.turns_since_capture = b[21];
    r.side_to_move = (b[22] & 1) ? Color::Black : Color::White;
    const int result = (b[22] >> 1) & 3;
    r.result = result == 0   ? GameResult::BlackWins
               : result == 1 ? GameResult::Draw
                             : GameResult::WhiteWins;
    if (b[23] >= 1 && b[23] <= 3) r.ruleset = RuleSet(b[23] - 1);
    return r;
}

std::string encode_log_header(const PositionLogHeader& h) {
    std::string out(kPositionLogHeaderBytes, '\0');
    auto* p = reinterpret_cast<std::uint8_t*>(out.data());
    std::memcpy(p, kPositionLogMagic.data(), 8);
    put_le(p + 8, kPositionLogVersion, 2);
    p[10] = std::uint8_t(h.variant);
    p[11] = std::uint8_t(h.ruleset);
    put_le(p + 12, kPositionRecordBytes, 2);
    return out;
}

std::string encode_chunk(const std::vector<PositionRecord>& records) {
    std::string out(kPositionChunkHeaderBytes + records.size() * kPositionRecordBytes, '\0');
    auto* p = reinterpret_cast<std::uint8_t*>(out.data());
    for (std::size_t i = 0; i < records.size(); ++i) {
        const auto rec = encode_record(records[i]);
        std::memcpy(p + kPositionChunkHeaderBytes + i * kPositionRecordBytes, rec.data(),
                    rec.size());
    }
    put_le(p, kChunkMagic, 4);
    put_le(p + 4, records.size(), 4);
    put_le(p + 8, checksum(p + kPositionChunkHeaderBytes, records.size() * kPositionRecordBytes),
           4);
    return out;
}

namespace detail {

PositionLog scan_log(const std::string& path,
                     void (*callback)(void*, const std::vector<PositionRecord>&), void* context) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw PositionLogError(path + ": cannot open for reading");
    PositionLog log;
    std::uint8_t head[kPositionLogHeaderBytes];
    if (!in.read(reinterpret_cast<char*>(head), kPositionLogHeaderBytes))
        throw PositionLogError(path + ": too short for a positions log header");
    if (std::memcmp(head, kPositionLogMagic.data(), 8) != 0)
        throw PositionLogError(path + ": header: wrong magic, not a fanorona positions log");
    const auto version = get_le(head + 8, 2);
    if (version != kPositionLogVersion)
        throw PositionLogError(path + ": header: format version " + std::to_string(version) +
                               " (this build reads version " + std::to_string(kPositionLogVersion) +
                               ")");
    if (head[10] >= kVariantCount) throw PositionLogError(path + ": header: unknown variant code");
    if (head[11] > 2) throw PositionLogError(path + ": header: unknown rules code");
    if (get_le(head + 12, 2) != kPositionRecordBytes)
        throw PositionLogError(path + ": header: unexpected record size");
    log.header.variant = Variant(head[10]);
    log.header.ruleset = RuleSet(head[11]);
    log.valid_bytes = kPositionLogHeaderBytes;

    std::vector<std::uint8_t> payload;
    std::vector<PositionRecord> records;
    while (true) {
        std::uint8_t ch[kPositionChunkHeaderBytes];
        in.read(reinterpret_cast<char*>(ch), kPositionChunkHeaderBytes);
        const auto got = in.gcount();
        if (got == 0) break;
        const std::string at = " at byte " + std::to_string(log.valid_bytes);
        if (got < kPositionChunkHeaderBytes) {
            log.tail_problem = "torn chunk header" + at;
            break;
        }
        if (get_le(ch, 4) != kChunkMagic) {
            log.tail_problem = "bad chunk marker" + at;
            break;
        }
        const auto count = std::uint32_t(get_le(ch + 4, 4));
        if (count > kMaxChunkRecords) {
            log.tail_problem = "implausible chunk size" + at;
            break;
        }
        payload.resize(std::size_t(count) * kPositionRecordBytes);
        in.read(reinterpret_cast<char*>(payload.data()), std::streamsize(payload.size()));
        if (std::size_t(in.gcount()) != payload.size()) {
            log.tail_problem = "torn chunk" + at;
            break;
        }
        if (checksum(payload.data(), payload.size()) != std::uint32_t(get_le(ch + 8, 4))) {
            log.tail_problem = "checksum mismatch in chunk" + at;
            break;
        }
        records.clear();
        for (std::uint32_t i = 0; i < count; ++i) {
            records.push_back(
                decode_record(payload.data() + std::size_t(i) * kPositionRecordBytes));
            // An intact chunk holds what a writer wrote, so a record that is not a position is not
            // a torn tail: the file is not one of ours (or a writer is broken). Refuse the file
            // rather than drop the rest of it.
            if (std::string why = position_problem(records.back().position(log.header.variant));
                !why.empty())
                throw PositionLogError(path + ": record " + std::to_string(i + 1) +
                                       " of the chunk" + at + ": " + why);
        }
        callback(context, records);
        ++log.chunks;
        log.valid_bytes += kPositionChunkHeaderBytes + payload.size();
    }
    return log;
}

} // namespace detail

PositionLogHeader read_position_log_header(const std::string& path) {
    struct Stop {};
    PositionLogHeader header;
    try {
        header = scan_position_log(path, [](const std::vector<PositionRecord>&) {
                     throw Stop{};
                 }).header;
    } catch (const Stop&) {
        // The first chunk came after a valid header; read the header bytes directly.
        std::ifstream in(path, std::ios::binary);
        std::uint8_t head[kPositionLogHeaderBytes];
        in.read(reinterpret_cast<char*>(head), kPositionLogHeaderBytes);
        header.variant = Variant(head[10]);
        header.ruleset = RuleSet(head[11]);
    }
    return header;
}

PositionLog read_position_log(const std::string& path) {
    std::vector<PositionRecord> all;
    PositionLog log = scan_position_log(path, [&all](const std::vector<PositionRecord>& recs) {
        all.insert(all.end(), recs.begin(), recs.end());
    });
    log.records = std::move(all);
    return log;
}

} // namespace fanorona
