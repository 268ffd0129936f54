// Tests of the term registry (core/terms.h): the names derived from it, what its groups and
// boards claim about the computed terms, and the docs table generated from it.

#include <fstream>
#include <set>
#include <sstream>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "cli_helpers.h"
#include "core/board/baseline.h"
#include "core/board/game.h"
#include "core/board/playout.h"
#include "core/builtins.h"
#include "core/evaluate.h"
#include "core/features.h"

using namespace fanorona;

namespace {

// Positions from seeded random games on both boards.
std::vector<std::pair<Position, Rules>> sample_positions() {
    std::vector<std::pair<Position, Rules>> out;
    for (Variant v : {Variant::Tsivy, Variant::Dimy})
        for (std::uint64_t game = 0; game < 4; ++game) {
            Rules rules;
            rules.variant = v;
            Game g(rules, Position::start(v));
            const auto choose = [game](const Game& at, const MoveList& moves) {
                return random_move_index(at.position(), game * 7919 + at.moves().size(),
                                         moves.size());
            };
            random_playout(g, {.max_turns = 120}, choose,
                           [&](const Game& at) { out.emplace_back(at.position(), rules); });
        }
    return out;
}

// The points listed after the colon of a point-table term's description ("...: a1, i1").
std::vector<Square> listed_points(std::string_view description) {
    std::vector<Square> out;
    std::string text(description.substr(description.find(':') + 1));
    std::istringstream in(text);
    for (std::string word; in >> word;) {
        if (word.back() == ',') word.pop_back();
        REQUIRE(word.size() == 2);
        out.push_back(make_square(word[0] - 'a', word[1] - '1'));
    }
    return out;
}

} // namespace

TEST_CASE("Term names, feature names and term ids round-trip", "[terms]") {
    std::set<std::string_view> names;
    for (int t = 0; t < kTermCount; ++t) {
        const std::string name(kTerms[t].name);
        CHECK(names.insert(kTerms[t].name).second);
        CHECK(term_name(t) == kTerms[t].name);
        CHECK(kTerms[t].tapered);
        CHECK(feature_index(name + "_mg") == feature_of(t, false));
        CHECK(feature_index(name + "_eg") == feature_of(t, true));
        CHECK(feature_name(feature_of(t, false)) == name + "_mg");
        CHECK(feature_name(feature_of(t, true)) == name + "_eg");
        CHECK(feature_index(name) == -1);
    }
    CHECK(term_name(kTermCount).empty());
    CHECK(term_name(-1).empty());
    STATIC_REQUIRE(term_id("material") == 0);
    STATIC_REQUIRE(kTerms[term_id("pst_dimy_c3")].name == "pst_dimy_c3");
    STATIC_REQUIRE(kFeatureCount == 2 * kTermCount);
}

TEST_CASE("Every feature of the hand-set weights file is a registry term's", "[terms]") {
    // The weights file format is unchanged: handset.txt names each feature exactly once.
    std::istringstream in(std::string(find_builtin("weights", "handset")->text));
    std::set<std::string> seen;
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#' || line.rfind("fanorona-weights", 0) == 0) continue;
        const std::string name = line.substr(0, line.find(' '));
        CHECK(feature_index(name) >= 0);
        CHECK(seen.insert(name).second);
    }
    CHECK(int(seen.size()) == kFeatureCount);
}

TEST_CASE("Each board's point-table classes are listed in order and partition the board",
          "[terms]") {
    for (Variant v : {Variant::Tsivy, Variant::Dimy}) {
        const TermRange table = point_table_terms(v);
        CHECK(table.count == (v == Variant::Tsivy ? 15 : 6));
        Bitboard covered = 0;
        for (int t = table.first; t < table.first + table.count; ++t) {
            INFO(kTerms[t].name);
            CHECK(kTerms[t].group == TermGroup::PointTable);
            const std::vector<Square> points = listed_points(kTerms[t].description);
            REQUIRE(!points.empty());
            CHECK(points.front() == table_point(t)); // named by its first point
            for (Square s : points) {
                // A lone own piece on a listed point counts 1 on this class and no other.
                CHECK((covered & bit(s)) == 0);
                covered |= bit(s);
                const Position pos = Position::from_pieces(v, bit(s), 0, Color::White);
                std::array<int, kTermCount> raw;
                Rules rules;
                rules.variant = v;
                extract_terms(pos, rules, raw);
                for (int u = table.first; u < table.first + table.count; ++u)
                    CHECK(raw[u] == (u == t ? 1 : 0));
            }
        }
        CHECK(covered == geometry(v).board);
    }
}

TEST_CASE("Groups and boards: the point tables sum to material, other boards' terms are 0",
          "[terms]") {
    for (const auto& [pos, rules] : sample_positions()) {
        std::array<int, kTermCount> raw;
        extract_terms(pos, rules, raw);
        int material = 0, table = 0;
        for (int t = 0; t < kTermCount; ++t) {
            if (!term_applies(t, pos.variant())) CHECK(raw[t] == 0);
            if (kTerms[t].group == TermGroup::Material) material += raw[t];
            if (kTerms[t].group == TermGroup::PointTable && term_applies(t, pos.variant()))
                table += raw[t];
        }
        CHECK(table == material);
    }
    int material_terms = 0;
    for (const TermInfo& t : kTerms) material_terms += t.group == TermGroup::Material;
    CHECK(material_terms == 1);
}

TEST_CASE("The table of terms in docs/formats.md is the registry's", "[terms]") {
    std::ifstream in(std::string(FANORONA_DATA_DIR) + "/../docs/formats.md");
    REQUIRE(in);
    std::stringstream text;
    text << in.rdbuf();
    const std::string doc = text.str();
    const std::string begin = "<!-- terms-table:begin (generated from core/terms.h) -->\n";
    const std::string end = "<!-- terms-table:end -->";
    const std::size_t a = doc.find(begin), b = doc.find(end);
    REQUIRE(a != std::string::npos);
    REQUIRE(b != std::string::npos);
    REQUIRE(a < b);
    // To regenerate: `fanorona eval --terms --markdown` prints the table.
    CHECK(doc.substr(a + begin.size(), b - a - begin.size()) == terms_markdown_table());
}

TEST_CASE("fanorona eval --terms lists the registry", "[terms][cli]") {
    const auto json = test_cli::run_cli("eval --terms --json");
    REQUIRE(json.status == 0);
    const auto j = nlohmann::json::parse(json.output);
    REQUIRE(j["terms"].size() == std::size_t(kTermCount));
    for (int t = 0; t < kTermCount; ++t) {
        const auto& e = j["terms"][std::size_t(t)];
        CHECK(e["name"] == kTerms[t].name);
        CHECK(e["weights"][0] == feature_name(feature_of(t, false)));
        CHECK(e["weights"][1] == feature_name(feature_of(t, true)));
        CHECK(e["group"] == term_group_name(kTerms[t].group));
        CHECK(e["board"] == term_board_name(kTerms[t].board));
    }
    CHECK(j["phase_scale"] == kPhaseScale);

    const auto table = test_cli::run_cli("eval --terms");
    REQUIRE(table.status == 0);
    for (const TermInfo& t : kTerms) CHECK_THAT(table.output, Catch::Contains(std::string(t.name)));

    const auto markdown = test_cli::run_cli("eval --terms --markdown");
    REQUIRE(markdown.status == 0);
    CHECK(markdown.output == terms_markdown_table());
}
