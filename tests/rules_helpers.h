#pragma once
// Helpers for the rules tests: position strings from lists of points, and move sets as text.

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/board/notation.h"

namespace fanorona::test {

// A position no game reaches (one side only, more pieces than the start gives), for tests of the
// evaluation terms alone: the position string's board (up to 9 files) and side to move, built
// from its pieces past the position validation, which Position::from_string applies.
inline Position unchecked_position(const std::string& text, Variant v) {
    const Geometry& g = geometry(v);
    Bitboard white = 0, black = 0;
    int x = 0, y = g.height - 1;
    std::size_t i = 0;
    for (; i < text.size() && text[i] != ' '; ++i) {
        const char c = text[i];
        if (c == '/') {
            x = 0, --y;
        } else if (c >= '1' && c <= '9') {
            x += c - '0';
        } else {
            (c == 'W' ? white : black) |= bit(g.square(x, y));
            ++x;
        }
    }
    const Color side = text.substr(i + 1, 1) == "b" ? Color::Black : Color::White;
    return Position::from_pieces(v, white, black, side);
}

// The position string with White on the points `white` and Black on `black` (space-separated
// names such as "c3 e3"), `side` to move ('w' or 'b'), then `counters` if not empty (for example
// "0 3": turns since capture, turn number).
inline std::string board(Variant v, const std::string& white, const std::string& black, char side,
                         const std::string& counters = "") {
    const Geometry& g = geometry(v);
    std::vector<std::string> grid(std::size_t(g.height), std::string(std::size_t(g.width), '.'));
    auto place = [&](const std::string& points, char piece) {
        std::istringstream in(points);
        for (std::string name; in >> name;) {
            const Square s = parse_square(name, v);
            grid[std::size_t(g.rank(s))][std::size_t(g.file(s))] = piece;
        }
    };
    place(white, 'W');
    place(black, 'B');
    std::string out;
    for (int y = g.height - 1; y >= 0; --y) {
        int run = 0;
        for (char c : grid[std::size_t(y)]) {
            if (c == '.') {
                ++run;
                continue;
            }
            if (run) out += char('0' + run);
            run = 0;
            out += c;
        }
        if (run) out += char('0' + run);
        if (y) out += '/';
    }
    out += ' ';
    out += side;
    if (!counters.empty()) out += " " + counters;
    return out;
}

inline Position tsivy(const std::string& white, const std::string& black, char side = 'w',
                      const std::string& counters = "") {
    return Position::from_string(board(Variant::Tsivy, white, black, side, counters),
                                 Variant::Tsivy);
}

// The bitboard of the named points ("e3 f3").
inline Bitboard points(const std::string& names, Variant v = Variant::Tsivy) {
    Bitboard b = 0;
    std::istringstream in(names);
    for (std::string name; in >> name;) b |= bit(parse_square(name, v));
    return b;
}

inline Rules rules_for(RuleSet rs, Variant v = Variant::Tsivy) {
    Rules r;
    r.variant = v;
    r.ruleset = rs;
    return r;
}

// Every legal move as its move string, sorted.
inline std::vector<std::string> move_strings(const Position& pos, const Rules& rules) {
    MoveList list;
    generate_moves(pos, rules, list);
    std::vector<std::string> out;
    for (const Move& m : list) out.push_back(move_to_string(pos, rules, m));
    std::sort(out.begin(), out.end());
    return out;
}

inline std::vector<std::string> sorted(std::vector<std::string> v) {
    std::sort(v.begin(), v.end());
    return v;
}

// One expected move: its string and the exact points it captures.
struct Expected {
    std::string text;
    std::string captured;
};

// Plays `games` random games (at most `max_turns` turns each) on both boards with each rule set,
// from a seeded std::mt19937_64, calling visit(position, rules, legal moves) at every position
// before a move is chosen at random.
template <class Visit>
void random_games(std::uint64_t seed, int games, int max_turns, Visit visit) {
    std::mt19937_64 rng(seed);
    for (Variant v : {Variant::Tsivy, Variant::Dimy})
        for (RuleSet rs : {RuleSet::Standard, RuleSet::FirstTurn, RuleSet::Vela}) {
            const Rules rules = rules_for(rs, v);
            for (int g = 0; g < games; ++g) {
                Position pos = Position::start(v);
                for (int turn = 0; turn < max_turns; ++turn) {
                    MoveList list;
                    generate_moves(pos, rules, list);
                    visit(static_cast<const Position&>(pos), rules, list);
                    if (list.empty()) break;
                    pos.make_move(list[int(rng() % std::uint64_t(list.size()))]);
                }
            }
        }
}

} // namespace fanorona::test
