// Draw adjudication by score (--draw-margin, --draw-turns, --draw-after): a game ends as a draw
// (reason draw-adjudication) once it is long enough and both sides' scores stayed near zero for
// the turns asked, and only when both agree.

#include <catch2/catch.hpp>

#include <fstream>

#include <nlohmann/json.hpp>

#include "core/board/movegen.h"
#include "selfplay/formats/games_file.h"
#include "selfplay/games/driver.h"
#include "selfplay/games/game_runner.h"
#include "tests/cli_helpers.h"

using namespace fanorona;

namespace {

// Plays the first legal move with a fixed score (none: no score).
class ScoringPlayer : public Player {
public:
    explicit ScoringPlayer(std::optional<int> score) : score_(score) {}
    MoveChoice choose(const Game& game, const Clock&) override {
        MoveList list;
        generate_moves(game.position(), game.rules(), list);
        return MoveChoice{list[0], score_, 1, false};
    }

private:
    std::optional<int> score_;
};

PlayedGame play(std::optional<int> white, std::optional<int> black, int after, int margin,
                int turns) {
    GameSetup s;
    s.opening.start = Position::start(s.rules.variant);
    s.adjudication.max_turns = 60;
    s.adjudication.draw_after = after;
    s.adjudication.draw_margin = margin;
    s.adjudication.draw_turns = turns;
    s.white_name = "w";
    s.black_name = "b";
    ScoringPlayer w(white), b(black);
    return play_game(s, w, b);
}

// Whether `g` ended by draw adjudication; a game that did not must still have gone on past
// `turns` (where the adjudication would have come), else the check says nothing.
bool draw_adjudicated(const PlayedGame& g, std::size_t turns) {
    INFO(g.record.reason << " after " << g.record.moves.size() << " turns");
    CHECK(g.record.moves.size() > turns);
    return g.record.reason == "draw-adjudication";
}

} // namespace

TEST_CASE("both sides' small scores end a long enough game as a draw", "[adjudication]") {
    // Scores within the margin from the first turn: the draw comes at turn `after`.
    PlayedGame g = play(3, -3, 10, 20, 2);
    CHECK(g.record.result == GameResult::Draw);
    CHECK(g.record.reason == "draw-adjudication");
    CHECK(g.record.moves.size() == 10);
    // A short `after`: the turns of agreement decide (2 turns of each side: 4 turns).
    g = play(0, 0, 0, 20, 2);
    CHECK(g.record.reason == "draw-adjudication");
    CHECK(g.record.moves.size() == 4);
    // |score| must be below the margin.
    CHECK_FALSE(draw_adjudicated(play(20, 0, 0, 20, 2), 4));
    CHECK(play(19, -19, 0, 20, 2).record.reason == "draw-adjudication");
}

TEST_CASE("draw adjudication needs both engines to agree", "[adjudication]") {
    // White sees a draw, Black sees itself winning: no draw adjudication.
    CHECK_FALSE(draw_adjudicated(play(0, 500, 10, 20, 2), 10));
    // A side without scores (a baseline mover) never agrees.
    CHECK_FALSE(draw_adjudicated(play(0, std::nullopt, 10, 20, 2), 10));
    // Off (margin 0): no draw.
    CHECK_FALSE(draw_adjudicated(play(0, 0, 10, 0, 2), 10));
}

TEST_CASE("draw adjudication in a run: the games, settings.json and a resume",
          "[adjudication][cli]") {
    const std::string dir = test_cli::fresh_dir("draw_run");
    const std::string args = "selfplay --quiet --games 2 --depth 1 --epsilon 0 --openings start "
                             "--draw-margin 100000 --draw-turns 3 --draw-after 12 --out ";
    const test_cli::Run r = test_cli::run_cli(args + dir);
    INFO(r.output);
    REQUIRE(r.status == 0);
    for (const GameRecord& g : read_games_file(dir + "/games.tsv").games) {
        CHECK(g.reason == "draw-adjudication");
        CHECK(g.result == GameResult::Draw);
        CHECK(g.moves.size() == 12);
    }
    std::ifstream in(dir + "/settings.json");
    const nlohmann::json settings = nlohmann::json::parse(in);
    CHECK(settings["draw_margin"] == 100000);
    CHECK(settings["draw_turns"] == 3);
    CHECK(settings["draw_after"] == 12);
    const test_cli::Run other = test_cli::run_cli(
        "selfplay --quiet --games 4 --depth 1 --epsilon 0 --openings start --draw-margin 50 "
        "--draw-turns 3 --draw-after 12 --resume --out " +
        dir);
    CHECK(other.status != 0);
    CHECK_THAT(other.output, Catch::Contains("--draw-margin was 100000, now 50"));

    // Without draw adjudication settings.json has no draw keys (older folders resume as before).
    const std::string plain = test_cli::fresh_dir("draw_plain");
    REQUIRE(test_cli::run_cli("selfplay --quiet --games 2 --depth 1 --out " + plain).status == 0);
    std::ifstream pin(plain + "/settings.json");
    CHECK_FALSE(nlohmann::json::parse(pin).contains("draw_margin"));

    const test_cli::Run bad = test_cli::run_cli(
        "selfplay --quiet --games 2 --depth 1 --draw-turns 0 --out " + test_cli::fresh_dir("d0"));
    CHECK(bad.status != 0);
    CHECK_THAT(bad.output, Catch::Contains("--draw-turns"));
}

TEST_CASE("draw adjudication settings are validated with the run's", "[adjudication]") {
    RunConfig c;
    c.players = {EngineSpec::parse("name=a,depth=1")};
    c.adjudication.draw_margin = 10;
    CHECK_NOTHROW(c.validate());
    c.adjudication.draw_turns = 0;
    CHECK_THROWS_WITH(c.validate(), "--draw-turns must be at least 1");
    c.adjudication.draw_turns = 1;
    c.adjudication.draw_after = -1;
    CHECK_THROWS_WITH(c.validate(), "--draw-after must be at least 0");
    c.adjudication.draw_after = 0;
    c.adjudication.draw_margin = -1;
    CHECK_THROWS_WITH(c.validate(), "--draw-margin must be at least 0 (0: off)");
}

TEST_CASE("draw adjudication in one option: --draw-adjudicate, as fastchess's -draw",
          "[adjudication][cli]") {
    AdjudicationConfig a;
    parse_draw_adjudication("after=30,turns=6,score=25", a);
    CHECK(a.draw_after == 30);
    CHECK(a.draw_turns == 6);
    CHECK(a.draw_margin == 25);
    AdjudicationConfig b;
    parse_draw_adjudication("movenumber=12,movecount=2", b);
    CHECK(b.draw_after == 24); // full moves, as fastchess and cutechess count: 2 turns each
    CHECK(b.draw_turns == 2);
    CHECK(b.draw_margin == 20);
    CHECK_THROWS_WITH(parse_draw_adjudication("after=30,turns", b),
                      Catch::Contains("'turns' is not KEY=VALUE"));
    CHECK_THROWS_WITH(parse_draw_adjudication("score=-3", b),
                      Catch::Contains("score=-3: not a whole number"));
    CHECK_THROWS_WITH(parse_draw_adjudication("margin=3", b), Catch::Contains("unknown key"));
    // A setting given twice, under one name or two, is refused.
    CHECK_THROWS_WITH(parse_draw_adjudication("after=30,after=40", b),
                      Catch::Contains("after given twice"));
    CHECK_THROWS_WITH(parse_draw_adjudication("after=30,movenumber=20", b),
                      Catch::Contains("movenumber given twice (as after)"));
    CHECK_THROWS_WITH(parse_draw_adjudication("turns=3,movecount=4", b),
                      Catch::Contains("movecount given twice (as turns)"));
    CHECK_THROWS_WITH(parse_draw_adjudication("score=5,score=5", b),
                      Catch::Contains("score given twice"));
    CHECK_THROWS_WITH(parse_draw_adjudication("movenumber=50001", b),
                      Catch::Contains("not a whole number from 0 to 50000"));

    // The same games and settings as the three options spelled out.
    const std::string one = test_cli::fresh_dir("draw_one"), three = test_cli::fresh_dir("draw_3");
    const std::string args = "selfplay --quiet --games 2 --depth 1 --epsilon 0 --openings start ";
    REQUIRE(test_cli::run_cli(args + "--draw-adjudicate after=12,turns=3,score=100000 --out " + one)
                .status == 0);
    REQUIRE(test_cli::run_cli(args + "--draw-margin 100000 --draw-turns 3 --draw-after 12 --out " +
                              three)
                .status == 0);
    CHECK(test_cli::without_times(test_cli::slurp(one + "/games.tsv")) ==
          test_cli::without_times(test_cli::slurp(three + "/games.tsv")));
    CHECK(test_cli::slurp(one + "/settings.json") == test_cli::slurp(three + "/settings.json"));
    const test_cli::Run both = test_cli::run_cli(
        args + "--draw-adjudicate score=5 --draw-margin 5 --out " + test_cli::fresh_dir("draw_x"));
    CHECK(both.status != 0);
    CHECK_THAT(both.output, Catch::Contains("excludes"));
    const test_cli::Run bad = test_cli::run_cli(args + "--draw-adjudicate after=x --out " +
                                                test_cli::fresh_dir("draw_bad"));
    CHECK(bad.status == 1);
    CHECK_THAT(bad.output, Catch::Contains("--draw-adjudicate 'after=x': after=x: not a whole"));
}
