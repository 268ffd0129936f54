// GCC 12 reports false -Wmaybe-uninitialized positives inside Eigen's AVX-512 reductions
// (_mm512_extractf64x4_pd) at -O3 -march=native; they are in the compiler's own headers.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include "selfplay/tournament/stats/bradley_terry.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

#include "selfplay/tournament/stats/normal.h"

namespace fanorona::stats {

namespace {

constexpr double kEloPerNat = 400.0 / std::numbers::ln10;

// One pairing's counts from player i's point of view (draws include prior draws).
struct PairCounts {
    std::size_t i = 0, j = 0;
    double wins = 0, draws = 0, losses = 0;
    double n() const { return wins + draws + losses; }
};

// A pairing's log-likelihood and its derivatives in d = theta_i - theta_j and eta = log(nu),
// plus the expected score of one game.
struct PairTerms {
    double ll = 0, d = 0, dd = 0, de = 0, e = 0, ee = 0, expected = 0.5;
};

PairTerms pair_terms(bool davidson, double delta, double eta, const PairCounts& c) {
    PairTerms t;
    const double n = c.n();
    if (!davidson) {
        const double s = c.wins + 0.5 * c.draws;
        const double p = 1.0 / (1.0 + std::exp(-delta));
        // log p = -log(1 + e^-d), log(1 - p) = -log(1 + e^d), without overflow.
        auto softplus = [](double x) {
            return x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
        };
        const double log_p = -softplus(-delta);
        const double log_q = -softplus(delta);
        t.ll = s * log_p + (n - s) * log_q;
        t.d = s - n * p;
        t.dd = -n * p * (1 - p);
        t.expected = p;
        return t;
    }
    // Davidson with u = d/2: P(win) = e^u / D, P(draw) = nu / D, P(loss) = e^-u / D,
    // D = 2 cosh u + nu. Dividing by e^|u| keeps the exponentials bounded.
    const double u = 0.5 * delta, nu = std::exp(eta);
    const double a = std::abs(u);
    const double big = 1.0, small = std::exp(-2 * a), nu_s = nu * std::exp(-a);
    const double den = big + small + nu_s;                             // D * e^-|u|
    const double ep = u >= 0 ? big : small, em = u >= 0 ? small : big; // e^u, e^-u (scaled)
    const double log_den = std::log(den) + a;
    t.ll = c.wins * u - c.losses * u + c.draws * eta - n * log_den;
    const double sinh2 = (ep - em) / den; // 2 sinh u / D
    const double cosh2 = (ep + em) / den; // 2 cosh u / D
    const double nud = nu_s / den;        // nu / D
    t.d = 0.5 * (c.wins - c.losses - n * sinh2);
    t.dd = -0.25 * n * (cosh2 - sinh2 * sinh2);
    t.e = c.draws - n * nud;
    t.ee = -n * nud * cosh2;
    t.de = 0.5 * n * nud * sinh2;
    t.expected = (ep + 0.5 * nu_s) / den;
    return t;
}

// Throws if the maximum-likelihood ratings cannot exist for these pairings.
void check_existence(const std::vector<std::string>& names, const std::vector<PairCounts>& pairs) {
    const std::size_t n = names.size();
    std::vector<std::vector<char>> played(n, std::vector<char>(n, 0)), scored = played;
    for (const PairCounts& c : pairs) {
        played[c.i][c.j] = played[c.j][c.i] = 1;
        if (c.wins + c.draws > 0) scored[c.i][c.j] = 1;
        if (c.losses + c.draws > 0) scored[c.j][c.i] = 1;
    }
    auto closure = [n](std::vector<std::vector<char>> r) {
        for (std::size_t i = 0; i < n; ++i) r[i][i] = 1;
        for (std::size_t k = 0; k < n; ++k)
            for (std::size_t i = 0; i < n; ++i)
                if (r[i][k])
                    for (std::size_t j = 0; j < n; ++j) r[i][j] |= r[k][j];
        return r;
    };
    auto list = [&](auto&& pred) {
        std::string s;
        for (std::size_t i = 0; i < n; ++i)
            if (pred(i)) s += (s.empty() ? "" : ", ") + names[i];
        return s;
    };
    const auto met = closure(played);
    for (std::size_t i = 0; i < n; ++i)
        if (!met[0][i])
            throw std::invalid_argument(
                "ratings do not exist: " + list([&](std::size_t k) { return met[0][k] != 0; }) +
                " never played (directly or through others) " +
                list([&](std::size_t k) { return met[0][k] == 0; }));
    const auto reach = closure(scored);
    for (std::size_t i = 0; i < n; ++i) {
        bool source = true, everyone = true; // nobody outside i's group scores against it
        for (std::size_t j = 0; j < n; ++j) {
            if (reach[j][i] && !reach[i][j]) source = false;
            if (!reach[i][j] || !reach[j][i]) everyone = false;
        }
        if (everyone) return;
        if (source)
            throw std::invalid_argument(
                "ratings do not exist: " +
                list([&](std::size_t k) { return reach[i][k] && reach[k][i]; }) +
                " scored every point against the other players they met (use --prior-draws N)");
    }
}

// The pairings that played (from the lower index's side, prior draws added to each) and the
// totals of draws (prior draws included) and decisive games that choose the model.
struct Pairings {
    std::vector<PairCounts> pairs;
    double draws = 0, decisive = 0;
};

Pairings collect_pairings(const PairwiseResults& results, double prior_draws) {
    Pairings p;
    const std::size_t n = results.size();
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j) {
            const WDL w = results.wdl(i, j);
            if (w.games() == 0) continue;
            p.pairs.push_back(
                {i, j, double(w.wins), double(w.draws) + prior_draws, double(w.losses)});
            p.draws += p.pairs.back().draws;
            p.decisive += double(w.wins + w.losses);
        }
    return p;
}

// The log-likelihood of the pairings as a function of the free parameters: theta of every
// player but `fixed` (held at 0), then eta = log(nu) under Davidson. The parameters' values
// (theta, eta) are the fit's current point; grad and hess are the derivatives of the last
// evaluation with derivatives.
struct Likelihood {
    const std::vector<PairCounts>& pairs;
    bool davidson;
    std::size_t n, fixed;
    Eigen::Index eta_index;
    std::vector<double> theta;
    double eta;
    Eigen::VectorXd grad;
    Eigen::MatrixXd hess;

    // Starts at theta 0 and, under Davidson, the eta of the observed draw share.
    Likelihood(const Pairings& p, bool davidson_model, std::size_t players,
               std::size_t fixed_player)
        : pairs(p.pairs), davidson(davidson_model), n(players), fixed(fixed_player),
          eta_index(Eigen::Index(n - 1)), theta(n, 0.0), eta(0.0), grad(free_count()),
          hess(free_count(), free_count()) {
        const double draw_share = p.draws / (p.draws + p.decisive);
        if (davidson) eta = std::log(2 * draw_share / (1 - draw_share));
    }

    Eigen::Index free_count() const { return Eigen::Index(n - 1 + (davidson ? 1 : 0)); }

    Eigen::Index free_index(std::size_t i) const { return Eigen::Index(i < fixed ? i : i - 1); }

    // The log-likelihood at (th, et); with `derivatives`, also its gradient and Hessian.
    double evaluate(const std::vector<double>& th, double et, bool derivatives) {
        double ll = 0;
        if (derivatives) {
            grad.setZero();
            hess.setZero();
        }
        for (const PairCounts& c : pairs) {
            const PairTerms t = pair_terms(davidson, th[c.i] - th[c.j], et, c);
            ll += t.ll;
            if (derivatives) add_derivatives(c, t);
        }
        return ll;
    }

    // Adds one pairing's terms to grad and hess.
    void add_derivatives(const PairCounts& c, const PairTerms& t) {
        const bool fi = c.i != fixed, fj = c.j != fixed;
        const Eigen::Index a = fi ? free_index(c.i) : 0, b = fj ? free_index(c.j) : 0;
        if (fi) {
            grad(a) += t.d;
            hess(a, a) += t.dd;
        }
        if (fj) {
            grad(b) -= t.d;
            hess(b, b) += t.dd;
        }
        if (fi && fj) {
            hess(a, b) -= t.dd;
            hess(b, a) -= t.dd;
        }
        if (!davidson) return;
        grad(eta_index) += t.e;
        hess(eta_index, eta_index) += t.ee;
        if (fi) {
            hess(a, eta_index) += t.de;
            hess(eta_index, a) += t.de;
        }
        if (fj) {
            hess(b, eta_index) -= t.de;
            hess(eta_index, b) -= t.de;
        }
    }
};

// Maximises the likelihood from its current point by Newton's method with step halving, into
// out.iterations and out.log_likelihood. The point ends at the maximum, and grad and hess hold
// the derivatives there.
void maximise_likelihood(Likelihood& f, Ratings& out) {
    double ll = f.evaluate(f.theta, f.eta, true);
    for (out.iterations = 1; out.iterations <= 200; ++out.iterations) {
        const Eigen::VectorXd step = (-f.hess).ldlt().solve(f.grad);
        double scale = 1.0;
        std::vector<double> th(f.n);
        double et = f.eta, ll_new = ll;
        for (int halvings = 0; halvings < 60; ++halvings, scale *= 0.5) {
            for (std::size_t i = 0; i < f.n; ++i)
                th[i] = i == f.fixed ? 0.0 : f.theta[i] + scale * step(f.free_index(i));
            et = f.davidson ? f.eta + scale * step(f.eta_index) : f.eta;
            ll_new = f.evaluate(th, et, false);
            if (ll_new >= ll - 1e-12 * std::abs(ll)) break;
        }
        f.theta = th;
        f.eta = et;
        ll = f.evaluate(f.theta, f.eta, true);
        if (scale * step.cwiseAbs().maxCoeff() < 1e-11) break;
    }
    out.log_likelihood = ll;
}

// The measured variance of the free thetas' scores, the B of the sandwich A^-1 B A^-1: each
// pairing's sum of (score - expected)^2 over its games (Trinomial), or over its game pairs with
// any unpaired games' trinomial share (Pentanomial).
Eigen::MatrixXd score_variance(const Likelihood& f, const PairwiseResults& results,
                               ErrorModel errors) {
    const Eigen::Index k = Eigen::Index(f.n - 1);
    Eigen::MatrixXd b = Eigen::MatrixXd::Zero(k, k);
    for (const PairCounts& c : f.pairs) {
        const double e = pair_terms(f.davidson, f.theta[c.i] - f.theta[c.j], f.eta, c).expected;
        const WDL w = results.wdl(c.i, c.j);
        const double games = double(w.games());
        const double tri = double(w.wins) * (1 - e) * (1 - e) +
                           double(w.draws) * (0.5 - e) * (0.5 - e) + double(w.losses) * e * e;
        double v = tri;
        const Pentanomial p = results.pentanomial(c.i, c.j);
        if (errors == ErrorModel::Pentanomial && p.pairs() > 0) {
            double pen = 0;
            for (std::size_t s = 0; s < 5; ++s) {
                const double dev = 0.5 * double(s) - 2 * e;
                pen += double(p.counts[s]) * dev * dev;
            }
            const double unpaired = games > double(p.games()) ? games - double(p.games()) : 0;
            v = pen + tri * unpaired / games;
        }
        const bool fi = c.i != f.fixed, fj = c.j != f.fixed;
        const Eigen::Index ai = fi ? f.free_index(c.i) : 0, bj = fj ? f.free_index(c.j) : 0;
        if (fi) b(ai, ai) += v;
        if (fj) b(bj, bj) += v;
        if (fi && fj) {
            b(ai, bj) -= v;
            b(bj, ai) -= v;
        }
    }
    return b;
}

// The covariance of the free thetas at the maximum: the inverse information (Fisher), or the
// sandwich A^-1 B A^-1 with A the theta block of the information (nu held fixed).
Eigen::MatrixXd free_covariance(const Likelihood& f, const PairwiseResults& results,
                                ErrorModel errors) {
    const Eigen::Index k = Eigen::Index(f.n - 1);
    const Eigen::MatrixXd info = -f.hess;
    if (errors == ErrorModel::Fisher) return info.inverse().topLeftCorner(k, k);
    const Eigen::MatrixXd a_inv = info.topLeftCorner(k, k).inverse();
    const Eigen::MatrixXd b = score_variance(f, results, errors);
    return a_inv * b * a_inv;
}

// Puts the ratings and their covariance on the Elo scale into `out`: every player's theta (the
// fixed one 0) and covariance, shifted to mean 0 unless a player is the anchor.
void put_elo_ratings(const Likelihood& f, const Eigen::MatrixXd& cov_free, bool mean_zero,
                     Ratings& out) {
    const std::size_t n = f.n, fixed = f.fixed;
    Eigen::MatrixXd cov = Eigen::MatrixXd::Zero(Eigen::Index(n), Eigen::Index(n));
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j)
            if (i != fixed && j != fixed)
                cov(Eigen::Index(i), Eigen::Index(j)) = cov_free(f.free_index(i), f.free_index(j));
    Eigen::VectorXd r(static_cast<Eigen::Index>(n));
    for (std::size_t i = 0; i < n; ++i) r(Eigen::Index(i)) = f.theta[i];
    if (mean_zero) {
        // Mean zero: r' = P r with P = I - 11^T / n, covariance P C P^T.
        const Eigen::MatrixXd p =
            Eigen::MatrixXd::Identity(Eigen::Index(n), Eigen::Index(n)) -
            Eigen::MatrixXd::Constant(Eigen::Index(n), Eigen::Index(n), 1.0 / double(n));
        r = p * r;
        cov = p * cov * p.transpose();
    }
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j)
            out.covariance[i * n + j] =
                cov(Eigen::Index(i), Eigen::Index(j)) * kEloPerNat * kEloPerNat;
    for (std::size_t i = 0; i < n; ++i) {
        out.elo[i] = r(Eigen::Index(i)) * kEloPerNat;
        out.error95[i] = kZ95 * std::sqrt(std::max(out.cov(i, i), 0.0));
    }
}

} // namespace

std::string_view rating_model_name(RatingModel m) {
    return m == RatingModel::Davidson ? "davidson" : "bradley-terry";
}

std::string_view error_model_name(ErrorModel m) {
    switch (m) {
    case ErrorModel::Fisher:
        return "fisher";
    case ErrorModel::Trinomial:
        return "trinomial";
    default:
        return "pentanomial";
    }
}

double Ratings::difference_error95(std::size_t i, std::size_t j) const {
    const double v = cov(i, i) + cov(j, j) - 2 * cov(i, j);
    return kZ95 * std::sqrt(std::max(v, 0.0));
}

Ratings fit_ratings(const PairwiseResults& results, const RatingOptions& options) {
    const std::size_t n = results.size();
    if (options.anchor && *options.anchor >= n)
        throw std::invalid_argument("ratings: anchor player index out of range");
    if (options.prior_draws && !(*options.prior_draws >= 0))
        throw std::invalid_argument("ratings: prior_draws < 0");
    if (!std::isfinite(options.anchor_elo))
        throw std::invalid_argument("ratings: the anchor's rating is not finite");
    Ratings out;
    out.errors = options.errors;
    out.elo.assign(n, 0.0);
    out.error95.assign(n, 0.0);
    out.covariance.assign(n * n, 0.0);
    if (n < 2) return out;

    Pairings pairings = collect_pairings(results, options.prior_draws.value_or(0));
    try {
        check_existence(results.names(), pairings.pairs);
    } catch (const std::invalid_argument& e) {
        if (options.prior_draws) throw;
        // No prior asked for: the default one, if it makes the ratings exist (players who never
        // met stay unrated whatever the prior).
        pairings = collect_pairings(results, kDefaultPriorDraws);
        check_existence(results.names(), pairings.pairs);
        std::string why = e.what();
        const std::string head = "ratings do not exist: ";
        if (why.rfind(head, 0) == 0) why.erase(0, head.size());
        if (const auto cut = why.find(" (use"); cut != std::string::npos) why.resize(cut);
        out.default_prior_reason = why;
    }
    out.prior_draws =
        options.prior_draws.value_or(out.default_prior_reason.empty() ? 0.0 : kDefaultPriorDraws);
    const bool davidson =
        options.model == RatingModel::Davidson && pairings.draws > 0 && pairings.decisive > 0;
    out.model = davidson ? RatingModel::Davidson : RatingModel::BradleyTerry;

    Likelihood f(pairings, davidson, n, options.anchor.value_or(0));
    maximise_likelihood(f, out);
    out.draw_nu = davidson ? std::exp(f.eta) : 0.0;
    put_elo_ratings(f, free_covariance(f, results, options.errors), !options.anchor, out);
    if (options.anchor)
        for (double& r : out.elo) r += options.anchor_elo;
    return out;
}

} // namespace fanorona::stats
