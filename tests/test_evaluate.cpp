// Tests of the evaluation: feature names, the exact evaluate/features relation, symmetry, and
// the terms' meaning on hand-made positions.

#include <cstdlib>
#include <set>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "cli_helpers.h"
#include "core/board/baseline.h"
#include "core/board/game.h"
#include "core/board/playout.h"
#include "core/evaluate.h"
#include "core/search.h"
#include "core/weights.h"
#include "tests/rules_helpers.h"

using namespace fanorona;

namespace {

// Positions from seeded random games on both boards.
std::vector<std::pair<Position, Rules>> sample_positions() {
    std::vector<std::pair<Position, Rules>> out;
    for (Variant v : {Variant::Tsivy, Variant::Dimy})
        for (RuleSet rs : {RuleSet::Standard, RuleSet::Vela})
            for (std::uint64_t game = 0; game < 6; ++game) {
                Rules rules;
                rules.variant = v;
                rules.ruleset = rs;
                Game g(rules, Position::start(v));
                const auto choose = [game](const Game& at, const MoveList& moves) {
                    return random_move_index(at.position(), game * 1000 + at.moves().size(),
                                             moves.size());
                };
                random_playout(g, {.max_turns = 120}, choose,
                               [&](const Game& at) { out.emplace_back(at.position(), rules); });
            }
    return out;
}

// The position seen from the other side: board flipped top to bottom, colours swapped.
Position colour_flipped(const Position& p) {
    const Geometry& g = p.geo();
    auto flip = [&](Bitboard b) {
        Bitboard out = 0;
        for (; b;) {
            const Square s = pop_lsb(b);
            out |= bit(make_square(file_of(s), g.height - 1 - rank_of(s)));
        }
        return out;
    };
    return Position::from_pieces(p.variant(), flip(p.pieces(Color::Black)),
                                 flip(p.pieces(Color::White)), ~p.side_to_move(),
                                 p.turns_since_capture(), p.turn());
}

// The position mirrored left to right.
Position mirrored(const Position& p) {
    const Geometry& g = p.geo();
    auto flip = [&](Bitboard b) {
        Bitboard out = 0;
        for (; b;) {
            const Square s = pop_lsb(b);
            out |= bit(make_square(g.width - 1 - file_of(s), rank_of(s)));
        }
        return out;
    };
    return Position::from_pieces(p.variant(), flip(p.pieces(Color::White)),
                                 flip(p.pieces(Color::Black)), p.side_to_move(),
                                 p.turns_since_capture(), p.turn());
}

int raw_term(const Position& pos, int t, const Rules& rules = {}) {
    std::array<int, kTermCount> raw;
    extract_terms(pos, rules, raw);
    return raw[t];
}

} // namespace

TEST_CASE("Feature names are unique and map back to their index", "[evaluate]") {
    std::set<std::string> names;
    for (int f = 0; f < kFeatureCount; ++f) {
        const std::string name(feature_name(f));
        CHECK(!name.empty());
        CHECK(feature_index(name) == f);
        CHECK(names.insert(name).second);
        CHECK(name == std::string(term_name(f / 2)) + (f % 2 ? "_eg" : "_mg"));
    }
    CHECK(feature_index("material") == -1);
    CHECK(feature_index("") == -1);
    CHECK(feature_name(kFeatureCount).empty());
    CHECK(feature_name(-1).empty());
}

TEST_CASE("evaluate() is trunc(sum of value * weight / kEvalScale) over the features",
          "[evaluate]") {
    Weights random_w;
    for (int f = 0; f < kFeatureCount; ++f) random_w.values[f] = (f * 104729) % 1001 - 500;
    for (const auto& [pos, rules] : sample_positions()) {
        Features f;
        extract_features(pos, rules, f);
        REQUIRE(f.count <= kMaxActiveFeatures);
        for (int i = 1; i < f.count; ++i) CHECK(f.entries[i - 1].index < f.entries[i].index);
        for (const Weights& w : {handset_weights(), random_w}) {
            double sum = 0;
            for (int i = 0; i < f.count; ++i) {
                CHECK(f.entries[i].value != 0);
                sum += double(f.entries[i].value) * w.values[f.entries[i].index];
            }
            const int expected = int(std::trunc(sum / kEvalScale));
            REQUIRE(evaluate(pos, rules, w) == expected);
            REQUIRE(evaluate_features(f, w) == expected);
        }
    }
}

TEST_CASE("The evaluation is the same for either colour and for mirrored boards", "[evaluate]") {
    const Weights w = handset_weights();
    for (const auto& [pos, rules] : sample_positions()) {
        if (rules.ruleset == RuleSet::Vela) continue; // Vela treats the colours differently
        INFO(pos.to_string());
        CHECK(evaluate(colour_flipped(pos), rules, w) == evaluate(pos, rules, w));
        CHECK(evaluate(mirrored(pos), rules, w) == evaluate(pos, rules, w));
    }
}

TEST_CASE("The terms mean what they say", "[evaluate]") {
    const Position start = Position::start(Variant::Tsivy);
    CHECK(raw_term(start, term_id("material")) == 0);
    CHECK(raw_term(start, term_id("tempo")) == 1);
    CHECK(raw_term(start, term_id("capture_now")) == 2); // the largest capture from the start
    CHECK(game_phase(start) == kPhaseScale);

    // White a1, b1; Black d1, e1 (in line) and i5. White to move: b1-c1 approaches d1 and e1.
    const Position p = Position::from_string("8B/9/9/9/WW1BB4 w", Variant::Tsivy);
    CHECK(raw_term(p, term_id("material")) == -1);
    CHECK(raw_term(p, term_id("capture_now")) == 2);
    CHECK(raw_term(p, term_id("loose")) == 0 - 1); // i5 stands alone
    // Black to move in the same place: d1-c1 approaches b1 and a1.
    const Position q = Position::from_string("8B/9/9/9/WW1BB4 b", Variant::Tsivy);
    CHECK(raw_term(q, term_id("capture_now")) == 2);
    CHECK(raw_term(q, term_id("exposed")) == 2); // d1, e1 exposed to b1-c1
    CHECK(raw_term(q, term_id("threat")) == 2);
    CHECK(game_phase(q) == 5 * kPhaseScale / 44);

    // Strong points: a1 is strong, b1 is not.
    const Position strong = test::unchecked_position("9/9/9/9/W8 w", Variant::Tsivy);
    CHECK(raw_term(Position::from_string("9/9/9/9/W7B w", Variant::Tsivy), term_id("strong")) == 0);
    CHECK(raw_term(strong, term_id("strong")) == 1);
    CHECK(raw_term(test::unchecked_position("9/9/9/9/1W7 w", Variant::Tsivy), term_id("strong")) ==
          0);
    CHECK(raw_term(test::unchecked_position("9/9/4W4/9/9 w", Variant::Tsivy), term_id("centre")) ==
          1);
    // Mobility: a corner piece on a strong point has three lines, b1 has three (no diagonals).
    CHECK(raw_term(strong, term_id("mobility")) == 3);
    CHECK(raw_term(test::unchecked_position("9/9/9/9/1W7 w", Variant::Tsivy),
                   term_id("mobility")) == 3);
    CHECK(raw_term(test::unchecked_position("9/9/4W4/9/9 w", Variant::Tsivy),
                   term_id("mobility")) == 8);
}

TEST_CASE("The mop-up and stall terms of lopsided endings", "[evaluate]") {
    // White a1, b1, c1 against Black d2, 30 turns without capture. From d2: c1 is one step (a
    // diagonal), b1 two, a1 three: 3 + 2 + 1. Black's d2 has 7 empty neighbours (c1 is taken).
    const Position w = Position::from_string("9/9/9/3B5/WWW6 w 30 40", Variant::Tsivy);
    CHECK(raw_term(w, term_id("mopup_near")) == 6);
    CHECK(raw_term(w, term_id("mopup_mobility")) == -7);
    CHECK(raw_term(w, term_id("stall")) == 2 * 30 / 10);
    // The side behind to move sees the same terms negated.
    const Position b = Position::from_string("9/9/9/3B5/WWW6 b 30 40", Variant::Tsivy);
    CHECK(raw_term(b, term_id("mopup_near")) == -6);
    CHECK(raw_term(b, term_id("mopup_mobility")) == 7);
    CHECK(raw_term(b, term_id("stall")) == -6);
    // 3 against 2 is not lopsided; a fresh counter costs nothing.
    const Position even = Position::from_string("9/9/9/3BB4/WWW6 w", Variant::Tsivy);
    CHECK(raw_term(even, term_id("mopup_near")) == 0);
    CHECK(raw_term(even, term_id("mopup_mobility")) == 0);
    CHECK(raw_term(even, term_id("stall")) == 0);
    // Far away: no piece within three steps of i5.
    const Position far = Position::from_string("8B/9/9/9/WWW6 w 99 40", Variant::Tsivy);
    CHECK(raw_term(far, term_id("mopup_near")) == 0);
    CHECK(raw_term(far, term_id("stall")) == 2 * 99 / 10);
}

TEST_CASE("Vela restrictions shape the capture terms", "[evaluate]") {
    Rules vela;
    vela.ruleset = RuleSet::Vela;
    // Black (the victim, 21 pieces) may not capture, so White has nothing exposed.
    Position p = Position::start(Variant::Tsivy);
    CHECK(raw_term(p, term_id("exposed"), vela) == 0);
    CHECK(raw_term(p, term_id("capture_now"), vela) == 1); // single captures for the beneficiary
    // Black to move: White, the opponent, threatens single pieces only (as it would capture).
    const Position two = Position::from_string("9/9/2W1BB3/9/9 b", Variant::Tsivy);
    const Position with_six =
        Position::from_string("7BB/9/2W1BB3/9/6B1B b", Variant::Tsivy); // 6 black pieces
    CHECK(raw_term(two, term_id("threat")) == 2);                       // standard: e3 and f3
    CHECK(raw_term(two, term_id("threat"), vela) == 2); // 2 black pieces: no restriction
    CHECK(raw_term(with_six, term_id("exposed")) == 2);
    CHECK(raw_term(with_six, term_id("threat")) == 2);
    CHECK(raw_term(with_six, term_id("threat"), vela) == 1);  // Vela: the first piece only
    CHECK(raw_term(with_six, term_id("exposed"), vela) == 1); // e3
}

TEST_CASE("The largest weights allowed keep every score below the win scores", "[evaluate]") {
    const int limit = kWinScore - kMaxPly - 1;
    const Rules rules;
    const Position positions[] = {
        Position::start(Variant::Tsivy),
        test::unchecked_position("WWWWWWWWW/WWWWWWWWW/WWWW1WWWW/9/8B w", Variant::Tsivy),
        test::unchecked_position("WWWWWWWWW/WWWWWWWWW/WWWW1WWWW/9/8B b", Variant::Tsivy),
    };
    int clamped = 0;
    for (const std::int32_t sign : {1, -1}) {
        Weights w;
        w.values.fill(sign * kMaxWeight);
        for (const Position& p : positions) {
            const int e = evaluate(p, rules, w);
            INFO(p.to_string() << " weights " << sign * kMaxWeight << ": " << e);
            CHECK(std::abs(e) <= limit);
            CHECK_FALSE(is_decisive(e));
            Features f;
            extract_features(p, rules, f);
            CHECK(evaluate_features(f, w) == e);
            clamped += std::abs(e) == limit;
        }
    }
    CHECK(clamped >= 2); // the lopsided positions reach the clamp, unwrapped and with the sign
    Weights w;
    w.values.fill(kMaxWeight);
    CHECK(evaluate(positions[1], rules, w) == limit);
    CHECK(evaluate(positions[2], rules, w) == -limit);
}

namespace {

// Pattern weights with every _mg and _eg weight drawn from [-bound, bound] (non-canonical
// configurations too: the evaluation never reads them).
Weights with_random_patterns(Weights w, std::uint64_t seed, int bound = 500) {
    auto p = std::make_shared<PatternWeights>();
    std::uint64_t x = seed;
    for (std::int32_t& v : p->values) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        v = int((x >> 33) % std::uint64_t(2 * bound + 1)) - bound;
    }
    w.patterns = std::move(p);
    return w;
}

} // namespace

TEST_CASE("Pattern weights add each window's tapered weight to the exact sum on tsivy",
          "[evaluate]") {
    const Weights w = with_random_patterns(handset_weights(), 7);
    int tsivy = 0;
    for (const auto& [pos, rules] : sample_positions()) {
        if (pos.variant() != Variant::Tsivy) continue;
        ++tsivy;
        Features f;
        extract_features(pos, rules, f);
        std::int64_t features = 0;
        for (int i = 0; i < f.count; ++i)
            features += std::int64_t(f.entries[i].value) * w.values[f.entries[i].index];
        // Brute force: each window's pattern weight number, its two weights, the phase.
        PatternIndices idx;
        pattern_indices(pos.player(), pos.opponent(), idx);
        const std::int64_t phase = game_phase(pos);
        std::int64_t patterns = 0;
        for (std::uint32_t k : idx)
            patterns += w.patterns->values[2 * k] * phase +
                        w.patterns->values[2 * k + 1] * (kPhaseScale - phase);
        const int expected = int((features + patterns) / kEvalScale);
        INFO(pos.to_string());
        REQUIRE(pattern_sum(pos, w) == patterns);
        REQUIRE(evaluate(pos, rules, w) == expected);
        REQUIRE(evaluate_features(f, w, pattern_sum(pos, w)) == expected);
        PatternIndices via_position{};
        REQUIRE(position_pattern_indices(pos, via_position));
        REQUIRE(via_position == idx);
    }
    CHECK(tsivy > 100);
    // Without pattern weights the pattern part is 0.
    const Position start = Position::start(Variant::Tsivy);
    CHECK(pattern_sum(start, handset_weights()) == 0);
    CHECK(pattern_sum(start, w) != 0);
}

TEST_CASE("Mirror images score the same with any pattern weights", "[evaluate]") {
    for (std::uint64_t seed : {1, 2}) {
        const Weights w = with_random_patterns(handset_weights(), seed, 3000);
        for (const auto& [pos, rules] : sample_positions()) {
            if (pos.variant() != Variant::Tsivy || rules.ruleset == RuleSet::Vela) continue;
            INFO(pos.to_string());
            CHECK(pattern_sum(mirrored(pos), w) == pattern_sum(pos, w));
            CHECK(pattern_sum(colour_flipped(pos), w) == pattern_sum(pos, w));
            CHECK(evaluate(mirrored(pos), rules, w) == evaluate(pos, rules, w));
            CHECK(evaluate(colour_flipped(pos), rules, w) == evaluate(pos, rules, w));
        }
    }
}

TEST_CASE("Pattern weights apply on tsivy only", "[evaluate]") {
    CHECK(patterns_apply(Variant::Tsivy));
    CHECK_FALSE(patterns_apply(Variant::Dimy));
    CHECK_FALSE(patterns_apply(Variant::Telo));
    const Weights plain = handset_weights();
    const Weights w = with_random_patterns(plain, 3, kMaxWeight);
    int dimy = 0;
    for (const auto& [pos, rules] : sample_positions()) {
        if (pos.variant() == Variant::Tsivy) continue;
        ++dimy;
        PatternIndices idx{};
        CHECK_FALSE(position_pattern_indices(pos, idx));
        CHECK(pattern_sum(pos, w) == 0);
        CHECK(evaluate(pos, rules, w) == evaluate(pos, rules, plain));
    }
    CHECK(dimy > 100);
    const std::optional<Variant> other = parse_variant("7x9");
    REQUIRE(other);
    const Position p = Position::start(*other);
    CHECK(pattern_sum(p, w) == 0);
    CHECK(evaluate(p, Rules{*other}, w) == evaluate(p, Rules{*other}, plain));
}

TEST_CASE("The largest pattern weights keep the score inside the clamp", "[evaluate]") {
    const int limit = kWinScore - kMaxPly - 1;
    for (const std::int32_t sign : {1, -1}) {
        Weights w;
        w.values.fill(sign * kMaxWeight);
        auto p = std::make_shared<PatternWeights>();
        std::fill(p->values.begin(), p->values.end(), sign * kMaxWeight);
        w.patterns = std::move(p);
        const Position pos =
            test::unchecked_position("WWWWWWWWW/WWWWWWWWW/WWWW1WWWW/9/8B w", Variant::Tsivy);
        const int e = evaluate(pos, Rules{}, w);
        CHECK(e == sign * limit);
        Features f;
        extract_features(pos, Rules{}, f);
        CHECK(evaluate_features(f, w, pattern_sum(pos, w)) == e);
    }
}

TEST_CASE("fanorona eval shows the pattern part of the score", "[evaluate][cli]") {
    const Position start = Position::start(Variant::Tsivy);
    PatternIndices idx;
    REQUIRE(position_pattern_indices(start, idx));
    Weights w = handset_weights();
    auto p = std::make_shared<PatternWeights>();
    for (std::uint32_t k : idx) {
        p->values[2 * k] = int(k % 50) + 1;
        p->values[2 * k + 1] = -int(k % 7) - 1;
    }
    w.patterns = std::move(p);
    const std::string dir = test_cli::fresh_dir("eval_patterns");
    std::filesystem::create_directories(dir);
    const std::string file = dir + "/patterns.txt";
    std::ofstream(file) << format_weights(w, {"test patterns"});

    const auto json = test_cli::run_cli("eval --json --weights " + file);
    REQUIRE(json.status == 0);
    const auto j = nlohmann::json::parse(json.output);
    REQUIRE(j.contains("patterns"));
    CHECK(j["patterns"]["sum"] == pattern_sum(start, w));
    CHECK(j["score"] == evaluate(start, Rules{}, w));
    REQUIRE(j["patterns"]["windows"].size() == std::size_t(kPatternWindows));
    for (int i = 0; i < kPatternWindows; ++i) {
        const auto& e = j["patterns"]["windows"][std::size_t(i)];
        const std::uint32_t k = idx[std::size_t(i)];
        CHECK(e["class"] == pattern_class_name(int(k) / kPatternConfigs));
        CHECK(e["config"] == pattern_config_string(int(k) % kPatternConfigs));
        CHECK(e["weight_mg"] == w.patterns->values[2 * k]);
        CHECK(e["weight_eg"] == w.patterns->values[2 * k + 1]);
    }
    const auto text = test_cli::run_cli("eval --weights " + file);
    REQUIRE(text.status == 0);
    CHECK_THAT(text.output,
               Catch::Contains("patterns: sum " + std::to_string(pattern_sum(start, w))));
    CHECK_THAT(text.output, Catch::Contains(pattern_config_string(int(idx[0]) % kPatternConfigs)));
    // Without pattern weights nothing is said about patterns.
    const auto plain = test_cli::run_cli("eval --json");
    REQUIRE(plain.status == 0);
    CHECK_FALSE(nlohmann::json::parse(plain.output).contains("patterns"));
}
