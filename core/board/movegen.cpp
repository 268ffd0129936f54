#include "core/board/movegen.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/board/walk_tables.h"

namespace fanorona {

namespace {

using walk::DirMask;
using walk::WalkTables;

// Why only chain moves (two or more steps) need a duplicate check.
//
// A one-step capture P -> Q = P + d takes a line L lying on the line through P and Q beyond its
// ends: approach takes P + 2d, P + 3d, ..., withdrawal takes P - d, P - 2d, .... A chain from P
// ending at Q with the same captures would have to take, on its first step P -> P + e, a nonempty
// part of L, so its target would lie in L. An approach target P + 2e in L forces e = d (the only
// point two steps from P in L is P + 2d), or, for a withdrawal L, e = -d, which would step onto
// P - d, an opponent piece. A withdrawal target P - e in L forces P - e = P - d (the only point
// of L next to P), so e = d. Either way the chain's first step arrives on Q, and a chain may never
// come back to a point it has visited, so it cannot end there. Two one-step captures of one piece
// differ in their end point or in the side they take (approach and withdrawal lines are
// disjoint). So a one-step capture never equals another move, and only chains are compared.
//
// Chain moves are compared through a 64-bit filter with one bit per 6-bit hash of (end point,
// captured set): the scan for an equal move only runs when the hash bit is already set. Equal
// chains are rare (about one chain move in 10,000 in perft from the start).

// The key of a chain move of a known piece: its end point and captured set (boards reach point
// 62, so the end point does not fit beside the set). Equal keys, equal moves.
struct ChainKey {
    Bitboard captured;
    Square to;
    friend constexpr bool operator==(const ChainKey&, const ChainKey&) = default;
    friend constexpr auto operator<=>(const ChainKey&, const ChainKey&) = default;
};

// Returns the key of a chain move and its filter bit in `filter_bit`.
inline ChainKey chain_key(Square to, Bitboard captured, Bitboard& filter_bit) {
    filter_bit = bit(Square(((captured ^ Bitboard(to) << 58) * 0x9E3779B97F4A7C15ULL) >> 58));
    return {captured, to};
}

// Bit i of m moved to bit 2i.
inline unsigned spread(unsigned m) {
    m = (m | m << 4) & 0x0F0F;
    m = (m | m << 2) & 0x3333;
    return (m | m << 1) & 0x5555;
}

// The rights of this turn and the board's tables, for an ordered walk.
struct Walker {
    const WalkTables& t;
    bool single;
    bool may_chain;
};

// Reports to sink.stop(to, captured, first_step, approach, depth) every stopping point of every
// chain continuing from `cur`, where the piece arrived by a step in direction last_dir (8 at the
// start of the turn), in direction order, approach before withdrawal, each stopping point right
// before its continuations. `visited` holds the points of the piece this turn, `free` the empty
// points (captured ones included). Returns false as soon as sink.stop does.
template <class Sink>
bool continue_chain(const Walker& w, Sink& sink, Square cur, Bitboard visited, int last_dir,
                    Bitboard captured, Bitboard opp, Bitboard free, int depth) {
    const walk::NodeCaptures c = walk::node_captures(w.t, cur, free & ~visited, opp);
    // Bit 2d: approach in direction d; bit 2d + 1: withdrawal in direction d.
    unsigned steps = (spread(c.approach) | spread(c.withdraw) << 1) & ~(3u << (2 * last_dir));
    for (; steps; steps &= steps - 1) {
        const int i = std::countr_zero(steps), d = i >> 1, withdraw = i & 1;
        const Square q = cur + w.t.delta[d];
        const Square first = withdraw ? cur - w.t.delta[d] : q + w.t.delta[d];
        const Bitboard line =
            w.single ? bit(first) : walk::capture_line(w.t, first, d ^ (withdraw << 2), opp);
        if (!sink.stop(q, captured | line, depth == 0, !withdraw, depth)) return false;
        if (w.may_chain && !continue_chain(w, sink, q, visited | bit(q), d, captured | line,
                                           opp ^ line, free | line, depth + 1))
            return false;
    }
    return true;
}

template <class Sink>
bool walk_piece(const Walker& w, Sink& sink, const Position& pos, Square from) {
    const Bitboard opp = pos.opponent() & pos.geo().board;
    return continue_chain(w, sink, from, bit(from), 8, 0, opp, pos.empty(), 0);
}

Walker make_walker(const Position& pos, const TurnRights& rights) {
    return {walk::walk_tables(pos.variant()), rights.single_capture, rights.may_chain};
}

// Appends the moves of one piece to a MoveList, keeping the first of equal chain moves.
struct ListSink {
    MoveList& list;
    Square from;
    int piece_first; // index of this piece's first move in the list
    Bitboard filter = 0;

    bool stop(Square to, Bitboard captured, bool first_step, bool, int) {
        const Move m{captured, std::uint8_t(from), std::uint8_t(to)};
        if (!first_step) {
            Bitboard filter_bit;
            chain_key(to, captured, filter_bit);
            if (filter & filter_bit)
                for (int i = piece_first; i < list.count; ++i)
                    if (list[i] == m) return true;
            filter |= filter_bit;
        }
        list.push(m);
        return true;
    }
};

// Records the path to each stopping point and stops at the one equal to `target`.
struct PathSink {
    Move target;
    StepPath& path;
    bool found = false;

    bool stop(Square to, Bitboard captured, bool, bool approach, int depth) {
        path.steps[depth] = {to, approach ? CaptureKind::Approach : CaptureKind::Withdrawal};
        path.length = depth + 1;
        found = to == target.to && captured == target.captured;
        return !found;
    }
};

// Counts the distinct moves of one piece, in any order (the fast path of count_moves when chains
// are allowed and captures take whole lines). `seen` holds the keys of the chain moves found;
// when it is full, `overflow` is set and the count is no longer exact.
struct Counter {
    explicit Counter(const WalkTables& tables) : t(tables) {} // leaves `seen` uninitialised

    const WalkTables& t;
    int count = 0;
    int chains = 0;
    bool overflow = false;
    Bitboard filter = 0;
    std::array<ChainKey, kInlineMoves> seen;

    void add_chain(Square to, Bitboard captured) {
        Bitboard filter_bit;
        const ChainKey key = chain_key(to, captured, filter_bit);
        if (filter & filter_bit)
            for (int i = 0; i < chains; ++i)
                if (seen[i] == key) return;
        filter |= filter_bit;
        if (chains == kInlineMoves) [[unlikely]] {
            overflow = true;
            return;
        }
        seen[chains++] = key;
        ++count;
    }

    // The capturing steps from `cur` that a chain which arrived by a step in direction last_dir
    // may take: bits 0-7 approach directions, bits 8-15 withdrawal directions.
    unsigned continuations(Square cur, Bitboard open, Bitboard opp, int last_dir) const {
        const walk::NodeCaptures c = walk::node_captures(t, cur, open, opp);
        return (c.approach | c.withdraw << 8) & ~(0x101u << last_dir);
    }

    // Counts the chain moves that start with one of the steps in `steps` (see continuations)
    // from `cur`, like continue_chain, looking ahead so that points with no
    // continuation cost no call.
    void chain(unsigned steps, Square cur, Bitboard visited, Bitboard captured, Bitboard opp,
               Bitboard free) {
        for (; steps; steps &= steps - 1) {
            const int i = std::countr_zero(steps), d = i & 7, withdraw = i >> 3;
            const Square q = cur + t.delta[d];
            const Square first = withdraw ? cur - t.delta[d] : q + t.delta[d];
            const Bitboard line = walk::capture_line(t, first, d ^ (withdraw << 2), opp);
            add_chain(q, captured | line);
            const Bitboard v = visited | bit(q), o = opp ^ line, f = free | line;
            if (const unsigned next = continuations(q, f & ~v, o, d))
                chain(next, q, v, captured | line, o, f);
        }
    }

    // Counts every move of the piece on `from` when chains are allowed and captures take lines.
    void piece(Square from, Bitboard opp, Bitboard empty) {
        const walk::NodeCaptures c = walk::node_captures(t, from, empty, opp);
        count += std::popcount(c.approach) + std::popcount(c.withdraw);
        for (unsigned m = c.approach | c.withdraw << 8; m; m &= m - 1) {
            const int i = std::countr_zero(m), d = i & 7, withdraw = i >> 3;
            const Square q = from + t.delta[d];
            const Square first = withdraw ? from - t.delta[d] : q + t.delta[d];
            const Bitboard line = walk::capture_line(t, first, d ^ (withdraw << 2), opp);
            const Bitboard v = bit(from) | bit(q), o = opp ^ line, f = empty | line;
            if (const unsigned next = continuations(q, f & ~v, o, d)) chain(next, q, v, line, o, f);
        }
    }
};

// The number of moves of one piece with no limit on their number: the keys of all chain moves
// are sorted and counted once each. The slow path, for what Counter cannot hold.
int count_piece_unbounded(const Walker& w, const Position& pos, Square from) {
    struct KeySink {
        int first_steps = 0;
        std::vector<ChainKey> keys;

        bool stop(Square to, Bitboard captured, bool first_step, bool, int) {
            Bitboard unused;
            if (first_step)
                ++first_steps;
            else
                keys.push_back(chain_key(to, captured, unused));
            return true;
        }
    } sink;
    walk_piece(w, sink, pos, from);
    std::sort(sink.keys.begin(), sink.keys.end());
    const auto distinct = std::unique(sink.keys.begin(), sink.keys.end()) - sink.keys.begin();
    return sink.first_steps + int(distinct);
}

// Calls f(geometry) with the position's board geometry; for the 5x9 board, the hot path of
// every search, with that geometry's numbers known to the compiler (f inlined into each branch:
// shifts and masks by constants).
template <class F> [[gnu::always_inline]] inline auto with_geometry(const Position& pos, F f) {
    if (pos.variant() == Variant::Tsivy) return f(geometry(Variant::Tsivy));
    return f(pos.geo());
}

void generate_paika(const Position& pos, MoveList& list) {
    const Bitboard empty = pos.empty(), own = pos.player();
    with_geometry(pos, [&](const Geometry& g) {
        for (int dir = 0; dir < kDirections; ++dir) {
            const Direction d = Direction(dir);
            for (Bitboard movers = own & g.shift(empty, opposite(d)); movers;) {
                const Square from = pop_lsb(movers);
                list.push(Move{0, std::uint8_t(from), std::uint8_t(from + g.delta[d])});
            }
        }
    });
}

int count_paika(const Position& pos) {
    const Geometry& g = pos.geo();
    const Bitboard empty = pos.empty(), own = pos.player();
    int n = 0;
    for (int dir = 0; dir < kDirections; ++dir)
        n += popcount(own & g.shift(empty, opposite(Direction(dir))));
    return n;
}

// The lines of three points of a board (rows, columns and diagonals through strong points).
struct TeloLines {
    Bitboard line[16] = {};
    int count = 0;
};

constexpr TeloLines make_telo_lines(const Geometry& g) {
    TeloLines t;
    for (int s = 0; s < 64; ++s) {
        if (!g.on_board(s)) continue;
        for (int d : {North, NorthEast, East, SouthEast}) {
            const int b = g.neighbor[d][s];
            if (b == kNoSquare || g.neighbor[d][b] == kNoSquare || t.count == 16) continue;
            t.line[t.count++] = bit(s) | bit(b) | bit(g.neighbor[d][b]);
        }
    }
    return t;
}
inline constexpr TeloLines kTeloLines = make_telo_lines(geometry(Variant::Telo));
static_assert(kTeloLines.count == 8, "a 3x3 board has 8 lines of three");

bool has_telo_line(Bitboard pieces) {
    for (int i = 0; i < kTeloLines.count; ++i)
        if ((pieces & kTeloLines.line[i]) == kTeloLines.line[i]) return true;
    return false;
}

// Fanoron-telo: placements while the side to move has fewer than kTeloPieces pieces, then steps;
// none once the opponent has three in a row.
void generate_telo(const Position& pos, MoveList& list) {
    if (telo_won(pos)) return;
    if (popcount(pos.player()) < kTeloPieces) {
        for (Bitboard e = pos.empty(); e;) {
            const Square s = pop_lsb(e);
            list.push(Move{0, std::uint8_t(s), std::uint8_t(s)});
        }
        return;
    }
    generate_paika(pos, list);
}

} // namespace

bool telo_won(const Position& pos) {
    return is_telo(pos.variant()) && has_telo_line(pos.opponent());
}

TurnRights restricted_turn_rights(const Position& pos, const Rules& rules, Color mover) {
    TurnRights r;
    if (rules.ruleset == RuleSet::FirstTurn && pos.turn() <= 2) r.may_chain = false;
    if (rules.ruleset == RuleSet::Vela &&
        popcount(pos.pieces(Color::Black)) > Rules::kVelaVictimFloor) {
        if (mover == Color::Black) {
            r.may_capture = false;
        } else {
            r.single_capture = true;
            r.may_chain = false;
        }
    }
    return r;
}

Bitboard capturing_pieces(const Position& pos) {
    if (is_telo(pos.variant())) return 0;
    const Bitboard empty = pos.empty(), opp = pos.opponent(), own = pos.player();
    return with_geometry(pos, [&](const Geometry& g) {
        Bitboard result = 0;
        for (int dir = 0; dir < kDirections; ++dir) {
            const Direction d = Direction(dir), back = opposite(d);
            const Bitboard movers = own & g.shift(empty, back);
            const Bitboard approach = g.shift(g.shift(opp, back) & empty, back);
            const Bitboard withdraw = g.shift(opp, d);
            result |= movers & (approach | withdraw);
        }
        return result;
    });
}

void generate_moves(const Position& pos, const Rules& rules, MoveList& list) {
    const TurnRights rights = turn_rights(pos, rules);
    generate_moves(pos, rights, rights.may_capture ? capturing_pieces(pos) : 0, list);
}

void generate_moves(const Position& pos, const TurnRights& rights, Bitboard capturers,
                    MoveList& list) {
    list.count = 0;
    if (is_telo(pos.variant())) [[unlikely]] {
        generate_telo(pos, list);
        return;
    }
    if (!capturers) {
        generate_paika(pos, list);
        return;
    }
    const Walker w = make_walker(pos, rights);
    for (Bitboard b = capturers; b;) {
        const Square from = pop_lsb(b);
        ListSink sink{list, from, list.count};
        walk_piece(w, sink, pos, from);
    }
}

int count_moves(const Position& pos, const Rules& rules) {
    if (is_telo(pos.variant())) [[unlikely]] {
        if (telo_won(pos)) return 0;
        return popcount(pos.player()) < kTeloPieces ? popcount(pos.empty()) : count_paika(pos);
    }
    const TurnRights rights = turn_rights(pos, rules);
    const Bitboard capturers = rights.may_capture ? capturing_pieces(pos) : 0;
    if (!capturers) return count_paika(pos);
    const WalkTables& t = walk::walk_tables(pos.variant());
    const Bitboard opp = pos.opponent() & pos.geo().board, empty = pos.empty();
    int n = 0;
    if (!rights.may_chain) {
        // One-step captures only, all distinct (taking a single piece changes no count).
        for (Bitboard b = capturers; b;) {
            const walk::NodeCaptures c = walk::node_captures(t, pop_lsb(b), empty, opp);
            n += std::popcount(c.approach) + std::popcount(c.withdraw);
        }
        return n;
    }
    const Walker w = make_walker(pos, rights);
    for (Bitboard b = capturers; b;) {
        const Square from = pop_lsb(b);
        if (rights.single_capture) { // no rule set chains single captures today
            n += count_piece_unbounded(w, pos, from);
            continue;
        }
        Counter counter(t);
        counter.piece(from, opp, empty);
        n += counter.overflow ? count_piece_unbounded(w, pos, from) : counter.count;
    }
    return n;
}

void MoveList::grow() {
    const int capacity = capacity_ * 2;
    auto heap = std::make_unique<Move[]>(std::size_t(capacity));
    std::copy(data_, data_ + count, heap.get());
    heap_ = std::move(heap);
    data_ = heap_.get();
    capacity_ = capacity;
}

void MoveList::copy_from(const MoveList& other) {
    count = 0;
    while (capacity_ < other.count) grow();
    std::copy(other.begin(), other.end(), data_);
    count = other.count;
}

StepPath find_path(const Position& pos, const Rules& rules, const Move& m) {
    StepPath path;
    const TurnRights rights = turn_rights(pos, rules);
    if (is_telo(pos.variant()) && (m.captured || telo_won(pos) || m.from >= 64 || m.to >= 64 ||
                                   (m.from == m.to) != (popcount(pos.player()) < kTeloPieces)))
        return path;
    if (m.from == m.to) {
        // A telo placement (checked above) on an empty point.
        if (is_telo(pos.variant()) && m.to < 64 && (pos.empty() & bit(m.to))) {
            path.steps[0] = {m.to, CaptureKind::None};
            path.length = 1;
        }
        return path;
    }
    if (!m.captured) {
        // A paika move: one step along a line to an empty point, when no capture is possible.
        const Geometry& g = pos.geo();
        bool step = false;
        for (int d = 0; d < kDirections && m.from < 64; ++d) step |= g.neighbor[d][m.from] == m.to;
        if (step && (pos.player() & bit(m.from)) && (pos.empty() & bit(m.to)) &&
            !(rights.may_capture && capturing_pieces(pos))) {
            path.steps[0] = {m.to, CaptureKind::None};
            path.length = 1;
        }
        return path;
    }
    if (!rights.may_capture || m.from >= 64 || !(pos.player() & bit(m.from))) return path;
    PathSink sink{m, path};
    walk_piece(make_walker(pos, rights), sink, pos, m.from);
    if (!sink.found) path.length = 0;
    return path;
}

} // namespace fanorona
