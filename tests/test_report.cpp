// `fanorona report`: the page from hand-made inputs, missing and broken inputs, and the page
// loaded in a real browser (headless Chromium) when one is installed.

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <regex>

#include "tests/cli_helpers.h"

using namespace test_cli;

namespace {

const std::string kData = std::string(FANORONA_TEST_DATA) + "/report/";

std::string full_report(const std::string& out) {
    const Run r = run_cli("report --out " + out + " --selfplay " + kData +
                          "selfplay --tournament " + kData + "tournament --openings " + kData +
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

    CHECK(run_cli("report --out " + dir + "/x.html --openings " + dir + "/no_such_folder").status ==
          1);
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
                          " --openings " + o);
    INFO(r.output);
    CHECK(r.status == 0);
    CHECK(has_id(slurp(dir + "/r.html"), "elo-chart"));
}

TEST_CASE("the report loads in a real browser without errors", "[report][browser][slow]") {
    if (std::system("command -v chromium >/dev/null 2>&1") != 0) {
        WARN("chromium is not installed (make test installs it as root): browser check skipped");
        return;
    }
    const std::string dir = fresh_dir("report_browser");
    full_report(dir + "/report.html");
    const std::string profile = dir + "/profile";
    std::filesystem::create_directories(profile);
    const std::string cmd =
        "timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic "
        "--no-first-run --disable-background-networking --disable-component-update --disable-sync "
        "--enable-logging=stderr --v=0 --user-data-dir=" +
        profile + " --dump-dom file://" + dir + "/report.html >" + dir + "/dom.html 2>" + dir +
        "/chromium.log";
    const int status = std::system(cmd.c_str());
    const std::string dom = slurp(dir + "/dom.html");
    const std::string log = slurp(dir + "/chromium.log");
    INFO(log);
    REQUIRE(status == 0);
    // The script ran to its end, and nothing reported an error.
    CHECK(dom.find("data-ready=\"1\"") != std::string::npos);
    CHECK(dom.find("id=\"js-error\"") == std::string::npos);
    // The page writes nothing to the console: no uncaught error, no blocked (external) load.
    CHECK(log.find("Uncaught") == std::string::npos);
    CHECK(log.find("Content Security Policy") == std::string::npos);
    CHECK(log.find(":CONSOLE") == std::string::npos);
    for (const char* id : {"opening-tree", "tournament-table", "elo-chart", "sprt-chart",
                           "loss-chart", "weights-changed", "selfplay-game"})
        CHECK(has_id(dom, id));
    CHECK(count(dom, "<svg class=\"board\"") > 20);
    CHECK(dom.find("<svg class=\"chart\"") != std::string::npos);
    // The viewer shows one frame at a time.
    CHECK(count(dom, "class=\"frame current\"") == 2);
}
