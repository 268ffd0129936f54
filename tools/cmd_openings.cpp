// `fanorona openings`: the opening tree of games files (text, JSON, CSV), an explorer view of one
// position, and opening suites of balanced positions.

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>

#include "core/common/files.h"
#include "selfplay/formats/json_text.h"
#include "selfplay/formats/weights_file.h"
#include "selfplay/openings/opening_book.h"
#include "selfplay/openings/opening_output.h"
#include "selfplay/openings/openings.h"
#include "selfplay/openings/search_book.h"
#include "tools/commands.h"
#include "tools/options.h"

namespace fanorona::cli {

namespace {

// "LOW:HIGH" of a range of whole centi-pieces.
std::string range_text(ScoreRange r) {
    return std::to_string(int(r.low)) + ":" + std::to_string(int(r.high));
}

struct OpeningsOptions {
    std::vector<std::string> games;
    int turns = 8;
    std::uint64_t min_games = 1;
    std::string game_rules; // "": the normal games (not the Vela games of Vela series)
    int width = 3;
    double min_share = 0.15;
    std::string out;
    std::string explore;
    std::string book;
    std::string balanced = "0.4:0.6";
    // --by-search
    bool by_search = false;
    BoardOptions board;
    int depth = kBalancedDepth;
    std::string balanced_cp = range_text(kBalancedRange);
    // --turns: without it, --by-search takes kBalancedTurns.
    const CLI::Option* turns_option = nullptr;
    std::string weights = "default";
    int threads = 0;
};

// Writes a result file whole (through a temporary file), creating its folder when missing.
void write_file(const std::filesystem::path& path, const std::string& text) {
    if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
    write_file_atomically(path.string(), text);
}

// --book with --by-search: every position after P turns, scored by a short search.
void run_search_book(const OpeningsOptions& o) {
    if (o.book.empty())
        throw std::invalid_argument("--by-search: give the suite to write with --book");
    if (!o.games.empty()) throw std::invalid_argument("--by-search: does not read games files");
    const ScoreRange range = parse_range(o.balanced_cp, "--balanced-cp");
    const Rules rules = o.board.make_rules();
    const Weights weights = load_weights_file(o.weights);
    const auto t0 = std::chrono::steady_clock::now();
    auto openings = enumerate_openings(rules, o.turns);
    score_openings(openings, OpeningScoring{rules, weights, o.depth, 2, o.threads});
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const auto entries = balanced_search_book(openings, range);
    char header[200];
    std::snprintf(header, sizeof header,
                  "positions after %d turns (%s, %s rules) whose depth-%d search score is in "
                  "[%g, %g] centi-pieces (White's view), weights %s",
                  o.turns, o.board.variant.c_str(), o.board.rules.c_str(), o.depth, range.low,
                  range.high, weights_display_name(o.weights).c_str());
    write_file(o.book, format_book(entries, {"fanorona opening suite: " + std::string(header)}));
    if (!o.out.empty()) {
        std::filesystem::create_directories(o.out);
        std::string csv = "line,position,score,depth,kept\n";
        for (const auto& s : openings) {
            std::string line;
            for (const auto& m : s.moves) line += (line.empty() ? "" : " ") + m;
            csv += line + "," + s.position.to_string() + "," + std::to_string(s.score) + "," +
                   std::to_string(s.depth) + "," + (range.contains(s.score) ? "1" : "0") + "\n";
        }
        write_file(std::filesystem::path(o.out) / "search_scores.csv", csv);
    }
    std::printf("scored %zu positions after %d turns at depth %d in %.1f s; wrote %zu openings "
                "with scores in [%g, %g] to %s\n",
                openings.size(), o.turns, o.depth, secs, entries.size(), range.low, range.high,
                o.book.c_str());
}

void run_openings(OpeningsOptions& o) {
    if (o.by_search && o.turns_option->count() == 0) o.turns = kBalancedTurns;
    if (o.by_search) return run_search_book(o);
    if (o.games.empty())
        throw std::invalid_argument("give at least one games file: fanorona openings GAMES.tsv...");
    const OpeningTree tree =
        o.game_rules.empty() ? build_opening_tree(o.games, o.turns)
                             : build_opening_tree(o.games, o.turns, *parse_ruleset(o.game_rules));
    OpeningView view;
    view.min_games = o.min_games;
    view.width = o.width;
    view.min_share = o.min_share;

    if (!o.out.empty()) {
        const std::filesystem::path dir(o.out);
        std::filesystem::create_directories(dir);
        write_file(dir / "openings.json", to_json_text(opening_tree_json(tree, view), 1) + "\n");
        write_file(dir / "positions.csv", opening_positions_csv(tree, view));
        write_file(dir / "moves.csv", opening_moves_csv(tree, view));
        write_file(dir / "tree.txt", opening_text_tree(tree, view));
    }
    if (!o.book.empty()) {
        const ScoreRange range = parse_range(o.balanced, "--balanced");
        const auto entries = balanced_book(tree, o.min_games, range);
        char header[200];
        std::snprintf(header, sizeof header,
                      "positions after %d turns with White's score in [%g, %g] and at least "
                      "%llu games",
                      o.turns, range.low, range.high, (unsigned long long)o.min_games);
        std::string files;
        for (const auto& g : o.games) files += " " + g;
        write_file(o.book, format_book(entries, {"fanorona opening suite: " + std::string(header),
                                                 "from" + files}));
        std::printf("wrote %zu openings to %s\n", entries.size(), o.book.c_str());
    }
    if (!o.explore.empty()) {
        const auto openings = parse_opening_suite(o.explore, tree.rules(), "--explore");
        Position pos = openings.front().start;
        for (const Move& m : openings.front().moves) pos.make_move(m);
        const OpeningNode* node = tree.find(pos);
        if (!node)
            throw std::invalid_argument("--explore: position " + board_string(pos) +
                                        " is not in the tree (no game reached it in the first " +
                                        std::to_string(o.turns) + " turns)");
        std::fputs(explore_text(tree, *node, view).c_str(), stdout);
    } else if (o.book.empty()) {
        std::fputs(opening_text_tree(tree, view).c_str(), stdout);
    }
}

} // namespace

void add_openings_command(CLI::App& app) {
    auto o = std::make_shared<OpeningsOptions>();
    auto* cmd = app.add_subcommand(
        "openings", "Opening statistics from games files: the opening tree (text, JSON, CSV), an "
                    "explorer view of one position, and suites of balanced openings");
    declare_path(cmd->add_option("games", o->games,
                                 "Games files (games.tsv of self-play or tournaments) to read")
                     ->check(CLI::ExistingFile),
                 PathRole::InputFile);
    declare_path(
        cmd->add_option("--game-rules", o->game_rules,
                        "Only games played under these rules (a Vela series file holds normal and "
                        "Vela games: --game-rules vela reads the Vela games alone; default: the "
                        "normal games)")
            ->check(CLI::IsMember({"standard", "firstturn", "vela"})),
        PathRole::NotAPath);
    o->turns_option = cmd->add_option("--turns", o->turns,
                                      "Build the tree of the first N turns of each game (with "
                                      "--by-search: the positions after N turns, default " +
                                          std::to_string(kBalancedTurns) + ")")
                          ->check(CLI::Range(0, 200))
                          ->capture_default_str();
    cmd->add_option("--min-games", o->min_games,
                    "Leave out positions and moves played in fewer than K games")
        ->capture_default_str();
    declare_path(
        cmd->add_option(
            "--out", o->out,
            "Output folder (created): openings.json, positions.csv, moves.csv and tree.txt"),
        PathRole::OutputFolder, {"openings.json", "positions.csv", "moves.csv", "tree.txt"});
    cmd->add_option("--width", o->width, "Text tree: list at most this many moves per position")
        ->check(CLI::Range(1, 1000))
        ->capture_default_str();
    cmd->add_option("--min-share", o->min_share,
                    "Text tree: follow a move's line only if at least this share of the "
                    "position's games chose it")
        ->check(CLI::Range(0.0, 1.0))
        ->capture_default_str();
    cmd->add_option("--explore", o->explore,
                    "Print the statistics of every move of one position: a position string or a "
                    "move list from the start position (quoted)");
    declare_path(cmd->add_option(
                     "--book", o->book,
                     "Write an opening suite (one opening per line) of the positions after --turns "
                     "turns whose White score is within --balanced"),
                 PathRole::OutputFile);
    cmd->add_option("--balanced", o->balanced,
                    "With --book: keep positions whose White score (win 1, draw 0.5) lies in "
                    "LOW:HIGH")
        ->capture_default_str();
    cmd->add_flag("--by-search", o->by_search,
                  "With --book: instead of games, take every distinct position after --turns "
                  "turns from the start position, score each with a search of --depth, and keep "
                  "those within --balanced-cp");
    // --variant and --rules, for --by-search (games files name theirs)
    o->board.add_to(*cmd, false);
    cmd->add_option("--depth", o->depth, "With --by-search: search depth per position")
        ->check(CLI::Range(1, 30))
        ->capture_default_str();
    cmd->add_option("--balanced-cp", o->balanced_cp,
                    "With --by-search: keep positions whose score (centi-pieces, White's view) "
                    "lies in LOW:HIGH")
        ->capture_default_str();
    declare_path(cmd->add_option("--weights", o->weights,
                                 "With --by-search: " + weights_option_help("weights"))
                     ->capture_default_str(),
                 PathRole::InputFile);
    add_threads_option(*cmd, o->threads);
    cmd->callback([o] { run_openings(*o); });
}

} // namespace fanorona::cli
