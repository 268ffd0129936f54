// Tables folded by the board's symmetries (issue 35): every position keeps the value of the
// unfolded tables, on boards with 4 symmetries (5x9, 3x7, 7x3) and with 8 (5x5, 3x3); the folded
// index maps every symmetric image of a position to one slot; version 1 files are still read.

#include <filesystem>
#include <fstream>
#include <random>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <zlib.h>

#include "cli_helpers.h"
#include "core/common/files.h"
#include "core/tables/builder.h"
#include "core/tables/compare.h"
#include "core/tables/material_index.h"
#include "core/tables/table_file.h"
#include "core/tables/tablebase.h"
#include "core/tables/verify.h"

using namespace fanorona;
namespace fs = std::filesystem;

namespace {

std::string build(const std::string& name, Variant v, int pieces, bool fold,
                  int limit = kTableTurnLimit) {
    const std::string dir = test_cli::fresh_dir(name);
    tables::build_tables({v, pieces, dir, limit, fold}, {});
    return dir;
}

std::uint32_t crc_of(const std::string& bytes, std::size_t size) {
    return std::uint32_t(crc32(0, reinterpret_cast<const Bytef*>(bytes.data()), uInt(size)));
}
void put32(std::string& out, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(char(v >> (8 * i)));
}

// Rewrites an unfolded version 2 file as version 1 wrote it (docs/formats.md: the version 1
// header is the first 104 bytes of version 2's 153).
void rewrite_as_version_1(const std::string& path) {
    const std::string v2 = test_cli::slurp(path);
    std::uint32_t blocks = 0;
    for (int i = 0; i < 4; ++i) blocks |= std::uint32_t(std::uint8_t(v2[28 + i])) << (8 * i);
    const std::size_t table = (std::size_t(blocks) + 2) * 8;
    std::string v1 = v2.substr(0, 104) + v2.substr(153, table);
    v1[8] = 1;
    put32(v1, crc_of(v1, v1.size()));
    v1 += v2.substr(153 + table + 4, v2.size() - 4 - (153 + table + 4));
    put32(v1, crc_of(v1, v1.size()));
    std::ofstream(path, std::ios::binary | std::ios::trunc) << v1;
}

// Checks that the folded and unfolded tables of a board agree on every position of every
// material; returns the positions stored folded and in the whole materials.
std::pair<std::uint64_t, std::uint64_t> check_folded(Variant v, int pieces, int limit) {
    const std::string name = std::string(variant_name(v)) + "_" + std::to_string(limit);
    const tables::Tablebase folded(build("sym_f_" + name, v, pieces, true, limit));
    const tables::Tablebase whole(build("sym_u_" + name, v, pieces, false, limit));
    const auto results = tables::compare_tables(folded, whole, {});
    REQUIRE(results.size() == tables::materials_up_to(v, pieces).size());
    std::uint64_t stored = 0, all = 0;
    for (const auto& r : results) {
        INFO(variant_name(v) << " " << tables::material_name(r.mover, r.other) << ": "
                             << r.first_difference);
        CHECK(r.differences == 0);
        const tables::TableHeader& h = folded.file(v, r.mover, r.other)->header();
        const tables::TableHeader& u = whole.file(v, r.mover, r.other)->header();
        CHECK(h.folded());
        CHECK_FALSE(u.folded());
        CHECK(r.positions == u.positions);
        // The whole material's counts, computed from the folded table's classes.
        for (int c = 0; c < 5; ++c) CHECK(h.full_counts[c] == u.counts[c]);
        stored += h.stored();
        all += u.positions;
    }
    for (const auto& r : tables::verify_tables(folded, {}))
        CHECK(r.status == tables::VerifyStatus::Verified);
    return {stored, all};
}

} // namespace

TEST_CASE("Boards have the symmetries that keep their lines", "[tables][symmetry]") {
    CHECK(tables::board_symmetries(Variant::Tsivy).count == 4);
    CHECK(tables::board_symmetries(Variant::Dimy).count == 8);
    CHECK(tables::board_symmetries(*parse_variant("3x3")).count == 8);
    CHECK(tables::board_symmetries(*parse_variant("3x7")).count == 4);
    CHECK(tables::board_symmetries(*parse_variant("7x3")).count == 4);
    // The left-right mirror of 5x9 maps a1 to i1 and keeps e3.
    const auto& s = tables::board_symmetries(Variant::Tsivy);
    const Geometry& g = geometry(Variant::Tsivy);
    CHECK(s.map[1][std::size_t(g.square(0, 0))] == g.square(8, 0));
    CHECK(s.map[1][std::size_t(g.square(4, 2))] == g.square(4, 2));
}

TEST_CASE("A folded index gives every symmetric image of a position its slot",
          "[tables][symmetry]") {
    std::mt19937_64 rng(35);
    for (const char* board : {"5x9", "5x5", "3x7", "7x3", "3x3"}) {
        const Variant v = *parse_variant(board);
        const Geometry& geo = geometry(v);
        const auto& sym = tables::board_symmetries(v);
        for (auto [a, b] : {std::pair{1, 1}, std::pair{2, 1}, std::pair{2, 2}, std::pair{3, 2}}) {
            const tables::MaterialIndex folded(v, a, b, true), whole(v, a, b);
            REQUIRE(folded.symmetries() == sym.count);
            // Symmetric sets must be reached too: every position of small materials, random
            // ones of the others.
            const bool all = whole.size() < 20000;
            const std::uint64_t n = all ? whole.size() : 3000;
            for (std::uint64_t k = 0; k < n; ++k) {
                Bitboard m, o;
                whole.decode(all ? k : rng() % whole.size(), m, o);
                int stab = 0;
                const std::uint64_t i = folded.index(m, o, stab);
                REQUIRE(i < folded.size());
                REQUIRE(folded.used(i));
                int keeps = 0;
                for (int s = 0; s < sym.count; ++s) {
                    const Bitboard sm = sym.apply(s, m), so = sym.apply(s, o);
                    REQUIRE(popcount(sm) == a);
                    REQUIRE((sm & geo.board) == sm);
                    REQUIRE(folded.index(sm, so) == i);
                    keeps += sm == m && so == o;
                }
                CHECK(stab == keeps);
                CHECK(folded.slot_stabilizer(i) == keeps);
                Bitboard dm, d_o;
                folded.decode(i, dm, d_o);
                bool image = false;
                for (int s = 0; s < sym.count; ++s)
                    image = image || (sym.apply(s, dm) == m && sym.apply(s, d_o) == o);
                CHECK(image);
            }
        }
    }
}

TEST_CASE("The 7-piece materials of 5x9 fold about fourfold", "[tables][symmetry]") {
    std::uint64_t folded = 0, whole = 0;
    for (auto [a, b] : tables::materials_up_to(Variant::Tsivy, 7)) {
        if (a + b < 7) continue;
        const tables::MaterialIndex mi(Variant::Tsivy, a, b, true);
        folded += mi.size();
        whole += mi.full_size();
    }
    CHECK(whole == 5717832120ULL);               // docs/endgame_tables.md: 5,718 million
    CHECK(double(whole) / double(folded) > 3.8); // 1v6 and 6v1 fold threefold
    CHECK(double(whole) / double(folded) < 4.0);
}

TEST_CASE("Folded tables give every position the unfolded tables' value", "[tables][symmetry]") {
    for (const char* board : {"3x7", "7x3"}) {
        const auto [stored, all] = check_folded(*parse_variant(board), 4, kTableTurnLimit);
        CHECK(double(all) / double(stored) > 3.5);
    }
    const auto [stored, all] = check_folded(Variant::Dimy, 5, kTableTurnLimit);
    CHECK(double(all) / double(stored) > 7.0);
    // Cursed wins and blessed losses, whose distances are in the files' exception lists.
    check_folded(Variant::Dimy, 4, 5);
    check_folded(*parse_variant("3x3"), 4, 3);
}

// The 5x9 board's 4-piece tables, as long to check as every board above together: the sanitizer
// runs leave it out ([slow]); 3x7 and 7x3, above, fold by a rectangle's four symmetries as well.
TEST_CASE("Folded 5x9 tables give every position the unfolded tables' value",
          "[tables][symmetry][slow]") {
    const auto [stored, all] = check_folded(Variant::Tsivy, 4, kTableTurnLimit);
    CHECK(double(all) / double(stored) > 3.5);
}

TEST_CASE("tables compare finds a different value", "[tables][symmetry][cli]") {
    const std::string a = build("sym_cmp_a", Variant::Dimy, 3, true);
    const std::string b = build("sym_cmp_b", Variant::Dimy, 3, false, 4);
    auto r = test_cli::run_cli("tables compare --tables " + a + " --against " + b);
    CHECK(r.status == 1);
    CHECK(r.output.find(" positions differ from " + b) != std::string::npos);
    const std::string c = build("sym_cmp_c", Variant::Dimy, 3, false);
    r = test_cli::run_cli("tables compare --json --tables " + a + " --against " + c);
    CHECK(r.status == 0);
    const auto j = nlohmann::json::parse(r.output);
    CHECK(j["differences"] == 0);
    CHECK(j["positions"] == 600 + 2 * 6900);
}

TEST_CASE("Version 1 files are read as unfolded tables, later versions are refused",
          "[tables][symmetry]") {
    const std::string old = build("sym_v1", Variant::Dimy, 3, false);
    for (const auto& e : fs::directory_iterator(old)) rewrite_as_version_1(e.path().string());
    const std::string folded = build("sym_v1_folded", Variant::Dimy, 3, true);
    {
        const tables::Tablebase tb(old);
        for (const tables::TableFile* f : tb.files()) {
            CHECK(f->header().symmetries == 1);
            CHECK(f->file_size() == fs::file_size(f->path()));
        }
        for (const auto& r : tables::verify_tables(tb, {}))
            CHECK(r.status == tables::VerifyStatus::Verified);
        for (const auto& r : tables::compare_tables(tb, tables::Tablebase(folded), {}))
            CHECK(r.differences == 0);
    }
    // A folder of version 1 tables grows by folded ones.
    const auto reports = tables::build_tables({Variant::Dimy, 4, old, kTableTurnLimit}, {});
    CHECK(tables::TableFile(old + "/dimy-2v2.fntb").header().folded());
    CHECK_FALSE(tables::TableFile(old + "/dimy-2v1.fntb").header().folded());
    for (const auto& r : tables::verify_tables(tables::Tablebase(old), {}))
        CHECK(r.status == tables::VerifyStatus::Verified);

    std::string bytes = test_cli::slurp(folded + "/dimy-1v1.fntb");
    bytes[8] = 3;
    std::ofstream(folded + "/dimy-1v1.fntb", std::ios::binary | std::ios::trunc) << bytes;
    CHECK_THROWS_WITH(tables::Tablebase(folded),
                      folded +
                          "/dimy-1v1.fntb: table format version 3, this program reads "
                          "versions 1 to 2 (a newer program's table: rebuild it with this one)");
}

TEST_CASE("tables stats shows the whole materials' counts beside the stored ones",
          "[tables][symmetry][cli]") {
    const std::string dir = build("sym_stats", *parse_variant("5x9"), 3, true);
    auto r = test_cli::run_cli("tables stats --json --tables " + dir);
    REQUIRE(r.status == 0);
    const auto j = nlohmann::json::parse(r.output);
    bool seen = false;
    for (const auto& m : j["materials"]) {
        if (m["material"] != "2v1") continue;
        seen = true;
        // docs/endgame_tables.md: 42,570 positions, 40,996 wins, 1,550 draws, 24 losses.
        CHECK(m["whole"]["positions"] == 42570);
        CHECK(m["whole"]["wins"] == 40996);
        CHECK(m["whole"]["draws"] == 1550);
        CHECK(m["whole"]["losses"] == 24);
        CHECK(m["positions"].get<std::uint64_t>() < 42570 / 3);
        CHECK(m["symmetries"] == 4);
    }
    CHECK(seen);
    r = test_cli::run_cli("tables stats --tables " + dir);
    REQUIRE(r.status == 0);
    CHECK(r.output.find("tsivy  2v1   whole           42570          40996           1550") !=
          std::string::npos);
}
