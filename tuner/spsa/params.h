#pragma once
// The arithmetic of SPSA as fishtest and OpenBench run it: the tuned values with their ranges
// and per-parameter c and r schedules, the gains at an iteration, the perturbation signs, and the
// update. No games here (tuner/spsa/spsa.h plays them).
//
// For N game pairs in all, stability constant A (about N / 10), alpha 0.602 and gamma 0.101, a
// parameter with final perturbation c_end and final learning rate r_end gets
//   c = c_end * N^gamma                     c_k = c / k^gamma
//   a = r_end * c_end^2 * (A + N)^alpha      a_k = a / (A + k)^alpha        (r_k = a_k / c_k^2)
// at pair k = 1..N, so that c_N = c_end and a_N / c_N^2 = r_end. An iteration plays a batch of
// game pairs between theta + c_k * flip and theta - c_k * flip (flip = +-1 per parameter, the
// same for the whole batch, k its first pair) and moves theta by a_k / c_k * (wins - losses of
// theta+) * flip, clipped to [min, max] (fishtest: theta += R c result flip, R = a_k / c_k^2).

#include <cstdint>
#include <string>
#include <vector>

#include "selfplay/engine/engine_spec.h"

namespace fanorona {

// One tuned value: NAME[,start,min,max,c_end,r_end] as given to --spsa-param. Invariants after
// parse: `name` is a search parameter or a weight (canonical spelling); the tunable's range
// contains [min, max]; min < max; min <= start <= max; c_end > 0; r_end > 0.
struct SpsaParam {
    std::string name;
    double start = 0, min = 0, max = 0, c_end = 0, r_end = 0;

    // Parses a --spsa-param spec; omitted or empty fields take their defaults: start the value in
    // `base`, min and max the parameter's range (a weight: start -+ max(50, |start|)), c_end
    // (max - min) / 20 (at least 1), r_end 0.002. Throws std::invalid_argument
    // "--spsa-param TEXT: FIELD: why".
    static SpsaParam parse(const std::string& text, const EngineSpec& base);
    std::string to_string() const; // the spec with every field, as settings.json records it
};

// The exponents and stability constant of a run.
struct SpsaShape {
    double alpha = 0.602;
    double gamma = 0.101;
    double A = 0;            // stability constant, in game pairs
    std::uint64_t pairs = 0; // N: game pairs of the whole run
};

// A parameter's c and a (the constants of its schedules) for a run.
struct SpsaGains {
    double c = 0, a = 0;
};
SpsaGains spsa_gains(const SpsaParam& p, const SpsaShape& s);
// c_k and a_k at pair k (k >= 1).
double spsa_c_at(const SpsaGains& g, const SpsaShape& s, std::uint64_t k);
double spsa_a_at(const SpsaGains& g, const SpsaShape& s, std::uint64_t k);

// The perturbation signs (+1 or -1, one per parameter) of iteration `iteration` (0-based): a
// pure function of (seed, iteration).
std::vector<int> spsa_flips(std::uint64_t seed, std::uint64_t iteration, std::size_t count);

// The integer a value is played with: theta rounded to nearest (halves away from zero) and
// clipped to [min, max].
int spsa_round(double theta, const SpsaParam& p);

// theta moved by one iteration: theta + a_k / c_k * result * flip, clipped to [min, max].
double spsa_step(double theta, const SpsaParam& p, double c_k, double a_k, long long result,
                 int flip);

} // namespace fanorona
