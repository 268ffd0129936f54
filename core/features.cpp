#include "core/features.h"

#include "core/board/movegen.h"

namespace fanorona {

namespace {

// The feature names "<term>_mg" and "<term>_eg", built at compile time.
struct NameTable {
    char text[kFeatureCount][32] = {};
    int length[kFeatureCount] = {};
};

constexpr NameTable make_names() {
    NameTable t;
    for (int f = 0; f < kFeatureCount; ++f) {
        const std::string_view term = kTerms[f / 2].name;
        int n = 0;
        for (char c : term) t.text[f][n++] = c;
        for (char c : std::string_view(f % 2 ? "_eg" : "_mg")) t.text[f][n++] = c;
        t.length[f] = n;
    }
    return t;
}

constexpr NameTable kNames = make_names();

constexpr int min_int(int a, int b) {
    return a < b ? a : b;
}
constexpr int max_int(int a, int b) {
    return a > b ? a : b;
}

// The point of `s`'s symmetry class that names it (a point in a1..e3): folded by the board's
// symmetries (left-right and top-bottom on 5x9, the 8 of the square on 5x5).
constexpr Square class_point(Variant v, Square s) {
    const int w = v == Variant::Tsivy ? 9 : 5;
    const int fx = min_int(file_of(s), w - 1 - file_of(s)),
              fy = min_int(rank_of(s), 4 - rank_of(s));
    return v == Variant::Tsivy ? make_square(fx, fy)
                               : make_square(max_int(fx, fy), min_int(fx, fy));
}

// The points of each point-table term (by term index; 0 for the other terms), and the centre
// block (the 3x3 points around the centre point, clipped to the board) per variant. Invariant
// (checked below): the classes of tsivy and dimy partition their boards.
struct PointMasks {
    Bitboard table[kTermCount] = {};
    Bitboard centre[kVariantCount] = {};
    TermRange tables[kVariantCount] = {}; // point_table_terms of each variant
};

constexpr PointMasks make_point_masks() {
    PointMasks m;
    for (int i = 0; i < kVariantCount; ++i) {
        const Variant v = Variant(i);
        const Geometry& g = geometry(v);
        const TermRange r = point_table_terms(v);
        m.tables[i] = r;
        for (int y = 0; y < g.height; ++y)
            for (int x = 0; x < g.width; ++x) {
                const Square s = g.square(x, y);
                for (int t = r.first; t < r.first + r.count; ++t)
                    if (table_point(t) == class_point(v, s)) m.table[t] |= bit(s);
                if (x >= g.width / 2 - 1 && x <= g.width / 2 + 1 && y >= g.height / 2 - 1 &&
                    y <= g.height / 2 + 1)
                    m.centre[i] |= bit(s);
            }
    }
    return m;
}

constexpr PointMasks kMasks = make_point_masks();

// Every point of a board in exactly one class of its table: the registry's classes are complete.
constexpr bool tables_partition_boards() {
    for (Variant v : {Variant::Tsivy, Variant::Dimy}) {
        const int w = v == Variant::Tsivy ? 9 : 5;
        const TermRange r = point_table_terms(v);
        Bitboard seen = 0, board = 0;
        for (int y = 0; y < 5; ++y)
            for (int x = 0; x < w; ++x) board |= bit(make_square(x, y));
        for (int t = r.first; t < r.first + r.count; ++t) {
            if (!kMasks.table[t] || (seen & kMasks.table[t])) return false;
            seen |= kMasks.table[t];
        }
        if (seen != board) return false;
    }
    return true;
}
static_assert(tables_partition_boards(), "kTerms: a board's point-table classes must cover it");

// Material is lopsided for the side with `a` pieces against `b`: 2+ more and at least twice as
// many (6v2, 5v2, 4v2, 3v1; not 4v3).
constexpr bool is_lopsided(int a, int b) {
    return a >= b + 2 && a >= 2 * b && b > 0;
}
constexpr int kMopUpReach = 3; // mopup_near counts pieces up to this many steps away

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

// `from` and the points one step from it along a line.
inline Bitboard grow(const Geometry& g, Bitboard from) {
    Bitboard out = from;
    for (int d = 0; d < kDirections; ++d) out |= g.shift(from, Direction(d));
    return out;
}

// The mop-up terms of a lopsided ending, for the side ahead (`ahead`) against `behind`: the
// closeness of its pieces to the pieces behind, and minus the steps of the pieces behind.
struct MopUp {
    int near = 0;
    int mobility = 0;
};

inline MopUp mop_up(const Geometry& g, Bitboard ahead, Bitboard behind, Bitboard empty) {
    MopUp m;
    Bitboard reach = behind;
    for (int k = 1; k <= kMopUpReach; ++k) {
        reach = grow(g, reach);
        m.near += popcount(ahead & reach); // a piece k steps away counts kMopUpReach + 1 - k
    }
    m.mobility = -step_count(g, behind, empty);
    return m;
}

int largest_capture(const Position& pos, const Rules& rules) {
    if (!capturing_pieces(pos)) return 0;
    if (!turn_rights(pos, rules).may_capture) return 0;
    MoveList list;
    generate_moves(pos, rules, list);
    return largest_capture(list);
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
    return kTerms[term].name;
}

int game_phase(const Position& pos) {
    const int start = max_int(1, pos.geo().points - 1); // the pieces at the start (44 on tsivy)
    const int total = popcount(pos.player() | pos.opponent());
    return min_int(kPhaseScale, total * kPhaseScale / start);
}

void extract_terms(const Position& pos, const Rules& rules, std::array<int, kTermCount>& raw,
                   int largest) {
    raw.fill(0);
    if (is_telo(pos.variant())) return; // no term applies: the evaluation of telo is 0
    const Geometry& g = pos.geo();
    const Bitboard own = pos.player(), opp = pos.opponent(), empty = pos.empty();
    const int v = int(pos.variant());
    auto diff = [&](Bitboard mask) { return popcount(own & mask) - popcount(opp & mask); };

    raw[term_id("material")] = popcount(own) - popcount(opp);
    raw[term_id("tempo")] = 1;
    raw[term_id("strong")] = diff(g.strong);
    raw[term_id("centre")] = diff(kMasks.centre[v]);
    raw[term_id("mobility")] = step_count(g, own, empty) - step_count(g, opp, empty);
    raw[term_id("capture_now")] = largest >= 0 ? largest : largest_capture(pos, rules);
    raw[term_id("loose")] = popcount(loose_pieces(g, own)) - popcount(loose_pieces(g, opp));

    // Lopsided material: the side ahead hunts the pieces behind; a long wait without capture
    // costs the side ahead (the no-capture limit draws).
    const int n_own = popcount(own), n_opp = popcount(opp);
    if (is_lopsided(n_own, n_opp) || is_lopsided(n_opp, n_own)) {
        const bool ahead = n_own > n_opp;
        const MopUp m = ahead ? mop_up(g, own, opp, empty) : mop_up(g, opp, own, empty);
        raw[term_id("mopup_near")] = ahead ? m.near : -m.near;
        raw[term_id("mopup_mobility")] = ahead ? m.mobility : -m.mobility;
    }
    raw[term_id("stall")] = (n_own - n_opp) * min_int(pos.turns_since_capture(), 100) / 10;

    // The opponent's threats as if it were to move, with its rights (Vela restricts them).
    const TurnRights their = turn_rights(pos, rules, ~pos.side_to_move());
    if (their.may_capture) {
        const OneStepThreat t = one_step_threat(g, opp, own, empty, their.single_capture);
        raw[term_id("exposed")] = popcount(t.pieces);
        raw[term_id("threat")] = t.longest;
    }

    const TermRange table = kMasks.tables[v];
    for (int t = table.first; t < table.first + table.count; ++t) raw[t] = diff(kMasks.table[t]);
}

void extract_features(const Position& pos, const Rules& rules, Features& out) {
    std::array<int, kTermCount> raw;
    extract_terms(pos, rules, raw);
    const int phase = game_phase(pos);
    out.count = 0;
    for (int t = 0; t < kTermCount; ++t) {
        if (!raw[t]) continue;
        const auto [mg, eg] = taper(raw[t], phase);
        if (mg) out.entries[out.count++] = {std::uint16_t(2 * t), mg};
        if (eg) out.entries[out.count++] = {std::uint16_t(2 * t + 1), eg};
    }
}

} // namespace fanorona
