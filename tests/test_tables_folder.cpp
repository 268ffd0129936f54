// Tests of a tables folder as a whole (issue 33): verify checks every material or fails naming
// each one it could not check; probe, analyze and the game drivers refuse tables they cannot use
// (a missing material, another board) instead of quietly using fewer of them; a build refuses to
// write over tables of other settings; damaged files are named for what they are.

#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <zlib.h>

#include "cli_helpers.h"
#include "core/tables/builder.h"
#include "core/tables/table_file.h"
#include "core/tables/tablebase.h"
#include "core/tables/verify.h"
#include "selfplay/engine/engine_spec.h"

using namespace fanorona;
namespace fs = std::filesystem;

namespace {

std::string build_dir(const std::string& name, const std::string& variant, int pieces) {
    const std::string dir = test_cli::fresh_dir(name);
    tables::build_tables({*parse_variant(variant), pieces, dir, kTableTurnLimit}, {});
    return dir;
}

// A copy of a tables folder (the tests below damage copies).
std::string copy_dir(const std::string& from, const std::string& name) {
    const std::string dir = test_cli::fresh_dir(name);
    fs::copy(from, dir, fs::copy_options::recursive);
    return dir;
}

// Rewrites a table file with one draw turned into a win in 1, checksums and header made right:
// only the value check against the successors can find it.
void plant_wrong_value(const std::string& path) {
    std::vector<std::uint8_t> codes;
    std::vector<tables::DistanceException> ex;
    Variant v;
    int mover, other;
    bool folded;
    {
        const tables::TableFile f(path);
        codes = f.load_codes();
        ex = f.exceptions();
        v = f.header().variant, mover = f.header().mover, other = f.header().other;
        folded = f.header().folded();
    }
    const auto draw = std::find(codes.begin(), codes.end(), std::uint8_t(0));
    REQUIRE(draw != codes.end());
    *draw = 1;
    tables::write_table_file(path, v, mover, other, kTableTurnLimit, codes, ex, folded);
}

// The line of the output that starts with `prefix` ("" when none).
std::string line_of(const std::string& output, const std::string& prefix) {
    std::istringstream in(output);
    for (std::string line; std::getline(in, line);)
        if (line.rfind(prefix, 0) == 0) return line;
    return "";
}

// The error line the program ends with: exactly one line starting "fanorona: ".
std::string error_line(const test_cli::Run& r) {
    const std::string line = line_of(r.output, "fanorona: ");
    CHECK_FALSE(line.empty());
    return line;
}

const std::string kOneVsTwo = "--variant dimy --fen '5/5/B4/5/W3B w'"; // a capture leads to 1v1

} // namespace

TEST_CASE("verify fails naming each material it could not check, and the missing ones",
          "[tables][cli]") {
    const std::string built = build_dir("tables_folder_built", "dimy", 3);
    const std::string dir = copy_dir(built, "tables_folder_planted");
    plant_wrong_value(dir + "/dimy-1v2.fntb");
    // With every table present the planted value is found.
    auto r = test_cli::run_cli("tables verify --tables " + dir);
    CHECK(r.status == 1);
    CHECK(line_of(r.output, "dimy 1v2: ").find(", 1 errors") != std::string::npos);

    // Without 1v1, 1v2 cannot be checked: verify says so and fails, and the planted value is
    // not used by probe either.
    fs::remove(dir + "/dimy-1v1.fntb");
    r = test_cli::run_cli("tables verify --tables " + dir);
    INFO(r.output);
    CHECK(r.status == 1);
    CHECK(line_of(r.output, "dimy 1v1: missing: ").find("dimy-1v1.fntb is missing") !=
          std::string::npos);
    CHECK(line_of(r.output, "dimy 1v2: unchecked: ") ==
          "dimy 1v2: unchecked: dimy 1v2 leads into dimy 1v1, whose table " + dir +
              "/dimy-1v1.fntb is missing");
    // The positions stored: one per class of symmetric positions.
    const std::string stored =
        std::to_string(tables::TableFile(dir + "/dimy-2v1.fntb").header().stored());
    CHECK(stored != "6900");
    CHECK(line_of(r.output, "dimy 2v1: ") == "dimy 2v1: " + stored + " positions, 0 errors");
    CHECK(line_of(r.output, "verified ") ==
          "verified " + stored + " positions in 1 of 3 materials: 0 errors, 2 not checked");
    const std::string error = error_line(r);
    CHECK(error.find("2 materials could not be checked") != std::string::npos);
    CHECK(error.find("dimy 1v2 (unchecked") != std::string::npos);

    r = test_cli::run_cli("tables verify --json --tables " + dir);
    CHECK(r.status == 1);
    const auto j = nlohmann::json::parse(r.output.substr(0, r.output.rfind("fanorona: ")));
    CHECK(j["ok"] == false);
    CHECK(j["not_checked"] == 2);
    std::map<std::string, std::string> status;
    for (const auto& m : j["materials"]) status[m["material"]] = m["status"];
    CHECK(status == std::map<std::string, std::string>{
                        {"1v1", "missing"}, {"2v1", "verified"}, {"1v2", "unchecked"}});

    // probe and the search refuse the position rather than leave out the captures into 1v1.
    r = test_cli::run_cli("tables probe --tables " + dir + " " + kOneVsTwo);
    CHECK(r.status == 1);
    CHECK(error_line(r) == "fanorona: --fen: " + dir +
                               "/dimy-1v2.fntb cannot be used: dimy 1v2 "
                               "leads into dimy 1v1, whose table " +
                               dir + "/dimy-1v1.fntb is missing");
    r = test_cli::run_cli("analyze --depth 2 --tables " + dir + " " + kOneVsTwo);
    CHECK(r.status == 1);
    CHECK(error_line(r).find("dimy-1v1.fntb is missing") != std::string::npos);
    // Nothing that leads into the missing table is probed: not 1v2, nor 2v1 (its paika moves
    // lead into 1v2).
    const tables::Tablebase tb(dir);
    CHECK_FALSE(tb.probe(Position::from_string("5/5/B4/5/W3B w", Variant::Dimy)));
    CHECK_FALSE(tb.probe(Position::from_string("5/5/B4/5/WW3 w", Variant::Dimy)));
    CHECK(tb.gap(Variant::Dimy, 2, 1).find("dimy 2v1 leads into dimy 1v1") != std::string::npos);
    CHECK(tables::Tablebase(built).probe(Position::from_string("5/5/B4/5/WW3 w", Variant::Dimy)));
}

TEST_CASE("verify checks the header's counts and refuses another material's file",
          "[tables][cli]") {
    const std::string built = build_dir("tables_folder_counts_built", "dimy", 3);
    const std::string dir = copy_dir(built, "tables_folder_counts");
    // One win counted as a draw, the checksums made right again.
    const std::string path = dir + "/dimy-2v1.fntb";
    std::string bytes = test_cli::slurp(path);
    const std::size_t counts = 32, draws = counts, wins = counts + 8;
    auto add = [&](std::size_t at, int delta) {
        std::uint64_t v = 0;
        for (int i = 0; i < 8; ++i) v |= std::uint64_t(std::uint8_t(bytes[at + i])) << (8 * i);
        v += std::uint64_t(std::int64_t(delta));
        for (int i = 0; i < 8; ++i) bytes[at + i] = char(v >> (8 * i));
    };
    add(draws, 1);
    add(wins, -1);
    auto put_crc = [&](std::size_t end) {
        const auto c =
            std::uint32_t(crc32(0, reinterpret_cast<const Bytef*>(bytes.data()), uInt(end)));
        for (int i = 0; i < 4; ++i) bytes[end + i] = char(c >> (8 * i));
    };
    const tables::TableFile original(built + "/dimy-2v1.fntb");
    const std::size_t header_end = 153 + (original.header().blocks + 2) * 8;
    put_crc(header_end);
    put_crc(bytes.size() - 4);
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
    auto r = test_cli::run_cli("tables verify --tables " + dir);
    CHECK(r.status == 1);
    CHECK(line_of(r.output, "dimy 2v1: ") == "dimy 2v1: corrupt: " + path + ": the header counts " +
                                                 std::to_string(original.header().counts[0] + 1) +
                                                 " draws, the table holds " +
                                                 std::to_string(original.header().counts[0]));
    CHECK(line_of(r.output, "dimy 1v2: ").find("unchecked") != std::string::npos);

    // A file that is a copy of another material's file is named for what it holds.
    const std::string copy = copy_dir(built, "tables_folder_copy");
    fs::copy_file(copy + "/dimy-1v2.fntb", copy + "/dimy-2v1.fntb",
                  fs::copy_options::overwrite_existing);
    for (const std::string& command : {"tables verify --tables " + copy,
                                       "tables build --variant dimy --pieces 4 --tables " + copy,
                                       "analyze --depth 1 --variant dimy --tables " + copy}) {
        r = test_cli::run_cli(command);
        INFO(command << "\n" << r.output);
        CHECK(r.status == 1);
        CHECK(error_line(r).find(copy + "/dimy-2v1.fntb: holds the table of dimy 1v2, whose file "
                                        "is dimy-1v2.fntb") != std::string::npos);
    }
    CHECK_FALSE(fs::exists(copy + "/dimy-3v1.fntb"));
}

TEST_CASE("a table file replaced by a folder is named a folder", "[tables][cli]") {
    const std::string built = build_dir("tables_folder_dir_built", "dimy", 2);
    const std::string dir = copy_dir(built, "tables_folder_dir");
    fs::remove(dir + "/dimy-1v1.fntb");
    fs::create_directory(dir + "/dimy-1v1.fntb");
    for (const std::string& command : {"tables verify --tables " + dir,
                                       "tables build --variant dimy --pieces 2 --tables " + dir}) {
        const auto r = test_cli::run_cli(command);
        INFO(command << "\n" << r.output);
        CHECK(r.status == 1);
        CHECK(error_line(r).rfind("fanorona: " + dir + "/dimy-1v1.fntb: a folder, not a table file",
                                  0) == 0);
    }
    CHECK(fs::is_directory(dir + "/dimy-1v1.fntb"));
}

TEST_CASE("a build refuses to write over tables of another turn limit", "[tables][cli]") {
    const std::string dir = build_dir("tables_folder_limit", "dimy", 2);
    const std::string before = test_cli::slurp(dir + "/dimy-1v1.fntb");
    auto r =
        test_cli::run_cli("tables build --variant dimy --pieces 3 --turn-limit 5 --tables " + dir);
    CHECK(r.status == 1);
    CHECK(error_line(r) == "fanorona: --turn-limit 5: " + dir +
                               " holds tables built with --turn-limit 100 (" + dir +
                               "/dimy-1v1.fntb); build into another folder, or with --turn-limit "
                               "100");
    CHECK(test_cli::slurp(dir + "/dimy-1v1.fntb") == before);
    CHECK_FALSE(fs::exists(dir + "/dimy-2v1.fntb"));
    // What may change: more pieces with the same settings, and tables of another board.
    r = test_cli::run_cli("tables build --variant dimy --pieces 3 --tables " + dir);
    CHECK(r.status == 0);
    CHECK(r.output.find("dimy 1v1: already built") != std::string::npos);
    r = test_cli::run_cli("tables build --variant 3x3 --pieces 2 --tables " + dir);
    CHECK(r.status == 0);
    CHECK(test_cli::slurp(dir + "/dimy-1v1.fntb") == before);
    CHECK(test_cli::run_cli("tables verify --tables " + dir).status == 0);
}

TEST_CASE("tables of another board are refused by the search, adjudication and players",
          "[tables][cli]") {
    const std::string dir = build_dir("tables_folder_board", "3x3", 2);
    const std::string why = dir + " holds tables of 3x3, the game is on dimy (5x5)";
    auto r = test_cli::run_cli("analyze --variant dimy --depth 1 --tables " + dir);
    CHECK(r.status == 1);
    CHECK(error_line(r).find(why) != std::string::npos);
    const std::string out = test_cli::fresh_dir("tables_folder_board_runs");
    for (const std::string& command :
         {"selfplay --variant dimy --games 2 --depth 1 --adjudicate-tables " + dir + " --out " +
              out + "/a",
          "selfplay --variant dimy --games 2 --depth 1 --tables " + dir + " --out " + out + "/b",
          "tournament --variant dimy --games 2 --player name=A,depth=1,tables=" + dir +
              " --player name=B,depth=1 --out " + out + "/c"}) {
        r = test_cli::run_cli(command);
        INFO(command << "\n" << r.output);
        CHECK(r.status == 1);
        CHECK(error_line(r).find(why) != std::string::npos);
    }
    r = test_cli::run_cli("tables probe --tables " + dir + " " + kOneVsTwo);
    CHECK(r.status == 1);
    CHECK(error_line(r) ==
          "fanorona: --fen: " + dir + " holds tables of 3x3, the position is on dimy (5x5)");
    // The same tables serve their own board.
    EngineSpec spec = EngineSpec::parse("name=T,depth=1,tables=" + dir);
    CHECK_NOTHROW(spec.check_rules(Rules{*parse_variant("3x3")}));
    CHECK_THROWS_WITH(spec.check_rules(Rules{Variant::Dimy}), Catch::Contains(why));
}
