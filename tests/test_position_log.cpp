// The positions log: records round-trip, chunks are checksummed, torn and corrupted tails are
// detected and dropped, bad headers and records that are not positions are errors.

#include <catch2/catch.hpp>

#include "tests/cli_helpers.h"

#include <filesystem>
#include <fstream>

#include "selfplay/formats/position_log.h"

using namespace fanorona;

namespace {

std::string temp_path(const std::string& name) {
    return test_cli::temp_file("position_log", name);
}

PositionRecord sample(std::uint32_t game, int i) {
    const Position p = Position::start(Variant::Tsivy);
    PositionRecord r;
    r.white = p.pieces(Color::White) ^ (Bitboard(i) & 0x7);
    r.black = p.pieces(Color::Black);
    r.game_index = game;
    r.turn = std::uint16_t(5 + i);
    r.score = std::int16_t(-300 + 37 * i);
    r.depth = std::uint8_t(i % 9);
    r.turns_since_capture = std::uint8_t(i);
    r.side_to_move = i % 2 ? Color::Black : Color::White;
    r.result = i % 3 == 0   ? GameResult::WhiteWins
               : i % 3 == 1 ? GameResult::Draw
                            : GameResult::BlackWins;
    return r;
}

void write_bytes(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
}

std::string log_with_games(int games, int per_game) {
    std::string bytes = encode_log_header({Variant::Tsivy, RuleSet::Vela});
    for (int g = 0; g < games; ++g) {
        std::vector<PositionRecord> recs;
        for (int i = 0; i < per_game; ++i) recs.push_back(sample(std::uint32_t(g), i));
        bytes += encode_chunk(recs);
    }
    return bytes;
}

} // namespace

TEST_CASE("position records are at most 24 bytes and round-trip", "[positionlog]") {
    STATIC_REQUIRE(kPositionRecordBytes <= 24);
    for (int i = 0; i < 20; ++i) {
        const PositionRecord r = sample(123456u + std::uint32_t(i), i);
        const auto bytes = encode_record(r);
        CHECK(decode_record(bytes.data()) == r);
    }
}

TEST_CASE("a positions log round-trips with its header", "[positionlog]") {
    const std::string path = temp_path("roundtrip.bin");
    write_bytes(path, log_with_games(3, 4));
    const PositionLog log = read_position_log(path);
    CHECK(log.header == PositionLogHeader{Variant::Tsivy, RuleSet::Vela});
    CHECK(log.chunks == 3);
    REQUIRE(log.records.size() == 12);
    CHECK(log.records[5] == sample(1, 1));
    CHECK(log.tail_problem.empty());
}

TEST_CASE("a torn tail is dropped, never misread", "[positionlog]") {
    const std::string full = log_with_games(3, 4);
    const std::string path = temp_path("torn.bin");
    for (std::size_t cut = 1; cut < 40; ++cut) {
        write_bytes(path, full.substr(0, full.size() - cut));
        const PositionLog log = read_position_log(path);
        CHECK(log.chunks == 2);
        CHECK(log.records.size() == 8);
        CHECK_FALSE(log.tail_problem.empty());
    }
}

TEST_CASE("a corrupted chunk is detected by its checksum", "[positionlog]") {
    std::string bytes = log_with_games(3, 4);
    const std::size_t second_chunk_payload = 16 + (12 + 4 * 24) + 12 + 30;
    bytes[second_chunk_payload] ^= 0x20;
    const std::string path = temp_path("corrupt.bin");
    write_bytes(path, bytes);
    const PositionLog log = read_position_log(path);
    CHECK(log.chunks == 1);
    CHECK(log.records.size() == 4);
    CHECK_THAT(log.tail_problem, Catch::Contains("checksum"));
}

TEST_CASE("a file that is not a positions log is an error naming it", "[positionlog]") {
    const std::string path = temp_path("notalog.bin");
    write_bytes(path, "# fanorona-games 1 variant=tsivy rules=standard\n");
    CHECK_THROWS_WITH(read_position_log(path),
                      Catch::Contains("notalog.bin") && Catch::Contains("magic"));
    CHECK_THROWS_WITH(read_position_log(temp_path("missing.bin")), Catch::Contains("cannot open"));
    std::string bytes = log_with_games(1, 1);
    bytes[8] = 9; // version
    write_bytes(path, bytes);
    CHECK_THROWS_WITH(read_position_log(path), Catch::Contains("version"));
}

TEST_CASE("an intact chunk whose record is not a position is an error naming it",
          "[positionlog][hardening]") {
    const std::string path = temp_path("badrecord.bin");
    std::vector<PositionRecord> recs{sample(0, 0), sample(0, 1), sample(0, 2)};
    recs[1].black |= recs[1].white & -recs[1].white; // White's first piece is Black's too
    std::string bytes = log_with_games(1, 2) + encode_chunk(recs);
    write_bytes(path, bytes);
    CHECK_THROWS_WITH(read_position_log(path),
                      Catch::StartsWith(path + ": record 2 of the chunk at byte " +
                                        std::to_string(16 + 12 + 2 * 24) +
                                        ": White and Black both have a piece on"));
    // A piece off the board (the 5x9 board's 45 points are bits 0..44; a record has 48), and a
    // header's variant whose board is too small for the records.
    recs[1] = sample(0, 1);
    recs[1].black |= Bitboard(1) << 46;
    write_bytes(path, log_with_games(0, 0) + encode_chunk(recs));
    CHECK_THROWS_WITH(read_position_log(path), Catch::Contains("outside the"));
    bytes = log_with_games(1, 1);
    bytes[10] = char(Variant::Dimy);
    write_bytes(path, bytes);
    CHECK_THROWS_WITH(read_position_log(path), Catch::Contains("record 1 of the chunk at byte 16"));
}
