// The SPSA section: spsa.json (the run, the tuned values, the verification match) and spsa.csv
// (one chart of each parameter's history).

#include <cmath>
#include <limits>
#include <sstream>

#include "selfplay/formats/formats.h"
#include "tools/report/html.h"
#include "tools/report/sections.h"
#include "tools/report/svg_chart.h"

namespace fanorona::report {

namespace {

using Json = nlohmann::json;

// One chart per tuned value: theta by game pairs, with the start value as a reference line.
// The parameters are the csv's columns followed by NAME_c (see docs/formats.md).
std::string history_charts(const std::string& text, const std::string& path, Notes& notes) {
    std::istringstream in(text);
    std::string line;
    if (!std::getline(in, line)) return notes.problem(path + ": empty");
    const auto header = split_csv(line);
    int pairs_col = -1;
    std::vector<int> cols;
    for (std::size_t i = 0; i < header.size(); ++i) {
        if (header[i] == "pairs") pairs_col = int(i);
        if (i + 1 < header.size() && header[i + 1] == header[i] + "_c") cols.push_back(int(i));
    }
    if (pairs_col < 0 || cols.empty())
        return notes.problem(path + ":1: header: expected columns pairs and NAME, NAME_c, ...");
    std::vector<Series> series(cols.size());
    std::string problems;
    int line_no = 1;
    while (std::getline(in, line)) {
        ++line_no;
        if (line.empty()) continue;
        const auto cells = split_csv(line);
        const auto cell = [&](int c) {
            return std::size_t(c) < cells.size() ? parse_double(cells[std::size_t(c)])
                                                 : std::numeric_limits<double>::quiet_NaN();
        };
        const double x = cell(pairs_col);
        if (!std::isfinite(x)) {
            if (problems.empty())
                problems =
                    notes.problem(path + ":" + std::to_string(line_no) + ": pairs: not a number");
            continue;
        }
        for (std::size_t p = 0; p < cols.size(); ++p) {
            series[p].x.push_back(x);
            series[p].y.push_back(cell(cols[p]));
        }
    }
    std::string out = problems + "<div class=\"charts\">\n";
    for (std::size_t p = 0; p < cols.size(); ++p) {
        const std::string& name = header[std::size_t(cols[p])];
        Chart c;
        c.id = "spsa-chart-" + name;
        c.title = name;
        c.x_label = "game pairs";
        c.y_label = "value";
        c.width = 420;
        c.height = 220;
        series[p].name = name;
        series[p].color = "#2f6db8";
        if (!series[p].y.empty() && std::isfinite(series[p].y.front()))
            c.lines.push_back({"start", "#999999", series[p].y.front()});
        c.series.push_back(series[p]);
        out += chart_svg(c);
    }
    return out + "</div>\n";
}

std::string params_table(const Json& params) {
    std::string out = "<table class=\"data\" id=\"spsa-params\"><thead><tr><th>parameter</th>"
                      "<th>start</th><th>final</th><th>plays</th><th>range</th><th>c_end</th>"
                      "<th>r_end</th></tr></thead><tbody>";
    for (const auto& p : params)
        out += "<tr><td><code>" + esc(string_at(p, "name")) + "</code></td><td class=\"num\">" +
               num(number_at(p, "start"), 2) + "</td><td class=\"num\">" +
               num(number_at(p, "final"), 2) + "</td><td class=\"num\">" +
               num(number_at(p, "value"), 0) + "</td><td class=\"num\">[" +
               num(number_at(p, "min"), 0) + ", " + num(number_at(p, "max"), 0) +
               "]</td><td class=\"num\">" + num(number_at(p, "c_end"), 2) +
               "</td><td class=\"num\">" + num(number_at(p, "r_end"), 4) + "</td></tr>";
    return out + "</tbody></table>\n";
}

} // namespace

std::string spsa_section(const ReportInputs& in, Notes& notes) {
    std::string out = "<section id=\"spsa\">\n<h2>SPSA</h2>\n";
    if (in.spsa.empty())
        return out + missing_note("SPSA: not provided (--spsa DIR).") + "</section>\n";
    out += "<p class=\"source\">From <code>" + esc(in.spsa) + "</code>.</p>\n";
    const std::string json_path = in.spsa + "/spsa.json", csv_path = in.spsa + "/spsa.csv";
    if (!file_exists(json_path) && !file_exists(csv_path))
        return out + notes.problem(in.spsa + ": no spsa.json or spsa.csv there") + "</section>\n";
    const auto j = read_json(json_path, notes, out);
    if (j) {
        check_format(*j, json_path, kSpsaSummaryFormat, notes, out);
        out += "<table class=\"summary\" id=\"spsa-summary\">";
        out += "<tr><th>iterations</th><td>" + num(number_at(*j, "iterations"), 0) + " of " +
               num(number_at(*j, "scheduled_iterations"), 0) + " (" +
               num(number_at(*j, "batch"), 0) + " game pairs each)" +
               (j->value("complete", false) ? "" : ", incomplete") + "</td></tr>";
        out += "<tr><th>games</th><td>" + num(number_at(*j, "games"), 0) + " (" +
               num(number_at(*j, "games_per_second"), 2) + " games/s)</td></tr>";
        out += "<tr><th>schedule</th><td>alpha " + num(number_at(*j, "alpha"), 3) + ", gamma " +
               num(number_at(*j, "gamma"), 3) + ", A " + num(number_at(*j, "A"), 1) + "</td></tr>";
        out += "<tr><th>engine</th><td><code>" + esc(string_at(*j, "base")) + "</code></td></tr>";
        const Json& v = j->value("verification", Json());
        if (v.is_object()) {
            const Json& m = v.value("match", Json::object());
            out += "<tr><th>verification</th><td>tuned vs start, " + num(number_at(v, "games"), 0) +
                   " games: Elo " + signed_num(number_at(m, "elo"), 1) + " &plusmn; " +
                   num(number_at(m, "elo_error95"), 1) +
                   " (95%: " + num(number_at(m, "elo_lower"), 1) + " to " +
                   num(number_at(m, "elo_upper"), 1) + ")</td></tr>";
        }
        out += "</table>\n";
        if (j->contains("params") && (*j)["params"].is_array())
            out += "<h3>Tuned values</h3>\n" + params_table((*j)["params"]);
    } else if (!file_exists(json_path)) {
        out += missing_note("spsa.json: not provided.");
    }
    if (const auto csv = read_text(csv_path))
        out += "<h3>Parameter history</h3>\n" + history_charts(*csv, csv_path, notes);
    else
        out += missing_note("spsa.csv: not provided.");
    return out + "</section>\n";
}

} // namespace fanorona::report
