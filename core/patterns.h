#pragma once
// Pattern features in the style of Logistello and Edax, on the 5x9 board (tsivy) only: a window
// of 3x3 points is centred on each of the 21 interior points, and every configuration of its nine
// points (empty / own / opponent, relative to the side to move) owns a weight. The board's
// symmetries (mirror left-right, mirror top-bottom) map windows onto each other; a window is read
// in the orientation of its class's representative, so symmetric windows share their weights,
// and a window that a symmetry maps onto itself reads its configuration in the canonical
// (smallest) of its symmetric forms.
//
// Classes (the representative centre, then the windows it stands for):
//   b2: b2 h2 b4 h4   c2: c2 g2 c4 g4   d2: d2 f2 d4 f4   e2: e2 e4
//   b3: b3 h3         c3: c3 g3         d3: d3 f3         e3: e3
//
// A configuration is a number in [0, 3^9): digit 3 * dy + dx (base 3) is the point at column dx
// and row dy of the window in the representative's orientation (dx, dy = 0 the lower left, as
// a1 is), 0 empty, 1 own piece, 2 opponent piece. The pattern weight of class c and configuration
// k is number c * kPatternConfigs + k. Like every term, a pattern is tapered: weight p owns an
// _mg and an _eg value (see PatternWeights). No mutable state: every table is constexpr.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/board/types.h"

namespace fanorona {

inline constexpr int kPatternWindows = 21;    // windows on the board, one per interior point
inline constexpr int kPatternClasses = 8;     // their symmetry classes
inline constexpr int kPatternPoints = 9;      // points per window
inline constexpr int kPatternConfigs = 19683; // 3^9 configurations per class
inline constexpr int kPatternCount = kPatternClasses * kPatternConfigs; // pattern weights

// One window: its centre, class, and the symmetry that maps it onto its class's representative.
struct PatternWindow {
    Square centre;
    std::uint8_t cls;
    bool mirror_files; // read right to left
    bool mirror_ranks; // read top to bottom
};

// The windows, in the order of PatternIndices (by rank, then file, of their centres).
const std::array<PatternWindow, kPatternWindows>& pattern_windows();

// Each window's pattern weight number (class * kPatternConfigs + canonical configuration).
using PatternIndices = std::array<std::uint32_t, kPatternWindows>;

// The pattern weight numbers of a 5x9 position given as {player, opponent} bitboards (the
// pieces of the side to move, and the other side's). Allocates nothing.
void pattern_indices(Bitboard player, Bitboard opponent, PatternIndices& out);

// The name of class c: its representative's centre ("b2" .. "e3").
std::string_view pattern_class_name(int c);
// The class named `name`, if any.
std::optional<int> parse_pattern_class(std::string_view name);

// A configuration as 9 characters, three rows top row first, each left to right ('.' empty,
// 'x' own, 'o' opponent), separated by '/': "x.o/.x./..." (11 characters).
std::string pattern_config_string(int config);
// The inverse of pattern_config_string; empty for a malformed text.
std::optional<int> parse_pattern_config(std::string_view text);

// Whether configuration `config` of class `c` is the form pattern_indices() gives (the
// smallest of its symmetric forms, for the classes a symmetry maps onto themselves). Weights
// of other configurations are never read.
bool pattern_config_canonical(int c, int config);
// The canonical form of configuration `config` of class `c`: the form pattern_indices() gives
// for it (the configuration itself for a class that no symmetry maps onto itself).
int pattern_canonical_config(int c, int config);

} // namespace fanorona
