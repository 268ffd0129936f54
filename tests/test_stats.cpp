// Statistics: counts, Elo/nElo/LOS, the GSPRT (against reference values and by simulation),
// Bradley-Terry / Davidson ratings, the results table and `fanorona stats`.

#include <array>
#include <cmath>
#include <cstdio>
#include <string>

#include <catch2/catch.hpp>

#include "rng.h"
#include "stats/bradley_terry.h"
#include "stats/counts.h"
#include "stats/elo.h"
#include "stats/mle.h"
#include "stats/normal.h"
#include "stats/results_table.h"
#include "stats/sprt.h"
#include "stats/stats_json.h"

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
            if (pairs % 2) continue; // test every 2 pairs, as fishtest tests every batch
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
