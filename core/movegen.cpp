#include "movegen.h"

namespace fanorona {

namespace {

// The unbroken line of opponent pieces starting at `first` and running in direction d.
inline Bitboard capture_line(const Geometry& g, Square first, Direction d, Bitboard opp,
                             bool single) {
    Bitboard line = 0;
    for (Square s = first; s != kNoSquare && (opp & bit(s)); s = g.neighbor[d][s]) {
        line |= bit(s);
        if (single) break;
    }
    return line;
}

// State of the depth-first walk through one piece's capture chains.
struct ChainWalk {
    const Geometry& g;
    TurnRights rights;
    Square from;
    StepPath* path; // recorded when not null
};

// Calls visit(to, captured) for every stopping point of every chain from `cur`; visit returns
// false to stop the walk. `free` holds the empty points (captured ones included).
template <class Visit>
bool walk(const ChainWalk& w, Square cur, Bitboard visited, int last_dir, Bitboard captured,
          Bitboard opp, Bitboard free, int depth, Visit& visit) {
    const Geometry& g = w.g;
    for (int dir = 0; dir < kDirections; ++dir) {
        if (dir == last_dir) continue;
        const Direction d = Direction(dir);
        const Square q = g.neighbor[d][cur];
        if (q == kNoSquare || !(free & bit(q)) || (visited & bit(q))) continue;
        for (int kind = 0; kind < 2; ++kind) {
            const Square target = kind == 0 ? g.neighbor[d][q] : g.neighbor[opposite(d)][cur];
            if (target == kNoSquare || !(opp & bit(target))) continue;
            const Bitboard line =
                capture_line(g, target, kind == 0 ? d : opposite(d), opp, w.rights.single_capture);
            if (w.path) {
                w.path->steps[depth] = {q, kind == 0 ? CaptureKind::Approach
                                                     : CaptureKind::Withdrawal};
                w.path->length = depth + 1;
            }
            if (!visit(q, captured | line)) return false;
            if (w.rights.may_chain && !walk(w, q, visited | bit(q), dir, captured | line,
                                            opp ^ line, free | line, depth + 1, visit))
                return false;
        }
    }
    return true;
}

template <class Visit>
void walk_from(const Position& pos, const TurnRights& rights, Square from, StepPath* path,
               Visit& visit) {
    const ChainWalk w{pos.geo(), rights, from, path};
    walk(w, from, bit(from), -1, 0, pos.opponent(), pos.empty(), 0, visit);
}

} // namespace

TurnRights turn_rights(const Position& pos, const Rules& rules) {
    TurnRights r;
    if (rules.ruleset == RuleSet::FirstTurn && pos.turn() <= 2) r.may_chain = false;
    if (rules.ruleset == RuleSet::Vela &&
        popcount(pos.pieces(Color::Black)) > Rules::kVelaVictimFloor) {
        if (pos.side_to_move() == Color::Black) {
            r.may_capture = false;
        } else {
            r.single_capture = true;
            r.may_chain = false;
        }
    }
    return r;
}

Bitboard capturing_pieces(const Position& pos) {
    const Geometry& g = pos.geo();
    const Bitboard empty = pos.empty(), opp = pos.opponent(), own = pos.player();
    Bitboard result = 0;
    for (int dir = 0; dir < kDirections; ++dir) {
        const Direction d = Direction(dir), back = opposite(d);
        const Bitboard movers = own & g.shift(empty, back);
        const Bitboard approach = g.shift(g.shift(opp, back) & empty, back);
        const Bitboard withdraw = g.shift(opp, d);
        result |= movers & (approach | withdraw);
    }
    return result;
}

namespace {

void generate_paika(const Position& pos, MoveList& list) {
    const Geometry& g = pos.geo();
    const Bitboard empty = pos.empty(), own = pos.player();
    for (int dir = 0; dir < kDirections; ++dir) {
        const Direction d = Direction(dir);
        for (Bitboard movers = own & g.shift(empty, opposite(d)); movers;) {
            const Square from = pop_lsb(movers);
            list.push(Move{0, std::uint8_t(from), std::uint8_t(from + kDelta[d])});
        }
    }
}

int count_paika(const Position& pos) {
    const Geometry& g = pos.geo();
    const Bitboard empty = pos.empty(), own = pos.player();
    int n = 0;
    for (int dir = 0; dir < kDirections; ++dir)
        n += popcount(own & g.shift(empty, opposite(Direction(dir))));
    return n;
}

} // namespace

void generate_moves(const Position& pos, const Rules& rules, MoveList& list) {
    list.count = 0;
    const TurnRights rights = turn_rights(pos, rules);
    const Bitboard capturers = rights.may_capture ? capturing_pieces(pos) : 0;
    if (!capturers) {
        generate_paika(pos, list);
        return;
    }
    for (Bitboard b = capturers; b;) {
        const Square from = pop_lsb(b);
        const int first = list.count;
        auto add = [&](Square to, Bitboard captured) {
            const Move m{captured, std::uint8_t(from), std::uint8_t(to)};
            for (int i = first; i < list.count; ++i)
                if (list.moves[i] == m) return true;
            list.push(m);
            return true;
        };
        walk_from(pos, rights, from, nullptr, add);
    }
}

int count_moves(const Position& pos, const Rules& rules) {
    const TurnRights rights = turn_rights(pos, rules);
    if (!rights.may_capture || !capturing_pieces(pos)) return count_paika(pos);
    MoveList list;
    generate_moves(pos, rules, list);
    return list.size();
}

StepPath find_path(const Position& pos, const Rules& rules, const Move& m) {
    StepPath path;
    const TurnRights rights = turn_rights(pos, rules);
    if (!m.captured) {
        MoveList list;
        generate_moves(pos, rules, list);
        if (list.contains(m)) {
            path.steps[0] = {m.to, CaptureKind::None};
            path.length = 1;
        }
        return path;
    }
    if (!rights.may_capture || !(pos.player() & bit(m.from))) return path;
    bool found = false;
    auto match = [&](Square to, Bitboard captured) {
        found = to == m.to && captured == m.captured;
        return !found;
    };
    walk_from(pos, rights, m.from, &path, match);
    if (!found) path.length = 0;
    return path;
}

} // namespace fanorona
