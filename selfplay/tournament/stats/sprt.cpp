#include "selfplay/tournament/stats/sprt.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <stdexcept>
#include <vector>

#include "selfplay/tournament/stats/mle.h"
#include "selfplay/tournament/stats/normal.h"

namespace fanorona::stats {

namespace {

double parse_number(std::string_view key, std::string_view value) {
    double v = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
    if (value.empty() || ec != std::errc() || end != value.data() + value.size() ||
        !std::isfinite(v))
        throw std::invalid_argument("--sprt: " + std::string(key) + "='" + std::string(value) +
                                    "' is not a number");
    return v;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
    return s;
}

// Observed outcome distribution with values k / (n - 1) (per-game score of the outcome), empty
// cells set to 1e-3; `total` receives the regularised count.
Distribution observed(const std::vector<double>& counts, double& total) {
    std::vector<double> c = counts;
    total = 0;
    for (double& x : c) {
        if (x == 0) x = 1e-3;
        total += x;
    }
    Distribution d;
    for (std::size_t k = 0; k < c.size(); ++k) {
        d.values.push_back(double(k) / double(c.size() - 1));
        d.probs.push_back(c[k] / total);
    }
    return d;
}

double llr(const std::vector<double>& counts, const SprtConfig& config) {
    double raw = 0;
    for (const double c : counts) raw += c;
    if (raw == 0) return 0;
    double total = 0;
    const Distribution obs = observed(counts, total);
    Distribution p0, p1;
    if (config.model == EloModel::Logistic) {
        p0 = mle_with_mean(obs, score_from_elo(config.elo0));
        p1 = mle_with_mean(obs, score_from_elo(config.elo1));
    } else {
        // Pairs (5 outcomes): the t-value of a pair's mean score is sqrt(2) times the per-game one.
        const double scale = counts.size() == 5 ? std::numbers::sqrt2 : 1.0;
        p0 = mle_with_t_value(obs, 0.5, config.elo0 / kNeloPerT * scale);
        p1 = mle_with_t_value(obs, 0.5, config.elo1 / kNeloPerT * scale);
    }
    double sum = 0;
    for (std::size_t k = 0; k < counts.size(); ++k)
        sum += obs.probs[k] * (std::log(p1.probs[k]) - std::log(p0.probs[k]));
    return total * sum;
}

SprtResult make_result(double llr_value, const SprtConfig& config) {
    SprtResult r;
    r.llr = llr_value;
    r.lower_bound = config.lower_bound();
    r.upper_bound = config.upper_bound();
    if (llr_value < r.lower_bound)
        r.verdict = SprtVerdict::AcceptH0;
    else if (llr_value > r.upper_bound)
        r.verdict = SprtVerdict::AcceptH1;
    return r;
}

} // namespace

SprtConfig SprtConfig::parse(std::string_view text) {
    SprtConfig c;
    bool seen[5] = {};
    const char* keys[5] = {"elo0", "elo1", "alpha", "beta", "model"};
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = text.find(',', start);
        const std::string_view item = trim(text.substr(
            start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
        const std::size_t eq = item.find('=');
        if (eq == std::string_view::npos)
            throw std::invalid_argument(
                "--sprt: '" + std::string(item) +
                "' is not key=value (keys: elo0, elo1, alpha, beta, model)");
        const std::string_view key = trim(item.substr(0, eq));
        const std::string_view value = trim(item.substr(eq + 1));
        int index = -1;
        for (int i = 0; i < 5; ++i)
            if (key == keys[i]) index = i;
        if (index < 0)
            throw std::invalid_argument("--sprt: unknown key '" + std::string(key) +
                                        "' (keys: elo0, elo1, alpha, beta, model)");
        if (seen[index])
            throw std::invalid_argument("--sprt: " + std::string(key) + " given twice");
        seen[index] = true;
        switch (index) {
        case 0:
            c.elo0 = parse_number(key, value);
            break;
        case 1:
            c.elo1 = parse_number(key, value);
            break;
        case 2:
            c.alpha = parse_number(key, value);
            break;
        case 3:
            c.beta = parse_number(key, value);
            break;
        default:
            if (value == "normalized")
                c.model = EloModel::Normalized;
            else if (value == "logistic")
                c.model = EloModel::Logistic;
            else
                throw std::invalid_argument("--sprt: model='" + std::string(value) +
                                            "' (expected normalized or logistic)");
        }
        if (comma == std::string_view::npos) break;
        start = comma + 1;
    }
    if (!seen[0] || !seen[1]) throw std::invalid_argument("--sprt: elo0 and elo1 are required");
    c.validate();
    return c;
}

void SprtConfig::validate() const {
    if (!(elo0 < elo1)) throw std::invalid_argument("--sprt: elo0 must be smaller than elo1");
    if (!(alpha > 0 && alpha < 1) || !(beta > 0 && beta < 1) || !(alpha + beta < 1))
        throw std::invalid_argument(
            "--sprt: alpha and beta must lie in (0, 1) with alpha + beta < 1");
    const double limit = model == EloModel::Logistic ? 2000.0 : 1000.0;
    if (std::abs(elo0) > limit || std::abs(elo1) > limit)
        throw std::invalid_argument("--sprt: elo0 and elo1 must lie within +-" +
                                    std::to_string(int(limit)));
}

double SprtConfig::lower_bound() const {
    return std::log(beta / (1 - alpha));
}
double SprtConfig::upper_bound() const {
    return std::log((1 - beta) / alpha);
}

std::string SprtConfig::to_string() const {
    char buf[160];
    std::snprintf(buf, sizeof buf, "elo0=%g,elo1=%g,alpha=%g,beta=%g,model=%s", elo0, elo1, alpha,
                  beta, std::string(model_name(model)).c_str());
    return buf;
}

std::string_view verdict_name(SprtVerdict v) {
    switch (v) {
    case SprtVerdict::AcceptH0:
        return "H0 accepted";
    case SprtVerdict::AcceptH1:
        return "H1 accepted";
    default:
        return "continue";
    }
}

std::string_view model_name(EloModel m) {
    return m == EloModel::Logistic ? "logistic" : "normalized";
}

double sprt_llr(const Pentanomial& penta, const SprtConfig& config) {
    std::vector<double> counts;
    for (const auto c : penta.counts) counts.push_back(double(c));
    return llr(counts, config);
}

double sprt_llr(const WDL& wdl, const SprtConfig& config) {
    return llr({double(wdl.losses), double(wdl.draws), double(wdl.wins)}, config);
}

SprtResult sprt_test(const Pentanomial& penta, const SprtConfig& config) {
    return make_result(sprt_llr(penta, config), config);
}

SprtResult sprt_test(const WDL& wdl, const SprtConfig& config) {
    return make_result(sprt_llr(wdl, config), config);
}

} // namespace fanorona::stats
