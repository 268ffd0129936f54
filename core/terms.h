#pragma once
// The registry of evaluation terms: every term is declared here once, with its name, taper,
// group, board and meaning. The feature names, `fanorona eval`'s listing, the tuner's
// collinearity warning and the table of terms in docs/formats.md are all derived from it.
//
// Adding a term: one entry in kTerms, and the code computing it in extract_terms()
// (core/features.cpp), which finds its slot with term_id("name") at compile time. The weights
// file then needs `<name>_mg` and `<name>_eg` lines (data/weights/handset.txt), and the docs
// table is regenerated from terms_markdown_table() (a test compares the two).

#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>

#include "core/board/bitboard.h"
#include "core/board/types.h"

namespace fanorona {

// How a term relates to the others (for tuners and the docs).
enum class TermGroup : std::uint8_t {
    Positional, // a term of its own
    Material,   // the piece count: each board's point-table classes sum to it (collinear)
    PointTable, // one symmetry class of a board's point table; named by its point in a1..e3
};

// The board a term is computed on; on the other board it is always 0.
enum class TermBoard : std::uint8_t { Both, Tsivy, Dimy };

// One evaluation term. Invariants (checked at compile time below): names are unique; every term
// is tapered; each board's point-table classes are consecutive entries.
struct TermInfo {
    std::string_view name;        // its weights are <name>_mg and <name>_eg
    bool tapered;                 // split by the phase into an _mg and an _eg weight
    TermGroup group;              //
    TermBoard board;              //
    std::string_view description; // one line: the raw value (side to move unless it says)
};

// The terms, in weight order: term t owns features 2t (_mg) and 2t + 1 (_eg).
inline constexpr TermInfo kTerms[] = {
    // clang-format off
    {"material",     true, TermGroup::Material,   TermBoard::Both,  "own pieces - opponent pieces"},
    {"tempo",        true, TermGroup::Positional, TermBoard::Both,  "1: the side to move"},
    {"strong",       true, TermGroup::Positional, TermBoard::Both,  "own pieces on strong points (where diagonals meet) - opponent's"},
    {"centre",       true, TermGroup::Positional, TermBoard::Both,  "own pieces in the central 3x3 block - opponent's"},
    {"mobility",     true, TermGroup::Positional, TermBoard::Both,  "own paika steps (a piece next to an empty point on a line) - opponent's"},
    {"capture_now",  true, TermGroup::Positional, TermBoard::Both,  "the most pieces one legal move of the side to move captures (0 if none)"},
    {"exposed",      true, TermGroup::Positional, TermBoard::Both,  "own pieces the opponent could capture with one step, were it to move"},
    {"threat",       true, TermGroup::Positional, TermBoard::Both,  "the longest line the opponent could capture with one step, were it to move"},
    {"loose",        true, TermGroup::Positional, TermBoard::Both,  "own pieces with no own neighbour on a line - opponent's"},
    {"pst_tsivy_a1", true, TermGroup::PointTable, TermBoard::Tsivy, "own - opponent pieces on a1's class: a1, i1, a5, i5"},
    {"pst_tsivy_b1", true, TermGroup::PointTable, TermBoard::Tsivy, "own - opponent pieces on b1's class: b1, h1, b5, h5"},
    {"pst_tsivy_c1", true, TermGroup::PointTable, TermBoard::Tsivy, "own - opponent pieces on c1's class: c1, g1, c5, g5"},
    {"pst_tsivy_d1", true, TermGroup::PointTable, TermBoard::Tsivy, "own - opponent pieces on d1's class: d1, f1, d5, f5"},
    {"pst_tsivy_e1", true, TermGroup::PointTable, TermBoard::Tsivy, "own - opponent pieces on e1's class: e1, e5"},
    {"pst_tsivy_a2", true, TermGroup::PointTable, TermBoard::Tsivy, "own - opponent pieces on a2's class: a2, i2, a4, i4"},
    {"pst_tsivy_b2", true, TermGroup::PointTable, TermBoard::Tsivy, "own - opponent pieces on b2's class: b2, h2, b4, h4"},
    {"pst_tsivy_c2", true, TermGroup::PointTable, TermBoard::Tsivy, "own - opponent pieces on c2's class: c2, g2, c4, g4"},
    {"pst_tsivy_d2", true, TermGroup::PointTable, TermBoard::Tsivy, "own - opponent pieces on d2's class: d2, f2, d4, f4"},
    {"pst_tsivy_e2", true, TermGroup::PointTable, TermBoard::Tsivy, "own - opponent pieces on e2's class: e2, e4"},
    {"pst_tsivy_a3", true, TermGroup::PointTable, TermBoard::Tsivy, "own - opponent pieces on a3's class: a3, i3"},
    {"pst_tsivy_b3", true, TermGroup::PointTable, TermBoard::Tsivy, "own - opponent pieces on b3's class: b3, h3"},
    {"pst_tsivy_c3", true, TermGroup::PointTable, TermBoard::Tsivy, "own - opponent pieces on c3's class: c3, g3"},
    {"pst_tsivy_d3", true, TermGroup::PointTable, TermBoard::Tsivy, "own - opponent pieces on d3's class: d3, f3"},
    {"pst_tsivy_e3", true, TermGroup::PointTable, TermBoard::Tsivy, "own - opponent pieces on e3's class: e3"},
    {"pst_dimy_a1",  true, TermGroup::PointTable, TermBoard::Dimy,  "own - opponent pieces on a1's class: a1, e1, a5, e5"},
    {"pst_dimy_b1",  true, TermGroup::PointTable, TermBoard::Dimy,  "own - opponent pieces on b1's class: b1, d1, a2, e2, a4, e4, b5, d5"},
    {"pst_dimy_c1",  true, TermGroup::PointTable, TermBoard::Dimy,  "own - opponent pieces on c1's class: c1, a3, e3, c5"},
    {"pst_dimy_b2",  true, TermGroup::PointTable, TermBoard::Dimy,  "own - opponent pieces on b2's class: b2, d2, b4, d4"},
    {"pst_dimy_c2",  true, TermGroup::PointTable, TermBoard::Dimy,  "own - opponent pieces on c2's class: c2, b3, d3, c4"},
    {"pst_dimy_c3",  true, TermGroup::PointTable, TermBoard::Dimy,  "own - opponent pieces on c3's class: c3"},
    {"mopup_near",   true, TermGroup::Positional, TermBoard::Both,  "lopsided material (one side has 2+ more pieces and twice as many): over the pieces ahead, 4 - steps to the nearest piece behind (at least 0), summed; negated when the side to move is behind"},
    {"mopup_mobility", true, TermGroup::Positional, TermBoard::Both, "lopsided material: minus the paika steps of the side behind; negated when the side to move is behind"},
    {"stall",        true, TermGroup::Positional, TermBoard::Both,  "(own pieces - opponent pieces) x turns since the last capture (at most 100) / 10, rounded toward 0"},
    // clang-format on
};

inline constexpr int kTermCount = int(std::size(kTerms));

// The index of the term named `name`; an unknown name does not compile.
consteval int term_id(std::string_view name) {
    for (int t = 0; t < kTermCount; ++t)
        if (kTerms[t].name == name) return t;
    throw "term_id: no term has this name";
}

// True when term `t` is computed on boards of variant `v`: point tables on their own board only,
// the board-independent terms on every size, no term at all in Fanoron-telo (its evaluation is 0).
constexpr bool term_applies(int t, Variant v) {
    const TermBoard b = kTerms[t].board;
    if (is_telo(v)) return false;
    return b == TermBoard::Both || (b == TermBoard::Tsivy && v == Variant::Tsivy) ||
           (b == TermBoard::Dimy && v == Variant::Dimy);
}

// A run of consecutive terms [first, first + count).
struct TermRange {
    int first = 0;
    int count = 0;
};

// The point-table terms of a board: consecutive (checked below), in the registry's order.
constexpr TermRange point_table_terms(Variant v) {
    TermRange r{-1, 0};
    for (int t = 0; t < kTermCount; ++t)
        if (kTerms[t].group == TermGroup::PointTable && term_applies(t, v)) {
            if (r.first < 0) r.first = t;
            ++r.count;
        }
    return r;
}

// The point (a1..e3) that names a point-table term: the last two letters of its name.
constexpr Square table_point(int t) {
    const std::string_view n = kTerms[t].name;
    return make_square(n[n.size() - 2] - 'a', n[n.size() - 1] - '1');
}

namespace terms_detail {
constexpr bool valid_registry() {
    for (int t = 0; t < kTermCount; ++t) {
        if (!kTerms[t].tapered) return false; // the weight layout (2t, 2t + 1) needs two
        if (kTerms[t].name.empty() || kTerms[t].description.empty()) return false;
        for (int u = 0; u < t; ++u)
            if (kTerms[u].name == kTerms[t].name) return false;
    }
    for (Variant v : {Variant::Tsivy, Variant::Dimy}) {
        const TermRange r = point_table_terms(v);
        for (int t = r.first; t < r.first + r.count; ++t)
            if (kTerms[t].group != TermGroup::PointTable || !term_applies(t, v)) return false;
    }
    return true;
}
} // namespace terms_detail
static_assert(terms_detail::valid_registry(),
              "kTerms: names must be unique and non-empty, every term tapered (two weights), "
              "and each board's point-table classes consecutive");

// "positional", "material", "point table".
std::string_view term_group_name(TermGroup g);
// "both", "tsivy", "dimy".
std::string_view term_board_name(TermBoard b);

// The registry as the Markdown table of docs/formats.md (between its `terms-table` markers):
// a header row, then one row per term.
std::string terms_markdown_table();

} // namespace fanorona
