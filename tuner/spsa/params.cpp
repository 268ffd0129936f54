#include "tuner/spsa/params.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "core/common/rng.h"

namespace fanorona {

namespace {

std::vector<std::string> split_fields(const std::string& text) {
    std::vector<std::string> out(1);
    for (char c : text) {
        if (c == ',')
            out.emplace_back();
        else
            out.back() += c;
    }
    return out;
}

std::string number_text(double v) {
    std::ostringstream s;
    s.precision(10);
    s << v;
    return s.str();
}

} // namespace

SpsaParam SpsaParam::parse(const std::string& text, const EngineSpec& base) {
    const std::vector<std::string> f = split_fields(text);
    auto fail = [&](const std::string& field, const std::string& why) {
        throw std::invalid_argument("--spsa-param " + text + ": " + field + ": " + why);
    };
    if (f.size() > 6) fail("fields", "expected NAME[,start,min,max,c_end,r_end]");
    const auto t = find_tunable(f[0]);
    if (!t) fail("NAME", "'" + f[0] + "' is not a search parameter or an evaluation weight");
    SpsaParam p;
    p.name = t->name;
    p.start = base.tunable_value(p.name);
    if (t->weight) {
        const double half = std::max(50.0, std::abs(p.start));
        p.min = std::max<double>(t->min, p.start - half);
        p.max = std::min<double>(t->max, p.start + half);
    } else {
        p.min = t->min;
        p.max = t->max;
    }
    const char* names[] = {"NAME", "start", "min", "max", "c_end", "r_end"};
    double* fields[] = {nullptr, &p.start, &p.min, &p.max, &p.c_end, &p.r_end};
    bool given[6] = {};
    for (std::size_t i = 1; i < f.size(); ++i) {
        if (f[i].empty()) continue;
        std::size_t used = 0;
        double v = NAN;
        try {
            v = std::stod(f[i], &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used != f[i].size() || !std::isfinite(v))
            fail(names[i], "'" + f[i] + "' is not a number");
        *fields[i] = v;
        given[i] = true;
    }
    if (!given[4]) p.c_end = std::max(1.0, (p.max - p.min) / 20);
    if (!given[5]) p.r_end = 0.002;
    const std::string range = "[" + std::to_string(t->min) + ", " + std::to_string(t->max) + "]";
    if (p.min < t->min || p.min > t->max) fail("min", "outside " + p.name + "'s range " + range);
    if (p.max < t->min || p.max > t->max) fail("max", "outside " + p.name + "'s range " + range);
    if (!(p.min < p.max)) fail("max", "must be greater than min");
    if (p.start < p.min || p.start > p.max) fail("start", "outside [min, max]");
    if (!(p.c_end > 0)) fail("c_end", "must be positive");
    if (!(p.r_end > 0)) fail("r_end", "must be positive");
    return p;
}

std::string SpsaParam::to_string() const {
    return name + "," + number_text(start) + "," + number_text(min) + "," + number_text(max) + "," +
           number_text(c_end) + "," + number_text(r_end);
}

SpsaGains spsa_gains(const SpsaParam& p, const SpsaShape& s) {
    const double n = double(s.pairs);
    SpsaGains g;
    g.c = p.c_end * std::pow(n, s.gamma);
    g.a = p.r_end * p.c_end * p.c_end * std::pow(s.A + n, s.alpha);
    return g;
}

double spsa_c_at(const SpsaGains& g, const SpsaShape& s, std::uint64_t k) {
    return g.c / std::pow(double(k), s.gamma);
}

double spsa_a_at(const SpsaGains& g, const SpsaShape& s, std::uint64_t k) {
    return g.a / std::pow(s.A + double(k), s.alpha);
}

std::vector<int> spsa_flips(std::uint64_t seed, std::uint64_t iteration, std::size_t count) {
    Rng rng = Rng::derive(seed, 0x53505341 /* "SPSA" */, iteration);
    std::vector<int> flips(count);
    for (int& f : flips) f = (rng.next() >> 63) ? 1 : -1;
    return flips;
}

int spsa_round(double theta, const SpsaParam& p) {
    return int(std::lround(std::clamp(theta, p.min, p.max)));
}

double spsa_step(double theta, const SpsaParam& p, double c_k, double a_k, long long result,
                 int flip) {
    return std::clamp(theta + a_k / c_k * double(result) * flip, p.min, p.max);
}

} // namespace fanorona
