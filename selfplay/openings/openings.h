#pragma once
// Openings for self-play and tournaments: random turns from the start, or a suite read from a
// file (one position string or move list per line, see docs/formats.md).

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/board/game.h"

namespace fanorona {

// A start position plus the turns played from it before the players take over.
struct Opening {
    Position start;
    std::vector<Move> moves;
};

// Where openings come from, as the user wrote it: "random:PLIES", a file path, or none; and for a
// file, whether its openings are used in file order or shuffled by the run's seed (so that runs
// with other seeds play other openings of a suite larger than they need).
struct OpeningSpec {
    enum class Kind { Start, Random, File } kind = Kind::Start;
    int plies = 0;
    std::string path;
    bool shuffled = false; // File only: in an order drawn from the seed

    static OpeningSpec parse(const std::string& text); // throws std::invalid_argument
    std::string describe() const;
};

// Thrown for a malformed opening file; what() is "FILE:LINE: problem".
struct OpeningError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// `pairs` openings of `plies` uniformly random turns from the start position, deterministic in
// `seed`. No two share a final position unless the attempts to find a new one run out.
std::vector<Opening> random_openings(const Rules& rules, int plies, std::uint64_t pairs,
                                     std::uint64_t seed);

// Parses an opening suite's text; `source` names it in errors.
std::vector<Opening> parse_opening_suite(const std::string& text, const Rules& rules,
                                         const std::string& source);
std::vector<Opening> read_opening_file(const std::string& path, const Rules& rules);

// The openings of a run's game pairs (pair p plays at(p)), from a list (pair p: list[p % size])
// or drawn lazily: random openings are made in pair order as the pairs ask for them, the same
// openings random_openings() makes all at once, so that a run with a cap of 100,000 pairs
// starts at once. Copies share the openings drawn; at() is thread-safe.
class RunOpenings {
public:
    RunOpenings() = default;
    RunOpenings(std::vector<Opening> list); // NOLINT: a list converts (none: empty)
    // Random openings of `plies` turns from `seed`, drawn on demand.
    static RunOpenings random(const Rules& rules, int plies, std::uint64_t seed);
    Opening at(std::uint64_t pair) const;
    bool empty() const { return !state_; }
    // Lazy random openings: their plies (else -1) and seed, and the list otherwise.
    int random_plies() const;
    std::uint64_t random_seed() const;
    const std::vector<Opening>& list() const; // a list's openings (empty when lazy)

    struct State; // the list or the draw so far

private:
    std::shared_ptr<State> state_;
};

// The openings a run uses, one per game pair (pair p uses openings[p % size]); a shuffled suite
// is put in the order `seed` draws (the same on every platform).
std::vector<Opening> load_openings(const OpeningSpec& spec, const Rules& rules, std::uint64_t pairs,
                                   std::uint64_t seed);
// The same as a RunOpenings: random openings drawn lazily (whatever the number of pairs), a suite
// or the start position as a list.
RunOpenings run_openings(const OpeningSpec& spec, const Rules& rules, std::uint64_t seed);

} // namespace fanorona
