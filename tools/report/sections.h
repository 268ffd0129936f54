#pragma once
// The sections of the report page and what they share: reading inputs tolerantly, tables, the
// game viewer. Each section returns its <section> element.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "selfplay/formats/games_file.h"
#include "tools/report/report.h"

namespace fanorona::report {

// Collects the problems met while reading inputs; each is also shown where it happened.
struct Notes {
    std::vector<std::string> warnings;
    // Records a warning and returns the HTML note for the page.
    std::string problem(const std::string& text);
};

// The JSON in `path`, or nullopt when the file does not exist (nothing noted) or is malformed
// (noted).
std::optional<nlohmann::json> read_json(const std::string& path, Notes& notes, std::string& html);
// Whether `j` (read from `path`) holds "format": `expected` (selfplay/formats/formats.h); otherwise
// notes a one-line problem naming the file and what this build reads (into `html` too) and returns
// false. The section still shows what it can read.
bool check_format(const nlohmann::json& j, const std::string& path, const char* expected,
                  Notes& notes, std::string& html);
// The text of `path`, or nullopt when it does not exist.
std::optional<std::string> read_text(const std::string& path);
bool file_exists(const std::string& path);

// A number from a JSON value (NaN for null, missing or non-numbers).
double number_at(const nlohmann::json& j, const char* key);
// A whole number from a JSON value: number_at truncated, or `missing` for NaN (null, missing,
// non-numbers) and beyond +-1e9 (so that converting it, or adding 1, is never undefined).
int int_at(const nlohmann::json& j, const char* key, int missing = -1);
double number_of(const nlohmann::json& j);
std::string string_at(const nlohmann::json& j, const char* key);
// The cells of one CSV line (no quoting; a trailing '\r' dropped), and a cell as a number (NaN
// when it is not one).
std::vector<std::string> split_csv(const std::string& line);
double parse_double(const std::string& s);
// The member `key` of `j` when `j` is an object holding it as an object (an array; true), else an
// empty object (an empty array; false): a field of an unexpected type reads as a missing one.
const nlohmann::json& object_at(const nlohmann::json& j, const char* key);
const nlohmann::json& array_at(const nlohmann::json& j, const char* key);
bool true_at(const nlohmann::json& j, const char* key);

// name -> value of a weights file's text (through the one weights parser); empty when the text is
// not a valid weights file.
std::map<std::string, double> weights_by_name(const std::string& text);

// A two-column table of a JSON object's scalar fields; nested objects become "a.b" rows.
std::string fields_table(const nlohmann::json& j, const std::vector<std::string>& skip = {});

// The loss by epoch of a CSV with columns epoch, train_loss, validation_loss (tune's loss.csv,
// train's NET.csv) as a chart; `path` names the file in notes.
std::string epoch_loss_chart(const std::string& text, const std::string& path, Notes& notes);
// The "training loss" and "validation loss" summary rows (start -> final) of a fit's JSON
// (tune's tune.json, train's train.json).
std::string loss_rows(const nlohmann::json& j);

// A horizontal bar of White wins / draws / Black wins.
std::string wdl_bar(double white, double draws, double black);

// Results, reasons and lengths of a games file, each player's time use (its per-move columns:
// a table and a chart of the mean time by turn, with ids ID_PREFIX-timeuse and
// ID_PREFIX-time-by-turn, when any move told one), and a viewer of its first decisive game.
// After the viewer, the game browser of every game (game_browser, id ID_PREFIX-browser) with the
// lines of `engine_log` ("": none).
std::string games_overview(const GamesFile& file, const std::string& id_prefix, int max_frames,
                           Notes& notes, const std::string& engine_log = "");

// The game browser: every game as a row of a table the page's script builds from compact JSON,
// filtered by player, result, end reason and opening; a click shows the game's moves with their
// scores, depths, times and nodes (the first kBrowserDetailedGames games) and its lines of the
// engine log `engine_log` (at most kBrowserLogLines a game; "": no log).
constexpr int kBrowserDetailedGames = 2000;
constexpr int kBrowserLogLines = 200;
constexpr int kBrowserRows = 500; // table rows drawn at once (the rest: narrow the filter)
std::string game_browser(const std::vector<GameRecord>& games, Variant variant,
                         const std::string& id, const std::string& engine_log, Notes& notes);

// The browser's part of the page's script (an IIFE's statements).
extern const char* const kBrowserScript;

// The viewer of one game: every position with the last move and its captures marked (each
// caption with the move's score, ms, depth and nodes when told), stepped through with buttons
// (or the arrow keys), its scores over the game, and each move's time (chart ID-times).
std::string game_viewer(const GameRecord& game, const Rules& rules, const std::string& id,
                        int max_frames, Notes& notes);

// The statistics by kind of game of Vela series runs: one row group per pairing of `rows` (each
// with "players" and SeriesTally's "normal", "vela" and "series"), as a table with id `id`.
std::string vela_series_table(const nlohmann::json& rows, const std::string& id,
                              const std::string& note);

// A section placed again inside another page (the loop's iterations): the <section>'s id becomes
// `id`, every other id gets `prefix` in front, and the heading becomes `heading`.
std::string nest_section(const std::string& html, const std::string& id, const std::string& prefix,
                         const std::string& heading);

// The opening explorer of an openings.json document (format "fanorona-openings 1"): a board and
// the moves of the current position with their statistics, descended by clicking a move and left
// by the back button or the path; positions are keyed by hash (transpositions are one). `source`
// names the input in notes.
std::string opening_explorer(const nlohmann::json& openings, const Rules& rules,
                             const std::string& id, const std::string& source, Notes& notes);

// The explorer's part of the page's script (an IIFE's statements).
extern const char* const kExplorerScript;

// The loop's openings (self-play, matches) as one line of HTML, for the header and the summary.
std::string loop_openings_line(const ReportInputs& in);

std::string loop_section(const ReportInputs& in, Notes& notes);
// Each iteration's self-play, tuning and verification match, with ids iter-N-selfplay,
// iter-N-tune and iter-N-match.
std::string loop_iteration_sections(const ReportInputs& in, Notes& notes);
std::string selfplay_section(const ReportInputs& in, Notes& notes);
std::string tournament_section(const ReportInputs& in, Notes& notes);
std::string openings_section(const ReportInputs& in, Notes& notes);
std::string tune_section(const ReportInputs& in, Notes& notes);
std::string spsa_section(const ReportInputs& in, Notes& notes);

} // namespace fanorona::report
