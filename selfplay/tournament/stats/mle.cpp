#include "selfplay/tournament/stats/mle.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace fanorona::stats {

double Distribution::mean() const {
    double m = 0;
    for (std::size_t i = 0; i < values.size(); ++i) m += probs[i] * values[i];
    return m;
}

double Distribution::variance() const {
    const double m = mean();
    double v = 0;
    for (std::size_t i = 0; i < values.size(); ++i)
        v += probs[i] * (values[i] - m) * (values[i] - m);
    return v;
}

double solve_secular(const std::vector<double>& a, const std::vector<double>& p) {
    const double lo_a = *std::min_element(a.begin(), a.end());
    const double hi_a = *std::max_element(a.begin(), a.end());
    if (!(lo_a < 0 && hi_a > 0))
        throw std::domain_error("the hypothesis lies outside the range of possible outcomes");
    // f(x) = sum p a / (1 + x a) is +inf at lo and -inf at hi and strictly decreasing between.
    double lo = -1.0 / hi_a, hi = -1.0 / lo_a;
    auto f = [&](double x, double& slope) {
        double value = 0;
        slope = 0;
        for (std::size_t i = 0; i < a.size(); ++i) {
            const double q = a[i] / (1.0 + x * a[i]);
            value += p[i] * q;
            slope -= p[i] * q * q;
        }
        return value;
    };
    double x = 0; // lo < 0 < hi
    for (int iter = 0; iter < 200; ++iter) {
        double slope = 0;
        const double value = f(x, slope);
        if (value == 0) return x;
        if (value > 0)
            lo = x;
        else
            hi = x;
        double next = x - value / slope;
        if (!(next > lo && next < hi)) next = 0.5 * (lo + hi); // Newton left the bracket
        if (std::abs(next - x) <= 1e-15 * (1.0 + std::abs(x))) return next;
        x = next;
    }
    return x;
}

Distribution mle_with_mean(const Distribution& observed, double mean) {
    const std::size_t n = observed.values.size();
    std::vector<double> g(n);
    for (std::size_t i = 0; i < n; ++i) g[i] = observed.values[i] - mean;
    const double x = solve_secular(g, observed.probs);
    Distribution mle{observed.values, std::vector<double>(n)};
    for (std::size_t i = 0; i < n; ++i) mle.probs[i] = observed.probs[i] / (1.0 + x * g[i]);
    return mle;
}

Distribution mle_with_t_value(const Distribution& observed, double ref, double t) {
    const std::size_t n = observed.values.size();
    Distribution mle{observed.values, std::vector<double>(n, 1.0 / double(n))};
    std::vector<double> g(n);
    for (int iter = 0; iter < 200; ++iter) {
        const double mu = mle.mean();
        const double var = mle.variance();
        const double sigma = std::sqrt(var);
        for (std::size_t i = 0; i < n; ++i) {
            const double dev = observed.values[i] - mu;
            g[i] = observed.values[i] - ref - t * (var + dev * dev) / (2.0 * sigma);
        }
        const double x = solve_secular(g, observed.probs);
        double change = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const double p = observed.probs[i] / (1.0 + x * g[i]);
            change = std::max(change, std::abs(p - mle.probs[i]));
            mle.probs[i] = p;
        }
        if (change < 1e-14) break;
    }
    return mle;
}

} // namespace fanorona::stats
