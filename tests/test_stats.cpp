// Statistics: counts, Elo/nElo/LOS, the GSPRT (against reference values and by simulation),
// Bradley-Terry / Davidson ratings, the results table and `fanorona stats`.

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numbers>
#include <string>

#include <catch2/catch.hpp>

#include "core/common/rng.h"
#include "selfplay/tournament/stats/bradley_terry.h"
#include "selfplay/tournament/stats/counts.h"
#include "selfplay/tournament/stats/elo.h"
#include "selfplay/tournament/stats/mle.h"
#include "selfplay/tournament/stats/normal.h"
#include "selfplay/tournament/stats/results_table.h"
#include "selfplay/tournament/stats/sprt.h"
#include "selfplay/tournament/stats/stats_json.h"

using namespace fanorona;
using namespace fanorona::stats;

namespace {

Pentanomial penta(std::array<std::uint64_t, 5> c) {
    return Pentanomial{c};
}

SprtConfig sprt(double elo0, double elo1, EloModel model) {
    SprtConfig c;
    c.elo0 = elo0;
    c.elo1 = elo1;
    c.model = model;
    return c;
}

// Per-game probabilities of A's win, draw and loss.
struct GameLaw {
    double win, draw, loss;
};

// Win/draw/loss probabilities with draw ratio `draw` and expected score `score`.
GameLaw law_with_score(double score, double draw) {
    return {score - draw / 2, draw, 1 - score - draw / 2};
}

// Draw ratio `draw` and normalized Elo `nelo` (bisection on the score).
GameLaw law_with_nelo(double nelo, double draw) {
    double lo = 0.5, hi = nelo >= 0 ? 1 - draw / 2 : draw / 2;
    for (int i = 0; i < 100; ++i) {
        const double mid = 0.5 * (lo + hi);
        const GameLaw g = law_with_score(mid, draw);
        const double var =
            g.win * (1 - mid) * (1 - mid) + g.draw * (0.5 - mid) * (0.5 - mid) + g.loss * mid * mid;
        const double n = (mid - 0.5) / std::sqrt(var) * kNeloPerT;
        if ((n < nelo) == (nelo >= 0))
            lo = mid;
        else
            hi = mid;
    }
    return law_with_score(0.5 * (lo + hi), draw);
}

// One game's outcome from A's side, as a WDL with one game.
WDL play(Rng& rng, const GameLaw& g) {
    const double u = rng.uniform();
    if (u < g.win) return {1, 0, 0};
    if (u < g.win + g.draw) return {0, 1, 0};
    return {0, 0, 1};
}

// Runs SPRTs on independent game pairs drawn from `law`; returns the fraction accepting H1.
double sprt_acceptance(const SprtConfig& config, const GameLaw& law, int runs, std::uint64_t seed) {
    int h1 = 0;
    for (int run = 0; run < runs; ++run) {
        Rng rng = Rng::derive(seed, 1, std::uint64_t(run));
        Pentanomial p;
        for (int pairs = 1; pairs <= 100000; ++pairs) {
            p.add_pair(play(rng, law) + play(rng, law));
            if (pairs % 4) continue; // test every 4 pairs, as fishtest tests every batch
            const SprtResult r = sprt_test(p, config);
            if (r.verdict == SprtVerdict::Continue) continue;
            h1 += r.verdict == SprtVerdict::AcceptH1;
            break;
        }
    }
    return double(h1) / runs;
}

} // namespace

TEST_CASE("WDL and pentanomial counts add, flip and parse", "[stats]") {
    WDL a{3, 2, 1};
    a += WDL{1, 1, 1};
    CHECK(a == WDL{4, 3, 2});
    CHECK(a.games() == 9);
    CHECK(a.points() == 5.5);
    CHECK(a.flipped() == WDL{2, 3, 4});
    Pentanomial p;
    p.add_pair({2, 0, 0});
    p.add_pair({1, 0, 1});
    p.add_pair({0, 2, 0});
    p.add_pair({0, 1, 1});
    p += penta({1, 0, 0, 0, 0});
    CHECK(p == penta({1, 1, 2, 0, 1}));
    CHECK(p.pairs() == 5);
    CHECK(p.points() == 0.5 + 2 + 2);
    CHECK(p.flipped() == penta({1, 0, 2, 1, 1}));
    CHECK_THROWS(p.add_pair({1, 0, 0}));

    CHECK(parse_wdl("10, 20,30") == WDL{10, 20, 30});
    CHECK(parse_pentanomial("1,2,3,4,5") == penta({1, 2, 3, 4, 5}));
    CHECK(to_string(penta({1, 2, 3, 4, 5})) == "1,2,3,4,5");
    CHECK_THROWS_WITH(parse_wdl("1,2"), Catch::Contains("expected 3"));
    CHECK_THROWS_WITH(parse_wdl("1,x,3"), Catch::Contains("field 2"));
    CHECK_THROWS_WITH(parse_wdl("1,-2,3"), Catch::Contains("not a non-negative integer"));
    CHECK_THROWS_WITH(parse_pentanomial("1,2,,4,5"), Catch::Contains("field 3"));
    CHECK_THROWS(parse_pentanomial("1,2,3,4,5,6"));
    CHECK_THROWS(parse_wdl("99999999999999999999999,0,0"));
}

// Reference values from tests/data/stats_reference.py, an independent Python implementation of
// fishtest's get_elo (stat_util.py) and LLR_logistic / LLR_normalized (LLRcalc.py), and of
// fastchess's nElo interval. Regenerate with: python3 tests/data/stats_reference.py
TEST_CASE("Elo, nElo and LOS match the fishtest/fastchess formulas", "[stats]") {
    struct Ref {
        double score, stderr_, elo, elo95, nelo, nelo95, los;
    };
    auto check = [](const EloEstimate& e, const Ref& r) {
        CHECK(e.score == Approx(r.score).epsilon(1e-10));
        CHECK(e.score_stderr == Approx(r.stderr_).epsilon(1e-9));
        CHECK(e.elo == Approx(r.elo).margin(1e-8));
        CHECK(e.elo_error95 == Approx(r.elo95).epsilon(1e-9));
        CHECK(e.nelo == Approx(r.nelo).margin(1e-8));
        CHECK(e.nelo_error95 == Approx(r.nelo95).epsilon(1e-9));
        CHECK(e.los == Approx(r.los).epsilon(1e-9));
    };
    check(estimate_elo(penta({2, 10, 40, 12, 3})),
          {0.514925373134, 0.0241130229613, 10.3742936378, 32.96821615, 18.5778493457,
           58.8260909592, 0.732033787242});
    check(estimate_elo(penta({100, 500, 1000, 520, 90})),
          {0.5, 0.00477262966283, 0, 6.50071006798, 0, 10.242624573, 0.5});
    check(estimate_elo(penta({10789, 19328, 33806, 19402, 10543})),
          {0.498886734563, 0.000938062065074, -0.773577335917, 1.27757989573, -0.951629004473,
           1.57162384411, 0.117658858033});
    check(estimate_elo(WDL{120, 60, 100}),
          {0.535714285714, 0.0264002882306, 24.8591626995, 36.2727628262, 28.0885022982,
           40.6952174704, 0.911940087128});
    check(estimate_elo(WDL{1450, 4000, 1500}),
          {0.496402877698, 0.00390723675795, -2.4995797108, 5.32204525198, -3.8367841922,
           8.1682681608, 0.178621621416});

    const EloEstimate e = estimate_elo(WDL{120, 60, 100});
    CHECK(e.games == 280);
    CHECK(e.draw_ratio == Approx(60.0 / 280));
    CHECK(e.elo_lower == Approx(elo_from_score(e.score - kZ95 * e.score_stderr)));
    CHECK(estimate_elo(penta({1, 2, 3, 4, 5})).draw_ratio == Approx(3.0 / 15));
    CHECK(estimate_elo(penta({1, 2, 3, 4, 5})).games == 30);
}

TEST_CASE("Degenerate counts give infinite or missing values, not garbage", "[stats]") {
    const EloEstimate none = estimate_elo(WDL{});
    CHECK(none.games == 0);
    CHECK(std::isnan(none.elo));
    const EloEstimate all_wins = estimate_elo(WDL{10, 0, 0});
    CHECK(std::isinf(all_wins.elo));
    CHECK(all_wins.los == 1.0);
    CHECK(std::isnan(all_wins.nelo));
    const EloEstimate all_draws = estimate_elo(penta({0, 0, 7, 0, 0}));
    CHECK(all_draws.elo == Approx(0));
    CHECK(all_draws.los == 0.5);
    CHECK(to_json(all_wins)["elo"].is_null());
}

TEST_CASE("The GSPRT log-likelihood ratio matches fishtest's", "[stats]") {
    const auto N = EloModel::Normalized;
    const auto L = EloModel::Logistic;
    struct Case {
        std::array<std::uint64_t, 5> counts;
        double llr_n05, llr_l05, llr_lm31;
    };
    const Case pentas[] = {
        {{2, 10, 40, 12, 3}, 0.0890379182642, 0.139852994539, 0.160880850564},
        {{100, 500, 1000, 520, 90}, -0.457578303103, -1.13681295182, 0.363407434653},
        {{10789, 19328, 33806, 19402, 10543}, -26.8384486398, -38.5144084734, 2.13106781179},
    };
    for (const Case& c : pentas) {
        CHECK(sprt_llr(penta(c.counts), sprt(0, 5, N)) == Approx(c.llr_n05).epsilon(1e-8));
        CHECK(sprt_llr(penta(c.counts), sprt(0, 5, L)) == Approx(c.llr_l05).epsilon(1e-8));
        CHECK(sprt_llr(penta(c.counts), sprt(-3, 1, L)) == Approx(c.llr_lm31).epsilon(1e-8));
    }
    CHECK(sprt_llr(WDL{120, 60, 100}, sprt(0, 5, N)) == Approx(0.295719292687).epsilon(1e-8));
    CHECK(sprt_llr(WDL{120, 60, 100}, sprt(0, 5, L)) == Approx(0.329474258673).epsilon(1e-8));
    CHECK(sprt_llr(WDL{120, 60, 100}, sprt(-3, 1, L)) == Approx(0.304841580617).epsilon(1e-8));
    CHECK(sprt_llr(WDL{1450, 4000, 1500}, sprt(0, 5, N)) == Approx(-1.82407787053).epsilon(1e-8));
    CHECK(sprt_llr(WDL{1450, 4000, 1500}, sprt(0, 5, L)) == Approx(-3.38952442998).epsilon(1e-8));
    CHECK(sprt_llr(WDL{1450, 4000, 1500}, sprt(-3, 1, L)) == Approx(-0.813616164768).epsilon(1e-8));
    // Empty cells are regularised to 1e-3 as fishtest does.
    CHECK(sprt_llr(penta({0, 3, 10, 5, 0}), sprt(0, 5, N)) ==
          Approx(0.0573249418985).epsilon(1e-8));
    // A fishtest test with equivalent normalized and logistic bounds: both LLRs agree.
    CHECK(sprt_llr(penta({39, 2226, 31451, 2412, 40}), sprt(0.764, 3.439, N)) ==
          Approx(2.16294086959).epsilon(1e-8));
    CHECK(sprt_llr(penta({39, 2226, 31451, 2412, 40}), sprt(0.2, 0.9, L)) ==
          Approx(2.16254258005).epsilon(1e-8));
    CHECK(sprt_llr(Pentanomial{}, sprt(0, 5, N)) == 0);
}

TEST_CASE("Constrained MLEs satisfy their constraint and keep total probability 1", "[stats]") {
    const Distribution obs{{0, 0.25, 0.5, 0.75, 1}, {0.05, 0.2, 0.45, 0.2, 0.1}};
    const Distribution m = mle_with_mean(obs, 0.53);
    CHECK(m.mean() == Approx(0.53).epsilon(1e-12));
    double total = 0;
    for (const double p : m.probs) total += p;
    CHECK(total == Approx(1).epsilon(1e-12));
    for (const double t : {-0.3, 0.0, 0.05, 0.4}) {
        const Distribution d = mle_with_t_value(obs, 0.5, t);
        CHECK((d.mean() - 0.5) / std::sqrt(d.variance()) == Approx(t).margin(1e-10));
    }
    CHECK_THROWS_AS(mle_with_mean(obs, 1.5), std::domain_error);
}

TEST_CASE("SPRT settings parse and bound the LLR as fishtest does", "[stats]") {
    const SprtConfig c = SprtConfig::parse("elo0=0,elo1=5,alpha=0.05,beta=0.1");
    CHECK(c.elo1 == 5);
    CHECK(c.beta == 0.1);
    CHECK(c.model == EloModel::Normalized);
    CHECK(c.lower_bound() == Approx(std::log(0.1 / 0.95)));
    CHECK(c.upper_bound() == Approx(std::log(0.9 / 0.05)));
    CHECK(SprtConfig::parse("elo0=-1.5, elo1=0.5, model=logistic").model == EloModel::Logistic);
    CHECK(SprtConfig::parse(c.to_string()).to_string() == c.to_string());
    CHECK_THROWS_WITH(SprtConfig::parse("elo0=0"), Catch::Contains("required"));
    CHECK_THROWS_WITH(SprtConfig::parse("elo0=5,elo1=0"), Catch::Contains("smaller"));
    CHECK_THROWS_WITH(SprtConfig::parse("elo0=0,elo1=5,gamma=1"), Catch::Contains("unknown key"));
    CHECK_THROWS_WITH(SprtConfig::parse("elo0=0,elo1=5,alpha=x"), Catch::Contains("alpha"));
    CHECK_THROWS_WITH(SprtConfig::parse("elo0=0,elo1=5,alpha=0.6,beta=0.6"),
                      Catch::Contains("alpha + beta"));
    CHECK_THROWS(SprtConfig::parse("elo0=0,elo1=5,model=bayes"));
    CHECK_THROWS(SprtConfig::parse("elo0=0,elo0=1,elo1=5"));

    const SprtConfig n = sprt(0, 5, EloModel::Normalized);
    CHECK(sprt_test(penta({10, 10, 10, 10, 10}), n).verdict == SprtVerdict::Continue);
    CHECK(sprt_test(penta({100, 500, 1000, 800, 300}), n).verdict == SprtVerdict::AcceptH1);
    CHECK(sprt_test(penta({300, 800, 1000, 500, 100}), n).verdict == SprtVerdict::AcceptH0);
    CHECK(verdict_name(SprtVerdict::AcceptH1) == "H1 accepted");
}

// Simulated SPRTs: at elo = elo1 H1 is accepted about 1 - beta of the time, at elo = elo0 H0
// about 1 - alpha (a little more: the LLR overshoots the bound at the stopping time), and
// halfway the test is a fair coin. 400 runs: one binomial standard deviation is ~1.1%.
TEST_CASE("SPRT accepts the true hypothesis at the designed rates", "[stats]") {
    const int runs = 400;
    SECTION("normalized Elo") {
        const SprtConfig c = sprt(0, 60, EloModel::Normalized);
        const double at1 = sprt_acceptance(c, law_with_nelo(60, 0.3), runs, 11);
        const double at0 = sprt_acceptance(c, law_with_nelo(0, 0.3), runs, 12);
        const double mid = sprt_acceptance(c, law_with_nelo(30, 0.3), runs, 13);
        CHECK(at1 >= 0.92);
        CHECK(at1 <= 0.995);
        CHECK(at0 <= 0.08);
        CHECK(at0 >= 0.005);
        CHECK(mid == Approx(0.5).margin(0.08));
    }
    SECTION("logistic Elo") {
        const SprtConfig c = sprt(0, 40, EloModel::Logistic);
        const double at1 = sprt_acceptance(c, law_with_score(score_from_elo(40), 0.3), runs, 21);
        const double at0 = sprt_acceptance(c, law_with_score(0.5, 0.3), runs, 22);
        CHECK(at1 >= 0.92);
        CHECK(at0 <= 0.08);
    }
}

namespace {

constexpr double kEloPerNat = 400.0 / std::numbers::ln10;

// Davidson's law for a rating difference `diff` (Elo) and draw parameter nu.
GameLaw davidson_law(double diff, double nu) {
    const double u = diff / kEloPerNat / 2;
    const double d = std::exp(u) + std::exp(-u) + nu;
    return {std::exp(u) / d, nu / d, std::exp(-u) / d};
}

// Every pairing plays `games` games drawn from law(r_i - r_j).
template <typename Law>
PairwiseResults round_robin(const std::vector<double>& ratings, int games, Law law, Rng& rng) {
    std::vector<std::string> names;
    for (std::size_t i = 0; i < ratings.size(); ++i) names.push_back("p" + std::to_string(i));
    PairwiseResults r(names);
    for (std::size_t i = 0; i < ratings.size(); ++i)
        for (std::size_t j = i + 1; j < ratings.size(); ++j)
            for (int g = 0; g < games; ++g) r.add(i, j, play(rng, law(ratings[i] - ratings[j])));
    return r;
}

std::vector<double> centred(std::vector<double> r) {
    double mean = 0;
    for (const double x : r) mean += x / double(r.size());
    for (double& x : r) x -= mean;
    return r;
}

} // namespace

TEST_CASE("Pairwise results store each pairing once and flip it", "[stats]") {
    PairwiseResults r({"a", "b", "c"});
    r.add(0, 1, WDL{3, 2, 1});
    r.add(1, 0, WDL{1, 0, 0});
    r.add_pair(2, 0, WDL{1, 1, 0});
    CHECK(r.wdl(0, 1) == WDL{3, 2, 2});
    CHECK(r.wdl(1, 0) == WDL{2, 2, 3});
    CHECK(r.wdl(0, 2) == WDL{0, 1, 1});
    CHECK(r.pentanomial(2, 0) == penta({0, 0, 0, 1, 0}));
    CHECK(r.pentanomial(0, 2) == penta({0, 1, 0, 0, 0}));
    CHECK(r.total(0) == WDL{3, 3, 3});
    CHECK(r.wdl(1, 2) == WDL{});
    PairwiseResults twice = r;
    twice += r;
    CHECK(twice.wdl(0, 1) == WDL{6, 4, 4});
    CHECK_THROWS(r.wdl(1, 1));
    CHECK_THROWS(r.add(0, 3, WDL{1, 0, 0}));
    CHECK_THROWS(twice += PairwiseResults({"a", "b"}));
}

TEST_CASE("Two-player ratings reduce to the match formulas", "[stats]") {
    PairwiseResults r({"x", "y"});
    r.add(0, 1, WDL{70, 20, 30}); // score 0.6667
    RatingOptions o;
    o.errors = ErrorModel::Trinomial;
    o.anchor = 1;
    const Ratings t = fit_ratings(r, o);
    const EloEstimate e = estimate_elo(WDL{70, 20, 30});
    CHECK(t.elo[1] == 0);
    CHECK(t.error95[1] == 0);
    CHECK(t.elo[0] == Approx(e.elo).epsilon(1e-9));
    // Sandwich = delta method on the logit: sd(r) = sd(score) / (p (1 - p)) in natural units.
    const double p = e.score;
    CHECK(t.error95[0] == Approx(kZ95 * kEloPerNat * e.score_stderr / (p * (1 - p))).epsilon(1e-9));

    o.errors = ErrorModel::Fisher;
    o.anchor.reset();
    const Ratings f = fit_ratings(r, o);
    CHECK(f.elo[0] == Approx(e.elo / 2).epsilon(1e-9));
    CHECK(f.elo[1] == Approx(-e.elo / 2).epsilon(1e-9));
    // Binomial information n p (1 - p) (draws as half wins): wider than the trinomial interval.
    const double fisher = kZ95 * kEloPerNat / std::sqrt(120 * p * (1 - p));
    CHECK(f.difference_error95(0, 1) == Approx(fisher).epsilon(1e-9));
    CHECK(f.error95[0] == Approx(fisher / 2).epsilon(1e-9));
    CHECK(fisher > t.error95[0]);

    // Davidson: P(win) / P(loss) = 10^(diff / 400), P(draw) fitted exactly with two players.
    o.model = RatingModel::Davidson;
    const Ratings d = fit_ratings(r, o);
    CHECK(d.model == RatingModel::Davidson);
    CHECK(d.elo[0] - d.elo[1] == Approx(400 * std::log10(70.0 / 30.0)).epsilon(1e-9));
    CHECK(d.draw_nu / (std::sqrt(70.0 / 30.0) + std::sqrt(30.0 / 70.0) + d.draw_nu) ==
          Approx(20.0 / 120).epsilon(1e-9));
}

TEST_CASE("Bradley-Terry and Davidson recover known ratings from simulated games", "[stats]") {
    const std::vector<double> truth = centred({0, 80, -50, 150, -120});
    Rng rng(2024);
    SECTION("Bradley-Terry, draws as half wins") {
        const auto results = round_robin(
            truth, 2000, [](double diff) { return law_with_score(score_from_elo(diff), 0.3); },
            rng);
        const Ratings r = fit_ratings(results);
        for (std::size_t i = 0; i < truth.size(); ++i) {
            INFO("player " << i << " fit " << r.elo[i] << " +- " << r.error95[i]);
            CHECK(std::abs(r.elo[i] - truth[i]) < 1.5 * r.error95[i]);
            CHECK(r.error95[i] > 3);
            CHECK(r.error95[i] < 15);
        }
        double sum = 0;
        for (const double x : r.elo) sum += x;
        CHECK(sum == Approx(0).margin(1e-9));
    }
    SECTION("Davidson") {
        const auto results = round_robin(
            truth, 2000, [](double diff) { return davidson_law(diff, 0.8); }, rng);
        RatingOptions o;
        o.model = RatingModel::Davidson;
        o.anchor = 0;
        const Ratings r = fit_ratings(results, o);
        CHECK(r.model == RatingModel::Davidson);
        CHECK(r.draw_nu == Approx(0.8).margin(0.05));
        for (std::size_t i = 1; i < truth.size(); ++i) {
            INFO("player " << i << " fit " << r.elo[i] << " +- " << r.error95[i]);
            CHECK(std::abs(r.elo[i] - (truth[i] - truth[0])) < 1.5 * r.error95[i]);
        }
    }
}

// Game pairs with unbalanced openings: the first game favours A by b, the second (colours
// swapped) favours B by b, so the two games of a pair are negatively correlated and the pair
// score varies less than two independent games'. Pentanomial intervals see this; trinomial ones
// do not (too wide). Over many simulated tournaments the pentanomial 95% intervals cover the
// true ratings about 95% of the time.
TEST_CASE("Pentanomial rating intervals account for correlated game pairs", "[stats]") {
    const std::vector<double> truth = centred({0, 60, -40, 100});
    int covered_penta = 0, covered_tri = 0, intervals = 0;
    double width_penta = 0, width_tri = 0;
    for (int t = 0; t < 200; ++t) {
        Rng rng = Rng::derive(77, 2, std::uint64_t(t));
        PairwiseResults results({"a", "b", "c", "d"});
        for (std::size_t i = 0; i < truth.size(); ++i)
            for (std::size_t j = i + 1; j < truth.size(); ++j)
                for (int pair = 0; pair < 100; ++pair) {
                    const double s = score_from_elo(truth[i] - truth[j]);
                    const double b = rng.uniform() < 0.5 ? 0.2 : -0.2;
                    results.add_pair(i, j,
                                     play(rng, law_with_score(s + b, 0.2)) +
                                         play(rng, law_with_score(s - b, 0.2)));
                }
        RatingOptions o;
        const Ratings penta_fit = fit_ratings(results, o);
        o.errors = ErrorModel::Trinomial;
        const Ratings tri_fit = fit_ratings(results, o);
        for (std::size_t i = 0; i < truth.size(); ++i) {
            const double miss = std::abs(penta_fit.elo[i] - truth[i]);
            covered_penta += miss <= penta_fit.error95[i];
            covered_tri += miss <= tri_fit.error95[i];
            width_penta += penta_fit.error95[i];
            width_tri += tri_fit.error95[i];
            ++intervals;
        }
    }
    const double cp = double(covered_penta) / intervals, ct = double(covered_tri) / intervals;
    INFO("coverage pentanomial " << cp << " trinomial " << ct << " width ratio "
                                 << width_penta / width_tri);
    CHECK(cp == Approx(0.95).margin(0.03));
    CHECK(ct >= cp); // wider intervals
    // Pair variance 2 * 0.2 - 2 * 0.04 against 2 * 0.2 (game variance 0.2): ratio sqrt(0.8).
    CHECK(width_penta / width_tri == Approx(std::sqrt(0.8)).margin(0.03));
}

TEST_CASE("Ratings that do not exist are reported, prior draws make them exist", "[stats]") {
    PairwiseResults r({"ace", "mid", "low"});
    r.add(0, 1, WDL{10, 0, 0});
    r.add(0, 2, WDL{10, 0, 0});
    r.add(1, 2, WDL{5, 3, 2});
    RatingOptions o;
    o.prior_draws = 0; // none, explicitly
    CHECK_THROWS_WITH(fit_ratings(r, o), Catch::Contains("ace scored every point") &&
                                             Catch::Contains("(use --prior-draws N)"));
    o.prior_draws = 2;
    const Ratings fit = fit_ratings(r, o);
    CHECK(fit.elo[0] > fit.elo[1]);
    CHECK(fit.elo[1] > fit.elo[2]);
    CHECK(fit.prior_draws == 2);
    CHECK(fit.default_prior_reason.empty());
    // No option: the default prior, since the exact ratings do not exist; and it says so.
    const Ratings fallback = fit_ratings(r);
    CHECK(fallback.prior_draws == kDefaultPriorDraws);
    CHECK(fallback.default_prior_reason == "ace scored every point against the other players "
                                           "they met");
    for (std::size_t i = 0; i < 3; ++i) CHECK(fallback.elo[i] == Approx(fit.elo[i]));
    // More prior draws pull the ratings closer together.
    o.prior_draws = 10;
    const Ratings pulled = fit_ratings(r, o);
    CHECK(pulled.elo[0] - pulled.elo[2] < fit.elo[0] - fit.elo[2]);
    // Ratings that exist without a prior are the exact ones (none added).
    PairwiseResults even({"a", "b"});
    even.add(0, 1, WDL{6, 2, 4});
    CHECK(fit_ratings(even).prior_draws == 0);
    CHECK(fit_ratings(even).default_prior_reason.empty());

    PairwiseResults apart({"a", "b", "c", "d"});
    apart.add(0, 1, WDL{3, 3, 3});
    apart.add(2, 3, WDL{3, 3, 3});
    CHECK_THROWS_WITH(fit_ratings(apart, o), Catch::Contains("never played"));

    // Davidson without any draw falls back to Bradley-Terry.
    PairwiseResults nodraw({"a", "b"});
    nodraw.add(0, 1, WDL{6, 0, 4});
    o = {};
    o.model = RatingModel::Davidson;
    CHECK(fit_ratings(nodraw, o).model == RatingModel::BradleyTerry);
}

TEST_CASE("A winless player in a round robin leaves every player rated", "[stats]") {
    PairwiseResults r({"a", "b", "loser"});
    r.add(0, 1, WDL{3, 4, 3});
    r.add(0, 2, WDL{10, 0, 0});
    r.add(1, 2, WDL{10, 0, 0});
    const ResultsTable t = make_results_table(r);
    REQUIRE(t.ratings);
    for (const PlayerRow& row : t.rows) CHECK(std::isfinite(row.elo));
    CHECK(t.rows[2].name == "loser");
    CHECK(t.rows[2].elo < t.rows[1].elo - 100);
    CHECK_THAT(render_text(t), Catch::Contains("(by default: a, b scored every point"));
    CHECK(render_json(t)["prior_draws"] == kDefaultPriorDraws);
}

TEST_CASE("An anchor gets its given rating and the others keep their differences", "[stats]") {
    PairwiseResults r({"a", "b", "c"});
    r.add(0, 1, WDL{6, 3, 3});
    r.add(0, 2, WDL{7, 2, 3});
    r.add(1, 2, WDL{4, 4, 4});
    const Ratings mean = fit_ratings(r);
    const RatingOptions o = rating_options({"a", "b", "c"}, std::nullopt, "b=1500");
    REQUIRE(o.anchor == 1u);
    CHECK(o.anchor_elo == 1500);
    const ResultsTable t = make_results_table(r, o);
    REQUIRE(t.ratings);
    CHECK(t.ratings->elo[1] == 1500);
    CHECK(t.ratings->elo[0] - 1500 == Approx(mean.elo[0] - mean.elo[1]));
    CHECK(t.ratings->elo[2] - 1500 == Approx(mean.elo[2] - mean.elo[1]));
    CHECK_THAT(render_text(t), Catch::Contains("b fixed at 1500"));
    CHECK(render_json(t)["anchor_elo"] == 1500);
    CHECK(rating_options({"a", "b"}, std::nullopt, "a").anchor_elo == 0);
    CHECK_THROWS_WITH(rating_options({"a", "b"}, std::nullopt, "z=10"),
                      "--anchor z=10: no player called z (a, b)");
    CHECK_THROWS_WITH(rating_options({"a", "b"}, std::nullopt, "a=high"),
                      "--anchor a=high: expected NAME or NAME=ELO with ELO a number");
    CHECK_THROWS_WITH(rating_options({"a", "b"}, -1.0, ""),
                      "--prior-draws -1: expected a number of draws, 0 or more");
}

TEST_CASE("The results table ranks players and renders text and JSON", "[stats]") {
    PairwiseResults r({"base", "new", "old"});
    r.add_pair(1, 0, WDL{1, 1, 0});
    r.add_pair(1, 0, WDL{1, 0, 1});
    r.add_pair(1, 0, WDL{2, 0, 0});
    r.add(1, 2, WDL{8, 4, 3});
    r.add(0, 2, WDL{5, 5, 5});
    const ResultsTable t = make_results_table(r);
    REQUIRE(t.ratings);
    REQUIRE(t.rows.size() == 3);
    CHECK(t.rows[0].name == "new");
    CHECK(t.rows[0].total == WDL{12, 5, 4});
    CHECK(t.pairings.size() == 3);
    CHECK(t.pairings[0].estimate.pentanomial); // base vs new has game pairs
    CHECK_FALSE(t.pairings[1].estimate.pentanomial);
    const std::string text = render_text(t);
    CHECK(text.find("new") < text.find("base"));
    CHECK(text.find("bradley-terry") != std::string::npos);
    CHECK(text.find("base vs new: 6 games, W 1 D 1 L 4") != std::string::npos);
    CHECK(text.find("pentanomial [1,1,1,0,0]") != std::string::npos);
    const nlohmann::json j = render_json(t);
    CHECK(j["players"][0]["name"] == "new");
    CHECK(j["players"][0]["games"] == 21);
    CHECK(j["pairings"][0]["pentanomial"] == nlohmann::json::array({1, 1, 1, 0, 0}));
    CHECK(j["pairings"][0]["stats"]["source"] == "pentanomial");
    CHECK(j["pairings"][0]["rating_difference_error95"].get<double>() > 0);

    // The ratings column and the pairing's match Elo are named apart.
    CHECK(text.find("Rating") != std::string::npos);
    CHECK(text.find("Elo (pair)") != std::string::npos);

    PairwiseResults sweep({"a", "b"});
    sweep.add(0, 1, WDL{4, 0, 0});
    CHECK(make_results_table(sweep).ratings); // the default prior
    CHECK(render_text(make_results_table(sweep))
              .find("2 prior draws per pairing (by default: a "
                    "scored every point") != std::string::npos);
    RatingOptions none;
    none.prior_draws = 0;
    const ResultsTable s = make_results_table(sweep, none);
    CHECK_FALSE(s.ratings);
    CHECK(render_text(s).find("No ratings: ratings do not exist") != std::string::npos);
    CHECK(render_json(s)["players"][0]["elo"].is_null());
    CHECK(render_json(s)["players"][0]["name"] == "a");
}

namespace {

// Runs `fanorona <args>`; returns the exit code and fills stdout and stderr.
int run_fanorona(const std::string& args, std::string& out, std::string& err) {
    const std::string o = "stats_test_out.txt", e = "stats_test_err.txt";
    const int rc =
        std::system((std::string(FANORONA_BINARY) + " " + args + " >" + o + " 2>" + e).c_str());
    auto slurp = [](const std::string& path) {
        std::string s;
        if (FILE* f = std::fopen(path.c_str(), "rb")) {
            char buf[4096];
            std::size_t n;
            while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) s.append(buf, n);
            std::fclose(f);
        }
        std::remove(path.c_str());
        return s;
    };
    out = slurp(o);
    err = slurp(e);
    return rc;
}

} // namespace

TEST_CASE("fanorona stats prints text and JSON and rejects bad counts", "[stats][cli]") {
    std::string out, err;
    REQUIRE(run_fanorona("stats --wdl 120,60,100 --sprt elo0=0,elo1=5", out, err) == 0);
    CHECK(out.find("Games       280 (W 120, D 60, L 100)") != std::string::npos);
    CHECK(out.find("Elo         24.86 +- 36.27") != std::string::npos);
    CHECK(out.find("nElo        28.09 +- 40.70") != std::string::npos);
    CHECK(out.find("LOS         91.19%") != std::string::npos);
    CHECK(out.find("LLR         0.30 (bounds -2.94, 2.94): continue") != std::string::npos);

    REQUIRE(run_fanorona("stats --penta 2,10,40,12,3 --sprt elo0=0,elo1=5,model=logistic --json",
                         out, err) == 0);
    const nlohmann::json j = nlohmann::json::parse(out);
    CHECK(j["games"] == 134);
    CHECK(j["elo"].get<double>() == Approx(10.3742936378));
    CHECK(j["sprt"]["llr"].get<double>() == Approx(0.139852994539));
    CHECK(j["sprt"]["verdict"] == "continue");
    CHECK(j["pentanomial"] == nlohmann::json::array({2, 10, 40, 12, 3}));

    CHECK(run_fanorona("stats --wdl 1,two,3", out, err) != 0);
    CHECK(err == "fanorona: --wdl: field 2 of '1,two,3' (expected W,D,L): 'two' is not a "
                 "non-negative integer\n");
    CHECK(run_fanorona("stats --penta 1,2,3", out, err) != 0);
    CHECK(err.find("expected 5") != std::string::npos);
    CHECK(run_fanorona("stats --wdl 0,0,0", out, err) != 0);
    CHECK(err.find("no games") != std::string::npos);
    CHECK(run_fanorona("stats --wdl 1,2,3 --sprt elo0=5,elo1=0", out, err) != 0);
    CHECK(err.find("smaller") != std::string::npos);
    CHECK(out.empty());
}

TEST_CASE("Counts above kMaxCount are refused and the largest accepted do not wrap", "[stats]") {
    using namespace fanorona::stats;
    const std::string max = std::to_string(kMaxCount);
    const std::string above = std::to_string(kMaxCount + 1);
    CHECK_THROWS_WITH(parse_wdl("1," + above + ",3"),
                      Catch::Contains("field 2") && Catch::Contains("too large"));
    CHECK_THROWS_WITH(parse_pentanomial("1,2,3,4," + above), Catch::Contains("field 5"));
    CHECK_THROWS_WITH(parse_wdl("1,2,99999999999999999999999"), Catch::Contains("too large"));
    const WDL wdl = parse_wdl(max + "," + max + "," + max);
    CHECK(wdl.games() == 3 * kMaxCount);
    const Pentanomial p = parse_pentanomial(max + "," + max + "," + max + "," + max + "," + max);
    CHECK(p.games() == 10 * kMaxCount);
    CHECK(p.points() == 5.0 * double(kMaxCount)); // exact: below 2^53
}
