#include "core/features.h"

#include "core/movegen.h"

namespace fanorona {

namespace {

constexpr std::string_view kTermNames[kTermCount] = {
    "material",     "tempo",        "strong",       "centre",       "mobility",     "capture_now",
    "exposed",      "threat",       "loose",        "pst_tsivy_a1", "pst_tsivy_b1", "pst_tsivy_c1",
    "pst_tsivy_d1", "pst_tsivy_e1", "pst_tsivy_a2", "pst_tsivy_b2", "pst_tsivy_c2", "pst_tsivy_d2",
    "pst_tsivy_e2", "pst_tsivy_a3", "pst_tsivy_b3", "pst_tsivy_c3", "pst_tsivy_d3", "pst_tsivy_e3",
    "pst_dimy_a1",  "pst_dimy_b1",  "pst_dimy_c1",  "pst_dimy_b2",  "pst_dimy_c2",  "pst_dimy_c3",
};

// The feature names "<term>_mg" and "<term>_eg", built at compile time.
struct NameTable {
    char text[kFeatureCount][32] = {};
    int length[kFeatureCount] = {};
};

constexpr NameTable make_names() {
    NameTable t;
    for (int f = 0; f < kFeatureCount; ++f) {
        const std::string_view term = kTermNames[f / 2];
        int n = 0;
        for (char c : term) t.text[f][n++] = c;
        for (char c : std::string_view(f % 2 ? "_eg" : "_mg")) t.text[f][n++] = c;
        t.length[f] = n;
    }
    return t;
}

constexpr NameTable kNames = make_names();

// The symmetry-class masks of the point tables, and the centre block, per variant.
struct PointMasks {
    Bitboard tsivy[15] = {};
    Bitboard dimy[6] = {};
    Bitboard centre[2] = {};
};

constexpr int min_int(int a, int b) {
    return a < b ? a : b;
}
constexpr int max_int(int a, int b) {
    return a > b ? a : b;
}

constexpr PointMasks make_point_masks() {
    PointMasks m;
    for (int y = 0; y < 5; ++y)
        for (int x = 0; x < 9; ++x) {
            const int fx = min_int(x, 8 - x), fy = min_int(y, 4 - y);
            m.tsivy[fy * 5 + fx] |= bit(make_square(x, y));
            if (x >= 3 && x <= 5 && y >= 1 && y <= 3) m.centre[0] |= bit(make_square(x, y));
        }
    // dimy classes in the order a1, b1, c1, b2, c2, c3 (representative x >= y).
    constexpr int kDimyClass[3][3] = {{0, -1, -1}, {1, 3, -1}, {2, 4, 5}}; // [x][y]
    for (int y = 0; y < 5; ++y)
        for (int x = 0; x < 5; ++x) {
            const int fx = min_int(x, 4 - x), fy = min_int(y, 4 - y);
            m.dimy[kDimyClass[max_int(fx, fy)][min_int(fx, fy)]] |= bit(make_square(x, y));
            if (x >= 1 && x <= 3 && y >= 1 && y <= 3) m.centre[1] |= bit(make_square(x, y));
        }
    return m;
}

constexpr PointMasks kMasks = make_point_masks();

// Paika steps available to the pieces `own`: (piece, direction) pairs with an empty neighbour.
inline int step_count(const Geometry& g, Bitboard own, Bitboard empty) {
    int n = 0;
    for (int d = 0; d < kDirections; ++d)
        n += popcount(own & g.shift(empty, opposite(Direction(d))));
    return n;
}

// Pieces of `own` with no piece of `own` next to them on a line.
inline Bitboard loose_pieces(const Geometry& g, Bitboard own) {
    Bitboard touched = 0;
    for (int d = 0; d < kDirections; ++d) touched |= g.shift(own, Direction(d));
    return own & ~touched;
}

// What `attacker` could capture from `victims` with one capturing step, were it to move.
struct OneStepThreat {
    Bitboard pieces = 0; // every capturable victim
    int longest = 0;     // the longest capturable line
};

inline void extend_line(const Geometry& g, Bitboard starts, Direction d, Bitboard victims,
                        bool single, OneStepThreat& t) {
    if (!starts) return;
    t.pieces |= starts;
    int length = 1;
    if (!single)
        for (Bitboard cur = g.shift(starts, d) & victims; cur; cur = g.shift(cur, d) & victims) {
            t.pieces |= cur;
            ++length;
        }
    if (length > t.longest) t.longest = length;
}

OneStepThreat one_step_threat(const Geometry& g, Bitboard attacker, Bitboard victims,
                              Bitboard empty, bool single) {
    OneStepThreat t;
    for (int dir = 0; dir < kDirections; ++dir) {
        const Direction d = Direction(dir), back = opposite(d);
        // Approach: step X -> X+d onto an empty point, capture from X+2d onwards.
        extend_line(g, g.shift(g.shift(attacker, d) & empty, d) & victims, d, victims, single, t);
        // Withdrawal: step X -> X+d, capture from X-d backwards.
        const Bitboard movers = attacker & g.shift(empty, back);
        extend_line(g, g.shift(movers, back) & victims, back, victims, single, t);
    }
    return t;
}

int largest_capture(const Position& pos, const Rules& rules) {
    if (!capturing_pieces(pos)) return 0;
    if (!turn_rights(pos, rules).may_capture) return 0;
    MoveList list;
    generate_moves(pos, rules, list);
    int best = 0;
    for (const Move& m : list) best = max_int(best, popcount(m.captured));
    return best;
}

} // namespace

std::string_view feature_name(int index) {
    if (index < 0 || index >= kFeatureCount) return {};
    return std::string_view(kNames.text[index], std::size_t(kNames.length[index]));
}

int feature_index(std::string_view name) {
    for (int f = 0; f < kFeatureCount; ++f)
        if (feature_name(f) == name) return f;
    return -1;
}

std::string_view term_name(int term) {
    if (term < 0 || term >= kTermCount) return {};
    return kTermNames[term];
}

int game_phase(const Position& pos) {
    const int start = pos.variant() == Variant::Tsivy ? 44 : 24;
    const int total = popcount(pos.player() | pos.opponent());
    return min_int(kPhaseScale, total * kPhaseScale / start);
}

void extract_terms(const Position& pos, const Rules& rules, std::array<int, kTermCount>& raw,
                   int largest) {
    raw.fill(0);
    const Geometry& g = pos.geo();
    const Bitboard own = pos.player(), opp = pos.opponent(), empty = pos.empty();
    const int v = int(pos.variant());
    auto diff = [&](Bitboard mask) { return popcount(own & mask) - popcount(opp & mask); };

    raw[TermMaterial] = popcount(own) - popcount(opp);
    raw[TermTempo] = 1;
    raw[TermStrong] = diff(g.strong);
    raw[TermCentre] = diff(kMasks.centre[v]);
    raw[TermMobility] = step_count(g, own, empty) - step_count(g, opp, empty);
    raw[TermCaptureNow] = largest >= 0 ? largest : largest_capture(pos, rules);
    raw[TermLoose] = popcount(loose_pieces(g, own)) - popcount(loose_pieces(g, opp));

    // The opponent's threats as if it were to move: respect Vela's restrictions on it.
    bool may_capture = true, single = false;
    if (rules.ruleset == RuleSet::Vela &&
        popcount(pos.pieces(Color::Black)) > Rules::kVelaVictimFloor) {
        if (pos.side_to_move() == Color::White)
            may_capture = false; // the opponent is the victim
        else
            single = true;
    }
    if (may_capture) {
        const OneStepThreat t = one_step_threat(g, opp, own, empty, single);
        raw[TermExposed] = popcount(t.pieces);
        raw[TermThreat] = t.longest;
    }

    if (pos.variant() == Variant::Tsivy) {
        for (int c = 0; c < 15; ++c) raw[TermPstTsivy0 + c] = diff(kMasks.tsivy[c]);
    } else {
        for (int c = 0; c < 6; ++c) raw[TermPstDimy0 + c] = diff(kMasks.dimy[c]);
    }
}

void extract_features(const Position& pos, const Rules& rules, Features& out) {
    std::array<int, kTermCount> raw;
    extract_terms(pos, rules, raw);
    const int phase = game_phase(pos);
    out.count = 0;
    for (int t = 0; t < kTermCount; ++t) {
        if (!raw[t]) continue;
        const int mg = raw[t] * phase, eg = raw[t] * (kPhaseScale - phase);
        if (mg) out.entries[out.count++] = {std::uint16_t(2 * t), mg};
        if (eg) out.entries[out.count++] = {std::uint16_t(2 * t + 1), eg};
    }
}

} // namespace fanorona
