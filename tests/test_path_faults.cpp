// The file-side minor faults of issue 60's item 8, each tried as a user would: folder names that
// are not UTF-8, an input given twice, paths deeper than the system's limit, train --resume by
// another spelling of its folder, and the option names lower layers no longer spell.

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "core/common/text.h"
#include "selfplay/formats/json_text.h"
#include "tests/cli_helpers.h"
#include "tools/setting_options.h"

using namespace fanorona;
using namespace test_cli;

namespace {

namespace fs = std::filesystem;

// Whether `path` holds a JSON text that parses (nlohmann's parser refuses invalid UTF-8).
bool valid_json_file(const std::string& path) {
    const std::string text = slurp(path);
    return !text.empty() && !nlohmann::json::parse(text, nullptr, false).is_discarded();
}

} // namespace

TEST_CASE("valid_utf8 replaces each byte that starts no UTF-8 sequence, and only those",
          "[paths][utf8]") {
    CHECK(valid_utf8("plain run") == "plain run");
    CHECK(valid_utf8("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x8E\xB2") ==
          "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x8E\xB2");
    const std::string fffd = "\xEF\xBF\xBD";
    CHECK(valid_utf8("run\xFF") == "run" + fffd);
    CHECK(valid_utf8("\x80x") == fffd + "x");                        // a stray continuation byte
    CHECK(valid_utf8("\xC0\xAF") == fffd + fffd);                    // an overlong '/'
    CHECK(valid_utf8("\xED\xA0\x80") == fffd + fffd + fffd);         // a surrogate
    CHECK(valid_utf8("\xF4\x90\x80\x80").size() == 4 * fffd.size()); // past U+10FFFF
    CHECK(valid_utf8("ab\xE2\x82") == "ab" + fffd + fffd);           // cut short
    CHECK(to_json_text(nlohmann::json("run\xFF")) == "\"run" + fffd + "\"");
}

TEST_CASE("a run folder whose name is not UTF-8 works for selfplay, rescore and report",
          "[paths][utf8]") {
    const std::string dir = fresh_dir("utf8_names");
    fs::create_directories(dir);
    const std::string run = dir + "/run\xFF";
    const std::string args = "selfplay --games 2 --depth 1 --openings random:2 --corpus "
                             "--no-positions --threads 1 --quiet --out '" +
                             run + "'";
    const Run s = run_cli(args);
    INFO(s.output);
    REQUIRE(s.status == 0);
    CHECK(valid_json_file(run + "/settings.json"));
    CHECK(valid_json_file(run + "/summary.json"));
    // The run resumes in the same folder (its settings compared as written).
    const Run again = run_cli(args + " --resume");
    INFO(again.output);
    CHECK(again.status == 0);

    const std::string out = dir + "/deep\xFE.fcorpus";
    const Run r = run_cli("rescore '" + run + "/corpus.fcorpus' --out '" + out +
                          "' --depth 1 --threads 1 --quiet --json-out '" + dir + "/r\xFF.json'");
    INFO(r.output);
    REQUIRE(r.status == 0);
    CHECK(valid_json_file(out + ".settings.json"));
    CHECK(!fs::exists(out + ".summary.json")); // --json-out is the summary
    CHECK(valid_json_file(dir + "/r\xFF.json"));

    const std::string html = dir + "/report\xFF.html";
    const Run p = run_cli("report --out '" + html + "' --selfplay '" + run + "'");
    INFO(p.output);
    REQUIRE(p.status == 0);
    const std::string page = slurp(html);
    CHECK(!page.empty());
    CHECK(valid_utf8(page) == page);
}

TEST_CASE("an input given twice to one option is refused, however spelt (timeuse, rescore)",
          "[paths][twice]") {
    const std::string dir = fresh_dir("inputs_twice");
    fs::create_directories(dir);
    const std::string run = dir + "/run";
    REQUIRE(run_cli("selfplay --games 2 --depth 1 --openings random:2 --corpus --no-positions "
                    "--threads 1 --quiet --out " +
                    run)
                .status == 0);
    // timeuse: a run folder twice (another spelling), a games file twice (through a link).
    const Run once = run_cli("timeuse " + run);
    INFO(once.output);
    REQUIRE(once.status == 0);
    const Run folder = run_cli("timeuse " + run + " " + dir + "/../inputs_twice/run/");
    INFO(folder.output);
    CHECK(folder.status != 0);
    CHECK_THAT(folder.output, Catch::Contains("given twice (also as " + run + ")"));
    fs::create_symlink(run + "/games.tsv", dir + "/link.tsv");
    const Run file = run_cli("timeuse " + run + "/games.tsv " + dir + "/link.tsv");
    INFO(file.output);
    CHECK(file.status != 0);
    CHECK_THAT(file.output, Catch::Contains("link.tsv: given twice"));

    // rescore: one corpus twice; no output is made.
    const std::string corpus = run + "/corpus.fcorpus";
    const Run r = run_cli("rescore " + corpus + " " + run + "/./corpus.fcorpus --out " + dir +
                          "/deep.fcorpus --depth 1 --threads 1 --quiet");
    INFO(r.output);
    CHECK(r.status != 0);
    CHECK_THAT(r.output, Catch::Contains("inputs " + run + "/./corpus.fcorpus: given twice"));
    CHECK(!fs::exists(dir + "/deep.fcorpus"));
    // Two different inputs are fine.
    fs::copy_file(corpus, dir + "/copy.fcorpus");
    CHECK(run_cli("rescore " + corpus + " " + dir + "/copy.fcorpus --out " + dir +
                  "/deep.fcorpus --depth 1 --threads 1 --quiet")
              .status == 0);
}

TEST_CASE("paths over 4096 characters are refused as too long, not taken as one file",
          "[paths][long]") {
    const std::string dir = fresh_dir("long_paths");
    fs::create_directories(dir);
    std::string deep = dir;
    while (deep.size() <= 4200) deep += "/" + std::string(200, 'd');
    // Two outputs that differ: refused for their length, not as the same file.
    const Run two = run_cli("rescore " + dir + "/in.fcorpus --out " + deep +
                            "/a.fcorpus --json-out " + deep + "/b.json --depth 1");
    INFO(two.output.substr(0, 400));
    CHECK(two.status != 0);
    CHECK_THAT(two.output, Catch::Contains("--out " + dir));
    CHECK_THAT(two.output, Catch::Contains("too long (" + std::to_string(deep.size() + 10) +
                                           " characters, over 4096)"));
    CHECK(two.output.find("same file") == std::string::npos);
    // An input as deep: the same line, naming it.
    const Run in = run_cli("timeuse " + deep + "/games.tsv");
    CHECK(in.status != 0);
    CHECK_THAT(in.output, Catch::Contains("too long ("));
}

TEST_CASE("a refused resume names the settings key below, the option from the command's table",
          "[paths][settings]") {
    const std::string dir = fresh_dir("settings_keys");
    fs::create_directories(dir);
    std::ofstream(dir + "/settings.json") << R"({"format": "f", "games": 10, "seed": 3})";
    const nlohmann::json now = {{"format", "f"}, {"games", 10}, {"seed", 4}};
    // The lower layer alone knows no option names.
    CHECK_THROWS_WITH(check_resume_settings(dir, now, {}),
                      dir + "/settings.json: cannot resume with other settings: setting 'seed' "
                            "was 3, now 4");
    // The command line's table names the option.
    CHECK_THROWS_WITH(check_resume_settings(dir, now, {}, run_setting_options()),
                      dir + "/settings.json: cannot resume with other settings: --seed was 3, "
                            "now 4 (settings key 'seed')");
    // A free key may change.
    CHECK_NOTHROW(
        check_resume_settings(dir, {{"format", "f"}, {"games", 20}, {"seed", 3}}, {"games"}));
}
