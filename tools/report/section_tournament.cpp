// The tournament section: results.json (table, pairings, SPRT), live.jsonl (Elo and LLR over
// the run) and games.tsv of a `fanorona tournament` run.

#include <cmath>
#include <map>
#include <sstream>

#include "selfplay/formats/formats.h"
#include "selfplay/formats/json_text.h"
#include "selfplay/tournament/stats/results_table.h"
#include "tools/report/html.h"
#include "tools/report/sections.h"
#include "tools/report/svg_chart.h"

namespace fanorona::report {

namespace {

// results.json's table refitted with the report's --prior-draws and --anchor: the players and
// their pairings' W/D/L and pentanomial counts, rated again. Throws std::invalid_argument for
// an option that names no player, std::exception for a table it cannot read.
nlohmann::json refit_table(const nlohmann::json& results, const ReportInputs& in) {
    const auto& table = object_at(results, "table");
    std::vector<std::string> names;
    for (const auto& p : array_at(table, "players")) names.push_back(string_at(p, "name"));
    stats::PairwiseResults pairwise(names);
    auto index = [&](const std::string& name) {
        for (std::size_t i = 0; i < names.size(); ++i)
            if (names[i] == name) return i;
        throw std::invalid_argument("results.json: a pairing of an unknown player " + name);
    };
    for (const auto& p : array_at(table, "pairings")) {
        const std::size_t a = index(string_at(p, "a")), b = index(string_at(p, "b"));
        const auto& w = object_at(p, "wdl");
        pairwise.add(a, b,
                     stats::WDL{std::uint64_t(number_at(w, "wins")),
                                std::uint64_t(number_at(w, "draws")),
                                std::uint64_t(number_at(w, "losses"))});
        stats::Pentanomial penta;
        const auto& counts = array_at(p, "pentanomial");
        for (std::size_t k = 0; k < 5 && k < counts.size(); ++k)
            if (counts[k].is_number()) penta.counts[k] = counts[k].get<std::uint64_t>();
        pairwise.add(a, b, penta);
    }
    return stats::render_json(stats::make_results_table(
        pairwise, stats::rating_options(names, in.prior_draws, in.anchor)));
}

std::string players_table(const nlohmann::json& results) {
    const auto& table = object_at(results, "table");
    const auto& rows = array_at(table, "players");
    const auto descriptions = array_at(results, "players");
    std::string out = "<table class=\"data\" id=\"tournament-table\"><thead><tr><th>rank</th>"
                      "<th>player</th><th>settings</th><th>rating</th><th>&plusmn; 95%</th>"
                      "<th>interval</th><th>games</th><th>W</th><th>D</th><th>L</th>"
                      "<th>score</th></tr></thead><tbody>";
    for (const auto& p : rows) {
        const std::string name = string_at(p, "name");
        std::string settings;
        for (const auto& d : descriptions)
            if (d.is_string() && d.get<std::string>().rfind(name + "(", 0) == 0)
                settings = d.get<std::string>().substr(name.size());
        const double elo = number_at(p, "elo"), err = number_at(p, "error95");
        const auto& wdl = object_at(p, "wdl");
        out += "<tr><td>" + num(number_at(p, "rank"), 0) + "</td><td>" + esc(name) +
               "</td><td class=\"settings\">" + esc(settings) + "</td><td class=\"num\">" +
               signed_num(elo, 1) + "</td><td class=\"num\">" + num(err, 1) +
               "</td><td class=\"num\">[" + signed_num(elo - err, 1) + ", " +
               signed_num(elo + err, 1) + "]</td><td class=\"num\">" +
               num(number_at(p, "games"), 0) + "</td><td class=\"num\">" +
               num(number_at(wdl, "wins"), 0) + "</td><td class=\"num\">" +
               num(number_at(wdl, "draws"), 0) + "</td><td class=\"num\">" +
               num(number_at(wdl, "losses"), 0) + "</td><td class=\"num\">" +
               percent(number_at(p, "score")) + "</td></tr>";
    }
    out += "</tbody></table>\n";
    if (table.contains("model") && table["model"].is_string()) {
        std::string base = "mean 0";
        if (table.contains("anchor") && table["anchor"].is_string())
            base =
                string_at(table, "anchor") + " fixed at " + num(number_at(table, "anchor_elo"), 0);
        out += "<p class=\"note\">Ratings (" + esc(string_at(table, "model")) +
               ") on the Elo scale, " + esc(base) +
               ": a difference of two ratings is their expected Elo; " +
               esc(string_at(table, "errors")) + " errors (95% intervals)";
        if (table.contains("prior_draws") && table["prior_draws"].is_number() &&
            table["prior_draws"].get<double>() > 0)
            out += "; " + num(table["prior_draws"].get<double>(), 1) + " prior draws per pairing";
        if (table.contains("default_prior_reason") && table["default_prior_reason"].is_string())
            out += " (by default: " + esc(string_at(table, "default_prior_reason")) + ")";
        out += ". Each pairing's own match Elo is its \"Elo (pair)\" below.</p>\n";
    } else if (table.contains("ratings_error") && table["ratings_error"].is_string()) {
        out +=
            "<p class=\"note\">No ratings: " + esc(string_at(table, "ratings_error")) + ".</p>\n";
    }
    return out;
}

std::string pairings_table(const nlohmann::json& results) {
    const auto& table = object_at(results, "table");
    const auto& rows = array_at(table, "pairings");
    if (rows.empty()) return "";
    std::string out = "<h3>Pairings</h3>\n<table class=\"data\" id=\"pairings-table\"><thead><tr>"
                      "<th>pairing</th><th>W</th><th>D</th><th>L</th><th></th><th>score</th>"
                      "<th>Elo (pair)</th><th>interval (95%)</th><th>nElo</th><th>LOS</th>"
                      "<th>pentanomial</th></tr></thead><tbody>";
    for (const auto& p : rows) {
        const auto& wdl = object_at(p, "wdl");
        const auto& s = object_at(p, "stats");
        const double w = number_at(wdl, "wins"), d = number_at(wdl, "draws"),
                     l = number_at(wdl, "losses");
        std::string penta = p.contains("pentanomial") ? to_json_text(p["pentanomial"]) : "";
        out += "<tr><td>" + esc(string_at(p, "a")) + " vs " + esc(string_at(p, "b")) +
               "</td><td class=\"num\">" + num(w, 0) + "</td><td class=\"num\">" + num(d, 0) +
               "</td><td class=\"num\">" + num(l, 0) + "</td><td>" + wdl_bar(w, d, l) +
               "</td><td class=\"num\">" + percent(number_at(s, "score")) +
               "</td><td class=\"num\">" + signed_num(number_at(s, "elo")) + " &plusmn; " +
               num(number_at(s, "elo_error95")) + "</td><td class=\"num\">[" +
               signed_num(number_at(s, "elo_lower")) + ", " +
               signed_num(number_at(s, "elo_upper")) + "]</td><td class=\"num\">" +
               signed_num(number_at(s, "nelo")) + "</td><td class=\"num\">" +
               percent(number_at(s, "los")) + "</td><td><code>" + esc(penta) + "</code></td></tr>";
    }
    return out + "</tbody></table>\n";
}

std::string sprt_box(const nlohmann::json& sprt) {
    return "<h3>SPRT</h3>\n<table class=\"summary\" id=\"sprt-result\"><tr><th>test</th><td>" +
           esc(string_at(sprt, "test")) + "</td></tr><tr><th>LLR</th><td>" +
           num(number_at(sprt, "llr"), 3) + " in [" + num(number_at(sprt, "lower_bound"), 3) +
           ", " + num(number_at(sprt, "upper_bound"), 3) + "]</td></tr><tr><th>verdict</th><td>" +
           "<b>" + esc(string_at(sprt, "verdict")) + "</b></td></tr></table>\n";
}

const char* kColors[] = {"#2f6db8", "#b8452f", "#3a8a3a", "#8a3a8a", "#b88a2f", "#2f8a8a"};

// Elo and LLR over the run from live.jsonl.
std::string live_charts(const std::string& text, const std::string& path, Notes& notes) {
    std::map<std::string, Series> elo;
    std::vector<std::string> order;
    Series llr{"LLR", "#2f6db8", {}, {}, {}, {}};
    double lower = NAN, upper = NAN;
    std::istringstream in(text);
    std::string line, problems;
    int line_no = 0, bad = 0;
    while (std::getline(in, line)) {
        ++line_no;
        if (line.empty()) continue;
        nlohmann::json j;
        try {
            j = nlohmann::json::parse(line);
        } catch (const nlohmann::json::exception& e) {
            if (bad++ == 0)
                problems = notes.problem(path + ":" + std::to_string(line_no) +
                                         ": not valid JSON: " + e.what());
            continue;
        }
        const double games = number_at(j, "games");
        std::string key = "Elo";
        if (j.contains("players") && j["players"].is_array() && j["players"].size() == 2 &&
            j["players"][0].is_string() && j["players"][1].is_string())
            key = j["players"][0].get<std::string>() + " vs " + j["players"][1].get<std::string>();
        if (!elo.contains(key)) {
            order.push_back(key);
            elo[key] = Series{key, kColors[(order.size() - 1) % 6], {}, {}, {}, {}};
        }
        const auto& p = object_at(j, "pairing");
        Series& s = elo[key];
        s.x.push_back(games);
        s.y.push_back(number_at(p, "elo"));
        s.low.push_back(number_at(p, "elo_lower"));
        s.high.push_back(number_at(p, "elo_upper"));
        if (j.contains("sprt")) {
            const auto& sp = j["sprt"];
            llr.x.push_back(games);
            llr.y.push_back(number_at(sp, "llr"));
            lower = number_at(sp, "lower_bound");
            upper = number_at(sp, "upper_bound");
        }
    }
    std::string out = problems;
    Chart c;
    c.id = "elo-chart";
    c.title = "Elo over the run, with its 95% interval";
    c.x_label = "games played";
    c.y_label = "Elo";
    for (const auto& k : order) c.series.push_back(elo[k]);
    c.lines.push_back({"0", "#888888", 0});
    out += chart_svg(c);
    if (!llr.x.empty()) {
        Chart s;
        s.id = "sprt-chart";
        s.title = "SPRT log-likelihood ratio";
        s.x_label = "games played";
        s.y_label = "LLR";
        s.series.push_back(llr);
        if (std::isfinite(upper)) s.lines.push_back({"accept H1", "#3a8a3a", upper});
        if (std::isfinite(lower)) s.lines.push_back({"accept H0", "#b8452f", lower});
        out += chart_svg(s);
    } else {
        out += "<p class=\"note\">No SPRT in this run.</p>\n";
    }
    return out;
}

} // namespace

std::string tournament_section(const ReportInputs& in, Notes& notes) {
    std::string out = "<section id=\"tournament\">\n<h2>Tournament</h2>\n";
    if (in.tournament.empty())
        return out + missing_note("Tournament: not provided (--tournament DIR).") + "</section>\n";
    out += "<p class=\"source\">From <code>" + esc(in.tournament) + "</code>.</p>\n";
    const std::string results_path = in.tournament + "/results.json";
    const std::string live_path = in.tournament + "/live.jsonl";
    const std::string games_path = in.tournament + "/games.tsv";
    if (!file_exists(results_path) && !file_exists(live_path) && !file_exists(games_path))
        return out +
               notes.problem(in.tournament + ": no results.json, live.jsonl or games.tsv there") +
               "</section>\n";
    if (auto j = read_json(results_path, notes, out)) {
        check_format(*j, results_path, kTournamentResultsFormat, notes, out);
        if (in.prior_draws || !in.anchor.empty()) (*j)["table"] = refit_table(*j, in);
        // An SPRT's scheduled games are only its cap: it stops when the test decides.
        const bool sprt = j->contains("sprt") && (*j)["sprt"].is_object();
        out += "<p>" + num(number_at(*j, "games"), 0) + " games (" +
               num(number_at(*j, "pairs"), 0) + " pairs) " +
               (sprt ? "played, SPRT, up to " + num(number_at(*j, "scheduled_games"), 0)
                     : "of " + num(number_at(*j, "scheduled_games"), 0) + " scheduled") +
               (true_at(*j, "complete") ? ", complete" : ", not complete") + ".</p>\n";
        out += "<h3>Table</h3>\n" + players_table(*j) + pairings_table(*j) +
               vela_series_table(array_at(*j, "vela_series"), "vela-series-table",
                                 "The table above counts the normal games.");
        if (j->contains("sprt") && (*j)["sprt"].is_object()) out += sprt_box((*j)["sprt"]);
    } else if (!file_exists(results_path)) {
        out += missing_note("results.json: not provided.");
    }
    if (const auto live = read_text(live_path)) {
        out += "<h3>Over the run</h3>\n" + live_charts(*live, live_path, notes);
    } else {
        out += missing_note("live.jsonl: not provided.");
    }
    if (file_exists(games_path)) {
        try {
            const GamesFile file = read_games_file(games_path);
            out += "<h3>Games</h3>\n" +
                   games_overview(file, "tournament", in.max_frames, notes, in.engine_log);
        } catch (const std::exception& e) {
            out += notes.problem(e.what());
        }
    }
    return out + "</section>\n";
}

std::string vela_series_table(const nlohmann::json& rows, const std::string& id,
                              const std::string& note) {
    if (!rows.is_array() || rows.empty()) return "";
    auto wdl = [](const nlohmann::json& w) {
        return num(number_at(w, "wins"), 0) + "-" + num(number_at(w, "draws"), 0) + "-" +
               num(number_at(w, "losses"), 0);
    };
    auto elo = [](const nlohmann::json& w) {
        return signed_num(number_at(w, "elo"), 1) + " &plusmn; " +
               num(number_at(w, "elo_error95"), 1);
    };
    std::string out =
        "<h3>Vela series</h3>\n<p class=\"note\">Each series: a normal game, then a Vela game in "
        "which the normal game's loser (the beneficiary) is White; a drawn normal game ends the "
        "series. " +
        esc(note) + "</p>\n<table class=\"data\" id=\"" + id +
        "\"><thead><tr><th>pairing</th><th>kind</th><th>view</th>"
        "<th>W-D-L</th><th>Elo</th><th>average turns</th><th>notes</th></tr></thead><tbody>";
    for (const auto& p : rows) {
        const auto players = array_at(p, "players");
        const bool named = players.size() == 2 && players[0].is_string() && players[1].is_string();
        const std::string a = named ? players[0].get<std::string>() : "?";
        const std::string b = named ? players[1].get<std::string>() : "?";
        const std::string pairing = esc(a + " vs " + b);
        const auto& n = object_at(p, "normal");
        const auto& v = object_at(p, "vela");
        const auto& s = object_at(p, "series");
        const auto& nf = object_at(n, "first_player");
        const auto& vb = object_at(v, "beneficiary");
        const auto& sf = object_at(s, "first_player");
        out += "<tr><td>" + pairing + "</td><td>normal</td><td>" + esc(a) + "</td><td>" + wdl(nf) +
               "</td><td class=\"num\">" + elo(nf) + "</td><td class=\"num\">" +
               num(number_at(n, "average_turns"), 1) + "</td><td></td></tr>";
        out += "<tr><td>" + pairing + "</td><td>Vela</td><td>beneficiary</td><td>" + wdl(vb) +
               "</td><td class=\"num\">" + elo(vb) + "</td><td class=\"num\">" +
               num(number_at(v, "average_turns"), 1) + "</td><td>victim reached normal rules in " +
               num(number_at(v, "victim_reached_normal_phase"), 0) + " of " +
               num(number_at(v, "games"), 0) + "; " + esc(a) + " as beneficiary " +
               wdl(object_at(v, "first_player_beneficiary")) + ", " + esc(b) + " as beneficiary " +
               wdl(object_at(v, "second_player_beneficiary")) + "</td></tr>";
        out += "<tr><td>" + pairing + "</td><td>series</td><td>" + esc(a) + "</td><td>" + wdl(sf) +
               "</td><td class=\"num\">" + elo(sf) + "</td><td></td><td>" +
               num(number_at(s, "ended_by_drawn_normal_game"), 0) +
               " ended by a drawn normal game</td></tr>";
    }
    return out + "</tbody></table>\n";
}

} // namespace fanorona::report
