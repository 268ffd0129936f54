#pragma once
// `fanorona report`: one self-contained HTML page (no network, no external files) from the
// folders other commands write. Every input is optional; a section whose folder is missing says
// "not provided", and a file that cannot be read gives a note (and a warning) instead of failing.
//
// What is read (docs/formats.md, "Report"):
//
// --loop DIR
//   history.json   `settings` (the loop's settings.json), `iterations` [{iteration, accepted,
//                  selfplay {games, positions, white_wins, draws, black_wins}, tune
//                  {start_validation_loss, final_validation_loss}, match {games, elo,
//                  elo_error95, elo_lower, elo_upper, los[, sprt]}}], `final` and `final_spsa`
//                  {games, elo, elo_error95, elo_lower, elo_upper, weights}
//   settings.json  `selfplay_openings`, `match_openings`, `variant`, `rules`
//   start.txt, iter-N/tune/weights.txt    the start and each tuned set of weights
//   iter-N/selfplay, iter-N/tune, iter-N/match   each shown as --selfplay, --tune and
//                  --tournament are; the opening explorer is built from iter-N/selfplay/games.tsv
//                  when no --opening-stats folder is given
//   openings.txt   the loop's balanced suite (named in the header)
// --selfplay DIR
//   summary.json   `games`, `results` {white_wins, draws, black_wins}, `positions`, `seconds`,
//                  `games_per_second`, `settings` {...}; any other scalar fields are listed too
//   games.tsv      the games file: results, reasons, lengths, each player's time use (the
//                  per-move columns of version 3), and a game viewer
// --tournament DIR
//   results.json   `games`, `pairs`, `scheduled_games`, `complete`, `players` [description...],
//                  `table` {`players` [{rank, name, elo, error95, games, wdl {wins, draws,
//                  losses}, score}], `pairings` [{a, b, wdl, pentanomial, stats {elo,
//                  elo_error95, elo_lower, elo_upper, nelo, nelo_error95, los, draw_ratio}}]},
//                  `sprt` {llr, lower_bound, upper_bound, verdict, test}
//   live.jsonl     one object per game pair: `games`, `players` [a, b], `pairing` {elo,
//                  elo_lower, elo_upper}, `sprt` {llr, lower_bound, upper_bound}
//   games.tsv      the games file, as for self-play
// --opening-stats DIR
//   openings.json  written by `fanorona openings --out` (format "fanorona-openings 1")
// --tune DIR
//   tune.json      `data`, `positions` {...}, `settings` {...}, `start_train_loss`,
//                  `start_validation_loss`, `final_train_loss`, `final_validation_loss`, `epochs`,
//                  `best_epoch`, `changed_weights` [{name, start, final}]; without
//                  `changed_weights`, the weights files `start_weights` (settings) and `out` are
//                  compared instead
//   loss.csv       header `epoch,train_loss,validation_loss[,...]`, one row per epoch
// --spsa DIR
//   spsa.json      `iterations`, `scheduled_iterations`, `batch`, `complete`, `games`,
//                  `games_per_second`, `alpha`, `gamma`, `A`, `base`, `params` [{name, start,
//                  final, value, min, max, c_end, r_end}], `verification` {games, match {elo,
//                  elo_error95, elo_lower, elo_upper}}
//   spsa.csv       header `iteration,pairs,...` then NAME,NAME_c,NAME_a,NAME_flip per parameter
// Null or missing numbers are shown as a dash.

#include <optional>
#include <string>
#include <vector>

namespace fanorona::report {

// The folders to read (empty: not provided) and the page's options.
struct ReportInputs {
    std::string loop; // a loop folder: its overview and every iteration's sections
    std::string selfplay;
    std::string tournament;
    std::string opening_stats; // a `fanorona openings --out` folder (--opening-stats)
    std::string tune;
    std::string spsa;
    std::string title = "Fanorona Lab report";
    int tree_depth = 6;       // opening tree: plies shown
    double tree_share = 0.05; // opening tree: moves chosen by less than this share are folded
    int max_frames = 300;     // game viewer: turns shown per game
    // The tournament's ratings refitted from its results.json with --prior-draws N and
    // --anchor NAME[=ELO] (neither: the table as the run wrote it).
    std::optional<double> prior_draws;
    std::string anchor;
    // The engine log of the run (--log FILE; "": none): each game's lines in the game browser.
    std::string engine_log;
    // A live page (written while the run goes): it reloads itself every this many seconds and
    // says when it was written; 0: the final page, which does not reload.
    int refresh_seconds = 0;
    // The page of one run (a run folder's own report.html): the sections of the inputs given
    // only, without the others' "not provided".
    bool only_given = false;
};

// The page and what went wrong while reading the inputs (one line each, naming the file).
struct Report {
    std::string html;
    std::vector<std::string> warnings;
};

Report build_report(const ReportInputs& inputs);

// Builds the page of `inputs` and writes it to `path` atomically (a reader never sees half a
// page); returns its warnings.
std::vector<std::string> write_report(const ReportInputs& inputs, const std::string& path);

// The inputs of a loop folder's page: the loop, its final match (with the SPSA values when it
// ran SPSA) as the tournament and its SPSA run, from its history.json.
ReportInputs loop_report_inputs(const std::string& loop_dir);

} // namespace fanorona::report
