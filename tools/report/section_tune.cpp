// The tuning section: tune.json (data, settings, losses), loss.csv (loss curves) and the
// weights that changed.

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <sstream>

#include "core/weights.h"
#include "selfplay/formats/formats.h"
#include "selfplay/formats/json_text.h"
#include "selfplay/formats/rules_json.h"
#include "tools/report/html.h"
#include "tools/report/sections.h"
#include "tools/report/svg_chart.h"

namespace fanorona::report {

namespace {

using Json = nlohmann::json;

struct Change {
    std::string name;
    double start;
    double final;
};

// A weights file named in tune.json: as written, or by its file name in the tune folder.
std::optional<std::string> find_weights(const std::string& name, const std::string& dir) {
    if (name.empty() || name == "default") return std::nullopt;
    if (auto t = read_text(name)) return t;
    return read_text(dir + "/" + std::filesystem::path(name).filename().string());
}

std::string changes_table(std::vector<Change> changes) {
    std::stable_sort(changes.begin(), changes.end(), [](const Change& a, const Change& b) {
        return std::abs(a.final - a.start) > std::abs(b.final - b.start);
    });
    double biggest = 0;
    for (const auto& c : changes) biggest = std::max(biggest, std::abs(c.final - c.start));
    std::string out = "<table class=\"data\" id=\"weights-changed\"><thead><tr><th>weight</th>"
                      "<th>start</th><th>final</th><th>change</th><th></th></tr></thead><tbody>";
    for (const auto& c : changes) {
        const double delta = c.final - c.start;
        const double w = biggest > 0 ? 50.0 * std::abs(delta) / biggest : 0;
        out += "<tr><td><code>" + esc(c.name) + "</code></td><td class=\"num\">" + num(c.start, 0) +
               "</td><td class=\"num\">" + num(c.final, 0) + "</td><td class=\"num\">" +
               signed_num(delta, 0) + "</td><td class=\"delta\"><span class=\"" +
               (delta < 0 ? "neg" : "pos") +
               fmt("\" style=\"width:%.1f%%;margin-left:%.1f%%\"></span></td></tr>", w,
                   delta < 0 ? 50.0 - w : 50.0);
    }
    return out + "</tbody></table>\n";
}

} // namespace

std::string loss_rows(const nlohmann::json& j) {
    return "<tr><th>training loss</th><td>" + num(number_at(j, "start_train_loss"), 6) +
           " &rarr; " + num(number_at(j, "final_train_loss"), 6) +
           "</td></tr><tr><th>validation loss</th><td>" +
           num(number_at(j, "start_validation_loss"), 6) + " &rarr; " +
           num(number_at(j, "final_validation_loss"), 6) + "</td></tr>";
}

std::string epoch_loss_chart(const std::string& text, const std::string& path, Notes& notes) {
    std::istringstream in(text);
    std::string line;
    if (!std::getline(in, line)) return notes.problem(path + ": empty");
    const auto header = split_csv(line);
    const auto column = [&](const char* name) {
        const auto it = std::find(header.begin(), header.end(), name);
        return it == header.end() ? -1 : int(it - header.begin());
    };
    const int ce = column("epoch"), ct = column("train_loss"), cv = column("validation_loss");
    if (ce < 0 || (ct < 0 && cv < 0))
        return notes.problem(path + ":1: header: expected columns epoch, train_loss, "
                                    "validation_loss");
    Series train{"training loss", "#2f6db8", {}, {}, {}, {}};
    Series validation{"validation loss", "#b8452f", {}, {}, {}, {}};
    std::string problems;
    int line_no = 1;
    while (std::getline(in, line)) {
        ++line_no;
        if (line.empty()) continue;
        const auto cells = split_csv(line);
        const auto cell = [&](int c) {
            return c >= 0 && std::size_t(c) < cells.size()
                       ? parse_double(cells[std::size_t(c)])
                       : std::numeric_limits<double>::quiet_NaN();
        };
        const double epoch = cell(ce);
        if (!std::isfinite(epoch)) {
            if (problems.empty())
                problems =
                    notes.problem(path + ":" + std::to_string(line_no) + ": epoch: not a number");
            continue;
        }
        train.x.push_back(epoch);
        train.y.push_back(cell(ct));
        validation.x.push_back(epoch);
        validation.y.push_back(cell(cv));
    }
    Chart c;
    c.id = "loss-chart";
    c.title = "Loss by epoch";
    c.x_label = "epoch";
    c.y_label = "loss";
    if (ct >= 0) c.series.push_back(train);
    if (cv >= 0) c.series.push_back(validation);
    return problems + chart_svg(c);
}

std::string tune_section(const ReportInputs& in, Notes& notes) {
    std::string out = "<section id=\"tune\">\n<h2>Tuning</h2>\n";
    if (in.tune.empty())
        return out + missing_note("Tuning: not provided (--tune DIR).") + "</section>\n";
    out += "<p class=\"source\">From <code>" + esc(in.tune) + "</code>.</p>\n";
    const std::string json_path = in.tune + "/tune.json", loss_path = in.tune + "/loss.csv";
    if (!file_exists(json_path) && !file_exists(loss_path))
        return out + notes.problem(in.tune + ": no tune.json or loss.csv there") + "</section>\n";
    const auto j = read_json(json_path, notes, out);
    if (j) {
        check_format(*j, json_path, kTuneFormat, notes, out);
        std::string rules;
        try {
            const Rules r = rules_from_json(*j);
            rules = " (" + rules_name(r) + ")";
        } catch (const std::invalid_argument& e) {
            out += notes.problem(json_path + ": " + e.what());
        }
        out += "<table class=\"summary\" id=\"tune-summary\">";
        out += "<tr><th>data</th><td>" +
               esc(j->contains("data") ? to_json_text((*j)["data"]) : "") + esc(rules) +
               "</td></tr>";
        const auto& pos = object_at(*j, "positions");
        out += "<tr><th>positions</th><td>" + num(number_at(pos, "train"), 0) + " training, " +
               num(number_at(pos, "validation"), 0) + " validation (" +
               num(number_at(pos, "read"), 0) + " read, " +
               num(number_at(pos, "skipped_decisive"), 0) + " decisive skipped)</td></tr>";
        out += loss_rows(*j);
        out += "<tr><th>epochs</th><td>" + num(number_at(*j, "epochs"), 0) + " (best " +
               num(number_at(*j, "best_epoch"), 0) + ")" +
               (true_at(*j, "converged") ? ", converged" : "") +
               (true_at(*j, "stopped_early") ? ", stopped early" : "") + ", " +
               num(number_at(*j, "seconds"), 2) + " s</td></tr>";
        if (j->contains("settings"))
            out += "<tr><th>settings</th><td><details><summary>" +
                   std::to_string((*j)["settings"].size()) + " settings</summary>" +
                   fields_table((*j)["settings"]) + "</details></td></tr>";
        out += "</table>\n";
    } else if (!file_exists(json_path)) {
        out += missing_note("tune.json: not provided.");
    }
    if (const auto loss = read_text(loss_path))
        out += "<h3>Loss curves</h3>\n" + epoch_loss_chart(*loss, loss_path, notes);
    else
        out += missing_note("loss.csv: not provided.");

    // The weights that changed: from tune.json, or by comparing the weights files.
    out += "<h3>Weights that changed</h3>\n";
    std::vector<Change> changes;
    bool known = false;
    if (j && j->contains("changed_weights") && (*j)["changed_weights"].is_array()) {
        known = true;
        for (const auto& c : (*j)["changed_weights"])
            changes.push_back({string_at(c, "name"), number_at(c, "start"), number_at(c, "final")});
    } else if (j) {
        const auto start =
            find_weights(string_at(object_at(*j, "settings"), "start_weights"), in.tune);
        const std::string out = j->contains("out_dir") ? string_at(*j, "out_dir") + "/weights.txt"
                                                       : string_at(*j, "out");
        const auto final = find_weights(out, in.tune);
        if (start && final) {
            known = true;
            const auto a = weights_by_name(*start), b = weights_by_name(*final);
            for (const auto& [name, v] : b)
                if (a.contains(name) && a.at(name) != v) changes.push_back({name, a.at(name), v});
        }
    }
    if (!known)
        out += missing_note("Not provided: tune.json has no changed_weights and its weights "
                            "files were not found.");
    else if (changes.empty())
        out += "<p class=\"note\">No weight changed.</p>\n";
    else
        out += changes_table(changes);
    return out + "</section>\n";
}

} // namespace fanorona::report
