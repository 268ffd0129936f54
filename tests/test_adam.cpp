// Adam's update (tuner/adam_rule.h), shared by the term fit and the pattern fit.

#include <catch2/catch.hpp>

#include "tuner/adam_rule.h"

using namespace fanorona;

TEST_CASE("Adam's first step is the step size, against the gradient", "[adam][tuner]") {
    for (const double g : {2.0, -1e-5, 300.0}) {
        double w = 1, mean = 0, square = 0;
        AdamStep(AdamRule{.epsilon = 1e-18}, 1, 0.01).update(w, mean, square, g);
        CHECK(w == Approx(g > 0 ? 0.99 : 1.01).epsilon(1e-9));
        CHECK(mean == Approx(0.1 * g));
        CHECK(square == Approx(0.001 * g * g));
    }
    // The epsilon is the caller's: a large one shrinks a step of a small gradient.
    double w = 1, mean = 0, square = 0;
    AdamStep(AdamRule{.epsilon = 1e-5}, 1, 0.01).update(w, mean, square, 1e-5);
    CHECK(w == Approx(1 - 0.005).epsilon(1e-9));
}

TEST_CASE("Adam finds the minimum of a quadratic", "[adam][tuner]") {
    double w = 0, mean = 0, square = 0;
    for (std::uint64_t t = 1; t <= 3000; ++t)
        AdamStep(AdamRule{}, t, 0.05).update(w, mean, square, 2 * (w - 3)); // (w - 3)^2
    CHECK(w == Approx(3).margin(1e-3));
}
