// Tests of the weights text format: round trip, the compiled-in defaults, and every error.

#include <algorithm>

#include <catch2/catch.hpp>

#include "core/weights.h"

using namespace fanorona;

namespace {

// The default weights' text with `edit` applied to the line of `name` (or appended).
std::string text_with(const std::string& text, const std::string& from, const std::string& to) {
    std::string s = text;
    const auto at = s.find(from);
    REQUIRE(at != std::string::npos);
    s.replace(at, from.size(), to);
    return s;
}

std::string error_of(const std::string& text) {
    try {
        parse_weights(text, "w.txt");
    } catch (const WeightsError& e) {
        return e.what();
    }
    return "no error";
}

} // namespace

TEST_CASE("The compiled-in default weights parse and look sensible", "[weights]") {
    const Weights w = default_weights();
    CHECK(w.values[feature_index("material_mg")] >= 50);
    CHECK(w.values[feature_index("material_eg")] >= 50);
    CHECK(parse_weights(default_weights_text(), "default") == w);
}

TEST_CASE("format_weights and parse_weights round trip", "[weights]") {
    Weights w;
    for (int f = 0; f < kFeatureCount; ++f) w.values[f] = (f * 7919) % 401 - 200;
    w.values[0] = -kMaxWeight; // the extremes of the accepted range
    w.values[1] = kMaxWeight;
    const std::string text = format_weights(w, {"tuned on 1000 games", "two\nlines"});
    CHECK(text.rfind("fanorona-weights 1\n# tuned on 1000 games\n# two\n# lines\n", 0) == 0);
    CHECK(parse_weights(text, "x") == w);
    // Comments, blank lines, CRLF line ends and extra spaces are accepted.
    std::string loose = "# leading comment\r\n\r\n" + text;
    for (std::size_t at = 0; (at = loose.find("\n", at)) != std::string::npos; at += 4)
        loose.replace(at, 1, "  \r\n");
    CHECK(parse_weights(loose, "x") == w);
}

TEST_CASE("Weights errors name the source and the line", "[weights]") {
    const std::string base = format_weights(default_weights(), {});
    // Line 1 is the header, line 2 the first weight (material_mg).
    CHECK(error_of(text_with(base, "material_mg", "materiel_mg")) ==
          "w.txt:2: unknown weight name 'materiel_mg'");
    CHECK(error_of(text_with(base, "tempo_mg", "material_mg")) ==
          "w.txt:4: duplicate weight 'material_mg' (first given on line 2)");
    CHECK(error_of(text_with(base, "material_mg 100", "material_mg ten")) ==
          "w.txt:2: weight 'material_mg' value 'ten' is not an integer");
    CHECK(error_of(text_with(base, "material_mg 100", "material_mg 1.5")) ==
          "w.txt:2: weight 'material_mg' value '1.5' is not an integer");
    CHECK(error_of(text_with(base, "material_mg 100", "material_mg 99999999999")) ==
          "w.txt:2: weight 'material_mg' value '99999999999' is out of range");
    CHECK(error_of(text_with(base, "material_mg 100", "material_mg")) ==
          "w.txt:2: weight 'material_mg' has no value");
    CHECK(error_of(text_with(base, "material_mg 100", "material_mg 100 x")) ==
          "w.txt:2: unexpected text 'x' after the weight of 'material_mg'");
    CHECK(error_of(text_with(base, "material_mg 100\n", "")) ==
          "w.txt:" + std::to_string(kFeatureCount) +
              ": 1 weight missing at end of text: material_mg");
    CHECK(error_of(text_with(base, "fanorona-weights 1", "fanorona-weights 2")) ==
          "w.txt:1: unsupported weights format version '2' (this program reads version 1)");
    CHECK(error_of(text_with(base, "fanorona-weights 1", "material 1"))
              .rfind("w.txt:1: expected the header 'fanorona-weights 1'", 0) == 0);
    CHECK(error_of("") == "w.txt:1: empty weights text: no 'fanorona-weights' header line");
    CHECK(error_of("fanorona-weights 1\n")
              .find("w.txt:1: " + std::to_string(kFeatureCount) + " weights missing") == 0);
}

TEST_CASE("Weights beyond kMaxWeight either way are refused naming file and line and weight",
          "[weights]") {
    const std::string text = format_weights(default_weights(), {});
    const auto line_of = [&](const std::string& name) {
        const auto at = text.find("\n" + name + " ");
        return 2 + std::count(text.begin(), text.begin() + long(at), '\n');
    };
    const std::string line = std::to_string(line_of("material_mg"));
    const std::string start = "\nmaterial_mg " + std::to_string(default_weights().values[0]) + "\n";
    REQUIRE(feature_index("material_mg") == 0);
    CHECK(error_of(text_with(text, start, "\nmaterial_mg 30001\n")) ==
          "w.txt:" + line +
              ": weight 'material_mg' value '30001' is outside the range [-30000, "
              "30000]");
    CHECK(error_of(text_with(text, start, "\nmaterial_mg -30001\n")) ==
          "w.txt:" + line +
              ": weight 'material_mg' value '-30001' is outside the range [-30000, "
              "30000]");
    CHECK_THAT(error_of(text_with(text, start, "\nmaterial_mg 99999999999\n")),
               Catch::Contains("w.txt:" + line + ": weight 'material_mg'"));
    // The extremes themselves are accepted.
    CHECK(parse_weights(text_with(text, start, "\nmaterial_mg 30000\n"), "w").values[0] ==
          kMaxWeight);
    CHECK(parse_weights(text_with(text, start, "\nmaterial_mg -30000\n"), "w").values[0] ==
          -kMaxWeight);
}
