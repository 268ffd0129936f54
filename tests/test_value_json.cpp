// The one JSON form of each value type (selfplay/formats/rules_json.h,
// selfplay/formats/weights_json.h, selfplay/engine/engine_spec_json.h): every field comes back, and
// malformed objects are refused naming the member.

#include <catch2/catch.hpp>

#include <memory>

#include "core/evaluate.h"
#include "core/features.h"
#include "core/tables/builder.h"
#include "core/weights.h"
#include "selfplay/engine/engine_spec_json.h"
#include "selfplay/formats/net_file.h"
#include "selfplay/formats/rules_json.h"
#include "selfplay/formats/weights_file.h"
#include "selfplay/formats/weights_json.h"
#include "tests/cli_helpers.h"

using namespace fanorona;
using Json = nlohmann::json;

namespace {

template <class T> T round_trip(const T& value) {
    // Through the text, as between ranks and files.
    return Json::parse(Json(value).dump()).get<T>();
}

// Weights with every term weight different from the defaults and, when `patterns` > 0, that many
// pseudo-random pattern weights (each at a canonical configuration) and those of the start
// position's windows not 0.
Weights odd_weights(int patterns, std::uint64_t seed) {
    Weights w = handset_weights();
    for (int f = 0; f < kFeatureCount; ++f) w.values[std::size_t(f)] += 3 + f;
    std::uint64_t x = seed;
    auto next = [&x] {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        return x >> 33;
    };
    if (patterns > 0) {
        auto p = std::make_shared<PatternWeights>();
        for (int k = 0; k < patterns; ++k) {
            const int c = int(next() % kPatternClasses);
            const int config = pattern_canonical_config(c, int(next() % kPatternConfigs));
            const std::size_t n = std::size_t(c) * kPatternConfigs + std::size_t(config);
            p->values[2 * n] = int(next() % 201) - 100;
            p->values[2 * n + 1] = int(next() % 201) - 100;
        }
        PatternIndices start; // and the start position's windows weigh something
        if (position_pattern_indices(Position::start(Variant::Tsivy), start))
            for (const std::uint32_t n : start) {
                p->values[2 * n] = 25;
                p->values[2 * n + 1] = -15;
            }
        p->values[0] = kMaxWeight; // the extremes travel too
        p->values[3] = -kMaxWeight;
        w.patterns = p;
    }
    return w;
}

std::string build_tables(const std::string& name) {
    const std::string dir = test_cli::fresh_dir(name);
    tables::build_tables({Variant::Dimy, 2, dir, kTableTurnLimit}, {});
    return dir;
}

} // namespace

TEST_CASE("Rules travel as JSON with every field", "[json][rules]") {
    for (Variant v : {Variant::Tsivy, Variant::Dimy, Variant::Telo, *parse_variant("7x9")})
        for (RuleSet s : {RuleSet::Standard, RuleSet::FirstTurn, RuleSet::Vela}) {
            Rules r;
            r.variant = v;
            r.ruleset = s;
            CHECK(round_trip(r) == r);
            r.repetition_count = 0;
            r.no_capture_limit = 37;
            CHECK(round_trip(r) == r);
            r.repetition_count = 5;
            r.no_capture_limit = 0;
            CHECK(round_trip(r) == r);
        }
    // The default limits write the two members every file had before (settings.json resumes).
    CHECK(Json(Rules{}).dump() == R"({"rules":"standard","variant":"tsivy"})");
    CHECK(nlohmann::ordered_json(Rules{Variant::Dimy, RuleSet::Vela}).dump() ==
          R"({"variant":"dimy","rules":"vela"})");
    // Among a file's other members: added after them, read from the top level.
    nlohmann::ordered_json top = {{"format", "x 1"}};
    put_rules(top, Rules{Variant::Telo, RuleSet::FirstTurn});
    CHECK(top.dump() == R"({"format":"x 1","variant":"telo","rules":"firstturn"})");
    CHECK(rules_from_json(Json::parse(top.dump())) == Rules{Variant::Telo, RuleSet::FirstTurn});

    CHECK_THROWS_WITH(rules_from_json(Json{{"rules", "standard"}}), "missing \"variant\"");
    CHECK_THROWS_WITH(rules_from_json(Json{{"variant", "tsivy"}, {"rules", "chess"}}),
                      "\"rules\": unknown rules 'chess'");
    CHECK_THROWS_WITH(rules_from_json(Json{{"variant", "4x4"}, {"rules", "standard"}}),
                      "\"variant\": unknown variant '4x4'");
    CHECK_THROWS_WITH(rules_from_json(Json{{"variant", 5}, {"rules", "standard"}}),
                      "\"variant\": expected a string");
    CHECK_THROWS_WITH(rules_from_json(Json{
                          {"variant", "tsivy"}, {"rules", "standard"}, {"no_capture_limit", -1}}),
                      Catch::StartsWith("\"no_capture_limit\": expected a whole number"));
    CHECK_THROWS_AS(rules_from_json(Json::array()), std::invalid_argument);
}

TEST_CASE("Weights travel as JSON with every term and pattern weight", "[json][weights]") {
    CHECK(round_trip(handset_weights()) == handset_weights());
    CHECK_FALSE(round_trip(handset_weights()).patterns);
    const Weights terms = odd_weights(0, 1);
    const Weights back = round_trip(terms);
    for (int f = 0; f < kFeatureCount; ++f) {
        INFO(feature_name(f));
        CHECK(back.values[std::size_t(f)] == terms.values[std::size_t(f)]);
    }
    const Weights patterns = odd_weights(500, 7);
    const Weights p = round_trip(patterns);
    REQUIRE(p.patterns);
    CHECK(p.patterns->values == patterns.patterns->values); // every pattern weight, zeros too
    CHECK(p == patterns);
    // Only the pattern weights that are not 0 are listed.
    CHECK(Json(patterns)["patterns"].size() <= 523);
    CHECK(Json(patterns)["patterns"].size() >= 400);
    // Equal weights evaluate alike, pattern part included.
    const Position pos = Position::start(Variant::Tsivy);
    CHECK(pattern_sum(pos, p) == pattern_sum(pos, patterns));
    CHECK(pattern_sum(pos, p) != 0);

    Json j = Json(terms);
    j["terms"].erase("material_mg");
    CHECK_THROWS_WITH(j.get<Weights>(), "weights: missing the weight 'material_mg'");
    j = Json(terms);
    j["terms"]["no_such_term"] = 3;
    CHECK_THROWS_WITH(j.get<Weights>(), "weights: unknown term weight 'no_such_term'");
    j = Json(terms);
    j["terms"]["material_mg"] = kMaxWeight + 1;
    CHECK_THROWS_WITH(j.get<Weights>(),
                      Catch::StartsWith("weights: material_mg: expected a whole"));
    j = Json(patterns);
    j["patterns"].push_back(j["patterns"][0]);
    CHECK_THROWS_WITH(j.get<Weights>(), Catch::EndsWith("listed twice"));
    j = Json(patterns);
    j["patterns"].push_back({kPatternCount, 1, 1});
    CHECK_THROWS_WITH(j.get<Weights>(), Catch::StartsWith("weights: \"patterns\": expected"));
    CHECK_THROWS_AS(Json::object().get<Weights>(), std::invalid_argument);
}

TEST_CASE("An engine spec travels as JSON with every field", "[json][spec]") {
    const std::string dir = test_cli::fresh_dir("spec_json");
    std::filesystem::create_directories(dir);
    save_weights_file(dir + "/pat.txt", odd_weights(300, 3));
    save_weights_file(dir + "/vela.txt", odd_weights(200, 4));
    const std::string tables = build_tables("spec_json_tables");
    NetFile net;
    net.net = nnue::quantise(nnue::random_float_network(nnue::Architecture{}, 5));
    write_net_file(dir + "/n.net", net);

    EngineSpec s = EngineSpec::parse("name=A,net=" + dir + "/n.net,weights=" + dir +
                                     "/pat.txt,vela_weights=" + dir +
                                     "/vela.txt,material_eg=131,LmrBase=77,AspWindow=31,depth=7,"
                                     "nodes=12345,movetime=250,tc=30/3+0.02,hash=3,"
                                     "timemargin=42,tables=" +
                                     tables);
    // An external engine's timeouts (a spec refuses them on the toolkit's engine), set here so
    // that every field travels.
    s.timeout_ms = 777;
    s.startup_timeout_ms = 888;
    const EngineSpec b = round_trip(s);
    CHECK(b.kind == s.kind);
    CHECK(b.name == s.name);
    CHECK(b.weights == s.weights);
    REQUIRE(b.weights.patterns);
    CHECK(b.weights.patterns->values == s.weights.patterns->values);
    CHECK(b.weights.values[std::size_t(feature_index("material_eg"))] == 131);
    CHECK(b.weights_name == "pat.txt");
    REQUIRE(b.vela_weights);
    CHECK(*b.vela_weights == *s.vela_weights);
    CHECK(b.vela_weights->patterns->values == s.vela_weights->patterns->values);
    CHECK(b.vela_weights_name == "vela.txt");
    CHECK(b.limits.depth == 7);
    CHECK(b.limits.nodes == 12345);
    CHECK(b.limits.movetime_ms == 250);
    CHECK(b.time_control.base_ms == 3000);
    CHECK(b.time_control.inc_ms == 20);
    CHECK(b.time_control.margin_ms == 42);
    CHECK(b.time_control.moves == 30);
    CHECK(b.hash_mb == 3);
    CHECK(b.params == s.params);
    CHECK(b.params.size() == 2);
    CHECK(b.weight_values == s.weight_values);
    CHECK(b.weight_values.size() == 1);
    CHECK(b.timeout_ms == 777);
    CHECK(b.startup_timeout_ms == 888);
    CHECK(b.tables_dir == tables);
    CHECK(b.tables); // opened again
    CHECK(b.net_path == dir + "/n.net");
    REQUIRE(b.net); // read again
    CHECK(*b.net == net.net);
    CHECK(s.description().find("net=n.net") != std::string::npos);
    CHECK(b.search_params().get("LmrBase") == 77);
    CHECK(b.description() == s.description());
    CHECK(Json(b) == Json(s));
    // The same weights in every game: the Vela games' too.
    const Position pos = Position::start(Variant::Tsivy);
    for (RuleSet r : {RuleSet::Standard, RuleSet::Vela}) {
        const Rules rules{Variant::Tsivy, r};
        CHECK(b.weights_for(rules) == s.weights_for(rules));
        CHECK(evaluate(pos, rules, b.weights_for(rules)) ==
              evaluate(pos, rules, s.weights_for(rules)));
    }

    // An external engine: program, arguments, options.
    const EngineSpec x = EngineSpec::parse(
        "name=X,cmd=/bin/engine,args=-q -v,option.Hash=32,option.Threads=2,depth=6,timeout=99");
    const EngineSpec xb = round_trip(x);
    CHECK(xb.kind == EngineSpec::Kind::External);
    CHECK(xb.argv == x.argv);
    CHECK(xb.options == x.options);
    CHECK(xb.timeout_ms == 99);
    CHECK(xb.description() == x.description());
    CHECK(Json(xb) == Json(x));
    // Its working folder and restart travel too (written only when set).
    const EngineSpec d =
        EngineSpec::parse("name=D,cmd=/bin/engine,arg=a b,dir=" + dir + ",restart=on");
    const EngineSpec db = round_trip(d);
    CHECK(db.dir == dir);
    CHECK(db.restart);
    CHECK(db.argv == std::vector<std::string>{"/bin/engine", "a b"});
    CHECK_FALSE(Json(xb).contains("dir"));
    CHECK_FALSE(Json(xb).contains("restart"));
    for (const char* builtin : {"random", "greedy"}) {
        const EngineSpec r = EngineSpec::parse(std::string("name=R,builtin=") + builtin);
        CHECK(round_trip(r).kind == r.kind);
        CHECK(round_trip(r).description() == r.description());
    }

    Json j = Json(s);
    // A spec written before moves-in-time controls: three numbers, one period.
    j["tc"] = {3000, 20, 42};
    CHECK(j.get<EngineSpec>().time_control.moves == 0);
    CHECK(j.get<EngineSpec>().time_control.margin_ms == 42);
    j["tc"] = {3000, 20};
    CHECK_THROWS_WITH(j.get<EngineSpec>(), Catch::Contains("[base_ms, inc_ms, margin_ms, moves]"));
    j.erase("tc");
    CHECK_THROWS_WITH(j.get<EngineSpec>(), "engine spec: missing \"tc\"");
    j = Json(s);
    j["kind"] = "wizard";
    CHECK_THROWS_WITH(j.get<EngineSpec>(), "engine spec: \"kind\": unknown kind 'wizard'");
    j = Json(s);
    j["depth"] = "deep";
    CHECK_THROWS_WITH(j.get<EngineSpec>(), "engine spec: \"depth\": a value of the wrong type");
    j = Json(s);
    j["weights"]["terms"].erase("tempo_mg");
    CHECK_THROWS_WITH(j.get<EngineSpec>(),
                      "engine spec: \"weights\": weights: missing the weight 'tempo_mg'");
}
