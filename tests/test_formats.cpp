// Every file format's name in one place (selfplay/formats/formats.h): the writers write it, and
// each of the report's sections checks the format of the JSON it reads, naming the file otherwise.

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "selfplay/formats/formats.h"
#include "tests/cli_helpers.h"

using namespace test_cli;
namespace fs = std::filesystem;

namespace {

const std::string kData = std::string(FANORONA_TEST_DATA) + "/report/";

// A copy of the report fixture folder `name` in `dir` whose `file` has "format": `format`
// (removed when empty).
std::string with_format(const std::string& dir, const std::string& name, const std::string& file,
                        const std::string& format) {
    const std::string to = dir + "/" + name;
    fs::create_directories(to);
    fs::copy(kData + name, to, fs::copy_options::recursive | fs::copy_options::overwrite_existing);
    nlohmann::json j = nlohmann::json::parse(slurp(to + "/" + file));
    if (format.empty())
        j.erase("format");
    else
        j["format"] = format;
    std::ofstream(to + "/" + file) << j.dump(1);
    return to;
}

} // namespace

TEST_CASE("each report section checks the format of its JSON and names the file",
          "[report][formats]") {
    const std::string dir = fresh_dir("formats_report");
    struct Input {
        const char* option;
        const char* folder;
        const char* file;
        const char* format;
    };
    const Input inputs[] = {
        {"--selfplay", "selfplay", "summary.json", fanorona::kSelfplaySummaryFormat},
        {"--tournament", "tournament", "results.json", fanorona::kTournamentResultsFormat},
        {"--opening-stats", "openings", "openings.json", fanorona::kOpeningsFormat},
        {"--tune", "tune", "tune.json", fanorona::kTuneFormat},
        {"--spsa", "spsa", "spsa.json", fanorona::kSpsaSummaryFormat}};
    for (const Input& in : inputs) {
        INFO(in.file);
        // The fixtures are of this build's formats: no warning.
        const Run good = run_cli("report --strict --out " + dir + "/good.html " + in.option + " " +
                                 kData + in.folder);
        INFO(good.output);
        CHECK(good.status == 0);
        CHECK_THAT(good.output, Catch::Contains("0 warnings"));

        // Another version: one line naming the file, its format and the one this build reads.
        const std::string v2 = with_format(dir + "/v2", in.folder, in.file, "fanorona-other 2");
        const Run other = run_cli("report --out " + dir + "/v2.html " + in.option + " " + v2);
        INFO(other.output);
        CHECK(other.status == 0);
        CHECK_THAT(other.output, Catch::Contains(v2 + "/" + in.file +
                                                 ": format \"fanorona-other 2\" (this build "
                                                 "reads \"" +
                                                 in.format + "\")"));
        CHECK(run_cli("report --strict --out " + dir + "/v2.html " + in.option + " " + v2).status ==
              1);

        // No format at all.
        const std::string none = with_format(dir + "/none", in.folder, in.file, "");
        const Run missing = run_cli("report --out " + dir + "/none.html " + in.option + " " + none);
        INFO(missing.output);
        CHECK_THAT(missing.output, Catch::Contains(none + "/" + in.file +
                                                   ": no \"format\" member (this build reads \"" +
                                                   in.format + "\")"));
    }
}

TEST_CASE("the writers write the format names of selfplay/formats/formats.h", "[formats]") {
    const std::string dir = fresh_dir("formats_writers");
    const std::string t = dir + "/t", s = dir + "/s";
    REQUIRE(run_cli("tournament --player name=a,depth=1 --player name=b,builtin=random --games 2 "
                    "--seed 1 --threads 1 --quiet --out " +
                    t)
                .status == 0);
    REQUIRE(
        run_cli("selfplay --games 2 --depth 1 --seed 1 --threads 1 --quiet --out " + s).status ==
        0);
    const auto json = [](const std::string& path) { return nlohmann::json::parse(slurp(path)); };
    CHECK(json(t + "/results.json")["format"] == fanorona::kTournamentResultsFormat);
    CHECK(json(t + "/settings.json")["format"] == fanorona::kRunSettingsFormat);
    CHECK(json(s + "/summary.json")["format"] == fanorona::kSelfplaySummaryFormat);
    const std::string games = slurp(s + "/games.tsv");
    CHECK(games.rfind("# " + std::string(fanorona::kGamesFormatName) + " " +
                          std::string(fanorona::kGamesMicroFormatVersion) + " variant=tsivy",
                      0) == 0);
    CHECK(slurp(s + "/positions.bin").rfind(std::string(fanorona::kPositionLogMagic), 0) == 0);
}
