#include "core/board/notation.h"

#include <cctype>
#include <vector>

namespace fanorona {

std::string move_to_string(const Position& pos, const Rules& rules, const Move& m) {
    const Variant v = pos.variant();
    const StepPath path = find_path(pos, rules, m);
    if (path.length == 0)
        throw MoveError("internal: no path for move from " + square_name(m.from, v) + " to " +
                        square_name(m.to, v));
    std::string out = square_name(m.from, v);
    if (m.from == m.to) return out; // a Fanoron-telo placement: the point alone
    for (int i = 0; i < path.length; ++i) {
        out += square_name(path.steps[i].to, v);
        if (path.steps[i].kind == CaptureKind::Approach) out += 'A';
        if (path.steps[i].kind == CaptureKind::Withdrawal) out += 'W';
    }
    return out;
}

namespace {

struct Token {
    std::string point;
    CaptureKind kind = CaptureKind::None;
};

std::vector<Token> tokenize(std::string_view text) {
    std::vector<Token> tokens;
    std::string s;
    for (char c : text) s += char(std::tolower(static_cast<unsigned char>(c)));
    if (s.empty()) throw MoveError("empty move string");
    size_t i = 0;
    while (i < s.size()) {
        if (!std::isalpha(static_cast<unsigned char>(s[i])) || i + 1 >= s.size() ||
            !std::isdigit(static_cast<unsigned char>(s[i + 1])))
            throw MoveError("malformed move string '" + printable(text) + "' at character " +
                            std::to_string(i + 1) + " (expected a point such as e3)");
        size_t end = i + 1;
        while (end < s.size() && std::isdigit(static_cast<unsigned char>(s[end]))) ++end;
        Token t{s.substr(i, end - i)};
        i = end;
        const bool marker =
            i < s.size() && (s[i] == 'a' || s[i] == 'w') &&
            (i + 1 >= s.size() || !std::isdigit(static_cast<unsigned char>(s[i + 1])));
        if (marker) {
            if (tokens.empty())
                throw MoveError("malformed move string '" + printable(text) +
                                "': a capture letter must follow a destination, not the start");
            t.kind = s[i] == 'a' ? CaptureKind::Approach : CaptureKind::Withdrawal;
            ++i;
        }
        tokens.push_back(t);
    }
    return tokens;
}

Bitboard line_from(const Geometry& g, Square first, Direction d, Bitboard opp, bool single) {
    Bitboard line = 0;
    for (Square s = first; s != kNoSquare && (opp & bit(s)); s = g.neighbor[d][s]) {
        line |= bit(s);
        if (single) break;
    }
    return line;
}

} // namespace

Move parse_move(const Position& pos, const Rules& rules, std::string_view text) {
    const std::vector<Token> tokens = tokenize(text);
    const Variant v = pos.variant();
    const Geometry& g = pos.geo();
    std::vector<Square> points;
    for (const Token& t : tokens) {
        const Square s = parse_square(t.point, pos.variant());
        if (s == kNoSquare)
            throw MoveError("unknown point '" + printable(t.point) + "' on the " +
                            std::string(variant_name(pos.variant())) + " board");
        points.push_back(s);
    }
    const Square from = points[0];
    if (tokens.size() == 1 && is_telo(v)) {
        const Move m{0, std::uint8_t(from), std::uint8_t(from)};
        if (find_path(pos, rules, m).length == 0)
            throw MoveError("'" + printable(text) + "' is not a legal placement here");
        return m;
    }
    if (tokens.size() < 2)
        throw MoveError("move string '" + printable(text) + "' has no destination");
    if (pos.opponent() & bit(from))
        throw MoveError(square_name(from, v) + " holds a piece of the side not to move");
    if (!(pos.player() & bit(from))) throw MoveError("no piece on " + square_name(from, v));

    const TurnRights rights = turn_rights(pos, rules);
    const bool must_capture = rights.may_capture && capturing_pieces(pos) != 0;
    Bitboard opp = pos.opponent(), free = pos.empty(), visited = bit(from), captured = 0;
    Square cur = from;
    int last_dir = -1;
    for (size_t i = 1; i < tokens.size(); ++i) {
        const Square to = points[i];
        const std::string step = square_name(cur, v) + " to " + square_name(to, v);
        int dir = -1;
        for (int d = 0; d < kDirections; ++d)
            if (g.neighbor[d][cur] == to) dir = d;
        if (dir < 0) throw MoveError(step + " is not a step along a line");
        if (visited & bit(to))
            throw MoveError(step + ": the piece was already on " + square_name(to, v) +
                            " this turn");
        if (!(free & bit(to))) throw MoveError(step + ": " + square_name(to, v) + " is not empty");
        if (dir == last_dir)
            throw MoveError(step + ": a chain may not continue in the direction it just moved");
        const CaptureKind kind = tokens[i].kind;
        if (kind == CaptureKind::None) {
            if (i > 1) throw MoveError(step + ": every step after the first must capture");
            if (must_capture) throw MoveError(step + " is a paika move, but capture is compulsory");
            if (tokens.size() > 2) throw MoveError("a paika move is a single step");
            const Move m{0, std::uint8_t(from), std::uint8_t(to)};
            if (is_telo(v) && find_path(pos, rules, m).length == 0)
                throw MoveError(step + ": pieces are still being placed, or the game is over");
            return m;
        }
        if (!rights.may_capture)
            throw MoveError(step + ": the Vela victim may not capture (paika moves only)");
        if (i > 1 && !rights.may_chain)
            throw MoveError("captures may not be chained on this turn (" +
                            std::string(ruleset_name(rules.ruleset)) + " rules)");
        const Direction d = Direction(dir);
        const Square target =
            kind == CaptureKind::Approach ? g.neighbor[d][to] : g.neighbor[opposite(d)][cur];
        if (target == kNoSquare || !(opp & bit(target)))
            throw MoveError(step + ": no " +
                            (kind == CaptureKind::Approach ? "approach" : "withdrawal") +
                            " capture there");
        const Bitboard line = line_from(g, target, kind == CaptureKind::Approach ? d : opposite(d),
                                        opp, rights.single_capture);
        captured |= line;
        opp ^= line;
        free |= line;
        visited |= bit(to);
        last_dir = dir;
        cur = to;
    }
    const Move m{captured, std::uint8_t(from), std::uint8_t(cur)};
    // The steps were each checked above; find_path confirms the whole move (with no limit on
    // the number of moves of the position, unlike generate_moves).
    if (find_path(pos, rules, m).length == 0)
        throw MoveError("'" + printable(text) + "' is not a legal move here");
    return m;
}

} // namespace fanorona
