// Tests of the network's core (core/nnue): feature indexing, the SIMD kernels against the scalar
// loops, the integer evaluation against the float reference, and the incremental accumulator
// against full refreshes along random games.

#include <algorithm>
#include <cmath>
#include <set>

#include <catch2/catch.hpp>

#include "core/board/movegen.h"
#include "core/board/rules.h"
#include "core/common/rng.h"
#include "core/nnue/accumulator.h"
#include "core/nnue/features.h"
#include "core/nnue/network.h"
#include "core/nnue/simd.h"

using namespace fanorona;
using namespace fanorona::nnue;

namespace {

// Positions of a random game from the start of `rules`' board (at most `plies` moves), each
// with the move that leads to the next.
struct GameStep {
    Position pos;
    Move move;
};
std::vector<GameStep> random_game(const Rules& rules, std::uint64_t seed, int plies) {
    Rng rng(seed);
    Position pos = Position::start(rules.variant);
    std::vector<GameStep> steps;
    MoveList moves;
    for (int i = 0; i < plies && !wiped_out(pos); ++i) {
        generate_moves(pos, rules, moves);
        if (moves.count == 0) break;
        const Move m = moves[int(rng.below(std::uint64_t(moves.count)))];
        steps.push_back({pos, m});
        pos.make_move(m);
    }
    steps.push_back({pos, Move{0, 0, 0}});
    return steps;
}

bool same_hidden(const Network& net, const Accumulator& a, const Accumulator& b) {
    for (int p = 0; p < 2; ++p)
        for (int j = 0; j < net.arch.hidden; ++j)
            if (a.values[std::size_t(p)][std::size_t(j)] !=
                b.values[std::size_t(p)][std::size_t(j)])
                return false;
    return true;
}

// The position rotated by 180 degrees with the colours swapped (and the side to move): what
// Black sees in `p` is what White sees in it.
Position rotated_swapped(const Position& p) {
    const Geometry& g = p.geo();
    Bitboard white = 0, black = 0;
    for (Square s = 0; s < 64; ++s) {
        if (!g.on_board(s)) continue;
        const Square r = square_of(g, g.points - 1 - cell_of(g, s));
        if (p.pieces(Color::White) >> s & 1) black |= bit(r);
        if (p.pieces(Color::Black) >> s & 1) white |= bit(r);
    }
    return Position::from_pieces(p.variant(), white, black, ~p.side_to_move());
}

std::set<int> feature_set_of(const Position& p, FeatureSet f, Color perspective) {
    ActiveFeatures a;
    active_features(p, f, perspective, a);
    return std::set<int>(a.index.begin(), a.index.begin() + a.size);
}

Architecture lines_arch(Variant v = Variant::Tsivy) {
    Architecture a;
    a.variant = v;
    a.features = FeatureSet::PointsLines;
    return a;
}

} // namespace

TEST_CASE("nnue: points features follow the spec's indexing", "[nnue]") {
    const Position start = Position::start(Variant::Tsivy);
    const Geometry& g = start.geo();
    CHECK(cell_count(Variant::Tsivy) == 45);
    CHECK(input_count(Architecture{}) == 90);
    CHECK(start_pieces(Variant::Tsivy) == 44);
    // start_pieces() counts the start position's pieces without building it.
    for (const char* name : {"tsivy", "dimy", "3x3", "5x7", "7x9", "9x5", "3x21"}) {
        const Position p = Position::start(*parse_variant(name));
        CHECK(start_pieces(p.variant()) == popcount(p.player() | p.opponent()));
    }
    CHECK(start_pieces(*parse_variant("telo")) == 2 * kTeloPieces);
    // Cells count y * width + x whatever the bitboard stride; Black sees the board rotated.
    for (Square s = 0; s < 64; ++s) {
        if (!g.on_board(s)) continue;
        CHECK(square_of(g, cell_of(g, s)) == s);
        CHECK(point_feature(g, Color::White, Color::White, s) == cell_of(g, s));
        CHECK(point_feature(g, Color::Black, Color::White, s) == 45 + 44 - cell_of(g, s));
        CHECK(point_feature(g, Color::Black, Color::Black, s) == 44 - cell_of(g, s));
    }
    // The start position is symmetric under the rotation, except the centre point: each side
    // sees the same inputs.
    ActiveFeatures w, b;
    active_features(start, FeatureSet::Points, Color::White, w);
    active_features(start, FeatureSet::Points, Color::Black, b);
    REQUIRE(w.size == 44);
    REQUIRE(b.size == 44);
    const std::set<int> ws(w.index.begin(), w.index.begin() + w.size);
    const std::set<int> bs(b.index.begin(), b.index.begin() + b.size);
    CHECK(ws == bs);
    CHECK(ws.size() == 44);
    // A 7x9 board has stride 9 too, a 3x21 board stride 21: cells stay dense.
    for (const auto v : {*parse_variant("7x9"), *parse_variant("3x21")}) {
        const Geometry& gv = geometry(v);
        std::set<int> cells;
        for (Square s = 0; s < 64; ++s)
            if (gv.on_board(s)) cells.insert(cell_of(gv, s));
        CHECK(int(cells.size()) == gv.points);
        CHECK(*cells.rbegin() == gv.points - 1);
    }
}

TEST_CASE("nnue: points+lines features index each line of 3 points by its configuration",
          "[nnue]") {
    // Tsivy: 5 x 7 horizontal, 9 x 3 vertical and 2 x 11 diagonal lines (from strong points).
    CHECK(line_count(Variant::Tsivy) == 84);
    CHECK(line_count(Variant::Dimy) == 5 * 3 + 5 * 3 + 2 * 5);
    CHECK(input_count(lines_arch()) == 90 + 26 * 84);
    CHECK(parse_feature_set("points+lines") == FeatureSet::PointsLines);
    CHECK(feature_set_name(FeatureSet::PointsLines) == "points+lines");
    CHECK(architecture_problem(lines_arch()).empty());
    CHECK(architecture_hash(lines_arch()) != architecture_hash(Architecture{}));
    // White a1, Black b1. White sees line 0 (a1 b1 c1, East) as own, other, empty: config
    // 1 + 3 * 2 = 7; line 1 (a1 a2 a3) and line 2 (a1 b2 c3) as own, empty, empty (1); line 3
    // (b1 c1 d1) other first (2); line 4 (b1 b2 b3) too. b1 is weak: no diagonal.
    const Position p = Position::from_string("9/9/9/9/WB7 w", Variant::Tsivy);
    CHECK(feature_set_of(p, FeatureSet::PointsLines, Color::White) ==
          std::set<int>{0, 45 + 1, 90 + 0 * 26 - 1 + 7, 90 + 1 * 26 - 1 + 1, 90 + 2 * 26 - 1 + 1,
                        90 + 3 * 26 - 1 + 2, 90 + 4 * 26 - 1 + 2});
    CHECK(feature_set_of(p, FeatureSet::Points, Color::White) == std::set<int>{0, 46});
    // Black sees a1 b1 c1 as its last line (83: g5 h5 i5 turned), its points in Black's cell
    // order c1 (empty), b1 (own), a1 (other): config 3 + 2 * 9 = 21.
    CHECK(feature_set_of(p, FeatureSet::PointsLines, Color::Black).count(90 + 83 * 26 - 1 + 21));
    // Every position: Black's inputs are White's of the board turned with the colours swapped,
    // one input per non-empty line, all below input_count().
    Rules rules;
    for (const Variant v : {Variant::Tsivy, Variant::Dimy, *parse_variant("7x9")}) {
        rules.variant = v;
        const Architecture a = lines_arch(v);
        for (std::uint64_t game = 0; game < 4; ++game)
            for (const GameStep& s : random_game(rules, 300 + game, 80)) {
                const auto black = feature_set_of(s.pos, a.features, Color::Black);
                REQUIRE(black == feature_set_of(rotated_swapped(s.pos), a.features, Color::White));
                REQUIRE(*black.rbegin() < input_count(a));
                ActiveFeatures w;
                active_features(s.pos, a.features, Color::White, w);
                REQUIRE(w.size <= max_active(a));
                REQUIRE(std::set<int>(w.index.begin(), w.index.begin() + w.size).size() ==
                        std::size_t(w.size));
            }
    }
}

TEST_CASE("nnue: output buckets and architecture checks", "[nnue]") {
    CHECK(output_bucket(44, 8, 44) == 7);
    CHECK(output_bucket(1, 8, 44) == 0);
    CHECK(output_bucket(6, 8, 44) == 0);
    CHECK(output_bucket(7, 8, 44) == 1);
    CHECK(output_bucket(0, 8, 44) == 0);
    CHECK(output_bucket(30, 1, 44) == 0);
    Architecture a;
    CHECK(architecture_problem(a).empty());
    a.hidden = 100;
    CHECK(architecture_problem(a).find("hidden") != std::string::npos);
    a = {};
    a.qa = 256;
    CHECK(!architecture_problem(a).empty());
    Architecture b;
    b.buckets = 4;
    CHECK(architecture_hash(Architecture{}) != architecture_hash(b));
    CHECK(architecture_hash(Architecture{}) == architecture_hash(Architecture{}));
    CHECK(architecture_text(Architecture{}) ==
          "fanorona-net 1 variant=tsivy features=points inputs=90 hidden=128 buckets=8 qa=255 "
          "qb=64 scale=400");
    // SCReLU is named in the text (and so changes the hash); CReLU is not.
    Architecture squared;
    squared.activation = Activation::SCReLU;
    CHECK(architecture_text(squared) == architecture_text(Architecture{}) + " activation=screlu");
    CHECK(architecture_hash(squared) != architecture_hash(Architecture{}));
    CHECK(parse_activation("screlu") == Activation::SCReLU);
    CHECK(parse_activation("relu") == std::nullopt);
    CHECK(max_w2q(squared) == kScreluMaxW2q);
    // A second layer is named in the text too; it needs CReLU and at most kMaxLayer2 units.
    Architecture deep;
    deep.layer2 = 16;
    CHECK(architecture_problem(deep).empty());
    CHECK(architecture_text(deep) == architecture_text(Architecture{}) + " layer2=16");
    CHECK(architecture_hash(deep) != architecture_hash(Architecture{}));
    CHECK(w2_rows(deep) == 16);
    CHECK(w2_rows(Architecture{}) == 8);
    deep.activation = Activation::SCReLU;
    CHECK(architecture_problem(deep).find("crelu") != std::string::npos);
    deep.activation = Activation::CReLU;
    deep.layer2 = kMaxLayer2 + 1;
    CHECK(architecture_problem(deep).find("layer2") != std::string::npos);
}

TEST_CASE("nnue: the SIMD kernels give the scalar loops' numbers", "[nnue]") {
    INFO("path " << simd_path());
    Rng rng(7);
    for (const int n : {16, 32, 48, 128, 176, 512}) { // every block size of every path
        const auto size = static_cast<std::size_t>(n);
        std::vector<std::int16_t> a(size), row(size), w(size);
        for (int trial = 0; trial < 200; ++trial) {
            // Full int16 ranges: the kernels must wrap like the scalar loops and never overflow.
            const int range = trial % 2 ? 65536 : 600;
            for (int j = 0; j < n; ++j) {
                a[std::size_t(j)] = std::int16_t(int(rng.below(std::uint64_t(range))) - range / 2);
                row[std::size_t(j)] = std::int16_t(int(rng.below(65536)) - 32768);
                w[std::size_t(j)] = std::int16_t(int(rng.below(65536)) - 32768);
            }
            CHECK(crelu_dot(a.data(), w.data(), n, kQA) ==
                  scalar::crelu_dot(a.data(), w.data(), n, kQA));
            // SCReLU's output weights lie within +-kScreluMaxW2q.
            std::vector<std::int16_t> w_small(size);
            for (int j = 0; j < n; ++j)
                w_small[std::size_t(j)] =
                    std::int16_t(int(rng.below(2 * kScreluMaxW2q + 1)) - kScreluMaxW2q);
            CHECK(screlu_dot(a.data(), w_small.data(), n, kQA) ==
                  scalar::screlu_dot(a.data(), w_small.data(), n, kQA));
            // One row added, one removed: the fast path against the scalar reference loops.
            auto fast = a, slow = a;
            const std::int16_t* one_added = row.data();
            const std::int16_t* one_removed = w.data();
            apply_rows(fast.data(), a.data(), &one_added, 1, nullptr, 0, n);
            scalar::add_row(slow.data(), row.data(), n);
            CHECK(fast == slow);
            apply_rows(fast.data(), fast.data(), nullptr, 0, &one_removed, 1, n);
            scalar::sub_row(slow.data(), w.data(), n);
            CHECK(fast == slow);
            // A whole move's update in one pass: the rows added and removed one by one.
            const int adds = trial % 5, subs = trial % 3;
            std::vector<const std::int16_t*> added(std::size_t(adds), row.data()),
                removed(std::size_t(subs), w.data());
            if (adds > 1) added[1] = a.data();
            std::vector<std::int16_t> fused(size), fused_scalar(size), expected = slow;
            for (const auto* r : added) scalar::add_row(expected.data(), r, n);
            for (const auto* r : removed) scalar::sub_row(expected.data(), r, n);
            apply_rows(fused.data(), slow.data(), added.data(), adds, removed.data(), subs, n);
            scalar::apply_rows(fused_scalar.data(), slow.data(), added.data(), adds, removed.data(),
                               subs, n);
            CHECK(fused == expected);
            CHECK(fused_scalar == expected);
        }
        // The extreme case: every product at its maximum.
        std::fill(a.begin(), a.end(), std::int16_t(32767));
        std::fill(w.begin(), w.end(), std::int16_t(-32768));
        CHECK(crelu_dot(a.data(), w.data(), n, kQA) == std::int64_t(n) * kQA * -32768);
        std::fill(w.begin(), w.end(), std::int16_t(-kScreluMaxW2q));
        CHECK(screlu_dot(a.data(), w.data(), n, kQA) ==
              std::int64_t(n) * kQA * kQA * -kScreluMaxW2q);
        std::fill(a.begin(), a.end(), std::int16_t(-5)); // clamped to 0
        CHECK(screlu_dot(a.data(), w.data(), n, kQA) == 0);
    }
}

TEST_CASE("nnue: the dense second layer's kernel gives the scalar loop's numbers", "[nnue]") {
    INFO("path " << simd_path());
    Rng rng(8);
    for (const int n : {16, 128, 512})
        for (const int rows : {1, 3, 4, 9, 16, kMaxLayer2}) {
            const auto size = std::size_t(n);
            std::vector<std::int16_t> own(size), other(size), w(size * 2 * std::size_t(rows));
            const auto count = std::size_t(rows);
            std::vector<std::int32_t> fast(count), slow(count);
            for (int trial = 0; trial < 20; ++trial) {
                for (auto* v : {&own, &other})
                    for (auto& x : *v) x = std::int16_t(int(rng.below(65536)) - 32768);
                for (auto& x : w)
                    x = std::int16_t(int(rng.below(2 * kLayer2MaxW2q + 1)) - kLayer2MaxW2q);
                crelu_rows(fast.data(), own.data(), other.data(), w.data(), rows, n, kQA);
                scalar::crelu_rows(slow.data(), own.data(), other.data(), w.data(), rows, n, kQA);
                CHECK(fast == slow);
            }
            // Every product at its maximum: no lane overflows.
            std::fill(own.begin(), own.end(), std::int16_t(32767));
            std::fill(other.begin(), other.end(), std::int16_t(300));
            std::fill(w.begin(), w.end(), std::int16_t(-kLayer2MaxW2q));
            crelu_rows(fast.data(), own.data(), other.data(), w.data(), rows, n, kQA);
            for (const std::int32_t v : fast) CHECK(v == 2 * n * kQA * -kLayer2MaxW2q);
        }
}

TEST_CASE("nnue: quantise and dequantise", "[nnue]") {
    FloatNetwork f = make_float_network(Architecture{});
    const ParamLayout l = f.layout();
    f.params[l.w1 + 0] = 0.5;    // 127.5 -> 128 (halves away from zero)
    f.params[l.w1 + 1] = -1.0;   // -255
    f.params[l.w1 + 2] = 1000.0; // saturates at 32767
    f.params[l.w2 + 0] = 0.3;    // 19.2 -> 19
    f.params[l.b2 + 0] = -0.25;  // -4080
    const Network q = quantise(f);
    REQUIRE(network_problem(q).empty());
    CHECK(q.w1[0] == 128);
    CHECK(q.w1[1] == -255);
    CHECK(q.w1[2] == 32767);
    CHECK(q.w2[0] == 19);
    CHECK(q.b2[0] == -4080);
    CHECK(quantise(dequantise(q)) == q);
    Network bad = q;
    std::vector<std::int16_t> short_w2 = bad.w2.values();
    short_w2.pop_back();
    bad.w2 = Layer2Weights(short_w2, bad.arch.layer2_int8);
    CHECK(network_problem(bad) == "w2 size does not match");
    CHECK(network_problem(f).empty());
    FloatNetwork short_f = f;
    short_f.params.pop_back();
    CHECK(network_problem(short_f) == "parameter count does not match");
    // SCReLU: output weights saturate at +-kScreluMaxW2q, and a larger one is a problem.
    f.arch.activation = Activation::SCReLU;
    f.params[l.w2 + 1] = 2.5; // 160 -> 127
    f.params[l.w2 + 2] = -3.0;
    Network sq = quantise(f);
    REQUIRE(network_problem(sq).empty());
    CHECK(sq.w2[0] == 19);
    CHECK(sq.w2[1] == kScreluMaxW2q);
    CHECK(sq.w2[2] == -kScreluMaxW2q);
    sq.w2.set(3, 128);
    CHECK(network_problem(sq).find("outside +-127") != std::string::npos);
}

// The integer evaluation equals the float formula on the dequantised parameters up to the final
// truncation (|difference| < 1 centi-piece: every integer step is exact). Against the float
// parameters before quantisation it differs by the rounding of the weights only; the bound is
// worked out per position: each accumulator entry moves by at most (inputs + 1) * 0.5 / QA, each
// output weight by 0.5 / QB, and b2 by 0.5 / (QA QB).
TEST_CASE("nnue: the integer evaluation agrees with the float reference", "[nnue]") {
    Rules rules;
    const Activation activation = GENERATE(Activation::CReLU, Activation::SCReLU);
    const bool squared = activation == Activation::SCReLU;
    for (const auto& [buckets, features] : {std::pair{1, FeatureSet::Points},
                                            {8, FeatureSet::Points},
                                            {8, FeatureSet::PointsLines}}) {
        Architecture arch;
        arch.buckets = buckets;
        arch.features = features;
        arch.activation = activation;
        INFO(feature_set_name(features)
             << ", " << buckets << " buckets, " << activation_name(activation));
        const FloatNetwork f = random_float_network(arch, 11 + std::uint64_t(buckets));
        const Network q = quantise(f);
        const std::span<const double> w2 = f.slice(f.layout().w2, f.layout().b2);
        double worst = 0, worst_bound = 0;
        for (std::uint64_t game = 0; game < 20; ++game)
            for (const GameStep& s : random_game(rules, game, 200)) {
                const int integer = evaluate(q, s.pos);
                const double deq = evaluate_float(q, s.pos);
                // SCReLU truncates once more, (sum) / QA: below one output unit, scale / (QA QB).
                const double steps = squared ? double(arch.scale) / (kQA * kQB) : 0.0;
                REQUIRE(std::abs(integer - deq) < 1.0 + steps + 1e-9);
                CHECK(std::trunc(deq + (deq > 0 ? 1e-9 : -1e-9)) == Approx(integer).margin(1));
                const double ref = evaluate_float(f, s.pos);
                const int pieces = popcount(s.pos.player() | s.pos.opponent());
                ActiveFeatures own, other;
                active_features(s.pos, features, Color::White, own);
                active_features(s.pos, features, Color::Black, other);
                const double da = (std::max(own.size, other.size) + 1) * 0.5 / kQA;
                double w2_abs = 0;
                const int b = output_bucket(pieces, arch.buckets, start_pieces(arch.variant));
                for (int k = 0; k < 2 * arch.hidden; ++k)
                    w2_abs += std::abs(w2[std::size_t(b * 2 * arch.hidden + k)]) + 0.5 / kQB;
                // crelu(a) <= 1 and moves by at most da (its square by 2 da); output weights by
                // 0.5 / QB each.
                const double bound =
                    arch.scale * ((squared ? 2 : 1) * da * w2_abs + 2 * arch.hidden * 0.5 / kQB +
                                  0.5 / (kQA * kQB) + steps / arch.scale) +
                    1;
                CHECK(std::abs(integer - ref) <= bound);
                worst = std::max(worst, std::abs(integer - ref));
                worst_bound = std::max(worst_bound, bound);
            }
        // The rounding error is far below the worst case in practice.
        INFO("largest difference " << worst << ", largest bound " << worst_bound);
        CHECK(worst < 60);
    }
}

// With a second layer the integer evaluation rounds each unit's sum to 1 / QA (h_i moves by at
// most 0.5 / QA) before the output weights: against the float formula on the dequantised
// parameters it differs by at most scale * sum_i |W3[b][i]| * 0.5 / QA, plus the final truncation.
TEST_CASE("nnue: with a second layer the integer evaluation agrees with the float reference",
          "[nnue]") {
    Rules rules;
    Architecture arch;
    arch.layer2 = GENERATE(1, 8, 16);
    const FloatNetwork f = random_float_network(arch, 21);
    const Network q = quantise(f);
    REQUIRE(network_problem(q).empty());
    CHECK(quantise(dequantise(q)) == q);
    double worst = 0, worst_deq = 0;
    std::set<int> distinct;
    for (std::uint64_t game = 0; game < 20; ++game)
        for (const GameStep& s : random_game(rules, game, 200)) {
            const int integer = evaluate(q, s.pos);
            const double deq = evaluate_float(q, s.pos);
            const int pieces = popcount(s.pos.player() | s.pos.opponent());
            const int b = output_bucket(pieces, arch.buckets, start_pieces(arch.variant));
            double w3_abs = 0;
            for (int i = 0; i < arch.layer2; ++i)
                w3_abs += std::abs(q.w3[std::size_t(b * arch.layer2 + i)]) / double(kQB);
            REQUIRE(std::abs(integer - deq) <= arch.scale * w3_abs * 0.5 / kQA + 1 + 1e-9);
            worst_deq = std::max(worst_deq, std::abs(integer - deq));
            worst = std::max(worst, std::abs(integer - evaluate_float(f, s.pos)));
            distinct.insert(integer);
        }
    INFO("largest difference " << worst << " (dequantised: " << worst_deq << ")");
    CHECK(worst < 30);
    CHECK(distinct.size() > 50);
}

TEST_CASE("nnue: incremental accumulators equal full refreshes along random games", "[nnue]") {
    AccumulatorStack stack;
    Accumulator fresh;
    const FeatureSet features = GENERATE(FeatureSet::Points, FeatureSet::PointsLines);
    INFO(feature_set_name(features));
    int checked = 0, captures = 0, long_chains = 0;
    for (const Variant v : {Variant::Tsivy, Variant::Dimy, Variant::Telo}) {
        Architecture arch;
        arch.variant = v;
        arch.features = features;
        const Network n = quantise(random_float_network(arch, v == Variant::Tsivy ? 3 : 5));
        Rules rules;
        rules.variant = v;
        for (std::uint64_t game = 0; game < (v == Variant::Tsivy ? 200u : 50u); ++game) {
            const auto steps = random_game(rules, 1000 + game, 120);
            stack.reset(n, steps[0].pos);
            // Down the game ply by ply (lazily: only every third ply is evaluated), checking every
            // evaluated ply; then back up, checking each position again after the pops.
            for (std::size_t i = 0; i + 1 < steps.size(); ++i) {
                stack.push(steps[i].pos, steps[i].move);
                captures += steps[i].move.is_capture();
                long_chains += popcount(steps[i].move.captured) >= 6;
                if (i % 3 == 0 || i + 2 == steps.size()) {
                    refresh(n, steps[i + 1].pos, fresh);
                    REQUIRE(same_hidden(n, stack.current(n), fresh));
                    const Position& p = steps[i + 1].pos;
                    REQUIRE(evaluate(n, stack.current(n), p.side_to_move(),
                                     popcount(p.player() | p.opponent())) == evaluate(n, p));
                    ++checked;
                }
                if (stack.size() >= AccumulatorStack::kCapacity - 1) break;
            }
            for (int i = stack.size() - 1; i > 0; --i) {
                stack.pop();
                refresh(n, steps[std::size_t(i - 1)].pos, fresh);
                REQUIRE(same_hidden(n, stack.current(n), fresh));
                ++checked;
            }
        }
    }
    CHECK(checked > 10000);
    CHECK(captures > 1000);
    CHECK(long_chains > 20); // moves that change many lines at once
}

// refresh() runs the SIMD kernels; the same sums with the scalar loops give the same numbers on
// the inputs of both feature sets (the lines' many inputs included).
TEST_CASE("nnue: refreshes by the SIMD kernels equal the scalar loops", "[nnue]") {
    Rules rules;
    for (const FeatureSet features : {FeatureSet::Points, FeatureSet::PointsLines}) {
        Architecture arch = lines_arch();
        arch.features = features;
        const Network net = quantise(random_float_network(arch, 21));
        const int h = arch.hidden;
        Accumulator fast;
        for (const GameStep& s : random_game(rules, 77, 150)) {
            refresh(net, s.pos, fast);
            for (const Color persp : {Color::White, Color::Black}) {
                std::array<std::int16_t, kMaxHidden> slow{};
                std::copy(net.b1.begin(), net.b1.end(), slow.begin());
                ActiveFeatures a;
                active_features(s.pos, features, persp, a);
                for (int i = 0; i < a.size; ++i)
                    scalar::add_row(
                        slow.data(),
                        net.w1.data() + std::size_t(a.index[std::size_t(i)]) * std::size_t(h), h);
                REQUIRE(std::equal(slow.begin(), slow.begin() + h,
                                   fast.values[std::size_t(persp)].begin()));
            }
        }
    }
}

TEST_CASE("nnue: a pass keeps the accumulator and flips the perspective", "[nnue]") {
    const Network net = quantise(random_float_network(Architecture{}, 9));
    Position pos = Position::start(Variant::Tsivy);
    AccumulatorStack stack;
    stack.reset(net, pos);
    const Position passed = Position::from_pieces(pos.variant(), pos.pieces(Color::White),
                                                  pos.pieces(Color::Black), Color::Black);
    stack.push_null();
    Accumulator fresh;
    refresh(net, passed, fresh);
    CHECK(same_hidden(net, stack.current(net), fresh));
    CHECK(evaluate(net, stack.current(net), Color::Black, 44) == evaluate(net, passed));
}
