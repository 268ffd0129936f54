// Vela series (`--series vela`): the schedule of series, who is White in the Vela game, a drawn
// normal game ending its series, resume between the two games of a series, the games file's
// kind and beneficiary columns, the statistics by kind, and the same games on any thread count.

#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

#include "selfplay/games/driver.h"
#include "selfplay/openings/opening_tree.h"
#include "selfplay/selfplay.h"
#include "selfplay/tournament/series_tally.h"
#include "selfplay/tournament/tournament.h"
#include "tests/cli_helpers.h"

using namespace fanorona;
using test_cli::fresh_dir;
using test_cli::slurp;
using test_cli::slurp_run_file;

namespace {

// Remembers the slots and records the driver hands out, replayed and new.
struct Recorder : GameObserver {
    void replay(const GameRecord& g, const GameSlot& s) override {
        games.push_back(g);
        slots.push_back(s);
        ++replayed;
    }
    void add(const PlayedGame& g, const GameSlot& s, RunFolder&) override {
        games.push_back(g.record);
        slots.push_back(s);
    }
    std::vector<GameRecord> games;
    std::vector<GameSlot> slots;
    int replayed = 0;
};

EngineSpec engine(const std::string& name, int depth) {
    return EngineSpec::parse("name=" + name + ",depth=" + std::to_string(depth));
}

// A match in series of a depth-1 and a depth-2 engine, short games (a low length cap gives
// drawn normal games too).
RunConfig series_match(const std::string& dir, std::uint64_t games) {
    RunConfig c;
    c.players = {engine("a", 1), engine("b", 2)};
    c.pairing = Pairing::Gauntlet;
    c.vela_series = true;
    c.games = games;
    c.seed = 3;
    c.adjudication.max_turns = 60;
    c.quiet = true;
    c.out_dir = dir;
    return c;
}

// Keeps the header and the first `games` lines of a games file.
void cut_games_file(const std::string& path, int games) {
    std::ifstream in(path);
    std::string line, kept;
    for (int n = 0; std::getline(in, line) && n < games + 2; ++n) kept += line + "\n";
    in.close();
    std::ofstream(path, std::ios::trunc) << kept;
}

} // namespace

TEST_CASE("series: the schedule lays out series in mirrored pairs from one opening", "[series]") {
    const Schedule s = Schedule::make(Pairing::Gauntlet, 2, true);
    CHECK(s.games_per_round() == 4);
    const GameSlot n0 = s.slot(0), v0 = s.slot(1), n1 = s.slot(2), v1 = s.slot(3), n2 = s.slot(4);
    CHECK((!n0.vela && v0.vela && !n1.vela && v1.vela));
    CHECK((n0.white == 0 && n0.black == 1 && n0.first_of_pair));
    CHECK((n1.white == 1 && n1.black == 0 && !n1.first_of_pair)); // the mirrored series
    CHECK((n0.opening == 0 && v1.opening == 0 && n2.opening == 1));
    // Without series the layout is today's.
    const Schedule plain = Schedule::make(Pairing::Gauntlet, 2);
    CHECK((plain.slot(1).white == 1 && plain.slot(2).opening == 1));
}

TEST_CASE("series: the normal game's loser is White in the Vela game, a draw ends the series",
          "[series]") {
    const Schedule s = Schedule::make(Pairing::Gauntlet, 2, true);
    const GameSlot normal = s.slot(0); // a (0) White, b (1) Black
    GameSlot vela = s.slot(1);
    REQUIRE(vela_colours(vela, normal, true, false)); // White (a) won: b is the beneficiary
    CHECK((vela.white == 1 && vela.black == 0));
    vela = s.slot(1);
    REQUIRE(vela_colours(vela, normal, false, true)); // Black (b) won: a is the beneficiary
    CHECK((vela.white == 0 && vela.black == 1));
    vela = s.slot(1);
    CHECK_FALSE(vela_colours(vela, normal, false, false));
}

TEST_CASE("series: the games file records kind and beneficiary, version 1 files still read",
          "[series][games_file]") {
    GameRecord r;
    r.index = 1;
    r.white = "b(depth=2)";
    r.black = "a(depth=1)";
    r.result = GameResult::WhiteWins;
    r.reason = "capture-all";
    r.start = Position::start(Variant::Tsivy).to_string();
    r.kind = GameKind::Vela;
    r.beneficiary = r.white;
    // Version 2's layout (version 3 adds the per-move columns last: tests/test_move_stats.cpp).
    const std::string line = format_game_record(r, true, false);
    CHECK(line.find("\tvela\tb(depth=2)\n") != std::string::npos);
    std::string body = line.substr(0, line.size() - 1);
    CHECK(parse_game_record(body, "x:3") == r);
    // Without series the line is version 1's: 10 columns.
    CHECK(format_game_record(r, false, false).find("\tvela") == std::string::npos);
    CHECK_THROWS_WITH(parse_game_record(body.substr(0, body.rfind('\t')) + "\ta(depth=1)", "x:3"),
                      "x:3: beneficiary: a Vela game's beneficiary is its White player");
    CHECK_THROWS_WITH(parse_game_record(body.substr(0, body.rfind("vela")) + "odd\t-", "x:4"),
                      Catch::StartsWith("x:4: kind: expected normal, vela or skipped"));
    const std::string dir = fresh_dir("series_games_file");
    std::filesystem::create_directories(dir);
    GamesHeader h;
    h.series = true;
    h.move_stats = false;
    std::ofstream(dir + "/v2.tsv") << games_header_lines(h) << line;
    const GamesFile f = read_games_file(dir + "/v2.tsv");
    CHECK(f.header.series);
    REQUIRE(f.games.size() == 1);
    CHECK(f.games[0].kind == GameKind::Vela);
    CHECK(f.games[0].rules(f.header.rules()).ruleset == RuleSet::Vela);
    GamesHeader v1;
    v1.move_stats = false;
    std::ofstream(dir + "/v1.tsv") << games_header_lines(v1) << format_game_record(r, false, false);
    const GamesFile old = read_games_file(dir + "/v1.tsv");
    CHECK_FALSE(old.header.series);
    CHECK(old.games[0].kind == GameKind::Normal);
    // A version 2 file's lines have 12 columns.
    std::ofstream(dir + "/mixed.tsv")
        << games_header_lines(h) << format_game_record(r, false, false);
    CHECK_THROWS_WITH(read_games_file(dir + "/mixed.tsv"),
                      Catch::Contains("mixed.tsv:3: line: expected 12 tab-separated columns"));
}

TEST_CASE("series: a match follows the series rules, the same on any thread count", "[series]") {
    RunConfig c = series_match(fresh_dir("series_match_one"), 16);
    c.threads = 1;
    Recorder one;
    run_games(c, one);
    const GamesFile file = read_games_file(c.out_dir + "/games.tsv");
    REQUIRE(file.games.size() == 16);
    CHECK(file.header.series);
    int vela = 0, skipped = 0;
    for (std::size_t k = 0; k < 16; k += 2) {
        const GameRecord& n = file.games[k];
        const GameRecord& v = file.games[k + 1];
        CHECK(n.kind == GameKind::Normal);
        if (n.result == GameResult::Draw) {
            ++skipped;
            CHECK(v.kind == GameKind::Skipped);
            CHECK(v.moves.empty());
            CHECK(v.reason == "series-over");
        } else {
            ++vela;
            CHECK(v.kind == GameKind::Vela);
            const std::string& loser = n.result == GameResult::WhiteWins ? n.black : n.white;
            CHECK(v.white == loser);
            CHECK(v.beneficiary == loser);
            CHECK(one.slots[k + 1].white ==
                  (n.result == GameResult::WhiteWins ? one.slots[k].black : one.slots[k].white));
            CHECK(replay_game(v, v.rules(file.header.rules()), "vela").moves().size() ==
                  v.moves.size());
        }
    }
    // Both branches are exercised by this seed.
    CHECK(vela > 0);
    CHECK(skipped > 0);
    // The observer's slot of a Vela game has the beneficiary White.
    for (std::size_t k = 1; k < 16; k += 2)
        if (file.games[k].kind == GameKind::Vela) {
            const GameSlot& s = one.slots[k];
            CHECK(s.vela);
            CHECK(file.games[k].white.rfind(s.white == 0 ? "a(" : "b(", 0) == 0);
        }
    RunConfig two = c;
    two.threads = 3;
    two.out_dir = fresh_dir("series_match_three");
    Recorder three;
    run_games(two, three);
    CHECK(slurp_run_file(c.out_dir + "/games.tsv") == slurp_run_file(two.out_dir + "/games.tsv"));
    CHECK(slurp(c.out_dir + "/positions.bin") == slurp(two.out_dir + "/positions.bin"));
    // Each position records its game's rules.
    const PositionLog log = read_position_log(c.out_dir + "/positions.bin");
    bool saw_vela = false;
    for (const PositionRecord& r : log.records) {
        REQUIRE(r.ruleset.has_value());
        const bool is_vela = file.games[r.game_index].kind == GameKind::Vela;
        CHECK((*r.ruleset == RuleSet::Vela) == is_vela);
        saw_vela |= is_vela;
    }
    CHECK(saw_vela);
}

TEST_CASE("series: resume between the two games of a series plays the same Vela game", "[series]") {
    RunConfig c = series_match(fresh_dir("series_resume_full"), 12);
    Recorder full;
    run_games(c, full);
    const GamesFile file = read_games_file(c.out_dir + "/games.tsv");
    // A series whose normal game was decisive, cut after its normal game.
    int cut = -1;
    for (int k = 0; k < 12; k += 2)
        if (file.games[std::size_t(k)].result != GameResult::Draw) cut = k + 1;
    REQUIRE(cut > 0);
    RunConfig r = c;
    r.out_dir = fresh_dir("series_resume_cut");
    std::filesystem::create_directories(r.out_dir);
    // Write the run to the cut point by copying the full run's files, then cut games.tsv.
    for (const char* f : {"games.tsv", "positions.bin", "settings.json"})
        std::filesystem::copy_file(c.out_dir + "/" + f, r.out_dir + "/" + f);
    cut_games_file(r.out_dir + "/games.tsv", cut);
    r.resume = true;
    Recorder resumed;
    run_games(r, resumed);
    CHECK(resumed.replayed == cut);
    CHECK(slurp_run_file(c.out_dir + "/games.tsv") == slurp_run_file(r.out_dir + "/games.tsv"));
    CHECK(slurp(c.out_dir + "/positions.bin") == slurp(r.out_dir + "/positions.bin"));
    // The resumed Vela game's slot has the normal game's loser White.
    CHECK(resumed.slots[std::size_t(cut)].white == full.slots[std::size_t(cut)].white);
    // Sharding a series run, or an odd number of places, is refused.
    RunConfig bad = c;
    bad.out_dir = fresh_dir("series_bad");
    bad.games = 7;
    Recorder o;
    CHECK_THROWS_WITH(run_games(bad, o), Catch::Contains("must be even"));
    bad.games = 8;
    bad.shard_count = 2;
    CHECK_THROWS_WITH(run_games(bad, o), Catch::Contains("cannot be sharded"));
}

TEST_CASE("series: statistics by kind of game", "[series][stats]") {
    const Schedule s = Schedule::make(Pairing::Gauntlet, 2, true);
    Rules rules;
    auto record = [&](std::uint64_t index, const GameSlot& slot, GameResult result, GameKind kind) {
        GameRecord g;
        g.index = index;
        g.white = slot.white == 0 ? "a" : "b";
        g.black = slot.black == 0 ? "a" : "b";
        g.result = result;
        g.reason = "no-moves";
        g.start = Position::start(Variant::Tsivy).to_string();
        g.kind = kind;
        return g;
    };
    SeriesTally t;
    // Series 0: a (White) wins the normal game; b, the beneficiary, wins the Vela game: 1-1.
    GameSlot n0 = s.slot(0), v0 = s.slot(1);
    CHECK_FALSE(t.add(record(0, n0, GameResult::WhiteWins, GameKind::Normal), n0, rules));
    REQUIRE(vela_colours(v0, n0, true, false));
    GameRecord vg = record(1, v0, GameResult::WhiteWins, GameKind::Vela);
    vg.reason = "adjudication";
    CHECK(t.add(vg, v0, rules));
    // Series 1 (mirrored: b White): drawn normal game, the series ends.
    const GameSlot n1 = s.slot(2);
    GameSlot v1 = s.slot(3);
    t.add(record(2, n1, GameResult::Draw, GameKind::Normal), n1, rules);
    CHECK(t.add(record(3, v1, GameResult::Draw, GameKind::Skipped), v1, rules));
    CHECK(t.normal == stats::WDL{1, 1, 0});
    CHECK(t.normal_white == stats::WDL{1, 1, 0});
    CHECK(t.vela == stats::WDL{1, 0, 0});
    CHECK(t.vela_b == stats::WDL{1, 0, 0});
    CHECK(t.vela_a.games() == 0);
    CHECK(t.skipped == 1);
    CHECK(t.series == stats::WDL{0, 2, 0});
    CHECK(t.normal_pairs.pairs() == 1);
    CHECK(t.series_pairs.counts[2] == 1); // two drawn series: 1 point of 2
    const nlohmann::json j = t.to_json();
    CHECK(j["vela"]["games"] == 1);
    CHECK(j["series"]["ended_by_drawn_normal_game"] == 1);
}

TEST_CASE("series: tournament and selfplay write the statistics by kind", "[series][tournament]") {
    const std::string dir = fresh_dir("series_cli");
    const test_cli::Run run = test_cli::run_cli(
        "tournament --series vela --games 8 --quiet --seed 3 --max-turns 60 --player "
        "name=a,depth=1 --player name=b,depth=2 --out " +
        dir);
    REQUIRE(run.status == 0);
    const nlohmann::json results = nlohmann::json::parse(slurp(dir + "/results.json"));
    REQUIRE(results["vela_series"].size() == 1);
    const nlohmann::json& v = results["vela_series"][0];
    CHECK(v["series"]["series"] == 4);
    CHECK(v["players"] == nlohmann::json({"a", "b"}));
    CHECK(slurp(dir + "/results.txt").find("Vela games") != std::string::npos);
    // One live line per series.
    const std::string live = slurp(dir + "/live.jsonl");
    CHECK(std::count(live.begin(), live.end(), '\n') == 4);
    const std::string sdir = fresh_dir("series_selfplay_cli");
    const test_cli::Run self = test_cli::run_cli(
        "selfplay --series vela --games 4 --quiet --depth 1 --max-turns 60 --out " + sdir);
    REQUIRE(self.status == 0);
    const nlohmann::json summary = nlohmann::json::parse(slurp(sdir + "/summary.json"));
    CHECK(summary.contains("series"));
    CHECK(nlohmann::json::parse(slurp(sdir + "/settings.json"))["series"] == "vela");
    // The report shows the statistics by kind for both runs.
    const std::string page = fresh_dir("series_report") + "/report.html";
    REQUIRE(
        test_cli::run_cli("report --selfplay " + sdir + " --tournament " + dir + " --out " + page)
            .status == 0);
    const std::string html = slurp(page);
    CHECK(html.find("id=\"selfplay-vela-series-table\"") != std::string::npos);
    CHECK(html.find("id=\"vela-series-table\"") != std::string::npos);
}

TEST_CASE("series: the opening tree reads the Vela games of series files under Vela rules",
          "[series][openings]") {
    RunConfig c = series_match(fresh_dir("series_openings"), 8);
    Recorder o;
    run_games(c, o);
    const std::string path = c.out_dir + "/games.tsv";
    const GamesFile file = read_games_file(path);
    std::uint64_t normal = 0, vela = 0;
    for (const GameRecord& g : file.games) {
        normal += g.kind == GameKind::Normal;
        vela += g.kind == GameKind::Vela;
    }
    REQUIRE(vela > 0);
    const OpeningTree v = build_opening_tree({path}, 3, GameKind::Vela);
    CHECK(v.rules().ruleset == RuleSet::Vela);
    CHECK(v.games() == vela);
    const OpeningTree n = build_opening_tree({path}, 3);
    CHECK(n.rules().ruleset == RuleSet::Standard);
    CHECK(n.games() == normal);
    // A file without series has no Vela games to read.
    RunConfig plain = c;
    plain.vela_series = false;
    plain.out_dir = fresh_dir("series_openings_plain");
    run_games(plain, o);
    CHECK_THROWS_WITH(build_opening_tree({plain.out_dir + "/games.tsv"}, 3, GameKind::Vela),
                      Catch::Contains("not a file of Vela series"));
    // By the rules games were played under (openings --game-rules, as tune --game-rules).
    const OpeningTree by_vela = build_opening_tree({path}, 3, RuleSet::Vela);
    CHECK(by_vela.rules().ruleset == RuleSet::Vela);
    CHECK(by_vela.games() == vela);
    CHECK(build_opening_tree({path}, 3, RuleSet::Standard).games() == normal);
    CHECK(build_opening_tree({plain.out_dir + "/games.tsv"}, 3, RuleSet::Standard).games() > 0);
    CHECK_THROWS_WITH(build_opening_tree({plain.out_dir + "/games.tsv"}, 3, RuleSet::Vela),
                      Catch::Contains("games.tsv:1: header: rules=standard: no games played "
                                      "under vela rules"));
    CHECK_THROWS_WITH(build_opening_tree({path}, 3, RuleSet::FirstTurn),
                      Catch::Contains("rules=standard (Vela series): no games played under "
                                      "firstturn rules"));
}
