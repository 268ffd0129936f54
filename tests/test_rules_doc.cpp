// docs/rules.md's perft tables against the move generator: both tables are read from the markdown
// (the start positions under each rule set, and the other board sizes with their start position
// strings), and every value up to kMaxNodes is compared with perft from that start position.

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/board/perft.h"
#include "tests/rules_helpers.h"

using namespace fanorona;
using fanorona::test::rules_for;

namespace {

// Larger values take too long for a unit test (7x9 at depth 6 counts 22.9 million sequences);
// the [slow] tests of test_perft.cpp and test_boards.cpp check those.
constexpr std::uint64_t kMaxNodes = 3'000'000;
constexpr std::size_t kRuleRows = 4, kSizeRows = 9; // at least these rows below each header

using Row = std::vector<std::string>; // the cells of a table row, spaces and backquotes trimmed

Row cells(const std::string& line) {
    Row out;
    for (std::size_t at = 1, bar; (bar = line.find('|', at)) != std::string::npos; at = bar + 1) {
        const std::string cell = line.substr(at, bar - at);
        const auto first = cell.find_first_not_of(" `"), last = cell.find_last_not_of(" `");
        out.push_back(first == std::string::npos ? "" : cell.substr(first, last - first + 1));
    }
    return out;
}

// The table of docs/rules.md whose header starts with the cell `name`: its header, then its rows
// (the |---| line left out). Empty when there is no such table.
std::vector<Row> table(const std::string& name) {
    const auto root = std::filesystem::path(FANORONA_TEST_DATA).parent_path().parent_path();
    std::ifstream in(root / "docs" / "rules.md");
    REQUIRE(in);
    std::vector<Row> rows;
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] != '|') {
            if (!rows.empty()) break; // the end of the table
            continue;
        }
        const Row r = cells(line);
        if (rows.empty() && (r.empty() || r[0] != name)) continue; // another table
        if (!r.empty() && r[0].find_first_not_of("-:") != std::string::npos) rows.push_back(r);
    }
    return rows;
}

// Checks the row's values (columns `first` on, each named by its depth in the header) against
// perft from `start`; empty cells are skipped.
void check_row(const Row& header, const Row& row, std::size_t first, const Rules& rules,
               Position start) {
    REQUIRE(row.size() == header.size());
    for (std::size_t i = first; i < row.size(); ++i) {
        std::string digits;
        for (char c : row[i])
            if (c != ',') digits += c;
        if (digits.empty()) continue;
        REQUIRE(digits.find_first_not_of("0123456789") == std::string::npos);
        const std::uint64_t expected = std::stoull(digits);
        if (expected > kMaxNodes) continue;
        INFO(row[0] << ", depth " << header[i]);
        CHECK(perft(start, rules, std::stoi(header[i])) == expected);
    }
}

} // namespace

TEST_CASE("docs/rules.md: perft from the start positions", "[rulesdoc]") {
    const std::map<std::string, Rules> rules_of = {
        {"tsivy", rules_for(RuleSet::Standard, Variant::Tsivy)},
        {"tsivy + firstturn", rules_for(RuleSet::FirstTurn, Variant::Tsivy)},
        {"tsivy vela (White the beneficiary)", rules_for(RuleSet::Vela, Variant::Tsivy)},
        {"dimy", rules_for(RuleSet::Standard, Variant::Dimy)},
    };
    const std::vector<Row> rows = table("rules");
    REQUIRE(rows.size() >= 1 + kRuleRows);
    std::set<std::string> seen;
    for (std::size_t r = 1; r < rows.size(); ++r) {
        INFO("row '" << rows[r][0] << "'");
        const auto found = rules_of.find(rows[r][0]);
        REQUIRE(found != rules_of.end()); // an unknown row label
        seen.insert(found->first);
        const Rules& rules = found->second;
        check_row(rows[0], rows[r], 1, rules, Position::start(rules.variant));
    }
    CHECK(seen.size() == rules_of.size());
}

TEST_CASE("docs/rules.md: perft of the other board sizes", "[rulesdoc]") {
    const std::vector<Row> rows = table("size");
    REQUIRE(rows.size() >= 1 + kSizeRows);
    REQUIRE(rows[0].size() > std::size_t{2});
    CHECK(rows[0][1] == "start");
    for (std::size_t r = 1; r < rows.size(); ++r) {
        INFO("row '" << rows[r][0] << "'");
        const auto v = parse_variant(rows[r][0]);
        REQUIRE(v);
        REQUIRE(rows[r].size() > std::size_t{1});
        CHECK(Position::start(*v).to_string() == rows[r][1]);
        check_row(rows[0], rows[r], 2, rules_for(RuleSet::Standard, *v),
                  Position::from_string(rows[r][1], *v));
    }
}
