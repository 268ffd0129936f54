#include "core/board/position.h"

#include "core/board/movegen.h"

#include <stdexcept>
#include <vector>

namespace fanorona {

namespace {

std::vector<std::string_view> split(std::string_view s, char sep) {
    std::vector<std::string_view> parts;
    while (true) {
        const auto at = s.find(sep);
        parts.push_back(s.substr(0, at));
        if (at == std::string_view::npos) break;
        s.remove_prefix(at + 1);
    }
    return parts;
}

int parse_counter(std::string_view field, const char* what) {
    if (field.size() > 9)
        throw std::invalid_argument(std::string("bad ") + what + " '" + printable(field) +
                                    "': too large");
    int value = 0;
    for (char c : field) {
        if (c < '0' || c > '9')
            throw std::invalid_argument(std::string("bad ") + what + " '" + printable(field) +
                                        "': not a number");
        value = value * 10 + (c - '0');
    }
    return value;
}

} // namespace

std::string square_name(Square s, Variant v) {
    const Geometry& g = geometry(v);
    return char('a' + g.file(s)) + std::to_string(g.rank(s) + 1);
}

std::string printable(std::string_view text) {
    static const char kHex[] = "0123456789abcdef";
    std::string out;
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x20 || u == 0x7f) {
            out += "\\x";
            out += kHex[u >> 4];
            out += kHex[u & 15];
        } else {
            out += c;
        }
    }
    return out;
}

Square parse_square(std::string_view name, Variant v) {
    if (name.size() < 2 || name.size() > 3 || name[1] < '1' || name[1] > '9') return kNoSquare;
    int y = 0;
    for (const char c : name.substr(1)) {
        if (c < '0' || c > '9') return kNoSquare;
        y = y * 10 + (c - '0');
    }
    const int x = char(name[0] | 0x20) - 'a';
    const Geometry& g = geometry(v);
    if (x < 0 || x >= g.width || y < 1 || y > g.height) return kNoSquare;
    return g.square(x, y - 1);
}

Position Position::start(Variant v) {
    // Ranks above the middle one Black, below White; the middle rank alternates from Black at the
    // left edge with the centre empty, so that a half turn swaps the colours. Telo: empty.
    const Geometry& g = geometry(v);
    Bitboard white = 0, black = 0;
    if (!is_telo(v)) {
        const int mid = g.height / 2, centre = g.width / 2;
        for (int y = 0; y < g.height; ++y)
            for (int x = 0; x < g.width; ++x) {
                const Bitboard b = bit(g.square(x, y));
                const int left = x < centre ? x : g.width - 1 - x; // its half-turn image
                const bool black_left = left % 2 == 0;
                if (y > mid || (y == mid && x < centre && black_left) ||
                    (y == mid && x > centre && !black_left))
                    black |= b;
                else if (y < mid || x != centre)
                    white |= b;
            }
    }
    return from_pieces(v, white, black, Color::White);
}

Position Position::from_pieces(Variant v, Bitboard white, Bitboard black, Color side,
                               int turns_since_capture, int turn) {
    Position p;
    p.variant_ = v;
    p.side_ = side;
    p.player_ = side == Color::White ? white : black;
    p.opponent_ = side == Color::White ? black : white;
    p.turns_since_capture_ = turns_since_capture;
    p.turn_ = turn;
    p.hash_ = p.compute_hash();
    return p;
}

Position Position::from_string(std::string_view text, Variant v) {
    const Geometry& g = geometry(v);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\r' || text.back() == '\n'))
        text.remove_suffix(1);
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
    std::vector<std::string_view> fields;
    for (auto f : split(text, ' '))
        if (!f.empty()) fields.push_back(f);
    if (fields.empty()) throw std::invalid_argument("empty position string");
    if (fields.size() < 2) throw std::invalid_argument("no side to move (expected ' w' or ' b')");
    if (fields.size() > 4) throw std::invalid_argument("too many fields in position string");

    const auto ranks = split(fields[0], '/');
    if (int(ranks.size()) != g.height)
        throw std::invalid_argument("expected " + std::to_string(g.height) + " ranks for " +
                                    std::string(variant_name(v)) + ", found " +
                                    std::to_string(ranks.size()));
    Bitboard white = 0, black = 0;
    for (int r = 0; r < g.height; ++r) {
        const int y = g.height - 1 - r;
        int x = 0;
        // A run of empty points: one digit each on boards up to 9 files ("45" is 4 then 5), a
        // whole number on wider boards ("12" is twelve points).
        const bool numbers = g.width > 9;
        int run = 0; // the number being read
        for (char c : ranks[r]) {
            if (c >= '0' && c <= '9') {
                if ((run == 0 || !numbers) && c == '0')
                    throw std::invalid_argument("bad character '0' in rank " +
                                                std::to_string(y + 1));
                if (!numbers) run = 0;
                x += (run * 10 + (c - '0')) - run;
                run = run * 10 + (c - '0');
            } else if (c == 'W' || c == 'w' || c == 'B' || c == 'b') {
                run = 0;
                if (x < g.width) ((c == 'W' || c == 'w') ? white : black) |= bit(g.square(x, y));
                ++x;
            } else {
                throw std::invalid_argument("bad character '" + printable(std::string_view(&c, 1)) +
                                            "' in rank " + std::to_string(y + 1));
            }
            if (x > g.width) break;
        }
        if (x != g.width)
            throw std::invalid_argument("rank " + std::to_string(y + 1) + " has " +
                                        (x > g.width ? "more" : "fewer") + " than " +
                                        std::to_string(g.width) + " points");
    }
    Color side;
    if (fields[1] == "w" || fields[1] == "W")
        side = Color::White;
    else if (fields[1] == "b" || fields[1] == "B")
        side = Color::Black;
    else
        throw std::invalid_argument("bad side to move '" + printable(fields[1]) +
                                    "' (expected w or b)");
    const int quiet = fields.size() > 2 ? parse_counter(fields[2], "turns since capture") : 0;
    const int turn = fields.size() > 3 ? parse_counter(fields[3], "turn number") : 1;
    if (turn < 1) throw std::invalid_argument("bad turn number '0': turns count from 1");
    const Position p = from_pieces(v, white, black, side, quiet, turn);
    check_position(p);
    return p;
}

std::string position_problem(const Position& p) {
    const Variant v = p.variant();
    if (const Bitboard off = (p.pieces(Color::White) | p.pieces(Color::Black)) & ~geometry(v).board)
        return "a piece on bit " + std::to_string(lsb(off)) + ", outside the " +
               std::string(variant_name(v)) + " board";
    const Bitboard both = p.pieces(Color::White) & p.pieces(Color::Black);
    if (both) return "White and Black both have a piece on " + square_name(lsb(both), v);
    const int white = popcount(p.pieces(Color::White)), black = popcount(p.pieces(Color::Black));
    const bool white_to_move = p.side_to_move() == Color::White;
    auto count = [](int n) { return std::to_string(n) + (n == 1 ? " piece" : " pieces"); };
    if (is_telo(v)) {
        constexpr int most = kTeloPieces;
        if (white > most || black > most)
            return std::string(white > most ? "White" : "Black") + " has " +
                   count(white > most ? white : black) + ", but in telo each side places " +
                   std::to_string(most);
        const bool placed_in_turn =
            white_to_move ? white == black : white == black + 1 || (white == most && black == most);
        if (!placed_in_turn)
            return "White has " + count(white) + " and Black " + count(black) + " with " +
                   (white_to_move ? "White" : "Black") +
                   " to move: in telo White places first, then each side in turn";
        return "";
    }
    // The start fills every point but the centre, half of them each (Position::start).
    const int most = (geometry(v).points - 1) / 2;
    if (white > most || black > most)
        return std::string(white > most ? "White" : "Black") + " has " +
               count(white > most ? white : black) + ", more than the " + std::to_string(most) +
               " of the " + std::string(variant_name(v)) + " start";
    if (white == 0 && black == 0) return "neither side has a piece";
    if ((white_to_move ? black : white) == 0)
        return std::string(white_to_move ? "Black" : "White") + " has no pieces, but " +
               (white_to_move ? "White" : "Black") +
               " is to move (the game ends when the side to move has lost its last piece)";
    return "";
}

void check_position(const Position& p) {
    if (std::string why = position_problem(p); !why.empty()) throw std::invalid_argument(why);
}

std::string Position::to_string() const {
    const Geometry& g = geo();
    const Bitboard white = pieces(Color::White), black = pieces(Color::Black);
    std::string out;
    for (int y = g.height - 1; y >= 0; --y) {
        int run = 0;
        for (int x = 0; x < g.width; ++x) {
            const Bitboard b = bit(g.square(x, y));
            if (!((white | black) & b)) {
                ++run;
                continue;
            }
            if (run) out += std::to_string(run);
            run = 0;
            out += (white & b) ? 'W' : 'B';
        }
        if (run) out += std::to_string(run);
        if (y) out += '/';
    }
    out += side_ == Color::White ? " w" : " b";
    if (turns_since_capture_ != 0 || turn_ != 1)
        out += " " + std::to_string(turns_since_capture_) + " " + std::to_string(turn_);
    return out;
}

Key Position::compute_hash() const {
    Key h = side_ == Color::Black ? kZobrist.black_to_move : 0;
    for (int c = 0; c < 2; ++c)
        for (Bitboard b = pieces(Color(c)); b;) h ^= kZobrist.piece[c][pop_lsb(b)];
    return h;
}

} // namespace fanorona
