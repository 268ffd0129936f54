// The report page: header, navigation, the sections (a loop folder's page has its own), the style
// sheet and the small script of the game viewers and the opening explorer. Nothing is loaded from
// elsewhere (a Content-Security-Policy forbids it).

#include <ctime>
#include <utility>
#include <vector>

#include "core/common/files.h"
#include "tools/report/html.h"
#include "tools/report/report.h"
#include "tools/report/sections.h"

namespace fanorona::report {

namespace {

constexpr const char* kStyle = R"CSS(
:root { --ink: #1d2330; --muted: #5b6475; --line: #d9dde5; --bg: #f6f7f9; --white: #fbfbf8;
        --black: #2b2b2b; --wood: #ead7b0; --accent: #2f6db8; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
       color: var(--ink); background: var(--bg); }
header { background: #1d2330; color: #fff; padding: 18px 28px 12px; }
header h1 { margin: 0 0 6px; font-size: 24px; }
header nav a { color: #cfe0ff; margin-right: 18px; text-decoration: none; }
header .inputs { color: #aab4c6; font-size: 13px; margin: 6px 0 0; }
main { max-width: 1180px; margin: 0 auto; padding: 8px 24px 40px; }
section { overflow-x: auto; background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 6px 22px 18px;
          margin: 22px 0; }
h2 { border-bottom: 2px solid var(--accent); padding-bottom: 4px; }
h3 { margin: 20px 0 8px; }
.source, .note { color: var(--muted); font-size: 13px; }
.missing { color: var(--muted); font-style: italic; }
.error-note { color: #8a1f11; background: #fdecea; border-left: 4px solid #c0392b; padding: 6px 10px; }
#js-error { color: #fff; background: #c0392b; padding: 8px 16px; }
table { border-collapse: collapse; margin: 8px 0; }
table.summary th, table.fields th { text-align: left; padding: 3px 14px 3px 0; color: var(--muted);
        font-weight: 600; vertical-align: top; }
table.fields th { font-weight: 400; font-family: ui-monospace, monospace; font-size: 12px; }
table.fields td { font-family: ui-monospace, monospace; font-size: 12px; }
table.data th { background: #eef1f6; text-align: left; padding: 5px 10px; font-size: 13px; }
table.data td { border-top: 1px solid var(--line); padding: 4px 10px; vertical-align: middle; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.settings { color: var(--muted); font-size: 12px; font-family: ui-monospace, monospace; }
code { font-family: ui-monospace, "SFMono-Regular", Menlo, monospace; font-size: 12.5px; }
.wdl { display: inline-flex; width: 120px; height: 12px; border: 1px solid #999; border-radius: 2px;
       overflow: hidden; vertical-align: middle; margin: 0 6px; }
.wdl span { display: block; height: 100%; }
.wdl .w { background: #f4f4ee; } .wdl .d { background: #a9b1bd; } .wdl .b { background: #333; }
.share { display: inline-block; width: 60px; height: 8px; background: #e3e7ee; vertical-align: middle;
         margin-left: 8px; }
.share span { display: block; height: 100%; background: var(--accent); }
.tree ul { list-style: none; margin: 0; padding-left: 22px; border-left: 1px dotted #c5cbd6; }
.tree li { margin: 2px 0; }
.tree summary, .tree li.leaf, .root-head { cursor: default; white-space: nowrap; }
.tree summary { cursor: pointer; }
.tree li.leaf { padding-left: 16px; }
.tree .mv { display: inline-block; min-width: 150px; font-family: ui-monospace, monospace; font-weight: 600; }
.tree .games { display: inline-block; min-width: 48px; text-align: right; font-variant-numeric: tabular-nums; }
.tree .pct { display: inline-block; min-width: 40px; text-align: right; color: var(--muted); font-size: 12px; }
.tree .score, .tree .eval { display: inline-block; min-width: 64px; margin-left: 6px; color: var(--muted);
        font-size: 12px; font-variant-numeric: tabular-nums; }
.tree .transposition, .tree .folded { color: var(--muted); font-size: 12px; font-style: italic; margin-left: 8px; }
.root { margin: 10px 0; }
.root-head code { margin-right: 10px; }
.board-row { display: flex; flex-wrap: wrap; gap: 10px; }
figure { margin: 4px; }
figcaption { font-size: 12px; color: var(--muted); text-align: center; max-width: 340px; }
svg.board .wood { fill: var(--wood); stroke: #b99a5f; }
svg.board .lines { stroke: #6b5530; stroke-width: 1.3; fill: none; }
svg.board .coord { font-size: 10px; fill: #7a6440; text-anchor: middle; }
svg.board .piece.white { fill: var(--white); stroke: #333; stroke-width: 1.2; }
svg.board .piece.black { fill: var(--black); stroke: #000; stroke-width: 1.2; }
svg.board .from { fill: none; stroke: #d08a00; stroke-width: 2.5; stroke-dasharray: 3 2; }
svg.board .move { fill: none; stroke: #d08a00; stroke-width: 4; stroke-linejoin: round; opacity: .85; }
svg.board .arrow { fill: #d08a00; }
svg.board .captured .piece { opacity: .35; }
svg.board .captured path { stroke: #d4261c; stroke-width: 3; stroke-linecap: round; }
svg.chart { display: block; margin: 10px 0; background: #fff; }
svg.chart .grid { stroke: #eceff4; }
svg.chart .frame { fill: none; stroke: #9aa3b2; }
svg.chart .tick, svg.chart .legend, svg.chart .ref-label { font-size: 11px; fill: var(--muted); }
svg.chart .axis-label { font-size: 12px; fill: var(--muted); }
svg.chart .chart-title { font-size: 13px; font-weight: 600; fill: var(--ink); }
svg.chart .series { fill: none; stroke-width: 2; }
svg.chart .band { opacity: .15; }
svg.chart .ref { stroke-width: 1.2; stroke-dasharray: 5 4; }
svg.chart .bar:hover { opacity: .8; }
.viewer { outline: none; }
.viewer .frame { display: none; }
.viewer .frame.current { display: block; }
.viewer .controls { display: flex; align-items: center; gap: 6px; margin: 4px 0 8px; }
.viewer .controls button { font-size: 14px; padding: 2px 10px; cursor: pointer; }
.viewer .controls input { width: 260px; }
.viewer .turn-label { font-size: 13px; color: var(--muted); margin-left: 8px; }
details > summary { cursor: pointer; }
.tree .len { display: inline-block; min-width: 96px; color: var(--muted); font-size: 12px;
             font-variant-numeric: tabular-nums; }
td.delta { width: 220px; }
td.delta span { display: block; height: 10px; border-radius: 2px; }
td.delta .pos { background: #3a8a3a; } td.delta .neg { background: #c0392b; }
h2 a.up { font-size: 12px; font-weight: 400; margin-left: 10px; text-decoration: none; }
.kept { color: #2b7a2b; } td.num.kept { font-weight: 600; }
td.links { white-space: nowrap; font-size: 13px; }
#loop-iterations .wdl { width: 80px; }
td .interval { color: var(--muted); font-size: 12px; }
svg.chart .error-bar { stroke-width: 2; fill: none; }
svg.chart .value-label { font-size: 11px; fill: var(--ink); }
.explorer { display: flex; flex-wrap: wrap; gap: 18px; align-items: flex-start; }
.explorer .ex-panel { flex: 1; min-width: 420px; }
.explorer .ex-nav { display: flex; flex-wrap: wrap; align-items: center; gap: 4px; margin: 4px 0; }
.explorer button { font: inherit; font-size: 13px; cursor: pointer; }
.explorer .ex-step { border: 1px solid var(--line); background: #f2f4f8; border-radius: 4px;
        padding: 1px 7px; font-family: ui-monospace, monospace; }
.explorer .ex-step.current { background: var(--accent); color: #fff; }
.explorer .ex-move { border: none; background: none; padding: 0; color: var(--accent);
        font-family: ui-monospace, monospace; font-weight: 600; }
.explorer tr.ex-row { cursor: pointer; } .explorer tr.ex-row:hover { background: #f2f6fc; }
.explorer tr.ex-leaf { cursor: default; } .explorer tr.ex-leaf .ex-move { color: var(--muted); }
.explorer .ex-transposition { color: #7a4b00; font-size: 13px; }
.explorer .ex-stats { margin: 4px 0; }
)CSS";

constexpr const char* kBrowserStyle = R"CSS(
.game-browser .gb-filters { display: flex; flex-wrap: wrap; gap: 14px; align-items: center; margin: 6px 0; font-size: 13px; }
.game-browser .gb-table { max-height: 360px; overflow-y: auto; border: 1px solid var(--line); }
.game-browser .gb-table table { margin: 0; width: 100%; }
.game-browser .gb-table th { position: sticky; top: 0; }
.game-browser tr.gb-row { cursor: pointer; } .game-browser tr.gb-row:hover { background: #f2f6fc; }
.game-browser tr.gb-row.selected { background: #dde8f7; }
.game-browser .gb-moves-box { max-height: 420px; overflow-y: auto; display: inline-block; }
.game-browser pre.gb-log { max-height: 300px; overflow: auto; background: #f6f7f9; font-size: 12px; padding: 6px; }
.live-banner { background: #fff4d6; color: #5b4500; padding: 6px 28px; font-size: 13px; }
)CSS";

constexpr const char* kScript = R"JS(
(function () {
  'use strict';
  window.addEventListener('error', function (e) {
    var d = document.createElement('div');
    d.id = 'js-error';
    d.textContent = 'Script error: ' + e.message;
    document.body.insertBefore(d, document.body.firstChild);
  });
  Array.prototype.forEach.call(document.querySelectorAll('.viewer'), function (v) {
    var frames = v.querySelectorAll('.frame');
    var range = v.querySelector('input[type=range]');
    var label = v.querySelector('.turn-label');
    if (!frames.length || !range) return;
    var i = 0;
    function show(k) {
      k = Math.max(0, Math.min(frames.length - 1, k));
      frames[i].classList.remove('current');
      frames[k].classList.add('current');
      i = k;
      range.value = String(k);
      var c = frames[k].querySelector('figcaption');
      if (label) label.textContent = c ? c.textContent : '';
    }
    Array.prototype.forEach.call(v.querySelectorAll('button[data-step]'), function (b) {
      b.addEventListener('click', function () {
        var s = b.getAttribute('data-step');
        show(s === 'first' ? 0 : s === 'last' ? frames.length - 1 : s === 'prev' ? i - 1 : i + 1);
      });
    });
    range.addEventListener('input', function () { show(Number(range.value)); });
    v.tabIndex = 0;
    v.addEventListener('keydown', function (e) {
      var k = {ArrowLeft: i - 1, ArrowRight: i + 1, Home: 0, End: frames.length - 1}[e.key];
      if (k !== undefined) { show(k); e.preventDefault(); }
    });
  });
)JS";

constexpr const char* kScriptEnd = R"JS(
  document.body.setAttribute('data-ready', '1');
})();
)JS";

std::string input_line(const ReportInputs& in) {
    std::string out;
    if (!in.loop.empty()) {
        out = "loop: <code>" + esc(in.loop) + "</code> &middot; " + loop_openings_line(in) +
              " &middot; opening explorer: " +
              (in.opening_stats.empty() ? "the loop's self-play games"
                                        : "<code>" + esc(in.opening_stats) + "</code>") +
              " &middot; final match: " +
              (in.tournament.empty() ? "<i>none</i>" : "<code>" + esc(in.tournament) + "</code>");
        if (!in.spsa.empty()) out += " &middot; SPSA: <code>" + esc(in.spsa) + "</code>";
        return out;
    }
    const auto add = [&](const char* name, const std::string& dir) {
        if (in.only_given && dir.empty()) return;
        out += std::string(out.empty() ? "" : " &middot; ") + name + ": " +
               (dir.empty() ? "<i>not provided</i>" : "<code>" + esc(dir) + "</code>");
    };
    add("self-play", in.selfplay);
    add("tournament", in.tournament);
    add("openings", in.opening_stats);
    add("tuning", in.tune);
    add("SPSA", in.spsa);
    return out;
}

// The local time as "YYYY-MM-DD HH:MM:SS".
std::string now_text() {
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    localtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm);
    return buf;
}

// Runs one section; a section that fails to render becomes a note, not a failed report.
template <typename F>
std::string guarded(const char* id, const char* title, F&& render, Notes& notes) {
    try {
        return render();
    } catch (const std::exception& e) {
        return std::string("<section id=\"") + id + "\">\n<h2>" + title + "</h2>\n" +
               notes.problem(std::string(title) + ": could not read the input: " + e.what()) +
               "</section>\n";
    }
}

} // namespace

Report build_report(const ReportInputs& in) {
    Notes notes;
    std::string body;
    // (id, label) of the navigation bar, in page order.
    std::vector<std::pair<std::string, std::string>> nav;
    const auto add = [&](const char* id, const char* title, auto&& render) {
        body += guarded(id, title, render, notes);
        nav.emplace_back(id, title);
    };
    if (in.loop.empty()) {
        const bool all = !in.only_given;
        if (all || !in.selfplay.empty())
            add("selfplay", "Self-play", [&] { return selfplay_section(in, notes); });
        if (all || !in.tournament.empty())
            add("tournament", "Tournament", [&] { return tournament_section(in, notes); });
        if (all || !in.opening_stats.empty())
            add("openings", "Openings", [&] { return openings_section(in, notes); });
        if (all || !in.tune.empty()) add("tune", "Tuning", [&] { return tune_section(in, notes); });
        if (all || !in.spsa.empty()) add("spsa", "SPSA", [&] { return spsa_section(in, notes); });
    } else {
        // A loop's page: the overview, each iteration's runs, the final match, the explorer;
        // self-play and tuning folders given besides appear as on any page.
        add("loop", "Loop", [&] { return loop_section(in, notes); });
        const std::string iterations = guarded(
            "iterations", "Iterations", [&] { return loop_iteration_sections(in, notes); }, notes);
        if (iterations.find("id=\"iter-1-selfplay\"") != std::string::npos)
            nav.emplace_back("iter-1-selfplay", "Iterations");
        body += iterations;
        if (!in.selfplay.empty())
            add("selfplay", "Self-play", [&] { return selfplay_section(in, notes); });
        add("tournament", "Final match", [&] {
            if (in.tournament.empty())
                return std::string("<section id=\"tournament\">\n<h2>Final match</h2>\n") +
                       missing_note("No final match: no iteration kept its tuned weights, so the "
                                    "final weights are the start weights.") +
                       "</section>\n";
            return nest_section(tournament_section(in, notes), "tournament", "",
                                in.spsa.empty() ? "Final match: the last kept weights against "
                                                  "the start weights"
                                                : "Final match: the last kept weights with the "
                                                  "SPSA values against the start");
        });
        if (!in.tune.empty()) add("tune", "Tuning", [&] { return tune_section(in, notes); });
        if (!in.spsa.empty()) add("spsa", "SPSA", [&] { return spsa_section(in, notes); });
        add("openings", "Openings", [&] { return openings_section(in, notes); });
    }

    std::string html = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
    html += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
            "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n";
    html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
    html += "<meta name=\"generator\" content=\"fanorona report\">\n";
    if (in.refresh_seconds > 0)
        html += "<meta http-equiv=\"refresh\" content=\"" + std::to_string(in.refresh_seconds) +
                "\">\n";
    html += "<title>" + esc(in.title) + "</title>\n<style>" + kStyle + kBrowserStyle +
            "</style>\n</head>\n";
    html += "<body>\n";
    if (in.refresh_seconds > 0)
        html += "<p class=\"live-banner\" id=\"live-banner\">The run is going: this page was "
                "written at " +
                now_text() + " and reloads itself every " + std::to_string(in.refresh_seconds) +
                " s until the run ends.</p>\n";
    html += "<header>\n<h1>" + esc(in.title) + "</h1>\n<nav>";
    for (const auto& [id, label] : nav) html += "<a href=\"#" + id + "\">" + esc(label) + "</a>";
    html += "</nav>\n<p class=\"inputs\">" + input_line(in) + "</p>\n</header>\n<main>\n";
    html += body;
    html += "</main>\n<script>" + std::string(kScript) + kExplorerScript + kBrowserScript +
            kScriptEnd + "</script>\n</body>\n</html>\n";
    return {std::move(html), std::move(notes.warnings)};
}

std::vector<std::string> write_report(const ReportInputs& inputs, const std::string& path) {
    Report r = build_report(inputs);
    write_file_atomically(path, r.html);
    return std::move(r.warnings);
}

} // namespace fanorona::report
