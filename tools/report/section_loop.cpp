// The loop's sections: the overview of a `fanorona loop` folder (history.json: the iterations,
// their matches' Elo, the validation losses, the weights that moved) and each iteration's own
// self-play, tuning and verification match, rendered by the sections of those runs.

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>

#include "selfplay/formats/rules_json.h"
#include "selfplay/openings/openings.h"
#include "tools/report/html.h"
#include "tools/report/sections.h"
#include "tools/report/svg_chart.h"

namespace fanorona::report {

namespace {

using Json = nlohmann::json;

std::string iter_dir(const std::string& loop, int n) {
    return loop + "/iter-" + std::to_string(n);
}

// The fitting step's summary of an iteration: "tune", or "train" in the network loop.
const Json& fit_of(const Json& it) {
    return it.contains("train") ? object_at(it, "train") : object_at(it, "tune");
}

// "+12.3 &plusmn; 4.5" of an Elo record, or a dash.
std::string elo_text(const Json& m) {
    const double e = number_at(m, "elo");
    if (!std::isfinite(e)) return "&ndash;";
    return signed_num(e) + " &plusmn; " + num(number_at(m, "elo_error95"));
}

std::string interval_text(const Json& m) {
    const double lo = number_at(m, "elo_lower"), hi = number_at(m, "elo_upper");
    if (!std::isfinite(lo) || !std::isfinite(hi)) return "&ndash;";
    return "[" + signed_num(lo) + ", " + signed_num(hi) + "]";
}

// How the loop decided whether to keep a tuned set.
std::string rule_text(const Json& s) {
    const std::string sprt = string_at(s, "sprt");
    if (!sprt.empty())
        return "SPRT " + esc(sprt) + ", at most " + num(number_at(s, "verify_games"), 0) + " games";
    return num(number_at(s, "verify_games"), 0) + " games, kept when LOS &ge; " +
           num(number_at(s, "accept_los"), 2);
}

std::string links(const std::string& loop, int n, bool net) {
    const std::string p = "iter-" + std::to_string(n) + "-";
    std::string out = "<a href=\"#" + p + "selfplay\">self-play</a> &middot; <a href=\"#" + p +
                      (net ? "train\">training</a>" : "tune\">tuning</a>");
    if (file_exists(iter_dir(loop, n) + "/match/results.json"))
        out += " &middot; <a href=\"#" + p + "match\">match</a>";
    return out;
}

std::string iterations_table(const std::string& loop, const Json& iterations, bool net) {
    std::string out =
        std::string("<table class=\"data\" id=\"loop-iterations\"><thead><tr><th></th><th "
                    "colspan=\"3\">self-play</th><th>") +
        (net ? "training" : "tuning") +
        "</th><th colspan=\"4\">verification "
        "match</th><th></th></tr><tr><th>iteration</th><th>games</th><th>positions</th>"
        "<th>results</th><th>validation loss: start &rarr; " +
        (net ? "trained" : "tuned") +
        "</th><th>games</th>"
        "<th>Elo &plusmn; 95% [interval]</th><th>LOS</th><th>kept</th><th>sections</th></tr>"
        "</thead><tbody>";
    for (const Json& it : iterations) {
        const int n = int_at(it, "iteration");
        const auto& sp = object_at(it, "selfplay");
        const auto& t = fit_of(it);
        const auto& m = object_at(it, "match");
        const bool kept = true_at(it, "accepted");
        std::string verdict = kept ? "<b class=\"kept\">yes</b>" : "no";
        if (m.contains("sprt"))
            verdict += " <span class=\"note\">(" + esc(string_at(m, "sprt")) + ")</span>";
        out += "<tr id=\"loop-iter-" + std::to_string(n) + "\"><td class=\"num\">" +
               std::to_string(n) + "</td><td class=\"num\">" + num(number_at(sp, "games"), 0) +
               "</td><td class=\"num\">" + num(number_at(sp, "positions"), 0) + "</td><td>" +
               wdl_bar(number_at(sp, "white_wins"), number_at(sp, "draws"),
                       number_at(sp, "black_wins")) +
               "</td><td class=\"num\">" + num(number_at(t, "start_validation_loss"), 5) +
               " &rarr; " + num(number_at(t, "final_validation_loss"), 5) +
               "</td><td class=\"num\">" + num(number_at(m, "games"), 0) +
               "</td><td class=\"num\">" + elo_text(m) + " <span class=\"interval\">" +
               interval_text(m) + "</span></td><td class=\"num\">" + num(number_at(m, "los"), 3) +
               "</td><td>" + verdict + "</td><td class=\"links\">" + links(loop, n, net) +
               "</td></tr>";
    }
    return out + "</tbody></table>\n";
}

std::string elo_chart(const Json& iterations, const Json& history) {
    std::vector<IntervalPoint> points;
    for (const Json& it : iterations) {
        const auto& m = object_at(it, "match");
        const bool kept = true_at(it, "accepted");
        points.push_back({"iteration " + std::to_string(int_at(it, "iteration")),
                          number_at(m, "elo"), number_at(m, "elo_lower"), number_at(m, "elo_upper"),
                          kept ? "#3a8a3a" : "#b8452f", kept ? "(kept)" : "(not kept)"});
    }
    const auto add_final = [&](const char* key, const char* label) {
        if (!history.contains(key)) return;
        const auto& f = object_at(history, key);
        if (number_at(f, "games") > 0)
            points.push_back({label, number_at(f, "elo"), number_at(f, "elo_lower"),
                              number_at(f, "elo_upper"), "#2f6db8", "(against the start)"});
    };
    add_final("final", "final match");
    add_final("final_spsa", "final, SPSA");
    return interval_chart_svg("loop-elo-chart",
                              "Elo of each verification match and of the final match, 95% "
                              "intervals",
                              "Elo", points);
}

std::string loss_chart(const Json& iterations, bool net) {
    Series start{net ? "current network" : "start weights", "#b8452f", {}, {}, {}, {}, true};
    Series tuned{net ? "trained network" : "tuned weights", "#2f6db8", {}, {}, {}, {}, true};
    for (const Json& it : iterations) {
        const auto& t = fit_of(it);
        const double n = number_at(it, "iteration");
        start.x.push_back(n);
        start.y.push_back(number_at(t, "start_validation_loss"));
        tuned.x.push_back(n);
        tuned.y.push_back(number_at(t, "final_validation_loss"));
    }
    Chart c;
    c.id = "loop-loss-chart";
    c.title = net ? "Validation loss of each training step, before and after"
                  : "Validation loss of each tuning step, before and after";
    c.x_label = "iteration";
    c.y_label = "validation loss";
    c.integer_x = true;
    c.series = {start, tuned};
    return chart_svg(c);
}

// The weights of every tuned set against the start, the ones that moved most first.
std::string weights_table(const std::string& loop, const Json& iterations, Notes& notes) {
    const auto start_text = read_text(loop + "/start.txt");
    if (!start_text) return missing_note("start.txt: not found.");
    const auto start = weights_by_name(*start_text);
    if (start.empty()) return notes.problem(loop + "/start.txt: not a weights file");
    struct Column {
        std::string label;
        std::map<std::string, double> values;
        bool kept;
    };
    std::vector<Column> columns;
    std::map<std::string, double> final = start;
    for (const Json& it : iterations) {
        const int n = int_at(it, "iteration");
        const std::string path = iter_dir(loop, n) + "/tune/weights.txt";
        const auto text = read_text(path);
        if (!text) continue;
        Column c{std::to_string(n), weights_by_name(*text), true_at(it, "accepted")};
        if (c.values.empty()) {
            notes.problem(path + ": not a weights file");
            continue;
        }
        if (c.kept) final = c.values;
        columns.push_back(std::move(c));
    }
    struct Row {
        std::string name;
        double start;
        double moved; // the largest distance from the start in any tuned set
    };
    std::vector<Row> rows;
    for (const auto& [name, v] : start) {
        double moved = 0;
        for (const Column& c : columns)
            if (c.values.contains(name)) moved = std::max(moved, std::abs(c.values.at(name) - v));
        if (moved > 0) rows.push_back({name, v, moved});
    }
    std::stable_sort(rows.begin(), rows.end(), [&](const Row& a, const Row& b) {
        const double fa = std::abs(final.at(a.name) - a.start),
                     fb = std::abs(final.at(b.name) - b.start);
        return fa != fb ? fa > fb : a.moved > b.moved;
    });
    const std::size_t total = rows.size();
    if (rows.size() > 15) rows.resize(15);
    if (rows.empty()) return "<p class=\"note\">No tuning step moved a weight.</p>\n";
    std::string out =
        "<p class=\"note\">" + std::to_string(total) + " weights moved in some tuning step; the " +
        std::to_string(rows.size()) +
        " that moved most, by their change in the final weights, then by their "
        "largest move. Each iteration's column is its tuned set (&check;: kept).</p>\n"
        "<table class=\"data\" id=\"loop-weights\"><thead><tr><th>weight</th>"
        "<th>start</th>";
    for (const Column& c : columns)
        out += "<th>iteration " + c.label + (c.kept ? " &check;" : "") + "</th>";
    out += "<th>final</th><th>change</th></tr></thead><tbody>";
    for (const Row& r : rows) {
        out += "<tr><td><code>" + esc(r.name) + "</code></td><td class=\"num\">" + num(r.start, 0) +
               "</td>";
        for (const Column& c : columns) {
            const auto v = c.values.find(r.name);
            const double x =
                v == c.values.end() ? std::numeric_limits<double>::quiet_NaN() : v->second;
            out += std::string("<td class=\"num") + (c.kept ? " kept" : "") + "\">" + num(x, 0) +
                   "</td>";
        }
        const double f = final.at(r.name);
        out += "<td class=\"num\">" + num(f, 0) + "</td><td class=\"num\">" +
               signed_num(f - r.start, 0) + "</td></tr>";
    }
    return out + "</tbody></table>\n";
}

// A section of another run placed in the loop's page as one iteration's part.
std::string iteration_part(const std::string& html, int n, const char* part, const char* heading) {
    const std::string prefix = "iter-" + std::to_string(n) + "-";
    return nest_section(html, prefix + part, prefix,
                        "Iteration " + std::to_string(n) + ": " + heading);
}

} // namespace

std::string nest_section(const std::string& html, const std::string& id, const std::string& prefix,
                         const std::string& heading) {
    // Every id attribute: the page's own markup writes them as ` id="`, and text is escaped (a
    // quote in text is &quot;), so this finds attributes only.
    std::string out;
    out.reserve(html.size() + 256);
    const std::string attr = " id=\"";
    std::size_t at = 0;
    bool first = true;
    for (std::size_t p = html.find(attr); p != std::string::npos; p = html.find(attr, at)) {
        out.append(html, at, p + attr.size() - at);
        at = p + attr.size();
        if (first) { // the <section>'s own id
            const std::size_t end = html.find('"', at);
            if (end == std::string::npos) break;
            out += esc(id);
            at = end;
            first = false;
        } else {
            out += esc(prefix);
        }
    }
    out.append(html, at, std::string::npos);
    const std::size_t h = out.find("<h2>"), e = out.find("</h2>");
    if (h != std::string::npos && e != std::string::npos && e > h)
        out.replace(h, e + 5 - h,
                    "<h2>" + esc(heading) +
                        " <a class=\"up\" href=\"#loop-iterations\" title=\"back to the loop's "
                        "iterations\">&uarr; loop</a></h2>");
    return out;
}

ReportInputs loop_report_inputs(const std::string& dir) {
    ReportInputs in;
    in.loop = dir;
    in.title = "Fanorona Lab loop: " + dir;
    Json history;
    if (const auto text = read_text(dir + "/history.json")) try {
            history = Json::parse(*text);
        } catch (const Json::exception&) { // the loop section says so
        }
    if (file_exists(dir + "/final-spsa/results.json") && history.contains("final_spsa"))
        in.tournament = dir + "/final-spsa";
    else if (number_at(object_at(history, "final"), "games") > 0 &&
             file_exists(dir + "/final/results.json"))
        in.tournament = dir + "/final";
    if (history.contains("spsa") && file_exists(dir + "/spsa/spsa.json")) in.spsa = dir + "/spsa";
    return in;
}

std::string loop_openings_line(const ReportInputs& in) {
    std::string out;
    Json settings;
    if (const auto text = read_text(in.loop + "/settings.json")) try {
            settings = Json::parse(*text);
        } catch (const Json::exception&) {
        }
    out += "self-play openings: <code>" + esc(string_at(settings, "selfplay_openings")) + "</code>";
    const std::string match = string_at(settings, "match_openings");
    out += " &middot; match openings: ";
    const std::string suite = in.loop + "/openings.txt";
    if (match == "balanced" && file_exists(suite)) {
        std::string count;
        try {
            const Rules rules = rules_from_json(settings);
            count = ", " + std::to_string(read_opening_file(suite, rules).size()) + " positions";
        } catch (const std::exception&) {
        }
        out += "<code>" + esc(suite) + "</code> (the loop's balanced suite" + count + ")";
    } else {
        out += "<code>" + esc(match.empty() ? "?" : match) + "</code>";
    }
    return out;
}

// Iteration n's training step of the network loop (ITER/train: train.json, iter-N.net.csv).
std::string training_section(const std::string& dir, int n, Notes& notes) {
    const std::string net = "iter-" + std::to_string(n) + ".net";
    std::string out = "<section id=\"train\">\n<h2>Training</h2>\n<p class=\"source\">From <code>" +
                      esc(dir) + "</code> (train.json, the network " + esc(net) +
                      " and its loss curve " + esc(net) + ".csv).</p>\n";
    const auto j = read_json(dir + "/train.json", notes, out);
    if (!j) {
        if (!file_exists(dir + "/train.json")) out += missing_note("train.json: not found.");
        return out + "</section>\n";
    }
    out += "<table class=\"summary\" id=\"train-summary\">";
    out += "<tr><th>positions</th><td>" + num(number_at(*j, "train_positions"), 0) + " training, " +
           num(number_at(*j, "validation_positions"), 0) + " validation, of " +
           num(number_at(*j, "games"), 0) + " games</td></tr>";
    out += loss_rows(*j);
    out += "<tr><th>epochs</th><td>" + num(number_at(*j, "epochs"), 0) + " (best " +
           num(number_at(*j, "best_epoch"), 0) + ")" +
           (true_at(*j, "stopped_early") ? ", stopped early" : "") + ", " +
           num(number_at(*j, "seconds"), 2) + " s; K " + num(number_at(*j, "k"), 5) +
           "</td></tr></table>\n";
    const std::string csv = dir + "/" + net + ".csv";
    if (const auto loss = read_text(csv))
        out += "<h3>Loss curves</h3>\n" + epoch_loss_chart(*loss, csv, notes);
    else
        out += missing_note(net + ".csv: not found.");
    return out + "</section>\n";
}

std::string loop_section(const ReportInputs& in, Notes& notes) {
    std::string out = "<section id=\"loop\">\n<h2>Loop</h2>\n";
    out += "<p class=\"source\">From <code>" + esc(in.loop) + "</code> (history.json).</p>\n";
    const std::string path = in.loop + "/history.json";
    const auto h = read_json(path, notes, out);
    if (!h) {
        if (!file_exists(path)) out += notes.problem(path + ": not found");
        return out + "</section>\n";
    }
    const auto& s = object_at(*h, "settings");
    const auto& iterations = array_at(*h, "iterations");
    const auto& final = object_at(*h, "final");
    const bool net = s.contains("net"); // loop --net: networks, not weights
    const char* what = net ? "network" : "weights";
    out += "<table class=\"summary\" id=\"loop-summary\">";
    out += "<tr><th>engine</th><td><code>" + esc(string_at(s, "engine")) + "</code></td></tr>";
    out += "<tr><th>iterations</th><td>" + std::to_string(iterations.size()) + " of " +
           num(number_at(s, "iterations"), 0) + ", each " + num(number_at(s, "games"), 0) +
           " self-play games, " +
           (net ? "training a network on the data of the last " + num(number_at(s, "window"), 0) +
                      " (from the current network; start: " +
                      esc(string_at(object_at(s, "net"), "start")) + ")"
                : "tuning on the data of the last " + num(number_at(s, "window"), 0) + " (" +
                      esc(string_at(s, "optimizer")) + ")") +
           ", a verification match of " + rule_text(s) + "</td></tr>";
    out += "<tr><th>openings</th><td>" + loop_openings_line(in) + "</td></tr>";
    const auto final_row = [&](const char* key, const char* label) {
        if (!h->contains(key)) return;
        const auto& f = object_at(*h, key);
        out += std::string("<tr><th>") + label + "</th><td>";
        if (number_at(f, "games") > 0)
            out += "<b>" + elo_text(f) + "</b> Elo " + interval_text(f) + " over " +
                   num(number_at(f, "games"), 0) + " games (<a href=\"#tournament\">the match</a>)";
        else
            out += esc(string_at(f, "note"));
        out += "</td></tr>";
    };
    final_row("final", net ? "final network against the start" : "final weights against the start");
    final_row("final_spsa", "with the SPSA values");
    if (h->contains("final"))
        out += std::string("<tr><th>final ") + what + "</th><td><code>" +
               esc(string_at(final, net ? "net" : "weights")) + "</code></td></tr>";
    else
        out += "<tr><th>state</th><td>not finished: no final match yet</td></tr>";
    out += "<tr><th>settings</th><td><details><summary>" + std::to_string(s.size()) +
           " settings</summary>" + fields_table(s) + "</details></td></tr></table>\n";

    out += net ? "<h3>Iterations</h3>\n<p class=\"note\">Each iteration plays self-play games with "
                 "the current network, trains a network on them from the current one, and plays "
                 "it against the current one; kept networks become the current network.</p>\n"
               : "<h3>Iterations</h3>\n<p class=\"note\">Each iteration plays self-play games with "
                 "the current weights, tunes on them, and plays the tuned weights against the "
                 "current ones; kept tuned sets become the current weights.</p>\n";
    if (iterations.empty())
        return out + missing_note("No iteration finished yet.") + "</section>\n";
    out += iterations_table(in.loop, iterations, net);
    out += elo_chart(iterations, *h);
    out += loss_chart(iterations, net);
    if (!net)
        out += "<h3>Weights that moved most</h3>\n" + weights_table(in.loop, iterations, notes);
    return out + "</section>\n";
}

std::string loop_iteration_sections(const ReportInputs& in, Notes& notes) {
    Json history;
    if (const auto text = read_text(in.loop + "/history.json")) try {
            history = Json::parse(*text);
        } catch (const Json::exception&) { // loop_section notes it
        }
    std::string out;
    for (const Json& it : array_at(history, "iterations")) {
        const int n = int_at(it, "iteration");
        if (n < 1) continue;
        const std::string dir = iter_dir(in.loop, n);
        ReportInputs part = in;
        part.selfplay = dir + "/selfplay";
        out += iteration_part(selfplay_section(part, notes), n, "selfplay", "self-play");
        if (it.contains("train")) {
            out +=
                iteration_part(training_section(dir + "/train", n, notes), n, "train", "training");
        } else {
            part.tune = dir + "/tune";
            out += iteration_part(tune_section(part, notes), n, "tune", "tuning");
        }
        if (file_exists(dir + "/match/results.json")) {
            part.tournament = dir + "/match";
            out +=
                iteration_part(tournament_section(part, notes), n, "match",
                               it.contains("train") ? "verification match (trained against current)"
                                                    : "verification match (tuned against current)");
        } else {
            out += "<section id=\"iter-" + std::to_string(n) + "-match\">\n<h2>Iteration " +
                   std::to_string(n) + ": no verification match</h2>\n<p class=\"note\">" +
                   esc(string_at(object_at(it, "match"), "note")) + "</p>\n</section>\n";
        }
    }
    return out;
}

} // namespace fanorona::report
