// Tests of the weights text format: round trip, the compiled-in defaults, and every error.

#include <algorithm>
#include <cstdio>
#include <sstream>

#include <catch2/catch.hpp>

#include "core/builtins.h"
#include "core/weights.h"
#include "selfplay/formats/weights_fingerprint.h"

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

TEST_CASE("The compiled-in hand-set weights parse and look sensible", "[weights]") {
    const Weights w = handset_weights();
    CHECK(w.values[feature_index("material_mg")] >= 50);
    CHECK(w.values[feature_index("material_eg")] >= 50);
    CHECK(parse_weights(find_builtin("weights", "handset")->text, "handset") == w);
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
    const std::string base = format_weights(handset_weights(), {});
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
    CHECK(error_of(text_with(base, "fanorona-weights 1", "fanorona-weights 3")) ==
          "w.txt:1: unsupported weights format version '3' (this program reads versions 1 and 2)");
    CHECK(error_of(text_with(base, "fanorona-weights 1", "material 1"))
              .rfind("w.txt:1: expected the header 'fanorona-weights 1'", 0) == 0);
    CHECK(error_of("") == "w.txt:1: empty weights text: no 'fanorona-weights' header line");
    CHECK(error_of("fanorona-weights 1\n")
              .find("w.txt:1: " + std::to_string(kFeatureCount) + " weights missing") == 0);
}

TEST_CASE("Weights beyond kMaxWeight either way are refused naming file and line and weight",
          "[weights]") {
    const std::string text = format_weights(handset_weights(), {});
    const auto line_of = [&](const std::string& name) {
        const auto at = text.find("\n" + name + " ");
        return 2 + std::count(text.begin(), text.begin() + long(at), '\n');
    };
    const std::string line = std::to_string(line_of("material_mg"));
    const std::string start = "\nmaterial_mg " + std::to_string(handset_weights().values[0]) + "\n";
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

namespace {

// The default weights with a spread of canonical patterns weighted (both signs, the extremes,
// one weight of a pair zero).
Weights with_patterns() {
    Weights w = handset_weights();
    auto p = std::make_shared<PatternWeights>();
    int n = 0;
    for (int k = 0; k < kPatternCount; k += 613) {
        if (!pattern_config_canonical(k / kPatternConfigs, k % kPatternConfigs)) continue;
        p->values[std::size_t(2 * k)] = n % 3 == 0 ? 0 : (n * 37) % 201 - 100;
        p->values[std::size_t(2 * k + 1)] = n % 5 == 0 ? kMaxWeight : -n - 1;
        ++n;
    }
    p->values[1] = -kMaxWeight; // pattern 0: b2 with every point empty
    w.patterns = std::move(p);
    return w;
}

// The FNV-1a fingerprint as written before patterns existed: over the feature weights only.
std::string old_fingerprint(const Weights& w) {
    std::uint64_t h = 1469598103934665603ULL;
    for (std::int32_t v : w.values)
        for (int i = 0; i < 4; ++i)
            h = (h ^ std::uint8_t(std::uint32_t(v) >> (8 * i))) * 1099511628211ULL;
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return buf;
}

} // namespace

TEST_CASE("Pattern weights round trip through a version-2 text, no patterns stay version 1",
          "[weights]") {
    const Weights w = with_patterns();
    const std::string text = format_weights(w, {"with patterns"});
    CHECK(text.rfind("fanorona-weights 2\n# with patterns\n", 0) == 0);
    CHECK_THAT(text, Catch::Contains("\npattern b2 .../.../... 0 -30000\n"));
    const Weights back = parse_weights(text, "x");
    CHECK(back == w);
    CHECK(*back.patterns == *w.patterns);
    // The pattern lines come after the features, sorted by class then configuration.
    std::vector<std::pair<int, int>> order;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (line.rfind("pattern ", 0) == 0) {
            const auto c = parse_pattern_class(line.substr(8, 2));
            const auto k = parse_pattern_config(line.substr(11, 11));
            REQUIRE(c);
            REQUIRE(k);
            order.emplace_back(*c, *k);
        }
    CHECK(order.size() > 100);
    CHECK(std::is_sorted(order.begin(), order.end()));
    CHECK(std::adjacent_find(order.begin(), order.end()) == order.end());

    // Weights without a non-zero pattern weight are written as version 1, as before patterns.
    Weights zero = handset_weights();
    const std::string v1 = format_weights(zero, {});
    CHECK(v1.rfind("fanorona-weights 1\n", 0) == 0);
    CHECK(v1.find("pattern") == std::string::npos);
    zero.patterns = std::make_shared<PatternWeights>();
    CHECK(format_weights(zero, {}) == v1);
    CHECK(zero == handset_weights());
    // A version-2 text without pattern lines (or with zero ones) has null patterns.
    const Weights v2 = parse_weights(
        text_with(v1, "fanorona-weights 1\n", "fanorona-weights 2\npattern e3 .../.../... 0 0\n"),
        "x");
    CHECK(v2 == handset_weights());
    CHECK(v2.patterns == nullptr);
    // A pattern differing in one weight is a different weights set.
    Weights other = w;
    auto p = std::make_shared<PatternWeights>(*w.patterns);
    p->values[1] += 1;
    other.patterns = std::move(p);
    CHECK_FALSE(other == w);
}

TEST_CASE("The fingerprint covers the pattern weights and stays for weights without", "[weights]") {
    const Weights plain = handset_weights();
    CHECK(weights_fingerprint(plain) == old_fingerprint(plain));
    Weights zero = plain;
    zero.patterns = std::make_shared<PatternWeights>();
    CHECK(weights_fingerprint(zero) == old_fingerprint(plain));
    const Weights w = with_patterns();
    CHECK(weights_fingerprint(w) != weights_fingerprint(plain));
    CHECK(weights_fingerprint(parse_weights(format_weights(w, {}), "x")) == weights_fingerprint(w));
    for (std::size_t i : {std::size_t(0), std::size_t(1), std::size_t(2 * 19683 + 1)}) {
        Weights changed = w;
        auto p = std::make_shared<PatternWeights>(*w.patterns);
        p->values[i] += 1;
        changed.patterns = std::move(p);
        CHECK(weights_fingerprint(changed) != weights_fingerprint(w));
    }
}

TEST_CASE("Pattern line errors name the source, the line and the field", "[weights]") {
    const std::string base = text_with(format_weights(handset_weights(), {}), "fanorona-weights 1",
                                       "fanorona-weights 2");
    const std::string line = std::to_string(kFeatureCount + 2); // the first line after the weights
    const auto with = [&](const std::string& lines) { return error_of(base + lines); };
    const std::string at = "w.txt:" + line + ": ";
    CHECK(with("pattern z9 .../.../... 1 2\n") ==
          at + "unknown pattern class 'z9' (the classes: b2, c2, d2, e2, b3, c3, d3, e3)");
    CHECK(with("pattern\n") == at + "pattern line has no class");
    CHECK(with("pattern d3\n") == at + "pattern d3 has no configuration");
    CHECK(with("pattern d3 x.o/.x./.q. 1 2\n") ==
          at + "pattern d3 configuration 'x.o/.x./.q.' is malformed (three rows of '.', 'x', "
               "'o' separated by '/', top row first, e.g. 'x.o/.x./...')");
    CHECK(with("pattern d3 x.o/.x. 1 2\n")
              .rfind(at + "pattern d3 configuration 'x.o/.x.' is malformed", 0) == 0);
    // d3's window is its own mirror image top to bottom, e2's left to right, e3's both ways.
    CHECK(with("pattern d3 x.o/.x./... 1 2\n") ==
          at + "pattern d3 configuration 'x.o/.x./...' is not canonical: write its mirror image "
               "'.../.x./x.o'");
    CHECK(with("pattern e2 ..x/.../... 1 2\n") ==
          at + "pattern e2 configuration '..x/.../...' is not canonical: write its mirror image "
               "'x../.../...'");
    CHECK(with("pattern e3 ..x/.../... 1 2\n") ==
          at + "pattern e3 configuration '..x/.../...' is not canonical: write its mirror image "
               "'.../.../x..'");
    CHECK(with("pattern d2 x.o/.x./... 1 2\n").rfind("no error") == 0); // d2: no self-symmetry
    CHECK(with("pattern d3 .../.x./x.o 1 2\npattern d3 .../.x./x.o 3 4\n") ==
          "w.txt:" + std::to_string(kFeatureCount + 3) +
              ": duplicate pattern d3 .../.x./x.o (first given on line " + line + ")");
    CHECK(with("pattern d3 .../.x./x.o\n") == at + "pattern d3 .../.x./x.o has no _mg value");
    CHECK(with("pattern d3 .../.x./x.o 1\n") == at + "pattern d3 .../.x./x.o has no _eg value");
    CHECK(with("pattern d3 .../.x./x.o 1 2 3\n") ==
          at + "unexpected text '3' after the weights of pattern d3 .../.x./x.o");
    CHECK(with("pattern d3 .../.x./x.o 30001 2\n") ==
          at + "pattern d3 .../.x./x.o _mg value '30001' is outside the range [-30000, 30000]");
    CHECK(with("pattern d3 .../.x./x.o 1 -30001\n") ==
          at + "pattern d3 .../.x./x.o _eg value '-30001' is outside the range [-30000, 30000]");
    CHECK(with("pattern d3 .../.x./x.o 1 two\n") ==
          at + "pattern d3 .../.x./x.o _eg value 'two' is not an integer");
    // Pattern lines need version 2.
    CHECK(error_of(format_weights(handset_weights(), {}) + "pattern d3 .../.x./x.o 1 2\n") ==
          at + "pattern lines need weights format version 2 (the header says 1)");
}
