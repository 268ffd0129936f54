// Opening statistics: counts on hand-made games, transpositions, balanced books, bad input.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>

#include <sys/wait.h>

#include <nlohmann/json.hpp>

#include "core/board/notation.h"
#include "core/board/playout.h"
#include "core/common/text.h"
#include "core/search.h"
#include "core/weights.h"
#include "selfplay/openings/opening_book.h"
#include "selfplay/openings/opening_output.h"
#include "selfplay/openings/openings.h"
#include "selfplay/openings/search_book.h"

using namespace fanorona;

namespace {

const std::string kData = std::string(FANORONA_TEST_DATA) + "/openings/";

Position after(const std::string& moves, Variant v = Variant::Tsivy,
               const std::string& start = "") {
    Rules rules;
    rules.variant = v;
    Position pos = start.empty() ? Position::start(v) : Position::from_string(start, v);
    std::istringstream in(moves);
    for (std::string m; in >> m;) pos.make_move(parse_move(pos, rules, m));
    return pos;
}

Position after_moves(const Opening& o) {
    Position pos = o.start;
    for (const Move& m : o.moves) pos.make_move(m);
    return pos;
}

std::string read_text(const std::filesystem::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// Runs the fanorona binary with `args`; returns the exit code and fills stdout and stderr.
int run_fanorona(const std::string& args, std::string& out, std::string& err) {
    const auto dir = std::filesystem::temp_directory_path();
    const auto o = dir / ("openings_test_out_" + std::to_string(std::rand()));
    const auto e = dir / ("openings_test_err_" + std::to_string(std::rand()));
    const std::string cmd =
        std::string(FANORONA_BINARY) + " " + args + " >" + o.string() + " 2>" + e.string();
    const int status = std::system(cmd.c_str());
    out = read_text(o);
    err = read_text(e);
    std::filesystem::remove(o);
    std::filesystem::remove(e);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

} // namespace

TEST_CASE("opening tree counts games, results, lengths, shares and scores", "[openings]") {
    const OpeningTree tree = build_opening_tree({kData + "small.tsv"}, 2);
    REQUIRE(tree.games() == 5);
    REQUIRE(tree.roots().size() == 1);

    const OpeningNode* root = tree.find(Position::start(Variant::Tsivy));
    REQUIRE(root);
    CHECK(root->ply == 0);
    CHECK(root->stats.games == 5);
    CHECK(root->stats.white_wins == 2);
    CHECK(root->stats.draws == 1);
    CHECK(root->stats.black_wins == 2);
    CHECK(root->stats.score() == Approx(0.5));
    CHECK(root->stats.avg_length() == Approx(11.0 / 5));
    // Only game 0 carries a score on the first move.
    REQUIRE(root->stats.avg_eval());
    CHECK(*root->stats.avg_eval() == Approx(10));
    CHECK(root->stats.eval_games == 1);

    REQUIRE(root->moves.size() == 2);
    const OpeningMove& main = root->moves[0]; // most games first
    CHECK(main.move == "d3e3A");              // "D3E3a" of game 4 is the same move
    CHECK(main.stats.games == 4);
    CHECK(main.stats.white_wins == 1);
    CHECK(main.stats.draws == 1);
    CHECK(main.stats.black_wins == 2);
    CHECK(main.stats.score() == Approx(0.375));
    CHECK(main.child == after("d3e3A").hash());
    CHECK(root->moves[1].move == "d2e3A");
    CHECK(root->moves[1].stats.games == 1);

    const OpeningNode* n1 = tree.find(after("d3e3A"));
    REQUIRE(n1);
    CHECK(n1->stats.games == 4);
    CHECK(*n1->stats.avg_eval() == Approx((-20 + 5) / 2.0)); // the scores of move 2
    CHECK(n1->find_move("c3d3A")->stats.games == 3);
    CHECK(n1->find_move("f4f3A")->stats.games == 1);

    // The tree stops after two turns: the leaf has results but no moves.
    const OpeningNode* leaf = tree.find(after("d3e3A c3d3A"));
    REQUIRE(leaf);
    CHECK(leaf->ply == 2);
    CHECK(leaf->stats.games == 3);
    CHECK(leaf->stats.white_wins == 1);
    CHECK(leaf->stats.black_wins == 2);
    CHECK(leaf->moves.empty());
    CHECK(leaf->line == std::vector<std::string>{"d3e3A", "c3d3A"});
    CHECK_FALSE(tree.find(after("d3e3A c3d3A f2e3A")));

    // A game that ended after one turn counts at its last position and not further.
    const OpeningNode* short_game = tree.find(after("d2e3A"));
    REQUIRE(short_game);
    CHECK(short_game->stats.games == 1);
    CHECK(short_game->moves.empty());
}

TEST_CASE("transpositions are merged into one position", "[openings]") {
    const OpeningTree tree = build_opening_tree({kData + "small.tsv", kData + "transpose.tsv"}, 3);
    CHECK(tree.games() == 8);
    REQUIRE(tree.roots().size() == 2);
    const std::string start = "6B1B/9/9/9/W1W6 w";
    const Position a = after("a1a2 i5i4 c1c2", Variant::Tsivy, start);
    const Position b = after("c1c2 i5i4 a1a2", Variant::Tsivy, start);
    REQUIRE(a.hash() == b.hash());
    const OpeningNode* node = tree.find(a);
    REQUIRE(node);
    CHECK(node->stats.games == 3); // two move orders, three games
    CHECK(node->stats.white_wins == 1);
    CHECK(node->stats.draws == 1);
    CHECK(node->stats.black_wins == 1);
    CHECK(node->stats.score() == Approx(0.5));
    CHECK(node->root == start);
    // Both parents lead to it.
    CHECK(tree.find(after("a1a2 i5i4", Variant::Tsivy, start))->find_move("c1c2")->child ==
          node->hash);
    CHECK(tree.find(after("c1c2 i5i4", Variant::Tsivy, start))->find_move("a1a2")->child ==
          node->hash);
    // Not from the start position: a suite names it by its position string.
    CHECK(opening_of(*node, Variant::Tsivy) == node->position);
    CHECK(opening_of(*tree.find(after("d3e3A c3d3A")), Variant::Tsivy) == "d3e3A c3d3A");
}

TEST_CASE("a game repeating a position counts there once", "[openings]") {
    Rules rules;
    OpeningTree tree(rules, 6);
    GameRecord g;
    g.white = g.black = "x";
    g.result = GameResult::WhiteWins;
    g.reason = "adjudication";
    g.start = "6B1B/9/9/9/W1W6 w";
    g.moves = {"a1a2", "i5i4", "a2a1", "i4i5", "a1a2", "i5i4"};
    tree.add_game(g, "test");
    tree.finish();
    const OpeningNode* root = tree.find(Position::from_string(g.start, Variant::Tsivy));
    REQUIRE(root);
    CHECK(root->stats.games == 1);
    REQUIRE(root->moves.size() == 1);
    CHECK(root->moves[0].stats.games == 1);
}

TEST_CASE("JSON and CSV carry the same statistics", "[openings]") {
    const OpeningTree tree = build_opening_tree({kData + "small.tsv"}, 2);
    OpeningView view;
    view.min_games = 2;
    const auto j = opening_tree_json(tree, view);
    CHECK(j["games"] == 5);
    CHECK(j["plies"] == 2);
    // Positions with fewer than two games are left out: root, after d3e3A, after d3e3A c3d3A.
    REQUIRE(j["positions"].size() == 3);
    const auto& root = j["positions"][0];
    CHECK(root["hash"] == hash_hex(Position::start(Variant::Tsivy).hash()));
    CHECK(root["games"] == 5);
    REQUIRE(root["moves"].size() == 1); // d2e3A has one game
    CHECK(root["moves"][0]["move"] == "d3e3A");
    CHECK(root["moves"][0]["share"].get<double>() == Approx(0.8));
    CHECK(root["moves"][0]["avg_eval"].get<double>() == Approx(10));
    // The leaf's eval is the score of the move played from it (game 0's third move).
    CHECK(j["positions"][2]["avg_eval"].get<double>() == Approx(30));
    CHECK(j["positions"][2]["eval_games"] == 1);

    const std::string csv = opening_positions_csv(tree, view);
    CHECK(std::count(csv.begin(), csv.end(), '\n') == 4); // header + 3
    CHECK(
        csv.find(",1,BBBBBBBBB/BBBBBBBBB/BWB1W1WBW/WWWWWWWWW/WWWWWWWWW b,d3e3A,4,1,1,2,0.3750,") !=
        std::string::npos);
    const std::string moves = opening_moves_csv(tree, view);
    CHECK(moves.find(",0,d3e3A," + hash_hex(after("d3e3A").hash()) + ",0.8000,4,1,1,2,") !=
          std::string::npos);
}

TEST_CASE("a balanced book holds exactly the positions within its bounds", "[openings]") {
    // Random games on the small board, counted again here by replaying them directly.
    Rules rules;
    rules.variant = Variant::Dimy;
    const int plies = 2;
    std::mt19937_64 rng(7);
    std::vector<GameRecord> games;
    OpeningTree tree(rules, plies);
    for (int i = 0; i < 400; ++i) {
        Game game(rules, Position::start(Variant::Dimy));
        GameRecord r;
        r.index = std::uint64_t(i);
        r.white = r.black = "random";
        r.start = game.start().to_string();
        random_playout(game, {.max_turns = 40}, [&rng](const Game&, const MoveList& list) {
            return rng() % std::uint64_t(list.size());
        });
        r.moves = split_words(game.moves_string());
        const Outcome o = game.outcome();
        r.result = o.over() ? o.result : GameResult::Draw;
        r.reason = o.over() ? std::string(end_reason_name(o.reason)) : "length-cap";
        tree.add_game(r, "game " + std::to_string(i));
        games.push_back(std::move(r));
    }
    tree.finish();

    const ScoreRange range = parse_range("0.4:0.6", "--balanced");
    const std::uint64_t min_games = 5;
    const auto book = balanced_book(tree, min_games, range);
    REQUIRE(!book.empty());
    const auto suite = parse_opening_suite(format_book(book, {"test"}), rules, "book");
    REQUIRE(suite.size() == book.size());

    // Every position after `plies` turns: its games and score, counted by replaying.
    std::map<Key, std::pair<int, double>> truth;
    for (const GameRecord& g : games) {
        if (g.moves.size() < std::size_t(plies)) continue;
        Position pos = Position::start(Variant::Dimy);
        for (int i = 0; i < plies; ++i) pos.make_move(parse_move(pos, rules, g.moves[i]));
        auto& [n, points] = truth[pos.hash()];
        ++n;
        points += g.result == GameResult::WhiteWins ? 1.0 : g.result == GameResult::Draw ? 0.5 : 0;
    }
    std::set<Key> in_book;
    for (const Opening& o : suite) {
        CHECK(o.start == Position::start(Variant::Dimy)); // written as a move list
        REQUIRE(o.moves.size() == std::size_t(plies));
        const Position pos = after_moves(o);
        in_book.insert(pos.hash());
        const auto it = truth.find(pos.hash());
        REQUIRE(it != truth.end());
        const auto [n, points] = it->second;
        CHECK(n >= int(min_games));
        CHECK(points / n >= 0.4);
        CHECK(points / n <= 0.6);
    }
    // Nothing balanced with enough games was left out.
    for (const auto& [hash, counts] : truth) {
        const double score = counts.second / counts.first;
        const bool should = counts.first >= int(min_games) && score >= 0.4 && score <= 0.6;
        CHECK(should == in_book.contains(hash));
    }
    // Most games first.
    for (std::size_t i = 1; i < suite.size(); ++i) {
        CHECK(tree.find(after_moves(suite[i - 1]))->stats.games >=
              tree.find(after_moves(suite[i]))->stats.games);
    }
}

TEST_CASE("score ranges are checked", "[openings]") {
    CHECK(parse_range("0.45:0.55", "x").low == Approx(0.45));
    CHECK(parse_range("-30:30", "x").high == Approx(30));
    CHECK_THROWS_WITH(parse_range("0.6:0.4", "--balanced"),
                      Catch::Contains("--balanced") && Catch::Contains("greater"));
    CHECK_THROWS_WITH(parse_range("0.5", "--balanced"), Catch::Contains("LOW:HIGH"));
    CHECK_THROWS_WITH(parse_range("a:b", "--balanced"), Catch::Contains("numbers"));
}

TEST_CASE("malformed and illegal games are reported with their line", "[openings]") {
    CHECK_THROWS_WITH(build_opening_tree({kData + "illegal.tsv"}, 4),
                      Catch::Contains("illegal.tsv:4: moves: move 2 'e5e4A'"));
    CHECK_THROWS_WITH(build_opening_tree({kData + "bad_result.tsv"}, 4),
                      Catch::Contains("bad_result.tsv:5: result"));
    // Past the tree's depth moves are not replayed.
    CHECK_NOTHROW(build_opening_tree({kData + "illegal.tsv"}, 1));
}

TEST_CASE("fanorona openings writes files, explores and writes a book", "[openings][cli]") {
    const auto dir = std::filesystem::temp_directory_path() / "fanorona_openings_cli_test";
    std::filesystem::remove_all(dir);
    std::string out, err;
    REQUIRE(run_fanorona("openings " + kData + "small.tsv " + kData +
                             "transpose.tsv --turns 3 --out " + dir.string(),
                         out, err) == 0);
    CHECK(out.find("1. d3e3A") != std::string::npos);
    CHECK(out.find("(transposition, see above)") != std::string::npos);
    for (const char* f : {"openings.json", "positions.csv", "moves.csv", "tree.txt"})
        CHECK(std::filesystem::exists(dir / f));
    const auto j = nlohmann::json::parse(read_text(dir / "openings.json"));
    CHECK(j["format"] == "fanorona-openings 1");
    CHECK(j["games"] == 8);

    REQUIRE(run_fanorona("openings " + kData + "small.tsv --turns 3 --explore 'd3e3A'", out, err) ==
            0);
    CHECK(out.find("c3d3A") != std::string::npos);
    CHECK(out.find("f4f3A") != std::string::npos);

    const auto book = dir / "book.txt";
    REQUIRE(run_fanorona("openings " + kData + "transpose.tsv --turns 3 --book " + book.string() +
                             " --balanced 0.5:0.5",
                         out, err) == 0);
    const std::string text = read_text(book);
    const auto suite = read_opening_file(book.string(), Rules{});
    REQUIRE(suite.size() == 1);
    CHECK(suite[0].moves.empty()); // a position string
    CHECK(suite[0].start.hash() ==
          after("a1a2 i5i4 c1c2", Variant::Tsivy, "6B1B/9/9/9/W1W6 w").hash());
    CHECK(text.find("games=3 score=0.500") != std::string::npos);

    CHECK(run_fanorona("openings " + kData + "illegal.tsv --turns 4", out, err) == 1);
    CHECK(err.find("fanorona: ") == 0);
    CHECK(err.find("illegal.tsv:4:") != std::string::npos);
    std::filesystem::remove_all(dir);
}

TEST_CASE("a book by search keeps the balanced positions after P turns", "[openings][search]") {
    Rules rules;
    rules.variant = Variant::Dimy;
    auto openings = enumerate_openings(rules, 2);
    // Distinct positions, each reached by its move list.
    std::set<Key> seen;
    std::set<Key> truth;
    {
        MoveList first;
        Position start = Position::start(Variant::Dimy);
        generate_moves(start, rules, first);
        for (const Move& a : first) {
            Position p = start;
            p.make_move(a);
            MoveList second;
            generate_moves(p, rules, second);
            for (const Move& b : second) {
                Position q = p;
                q.make_move(b);
                if (count_moves(q, rules) > 0) truth.insert(q.hash());
            }
        }
    }
    for (const auto& o : openings) {
        CHECK(seen.insert(o.position.hash()).second);
        std::string line;
        for (const auto& m : o.moves) line += " " + m;
        CHECK(after(line, Variant::Dimy).hash() == o.position.hash());
    }
    CHECK(seen == truth);

    auto again = openings;
    score_openings(openings, OpeningScoring{rules, handset_weights(), 3, 2, 1});
    score_openings(again, OpeningScoring{rules, handset_weights(), 3, 2, 2});
    for (std::size_t i = 0; i < openings.size(); ++i) {
        CHECK(openings[i].score == again[i].score);
        CHECK(openings[i].depth == 3);
    }
    // White's point of view: after two turns White is to move, so the search's own score.
    Searcher searcher(2);
    Game game(rules, Position::start(Variant::Dimy));
    for (const auto& m : openings[0].moves) game.play(m);
    SearchLimits limits;
    limits.depth = 3;
    CHECK(searcher.search(game, limits).score == openings[0].score);

    const ScoreRange range{-40, 40};
    const auto book = balanced_search_book(openings, range);
    std::size_t inside = 0;
    for (const auto& o : openings) inside += range.contains(o.score);
    REQUIRE(book.size() == inside);
    const auto suite = parse_opening_suite(format_book(book, {}), rules, "book");
    int last = 0;
    for (const Opening& o : suite) {
        const Position pos = after_moves(o);
        const auto it = std::find_if(openings.begin(), openings.end(), [&](const auto& s) {
            return s.position.hash() == pos.hash();
        });
        REQUIRE(it != openings.end());
        CHECK(range.contains(it->score));
        CHECK(std::abs(it->score) >= last); // most balanced first
        last = std::abs(it->score);
    }
}
