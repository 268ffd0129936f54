#pragma once
// The evaluation's features: the terms of core/terms.h, computed and tapered. The engine's
// evaluate() and the tuner both use extract_terms(), so a weight means the same thing everywhere.
//
// Every term is tapered: it owns two weights, `<term>_mg` (full board) and `<term>_eg` (bare
// board). For a raw term value r (side to move minus opponent, unless the term says otherwise)
// and the game phase p in [0, kPhaseScale], the two features are taper(r, p) (core/taper.h):
// r * p and r * (kPhaseScale - p). See evaluate.h for how the features and weights give the score.

#include <array>
#include <cstdint>
#include <string_view>

#include "core/board/position.h"
#include "core/taper.h"
#include "core/terms.h"

namespace fanorona {

inline constexpr int kFeatureCount = 2 * kTermCount; // number of weights
inline constexpr int kMaxActiveFeatures = 64;        // at most 2 per active term

// The feature of term t's _mg (endgame false) or _eg weight.
constexpr int feature_of(int t, bool endgame) {
    return 2 * t + int(endgame);
}

// The name of a feature (e.g. "material_mg", "pst_tsivy_c2_eg"); "" for a bad index.
std::string_view feature_name(int index);
// The index of a feature name, or -1 if unknown.
int feature_index(std::string_view name);
// The name of a term without the _mg/_eg suffix.
std::string_view term_name(int term);

// One non-zero feature value.
struct FeatureEntry {
    std::uint16_t index;
    std::int32_t value;
};

// The non-zero features of one position, each index at most once, in increasing index order.
struct Features {
    std::array<FeatureEntry, kMaxActiveFeatures> entries;
    int count = 0;
};

// The phase of a position: pieces on the board scaled to [0, kPhaseScale] by the start count.
int game_phase(const Position& pos);

// Fills `out` with the position's features for the side to move. Allocates nothing.
void extract_features(const Position& pos, const Rules& rules, Features& out);

// The raw (untapered) term values; what extract_features tapers. Allocates nothing.
// `largest_capture`, when not -1, is the known value of the capture_now term (the most pieces one
// legal move captures, 0 when the side to move has no capture), which saves generating the moves.
void extract_terms(const Position& pos, const Rules& rules, std::array<int, kTermCount>& raw,
                   int largest_capture = -1);

} // namespace fanorona
