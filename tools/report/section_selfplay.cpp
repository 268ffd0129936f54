// The self-play section: summary.json and games.tsv of a `fanorona selfplay` run.

#include "selfplay/formats/formats.h"
#include "tools/report/html.h"
#include "tools/report/sections.h"

namespace fanorona::report {

std::string selfplay_section(const ReportInputs& in, Notes& notes) {
    std::string out = "<section id=\"selfplay\">\n<h2>Self-play</h2>\n";
    if (in.selfplay.empty())
        return out + missing_note("Self-play: not provided (--selfplay DIR).") + "</section>\n";
    out += "<p class=\"source\">From <code>" + esc(in.selfplay) + "</code>.</p>\n";
    const std::string summary_path = in.selfplay + "/summary.json";
    const std::string games_path = in.selfplay + "/games.tsv";
    if (!file_exists(summary_path) && !file_exists(games_path))
        return out + notes.problem(in.selfplay + ": no summary.json or games.tsv there") +
               "</section>\n";
    if (const auto j = read_json(summary_path, notes, out)) {
        check_format(*j, summary_path, kSelfplaySummaryFormat, notes, out);
        const auto& r = (*j).contains("results") ? (*j)["results"] : nlohmann::json::object();
        const double w = number_at(r, "white_wins"), d = number_at(r, "draws"),
                     b = number_at(r, "black_wins");
        out += "<h3>Summary</h3>\n<table class=\"summary\" id=\"selfplay-summary\">";
        out += "<tr><th>games</th><td>" + num(number_at(*j, "games"), 0) + "</td></tr>";
        out += "<tr><th>results</th><td>White " + num(w, 0) + ", draws " + num(d, 0) + ", Black " +
               num(b, 0) + " " + wdl_bar(w, d, b) + "</td></tr>";
        out +=
            "<tr><th>positions logged</th><td>" + num(number_at(*j, "positions"), 0) + "</td></tr>";
        out += "<tr><th>time</th><td>" + num(number_at(*j, "seconds"), 1) + " s, " +
               num(number_at(*j, "games_per_second"), 2) + " games/s</td></tr>";
        if (j->contains("settings"))
            out += "<tr><th>settings</th><td><details><summary>" +
                   std::to_string((*j)["settings"].size()) + " settings</summary>" +
                   fields_table((*j)["settings"]) + "</details></td></tr>";
        out += "</table>\n";
        if (j->contains("series") && (*j)["series"].is_object()) {
            nlohmann::json row = (*j)["series"];
            row["players"] = {"first player", "second player"};
            out += vela_series_table(nlohmann::json::array({row}), "selfplay-vela-series-table",
                                     "In self-play both players are the same engine.");
        }
        out += "<details><summary>Every field of summary.json</summary>" + fields_table(*j) +
               "</details>\n";
    }
    if (file_exists(games_path)) {
        try {
            const GamesFile file = read_games_file(games_path);
            out += "<h3>Games</h3>\n" +
                   games_overview(file, "selfplay", in.max_frames, notes, in.engine_log);
        } catch (const std::exception& e) {
            out += notes.problem(e.what());
        }
    }
    return out + "</section>\n";
}

} // namespace fanorona::report
