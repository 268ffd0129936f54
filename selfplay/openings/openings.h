#pragma once
// Openings for self-play and tournaments: random turns from the start, or a suite read from a
// file (one position string or move list per line, see docs/formats.md).

#include <cstdint>
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

// The openings a run uses, one per game pair (pair p uses openings[p % size]); a shuffled suite
// is put in the order `seed` draws (the same on every platform).
std::vector<Opening> load_openings(const OpeningSpec& spec, const Rules& rules, std::uint64_t pairs,
                                   std::uint64_t seed);

} // namespace fanorona
