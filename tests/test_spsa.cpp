// SPSA: the parameters file and its errors, --spsa-param specs, the schedule math against
// hand-worked values, determinism over thread counts, resume, and the parameters file in the
// commands.

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "core/features.h"
#include "selfplay/engine/engine_spec.h"
#include "selfplay/formats/params_file.h"
#include "tests/cli_helpers.h"
#include "tuner/spsa/spsa.h"

using namespace fanorona;
using namespace test_cli;

namespace {

std::string write_text(const std::string& dir, const std::string& name, const std::string& text) {
    std::filesystem::create_directories(dir);
    const std::string path = dir + "/" + name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

// A small run: 2 values (a search parameter and a weight), 6 iterations of 2 pairs, depth 2.
SpsaConfig small_run(const std::string& dir, int threads) {
    SpsaConfig c;
    c.base.set("depth", "2");
    c.base.name = "base";
    c.params = {SpsaParam::parse("LmrBase,50,0,200,20,0.02", c.base),
                SpsaParam::parse("mobility_mg,,,,8,0.05", c.base)};
    c.pairs = 12;
    c.iteration_pairs = 2;
    c.run.openings = OpeningSpec::parse("random:4");
    c.run.seed = 7;
    c.run.adjudication.max_turns = 80;
    c.run.threads = threads;
    c.run.out_dir = dir;
    c.run.quiet = true;
    return c;
}

} // namespace

TEST_CASE("a parameters file: header, lines, comments, errors with file and line", "[spsa]") {
    const std::string dir = fresh_dir("spsa_params_file");
    const auto lines = parse_params_text(
        "# tuned\nfanorona-params 1\n\nLmrBase 53\r\n  material_mg   104 \n# end\n", "p.txt");
    REQUIRE(lines.size() == 2);
    CHECK(lines[0].name == "LmrBase");
    CHECK(lines[0].value == "53");
    CHECK(lines[0].line == 4);
    CHECK(lines[1].name == "material_mg");
    CHECK(lines[1].line == 5);

    CHECK_THROWS_WITH(parse_params_text("LmrBase 3\n", "p.txt"),
                      Catch::StartsWith("p.txt:1: header: expected 'fanorona-params 1'"));
    CHECK_THROWS_WITH(parse_params_text("fanorona-params 2\n", "p.txt"),
                      Catch::StartsWith("p.txt:1: header"));
    CHECK_THROWS_WITH(parse_params_text("", "p.txt"), Catch::StartsWith("p.txt:1: header"));
    CHECK_THROWS_WITH(parse_params_text("fanorona-params 1\nLmrBase\n", "p.txt"),
                      Catch::StartsWith("p.txt:2: expected NAME VALUE"));
    CHECK_THROWS_WITH(parse_params_text("fanorona-params 1\nLmrBase 1 2\n", "p.txt"),
                      Catch::StartsWith("p.txt:2: expected NAME VALUE"));
    CHECK_THROWS_WITH(parse_params_text("fanorona-params 1\nLmrBase 1\nlmrbase 2\n", "p.txt"),
                      Catch::StartsWith("p.txt:3: lmrbase: given twice (first on line 2)"));

    // Through the engine spec: names, ranges and values are its own validation.
    EngineSpec spec;
    const std::string good =
        write_text(dir, "good.txt", "fanorona-params 1\nlmrbase 80\nmaterial_mg 123\n");
    spec.set("params", good);
    CHECK(spec.search_params()[Param::LmrBase] == 80);
    CHECK(spec.weights.values[std::size_t(feature_index("material_mg"))] == 123);
    CHECK(spec.tunable_value("material_mg") == 123);
    CHECK(spec.description() == "fanorona(weights=tuned,params=tuned,material_mg=123,LmrBase=80)");

    const std::string unknown = write_text(dir, "unknown.txt", "fanorona-params 1\n\nNoSuch 1\n");
    CHECK_THROWS_WITH(spec.set("params", unknown),
                      unknown + ":3: NoSuch: not a search parameter or an evaluation weight");
    const std::string range = write_text(dir, "range.txt", "fanorona-params 1\nLmrBase 9999\n");
    CHECK_THROWS_WITH(spec.set("params", range),
                      Catch::StartsWith(range + ":2: LmrBase=9999: expected a whole number from 0 "
                                                "to 400"));
    const std::string word = write_text(dir, "word.txt", "fanorona-params 1\nmaterial_mg ten\n");
    CHECK_THROWS_WITH(spec.set("params", word), Catch::StartsWith(word + ":2: material_mg=ten"));
    CHECK_THROWS_WITH(spec.set("params", dir + "/missing.txt"),
                      dir + "/missing.txt: cannot open the parameters file");
    // A path with a NUL byte (found by the engine_spec fuzzer): a one-line error, not a crash.
    const std::string nul_path = dir + "/unknown.txt" + std::string(1, '\0');
    CHECK_THROWS_WITH(spec.set("params", nul_path),
                      dir + "/unknown.txt\\0: cannot open the parameters file (a file name cannot "
                            "hold a NUL byte; refused)");
    CHECK_THROWS_AS(EngineSpec::parse("params=AThtl" + std::string(3, '\0') + "d"),
                    std::invalid_argument);
    // A failed file changes nothing.
    CHECK(spec.search_params()[Param::LmrBase] == 80);

    // A named weight wins over a weights file set later; format_params reads back the same.
    spec.set("weights", "default");
    CHECK(spec.weights.values[std::size_t(feature_index("material_mg"))] == 123);
    const std::string back =
        write_text(dir, "back.txt", format_params({{"LmrBase", 81}, {"tempo_eg", -5}}, {"x"}));
    EngineSpec again;
    again.set("params", back);
    CHECK(again.search_params()[Param::LmrBase] == 81);
    CHECK(again.tunable_value("tempo_eg") == -5);
}

TEST_CASE("SPSA --spsa-param specs: defaults, explicit fields, errors naming the field", "[spsa]") {
    EngineSpec base;
    base.set("LmrBase", "60");
    const SpsaParam d = SpsaParam::parse("lmrbase", base);
    CHECK(d.name == "LmrBase");
    CHECK(d.start == 60);
    CHECK(d.min == 0);
    CHECK(d.max == 400);
    CHECK(d.c_end == 20);
    CHECK(d.r_end == Approx(0.002));
    const SpsaParam w = SpsaParam::parse("material_mg,,,,5", base);
    const double m = base.tunable_value("material_mg");
    CHECK(w.start == m);
    CHECK(w.min == m - std::max(50.0, std::abs(m)));
    CHECK(w.max == m + std::max(50.0, std::abs(m)));
    CHECK(w.c_end == 5);
    const SpsaParam e = SpsaParam::parse("AspWindow,40,10,90,4.5,0.01", base);
    CHECK(e.to_string() == "AspWindow,40,10,90,4.5,0.01");

    CHECK_THROWS_WITH(
        SpsaParam::parse("Nope", base),
        "--spsa-param Nope: NAME: 'Nope' is not a search parameter or an evaluation weight");
    CHECK_THROWS_WITH(SpsaParam::parse("LmrBase,x", base),
                      "--spsa-param LmrBase,x: start: 'x' is not a number");
    CHECK_THROWS_WITH(SpsaParam::parse("LmrBase,50,-5", base),
                      "--spsa-param LmrBase,50,-5: min: outside LmrBase's range [0, 400]");
    CHECK_THROWS_WITH(SpsaParam::parse("LmrBase,50,60,40", base),
                      Catch::StartsWith("--spsa-param LmrBase,50,60,40: max: must be greater"));
    CHECK_THROWS_WITH(SpsaParam::parse("LmrBase,500,0,400", base),
                      "--spsa-param LmrBase,500,0,400: start: outside [min, max]");
    CHECK_THROWS_WITH(SpsaParam::parse("LmrBase,,,,0", base),
                      "--spsa-param LmrBase,,,,0: c_end: must be positive");
    CHECK_THROWS_WITH(SpsaParam::parse("LmrBase,,,,1,-1", base),
                      "--spsa-param LmrBase,,,,1,-1: r_end: must be positive");
    CHECK_THROWS_WITH(SpsaParam::parse("LmrBase,1,0,9,1,1,1", base),
                      Catch::Contains("fields: expected NAME[,start,min,max,c_end,r_end]"));
}

TEST_CASE("the SPSA schedules against hand-worked values", "[spsa]") {
    // N = 100 pairs, A = 10, c_end = 4, r_end = 0.002:
    // c = 4 * 100^0.101, a = 0.002 * 16 * 110^0.602 (worked out separately to 12 digits).
    SpsaParam p;
    p.name = "LmrBase";
    p.start = 50, p.min = 0, p.max = 400, p.c_end = 4, p.r_end = 0.002;
    SpsaShape s;
    s.pairs = 100;
    s.A = 10;
    const SpsaGains g = spsa_gains(p, s);
    CHECK(g.c == Approx(6.368834908204681).epsilon(1e-12));
    CHECK(g.a == Approx(0.542086229067922).epsilon(1e-12));
    CHECK(spsa_c_at(g, s, 1) == Approx(6.368834908204681).epsilon(1e-12));
    CHECK(spsa_a_at(g, s, 1) == Approx(0.1279823199235512).epsilon(1e-12));
    CHECK(spsa_c_at(g, s, 5) == Approx(5.413323993627645).epsilon(1e-12));
    CHECK(spsa_a_at(g, s, 5) == Approx(0.10618457590315662).epsilon(1e-12));
    // At the last pair c_k is c_end and r_k = a_k / c_k^2 is r_end.
    CHECK(spsa_c_at(g, s, 100) == Approx(4.0).epsilon(1e-12));
    CHECK(spsa_a_at(g, s, 100) / 16 == Approx(0.002).epsilon(1e-12));
    // One step: theta + a_k / c_k * result * flip, clipped.
    CHECK(spsa_step(50, p, 6.368834908204681, 0.1279823199235512, 3, -1) ==
          Approx(49.93971472564377).epsilon(1e-12));
    CHECK(spsa_step(399.9, p, 1, 1, 5, 1) == 400);
    CHECK(spsa_step(0.2, p, 1, 1, 5, -1) == 0);
    CHECK(spsa_round(52.5, p) == 53);
    CHECK(spsa_round(-3, p) == 0);
    // The signs: +-1, a pure function of (seed, iteration), not all alike over iterations.
    CHECK(spsa_flips(3, 17, 8) == spsa_flips(3, 17, 8));
    int plus = 0;
    for (std::uint64_t it = 0; it < 200; ++it)
        for (int f : spsa_flips(3, it, 2)) {
            REQUIRE((f == 1 || f == -1));
            plus += f == 1;
        }
    CHECK(plus > 150);
    CHECK(plus < 250);
}

TEST_CASE("an SPSA run: the same history on 1 and 2 threads, and a resume equals it", "[spsa]") {
    const std::string one = fresh_dir("spsa_t1"), two = fresh_dir("spsa_t2");
    const SpsaResult a = run_spsa(small_run(one, 1));
    const SpsaResult b = run_spsa(small_run(two, 2));
    REQUIRE(a.iterations == 6);
    CHECK(a.games == 24);
    const std::string csv = slurp(one + "/spsa.csv");
    CHECK(csv == slurp(two + "/spsa.csv"));
    CHECK(slurp_run_file(one + "/games.tsv") == slurp_run_file(two + "/games.tsv"));
    CHECK(slurp(one + "/params.txt") == slurp(two + "/params.txt"));
    // 7 rows (the start and 6 iterations) under the header; theta moved.
    CHECK(std::count(csv.begin(), csv.end(), '\n') == 8);
    CHECK(csv.rfind("iteration,pairs,wins,draws,losses,result,LmrBase,LmrBase_c,LmrBase_a,"
                    "LmrBase_flip,mobility_mg,",
                    0) == 0);
    CHECK(a.theta != std::vector<double>{50, double(small_run(one, 1).params[1].start)});

    // The parameters file reads back as the tuned values.
    EngineSpec tuned;
    tuned.set("params", one + "/params.txt");
    CHECK(tuned.tunable_value("LmrBase") == a.values[0]);
    CHECK(tuned.tunable_value("mobility_mg") == a.values[1]);
    const auto summary = nlohmann::json::parse(slurp(one + "/spsa.json"));
    CHECK(summary["format"] == "fanorona-spsa 1");
    CHECK(summary["complete"] == true);
    CHECK(summary["params"][0]["value"] == a.values[0]);

    // Interrupted inside iteration 3 (7 games in) and at its end (8 games): resumed, the same.
    for (int kept : {7, 8}) {
        const std::string dir = fresh_dir("spsa_resume_" + std::to_string(kept));
        std::filesystem::create_directories(dir);
        std::filesystem::copy(one + "/settings.json", dir + "/settings.json");
        std::istringstream in(slurp(one + "/games.tsv"));
        std::ofstream out(dir + "/games.tsv", std::ios::binary);
        int games = 0;
        for (std::string line; std::getline(in, line);) {
            if (line[0] != '#' && games++ >= kept) break;
            out << line << "\n";
        }
        out.close();
        SpsaConfig c = small_run(dir, 2);
        c.run.resume = true;
        const SpsaResult r = run_spsa(c);
        CHECK(r.played_now == std::uint64_t(24 - kept));
        CHECK(slurp(dir + "/spsa.csv") == csv);
        CHECK(slurp_run_file(dir + "/games.tsv") == slurp_run_file(one + "/games.tsv"));
        CHECK(slurp(dir + "/params.txt") == slurp(one + "/params.txt"));
    }

    // Other settings do not resume this folder.
    SpsaConfig other = small_run(one, 1);
    other.params[0].c_end = 10;
    other.run.resume = true;
    CHECK_THROWS_WITH(run_spsa(other), Catch::Contains("settings.json"));
}

TEST_CASE("the parameters file in the commands, and spsa end to end", "[spsa]") {
    const std::string dir = fresh_dir("spsa_cli");
    const std::string params = write_text(dir, "p.txt", "fanorona-params 1\nLmrBase 90\n");
    const std::string bad =
        write_text(dir + "/b", "bad.txt", "fanorona-params 1\nLmrBase 90\nAspWindow 0\n");

    Run r = run_cli("analyze --depth 3 --params " + params);
    INFO(r.output);
    CHECK(r.status == 0);
    r = run_cli("analyze --depth 3 --params " + bad);
    CHECK(r.status == 1);
    CHECK(r.output.find("fanorona: --params: " + bad +
                        ":3: AspWindow=0: expected a whole number") != std::string::npos);

    r = run_cli("selfplay --games 2 --depth 1 --quiet --threads 1 --no-positions --params " +
                params + " --out " + dir + "/sp");
    CHECK(r.status == 0);
    CHECK(slurp(dir + "/sp/games.tsv")
              .find("fanorona(weights=tuned,params=tuned,net=tsivy,LmrBase=90,depth=1)") !=
          std::string::npos);

    r = run_cli("tournament --games 2 --quiet --threads 1 --player name=T,params=" + params +
                ",depth=1 --player name=S,depth=1 --out " + dir + "/t");
    CHECK(r.status == 0);
    CHECK(slurp(dir + "/t/games.tsv")
              .find("T(weights=tuned,params=tuned,net=tsivy,LmrBase=90,depth=1)") !=
          std::string::npos);
    r = run_cli("tournament --games 2 --quiet --player name=T,params=" + bad +
                ",depth=1 --player name=S,depth=1 --out " + dir + "/t2");
    CHECK(r.status == 1);
    CHECK(r.output.find(bad + ":3: AspWindow=0") != std::string::npos);

    // spsa: a bad --spsa-param is one line; a tiny run writes its files, verifies, and reports.
    r = run_cli("spsa --spsa-param LmrBase,x --games 4 --out " + dir + "/bad");
    CHECK(r.status == 1);
    CHECK(r.output.find("fanorona: --spsa-param LmrBase,x: start: 'x' is not a number") !=
          std::string::npos);
    r = run_cli("spsa --spsa-param LmrBase,,,,20 --spsa-param material_mg,,,,10 --games 8 "
                "--iteration-pairs 2 --depth 1 --threads 2 --quiet --verify-games 4 --out " +
                dir + "/s");
    INFO(r.output);
    REQUIRE(r.status == 0);
    CHECK(r.output.find("verification, tuned vs start: 4 games, Elo") != std::string::npos);
    const auto j = nlohmann::json::parse(slurp(dir + "/s/spsa.json"));
    CHECK(j["verification"]["games"] == 4);
    CHECK(j["verification"]["match"].contains("elo_error95"));
    // SPSA over a weight tunes the weights: the base and the start it is verified against play
    // them without the default network (core/builtins.h).
    CHECK(j["base"] == "base(weights=tuned,params=tuned,depth=1)");
    r = run_cli("analyze --depth 2 --params " + dir + "/s/params.txt");
    CHECK(r.status == 0);
    r = run_cli("report --spsa " + dir + "/s --out " + dir + "/r.html");
    CHECK(r.status == 0);
    const std::string html = slurp(dir + "/r.html");
    CHECK(html.find("id=\"spsa-chart-LmrBase\"") != std::string::npos);
    CHECK(html.find("id=\"spsa-chart-material_mg\"") != std::string::npos);
    CHECK(html.find("id=\"spsa-params\"") != std::string::npos);
}
