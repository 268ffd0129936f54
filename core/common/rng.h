#pragma once
// A small, portable, seedable random generator (SplitMix64): the same numbers on every platform,
// so that games depend only on (settings, seed).

#include <cstddef>
#include <cstdint>
#include <utility>

namespace fanorona {

// Holds one 64-bit state; every call advances it. Streams for different purposes are made by
// mixing the seed with a purpose tag and an index (see derive()).
class Rng {
    __extension__ using Wide = unsigned __int128;

public:
    explicit Rng(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    // Uniform in [0, n), n > 0 (Lemire's multiply-shift with rejection: unbiased).
    std::uint64_t below(std::uint64_t n) {
        while (true) {
            const Wide m = Wide(next()) * n;
            const std::uint64_t low = std::uint64_t(m);
            if (low >= n || low >= (-n) % n) return std::uint64_t(m >> 64);
        }
    }
    // Uniform in [0, 1).
    double uniform() { return double(next() >> 11) * 0x1.0p-53; }
    // Puts the elements of `v` in a uniformly random order (Fisher-Yates, from the back).
    template <class Vector> void shuffle(Vector& v) {
        for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[below(i)]);
    }

    // An independent stream for (seed, purpose, index).
    static Rng derive(std::uint64_t seed, std::uint64_t purpose, std::uint64_t index) {
        Rng mix(seed ^ (purpose * 0xD6E8FEB86659FD93ULL));
        mix.state_ ^= index * 0xA0761D6478BD642FULL;
        return Rng(mix.next());
    }

private:
    std::uint64_t state_;
};

} // namespace fanorona
