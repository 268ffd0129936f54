// `fanorona report`: the page from hand-made inputs, missing and broken inputs, and the page
// loaded in a real browser (headless Chromium) when one is installed.

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <regex>
#include <set>

#include <nlohmann/json.hpp>

#include "tests/cli_helpers.h"

using namespace test_cli;

namespace {

const std::string kData = std::string(FANORONA_TEST_DATA) + "/report/";

std::string full_report(const std::string& out) {
    const Run r = run_cli("report --out " + out + " --selfplay " + kData +
                          "selfplay --tournament " + kData + "tournament --opening-stats " + kData +
                          "openings --tune " + kData + "tune --spsa " + kData + "spsa");
    INFO(r.output);
    REQUIRE(r.status == 0);
    CHECK(r.output.find("0 warnings") != std::string::npos);
    return slurp(out);
}

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
    return n;
}

bool has_id(const std::string& html, const std::string& id) {
    return html.find("id=\"" + id + "\"") != std::string::npos;
}

} // namespace

TEST_CASE("the report shows every section from its inputs", "[report]") {
    const std::string dir = fresh_dir("report_full");
    const std::string html = full_report(dir + "/report.html");
    for (const char* id :
         {"selfplay", "tournament", "openings", "tune", "tournament-table", "pairings-table",
          "elo-chart", "sprt-chart", "opening-tree", "main-line", "loss-chart", "weights-changed",
          "selfplay-game", "tournament-game", "spsa", "spsa-summary", "spsa-params",
          "spsa-chart-LmrBase", "spsa-chart-material_mg"})
        CHECK(has_id(html, id));
    CHECK(html.find("not provided") == std::string::npos);
    // Tournament table: both players with their Elo and interval, the SPRT verdict.
    CHECK(html.find("<td>d3</td>") != std::string::npos);
    CHECK(html.find("+52.8") != std::string::npos);
    CHECK(html.find("[+38.1, +67.5]") != std::string::npos);
    CHECK(html.find("H1 accepted") != std::string::npos);
    // Opening tree: the moves of the hand-made games with their counts.
    CHECK(html.find("1. d3e3A</span><span class=\"games\">4</span>") != std::string::npos);
    CHECK(html.find("transposition: shown above") != std::string::npos);
    // Boards: the game viewers' frames, the main line; captures are crossed out.
    CHECK(count(html, "<svg class=\"board\"") > 20);
    CHECK(html.find("class=\"captured\"") != std::string::npos);
    CHECK(html.find("class=\"arrow\"") != std::string::npos);
    // Tuning: the weights that changed, biggest change first.
    CHECK(html.find("<code>material_mg</code></td><td class=\"num\">100</td><td "
                    "class=\"num\">83</td>") != std::string::npos);
    // Self-contained: nothing is fetched from anywhere.
    CHECK(std::regex_search(html, std::regex("(src|href)=\"(https?:)?//")) == false);
    CHECK(html.find("<link") == std::string::npos);
    CHECK(html.find("default-src 'none'") != std::string::npos);
}

TEST_CASE("the report says which inputs are not provided", "[report]") {
    const std::string dir = fresh_dir("report_empty");
    const Run r = run_cli("report --out " + dir + "/r.html");
    REQUIRE(r.status == 0);
    const std::string html = slurp(dir + "/r.html");
    CHECK(count(html, "class=\"missing\"") == 5);
    for (const char* id : {"selfplay", "tournament", "openings", "tune", "spsa"})
        CHECK(has_id(html, id));

    // Only some of a folder's files.
    const Run t = run_cli("report --out " + dir + "/t.html --tune " + kData + "tune_files");
    REQUIRE(t.status == 0);
    const std::string tune = slurp(dir + "/t.html");
    CHECK(has_id(tune, "loss-chart"));
    // No changed_weights: the start and final weights files are compared (final found by name).
    CHECK(has_id(tune, "weights-changed"));
    CHECK(
        tune.find("<code>tempo_mg</code></td><td class=\"num\">10</td><td class=\"num\">14</td>") !=
        std::string::npos);
    CHECK(tune.find("<code>material_eg</code>") == std::string::npos); // unchanged
    CHECK(tune.find("0.031200 &rarr; &ndash;") != std::string::npos);  // a null loss

    CHECK(run_cli("report --out " + dir + "/x.html --opening-stats " + dir + "/no_such_folder")
              .status == 1);
}

TEST_CASE("broken inputs give warnings naming the file, not a failed page", "[report]") {
    const std::string dir = fresh_dir("report_broken");
    const std::string args =
        "report --out " + dir + "/r.html --selfplay " + kData + "broken --tune " + kData + "broken";
    const Run r = run_cli(args);
    INFO(r.output);
    REQUIRE(r.status == 0);
    CHECK(r.output.find("broken/summary.json: not valid JSON") != std::string::npos);
    CHECK(r.output.find("broken/games.tsv:2:") != std::string::npos);
    CHECK(r.output.find("broken/loss.csv:3: epoch") != std::string::npos);
    const std::string html = slurp(dir + "/r.html");
    CHECK(count(html, "class=\"error-note\"") >= 3);
    CHECK(has_id(html, "loss-chart")); // the good rows still make a chart
    CHECK(run_cli(args + " --strict").status == 1);
}

TEST_CASE("fields of unexpected types read as missing, not as a failed page", "[report]") {
    // Found by the summary_json fuzz target (corpus/summary_json/regress_live_line_not_object): a
    // live.jsonl line that is a JSON string made the tournament section throw nlohmann's
    // "cannot use value() with string"; so did a table, a row or a flag of another type.
    const std::string dir = fresh_dir("report_types");
    const std::string t = dir + "/t", u = dir + "/u", o = dir + "/o";
    for (const auto& d : {t, u, o}) std::filesystem::create_directories(d);
    std::ofstream(t + "/live.jsonl") << "\"a string\"\n[1,2]\n{\"pairing\": 5, \"sprt\": []}\n";
    std::ofstream(t + "/results.json")
        << R"({"table": {"players": 5, "pairings": [1, {"wdl": []}]}, "complete": "yes",)"
        << R"( "vela_series": [{"players": [1, 2], "normal": 3}], "players": {}})";
    std::ofstream(u + "/tune.json") << R"({"positions": [], "converged": 1, "settings": 7})";
    std::ofstream(o + "/openings.json") << R"({"positions": {"a": 1}, "roots": 5})";
    const Run r = run_cli("report --out " + dir + "/r.html --tournament " + t + " --tune " + u +
                          " --opening-stats " + o);
    INFO(r.output);
    CHECK(r.status == 0);
    CHECK(has_id(slurp(dir + "/r.html"), "elo-chart"));
}

TEST_CASE("the report of a loop folder tells the loop's story", "[report][loop]") {
    const std::string dir = fresh_dir("report_loop");
    const std::string loop = dir + "/loop";
    const Run r =
        run_cli("loop --iterations 2 --games 40 --depth 1 --verify-games 8 "
                "--final-games 8 --match-openings random:3 --quiet --threads 2 "
                "--accept-los 0.5 --weights " +
                std::string(FANORONA_TEST_DATA) + "/../../data/weights/weak.txt --out " + loop);
    INFO(r.output);
    REQUIRE(r.status == 0);
    const std::string html = slurp(loop + "/report.html");
    const auto h = nlohmann::json::parse(slurp(loop + "/history.json"));
    REQUIRE(h["iterations"].size() == 2);
    // The overview, each iteration's own sections, the final match, the explorer of its games.
    for (const char* id :
         {"loop", "loop-summary", "loop-iterations", "loop-elo-chart", "loop-loss-chart",
          "loop-weights", "iter-1-selfplay", "iter-1-tune", "iter-1-match", "iter-2-selfplay",
          "iter-2-tune", "iter-2-match", "iter-1-loss-chart", "iter-2-tournament-table",
          "tournament", "openings", "opening-explorer"})
        CHECK(has_id(html, id));
    // Every id once: the iterations' sections have their own.
    std::set<std::string> ids;
    std::size_t n = 0;
    const std::regex id_attr(" id=\"([^\"]*)\"");
    for (auto it = std::sregex_iterator(html.begin(), html.end(), id_attr);
         it != std::sregex_iterator(); ++it, ++n)
        ids.insert((*it)[1].str());
    CHECK(ids.size() == n);
    // Links from the table to each iteration's sections.
    for (const char* link : {"#iter-1-selfplay", "#iter-2-tune", "#iter-2-match"})
        CHECK(html.find(std::string("href=\"") + link + "\"") != std::string::npos);
    // Each iteration's row: its figures from history.json.
    for (const auto& it : h["iterations"]) {
        const auto& m = it["match"];
        const std::string row =
            html.substr(html.find("id=\"loop-iter-" + std::to_string(it["iteration"].get<int>())));
        char elo[64];
        std::snprintf(elo, sizeof elo, "%+.1f", m["elo"].get<double>());
        const std::string shown = elo == std::string("+0.0") || elo == std::string("-0.0")
                                      ? "0.0" // the page shows no sign on zero
                                      : elo;
        // A match won or lost to the game has no finite interval: its error is null, a dash.
        char error[32] = " &plusmn; &ndash;";
        if (m["elo_error95"].is_number())
            std::snprintf(error, sizeof error, " &plusmn; %.1f", m["elo_error95"].get<double>());
        CHECK(row.substr(0, row.find("</tr>")).find(shown + error) != std::string::npos);
        char loss[64];
        std::snprintf(loss, sizeof loss, "%.5f &rarr; %.5f",
                      it["tune"]["start_validation_loss"].get<double>(),
                      it["tune"]["final_validation_loss"].get<double>());
        CHECK(row.substr(0, row.find("</tr>")).find(loss) != std::string::npos);
    }
    // The final match and the loop's openings in the header; nothing marked missing.
    CHECK(html.find("<h2>Final match") != std::string::npos);
    CHECK(html.find("self-play openings: <code>random:6</code>") != std::string::npos);
    CHECK(html.find("match openings: <code>random:3</code>") != std::string::npos);
    CHECK(html.find("not provided") == std::string::npos);
    CHECK(html.find("class=\"error-note\"") == std::string::npos);
    // `fanorona report --loop` makes the same page.
    REQUIRE(run_cli("report --loop " + loop + " --out " + dir + "/again.html").status == 0);
    CHECK(slurp(dir + "/again.html") == html);
}

namespace {

// Whether headless Chromium can run the browser tests. Under CI (in_ci()), where `make test`
// installs it, a missing one fails the test instead of skipping it.
bool have_chromium() {
    if (std::system("command -v chromium >/dev/null 2>&1") == 0) return true;
    if (in_ci()) FAIL("CI=true, but chromium is not installed: the browser test cannot run");
    WARN("chromium is not installed (make test installs it as root): browser check skipped");
    return false;
}

// What headless Chromium made of a page: the DOM after its scripts ran, and its log.
struct Browsed {
    int status = -1;
    std::string dom;
    std::string log;
};

// Loads `page` (a file in `dir`) in headless Chromium; `script`, when given, is appended to a
// copy of the page as one more inline script, which runs after the page's own.
Browsed browse(const std::string& dir, const std::string& page, const std::string& script = "") {
    std::string path = dir + "/" + page;
    if (!script.empty()) {
        std::string html = slurp(path);
        const auto end = html.rfind("</body>");
        REQUIRE(end != std::string::npos);
        html.insert(end, "<script>" + script + "</script>\n");
        path = dir + "/scripted-" + page;
        std::ofstream(path, std::ios::binary) << html;
    }
    const std::string profile = dir + "/profile";
    std::filesystem::create_directories(profile);
    const std::string cmd =
        "timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic "
        "--no-first-run --disable-background-networking --disable-component-update --disable-sync "
        "--enable-logging=stderr --v=0 --user-data-dir=" +
        profile + " --dump-dom file://" + path + " >" + dir + "/dom.html 2>" + dir +
        "/chromium.log";
    Browsed b;
    b.status = std::system(cmd.c_str());
    b.dom = slurp(dir + "/dom.html");
    b.log = slurp(dir + "/chromium.log");
    return b;
}

// The page's script ran to its end, and nothing reported an error or a blocked load.
void check_clean(const Browsed& b) {
    INFO(b.log);
    REQUIRE(b.status == 0);
    CHECK(b.dom.find("data-ready=\"1\"") != std::string::npos);
    CHECK(b.dom.find("id=\"js-error\"") == std::string::npos);
    CHECK(b.log.find("Uncaught") == std::string::npos);
    CHECK(b.log.find("Content Security Policy") == std::string::npos);
    CHECK(b.log.find(":CONSOLE") == std::string::npos);
}

// Clicks through the explorer `id` as a user would and records what it shows after each step:
// its board's position and pieces, the captures and arrow drawn, the path, the back button and
// the rows of the move list. The record is written into <pre id="explorer-test"> as JSON.
std::string explorer_clicks(const std::string& id) {
    return R"JS(
(function () {
  var ex = document.getElementById(')JS" +
           id + R"JS(');
  var states = [];
  function state() {
    var svg = ex.querySelector('svg.board');
    return {
      position: svg.getAttribute('data-position'),
      pieces: svg.querySelectorAll('circle.piece').length - svg.querySelectorAll('.captured circle.piece').length,
      captured: svg.querySelectorAll('g.captured').length,
      arrows: svg.querySelectorAll('polygon.arrow').length,
      path: Array.prototype.map.call(ex.querySelectorAll('.ex-path button'), function (b) { return b.textContent; }),
      back_disabled: ex.querySelector('.ex-back').disabled,
      rows: Array.prototype.map.call(ex.querySelectorAll('.ex-moves tbody tr'), function (tr) {
        return tr.querySelector('.ex-move').textContent + ' ' + tr.children[1].textContent; })
    };
  }
  states.push(state());
  ex.querySelector('.ex-moves tbody tr:not(.ex-leaf) button.ex-move').click();
  states.push(state());
  ex.querySelector('.ex-back').click();
  states.push(state());
  ex.querySelector('.ex-moves tbody tr:not(.ex-leaf)').click();
  ex.querySelector('.ex-path button').click();
  states.push(state());
  var pre = document.createElement('pre');
  pre.id = 'explorer-test';
  pre.textContent = JSON.stringify(states);
  document.body.appendChild(pre);
})();
)JS";
}

// The states explorer_clicks recorded.
nlohmann::json explorer_states(const std::string& dom) {
    const std::string open = "<pre id=\"explorer-test\">";
    const auto a = dom.find(open);
    REQUIRE(a != std::string::npos);
    const auto b = dom.find("</pre>", a);
    REQUIRE(b != std::string::npos);
    return nlohmann::json::parse(dom.substr(a + open.size(), b - a - open.size()));
}

// The pieces of a position string (its board part).
int pieces_of(const std::string& position) {
    int n = 0;
    for (char c : position.substr(0, position.find(' '))) n += c == 'W' || c == 'B';
    return n;
}

} // namespace

TEST_CASE("the report loads in a real browser without errors", "[report][browser][slow]") {
    if (!have_chromium()) return;
    const std::string dir = fresh_dir("report_browser");
    full_report(dir + "/report.html");
    const Browsed b = browse(dir, "report.html");
    check_clean(b);
    const std::string& dom = b.dom;
    for (const char* id : {"opening-tree", "opening-explorer", "tournament-table", "elo-chart",
                           "sprt-chart", "loss-chart", "weights-changed", "selfplay-game"})
        CHECK(has_id(dom, id));
    CHECK(count(dom, "<svg class=\"board\"") > 20);
    CHECK(dom.find("<svg class=\"chart\"") != std::string::npos);
    // The viewer shows one frame at a time.
    CHECK(count(dom, "class=\"frame current\"") == 2);
    // The explorer drew its first position's moves.
    CHECK(dom.find("type=\"button\">1. d3e3A</button>") != std::string::npos);
}

TEST_CASE("the opening explorer descends by a click and comes back", "[report][browser][slow]") {
    if (!have_chromium()) return;
    const std::string dir = fresh_dir("report_explorer");
    full_report(dir + "/report.html");
    const Browsed b = browse(dir, "report.html", explorer_clicks("opening-explorer"));
    check_clean(b);
    const auto states = explorer_states(b.dom);
    REQUIRE(states.size() == 4);
    // What the clicks should show, from the explorer's input.
    const auto tree = nlohmann::json::parse(slurp(kData + "openings/openings.json"));
    std::map<std::string, nlohmann::json> by_hash;
    for (const auto& p : tree["positions"]) by_hash[p["hash"].get<std::string>()] = p;
    const auto& root = by_hash.at(tree["roots"][0].get<std::string>());
    const auto& first = root["moves"][0];
    const auto& child = by_hash.at(first["child"].get<std::string>());
    INFO(states.dump(1));

    // At the start: the first root, its moves with their games, no way back.
    const auto& start = states[0];
    CHECK(start["position"] == root["position"]);
    CHECK(start["pieces"] == pieces_of(root["position"]));
    CHECK(start["captured"] == 0);
    CHECK(start["back_disabled"] == true);
    CHECK(start["path"] == nlohmann::json::array({"start"}));
    REQUIRE(start["rows"].size() == root["moves"].size());
    CHECK(start["rows"][0] == "1. " + first["move"].get<std::string>() + " " +
                                  std::to_string(first["games"].get<int>()));

    // After clicking the first move: the board shows the position it leads to, with the move
    // and its captures marked; the list holds that position's moves.
    const auto& down = states[1];
    CHECK(down["position"] == child["position"]);
    CHECK(down["pieces"] == pieces_of(child["position"]));
    CHECK(down["pieces"] < start["pieces"]); // d3e3A captures
    CHECK(down["captured"] == start["pieces"].get<int>() - down["pieces"].get<int>());
    CHECK(down["arrows"] == 1);
    CHECK(down["back_disabled"] == false);
    CHECK(down["path"] ==
          nlohmann::json::array({"start", "1. " + first["move"].get<std::string>()}));
    REQUIRE(down["rows"].size() == child["moves"].size());
    for (std::size_t i = 0; i < child["moves"].size(); ++i)
        CHECK(down["rows"][i] == "2. " + child["moves"][i]["move"].get<std::string>() + " " +
                                     std::to_string(child["moves"][i]["games"].get<int>()));
    CHECK(down["rows"] != start["rows"]);

    // Back, and back again by the path: the start as it was.
    CHECK(states[2] == start);
    CHECK(states[3] == start);
}

TEST_CASE("a loop's report shows every iteration and explores its games in a browser",
          "[report][loop][browser][slow]") {
    if (!have_chromium()) return;
    const std::string dir = fresh_dir("report_loop_browser");
    const Run r =
        run_cli("loop --iterations 2 --games 40 --depth 1 --verify-games 8 "
                "--final-games 8 --match-openings random:3 --quiet --threads 2 "
                "--accept-los 0 --weights " +
                std::string(FANORONA_TEST_DATA) + "/../../data/weights/weak.txt --out " + dir);
    INFO(r.output);
    REQUIRE(r.status == 0);
    const Browsed b = browse(dir, "report.html", explorer_clicks("opening-explorer"));
    check_clean(b);
    for (const char* id : {"loop-iterations", "loop-elo-chart", "iter-2-match", "tournament"})
        CHECK(has_id(b.dom, id));
    CHECK(count(b.dom, "class=\"frame current\"") == 5); // 2 self-play, 2 matches, the final
    const auto states = explorer_states(b.dom);
    REQUIRE(states.size() == 4);
    CHECK(states[0]["path"].size() == 1);
    CHECK(states[1]["path"].size() == 2);
    CHECK(states[1]["position"] != states[0]["position"]);
    CHECK(states[1]["rows"] != states[0]["rows"]);
    CHECK(states[2] == states[0]);
}

namespace {

// The game browser's data (its <script class="gb-data">) of the browser `id` in `html`.
nlohmann::json browser_data(const std::string& html, const std::string& id) {
    const auto at = html.find("id=\"" + id + "\"");
    REQUIRE(at != std::string::npos);
    const std::string open = "<script type=\"application/json\" class=\"gb-data\">";
    const auto a = html.find(open, at);
    REQUIRE(a != std::string::npos);
    const auto b = html.find("</script>", a);
    REQUIRE(b != std::string::npos);
    return nlohmann::json::parse(html.substr(a + open.size(), b - a - open.size()));
}

bool has_refresh(const std::string& html) {
    return html.find("http-equiv=\"refresh\"") != std::string::npos;
}

// A small tournament of three built-in players with an external one (its engine log kept), its
// final page in DIR/report.html.
void small_tournament(const std::string& dir) {
    std::filesystem::create_directories(dir); // the engine log is kept in it
    const Run r =
        run_cli("tournament --quiet --format roundrobin --games 4 --openings random:3 "
                "--max-turns 40 --out " +
                dir + " --log " + dir + "/engines.log --player name=ext,cmd=" + FANORONA_BINARY +
                ",args=engine,depth=1 --player name=d1,depth=1 " + "--player name=d2,depth=2");
    INFO(r.output);
    REQUIRE(r.status == 0);
}

} // namespace

TEST_CASE("a tournament's report holds every game in its game browser", "[report][browser]") {
    const std::string dir = fresh_dir("report_game_browser");
    small_tournament(dir);
    const std::string html = slurp(dir + "/report.html");
    CHECK_FALSE(has_refresh(html)); // the run ended: the page no longer reloads
    CHECK(html.find("id=\"live-banner\"") == std::string::npos);
    const auto data = browser_data(html, "tournament-browser");
    // Every game of games.tsv, with its players, result and reason.
    std::vector<std::string> lines;
    {
        std::istringstream in(slurp(dir + "/games.tsv"));
        for (std::string line; std::getline(in, line);)
            if (!line.empty() && line[0] != '#') lines.push_back(line);
    }
    REQUIRE(lines.size() == 12); // 3 pairings of 4 games
    REQUIRE(data["games"].size() == lines.size());
    std::set<std::string> players(data["players"].begin(), data["players"].end());
    CHECK(players == std::set<std::string>{"ext", "d1", "d2"});
    int with_log = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const auto& g = data["games"][i];
        CHECK(g[0] == i);
        const auto& d = data["details"][g[7].get<std::size_t>()];
        CHECK(d["m"].size() == g[5]);
        CHECK(d["s"].size() == g[5]);
        const std::string white = data["players"][g[1].get<std::size_t>()];
        const std::string black = data["players"][g[2].get<std::size_t>()];
        // The external engine's games, and only they, have engine log lines.
        const bool ext = white == "ext" || black == "ext";
        CHECK(d.contains("log") == ext);
        if (d.contains("log")) {
            ++with_log;
            CHECK(d["log"][0][1] == "ext");
        }
    }
    CHECK(with_log == 8);
    // `fanorona report` makes the same browser, with the log given by --log.
    const Run r = run_cli("report --tournament " + dir + " --log " + dir + "/engines.log --out " +
                          dir + "/again.html");
    INFO(r.output);
    REQUIRE(r.status == 0);
    CHECK(browser_data(slurp(dir + "/again.html"), "tournament-browser") == data);
    CHECK(run_cli("report --tournament " + dir + " --log " + dir + "/none.log --out " + dir +
                  "/x.html")
              .status != 0);
}

TEST_CASE("a game browser filters by player and shows a clicked game", "[report][browser][slow]") {
    if (!have_chromium()) return;
    const std::string dir = fresh_dir("report_game_browser_chromium");
    small_tournament(dir);
    const auto data = browser_data(slurp(dir + "/report.html"), "tournament-browser");
    // Pick d2, then "the player lost" when d2 lost a game (else any result), click the first row.
    const std::string script = R"JS(
(function () {
  var gb = document.getElementById('tournament-browser');
  var out = {rows_before: gb.querySelectorAll('tr.gb-row').length};
  var sel = gb.querySelector('.gb-player');
  var d2 = Array.prototype.filter.call(sel.options, function (o) { return o.textContent === 'd2'; })[0];
  sel.value = d2.value;
  sel.dispatchEvent(new Event('change'));
  out.rows = Array.prototype.map.call(gb.querySelectorAll('tr.gb-row'), function (tr) {
    return [tr.children[0].textContent, tr.children[1].textContent, tr.children[2].textContent]; });
  gb.querySelector('tr.gb-row').click();
  var view = gb.querySelector('.gb-view');
  out.game = view.getAttribute('data-game');
  out.head = view.querySelector('.viewer-head').textContent;
  out.moves = view.querySelectorAll('.gb-moves tbody tr').length;
  out.log = view.querySelector('pre.gb-log') ? view.querySelector('pre.gb-log').textContent.split('\n').length : 0;
  out.chart = view.querySelectorAll('svg.gb-scores polyline').length;
  out.selected = gb.querySelectorAll('tr.gb-row.selected').length;
  var pre = document.createElement('pre');
  pre.id = 'browser-test';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
)JS";
    const Browsed b = browse(dir, "report.html", script);
    check_clean(b);
    const std::string open = "<pre id=\"browser-test\">";
    const auto a = b.dom.find(open);
    REQUIRE(a != std::string::npos);
    const auto e = b.dom.find("</pre>", a);
    const auto got = nlohmann::json::parse(b.dom.substr(a + open.size(), e - a - open.size()));
    INFO(got.dump(1));
    CHECK(got["rows_before"] == 12);
    // d2 plays 8 games (against each of the two others 4), each listed with d2 as a colour.
    REQUIRE(got["rows"].size() == 8);
    for (const auto& row : got["rows"]) CHECK((row[1] == "d2" || row[2] == "d2"));
    // The click shows that game: its moves (one row a turn) and its score chart.
    const std::string first = got["rows"][0][0];
    CHECK(got["game"] == first);
    CHECK(got["selected"] == 1);
    const auto& g = data["games"][std::stoul(first)];
    CHECK(got["moves"] == g[5]);
    CHECK(got["chart"] == 1);
    CHECK(got["head"].get<std::string>().find("Game " + first + ":") == 0);
    // Its engine log lines when it is a game of the external engine.
    const bool ext = data["players"][g[1].get<std::size_t>()] == "ext" ||
                     data["players"][g[2].get<std::size_t>()] == "ext";
    CHECK((got["log"] > 0) == ext);
}

TEST_CASE("a running tournament rewrites its live page until it ends", "[report][live][slow]") {
    const std::string dir = fresh_dir("report_live");
    const pid_t pid = spawn_cli("tournament --quiet --games 2000 --threads 1 --openings random:3 "
                                "--report-interval 1 --out " +
                                dir + " --player name=a,depth=2 --player name=b,depth=1");
    REQUIRE(pid > 0);
    // Two different live pages, written while the run goes.
    std::vector<std::string> pages;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60 * kSlowdown);
    while (pages.size() < 2 && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        const std::string page = slurp(dir + "/report.html");
        if (!page.empty() && (pages.empty() || page != pages.back())) pages.push_back(page);
    }
    ::kill(pid, SIGINT);
    const int status = wait_exit(pid);
    REQUIRE(pages.size() == 2);
    for (const auto& page : pages) {
        CHECK(has_refresh(page));
        CHECK(page.find("id=\"live-banner\"") != std::string::npos);
        CHECK(page.find("</html>") != std::string::npos); // written whole
    }
    CHECK(status != 0); // interrupted
    // The final page: no reload, every game of the folder in its browser.
    const std::string last = slurp(dir + "/report.html");
    CHECK_FALSE(has_refresh(last));
    CHECK(last.find("id=\"live-banner\"") == std::string::npos);
    std::size_t games = 0;
    {
        std::istringstream in(slurp(dir + "/games.tsv"));
        for (std::string line; std::getline(in, line);) games += !line.empty() && line[0] != '#';
    }
    CHECK(browser_data(last, "tournament-browser")["games"].size() == games);
    // The live page loads in a browser.
    if (!have_chromium()) return;
    std::ofstream(dir + "/live.html", std::ios::binary) << pages.back();
    check_clean(browse(dir, "live.html"));
}
