#pragma once
// A position: both sides' pieces relative to the side to move, the hash and the turn counters.

#include <string>
#include <string_view>

#include "core/board/bitboard.h"
#include "core/board/rules.h"
#include "core/board/zobrist.h"

namespace fanorona {

// What make_move changes that the move itself cannot restore.
struct UndoInfo {
    int turns_since_capture = 0;
};

// Pieces as {player, opponent} bitboards relative to the side to move (Edax style), so move
// generation never branches on colour. `hash` always equals compute_hash(); `turn` counts whole
// turns from 1 (White's first turn is 1, Black's first is 2).
class Position {
public:
    Position() = default;
    static Position start(Variant v);
    // Parses a position string (see docs/rules.md) and checks it with position_problem(); throws
    // std::invalid_argument saying what is wrong.
    static Position from_string(std::string_view text, Variant v);
    std::string to_string() const;

    Variant variant() const { return variant_; }
    const Geometry& geo() const { return geometry(variant_); }
    Color side_to_move() const { return side_; }
    Bitboard player() const { return player_; }
    Bitboard opponent() const { return opponent_; }
    Bitboard pieces(Color c) const { return c == side_ ? player_ : opponent_; }
    Bitboard empty() const { return geo().board & ~(player_ | opponent_); }
    Key hash() const { return hash_; }
    int turns_since_capture() const { return turns_since_capture_; }
    int turn() const { return turn_; }

    UndoInfo make_move(const Move& m);
    void unmake_move(const Move& m, const UndoInfo& undo);

    Key compute_hash() const;
    friend bool operator==(const Position&, const Position&) = default;

    // Builds a position from colour bitboards; used by parsers and log readers.
    static Position from_pieces(Variant v, Bitboard white, Bitboard black, Color side,
                                int turns_since_capture = 0, int turn = 1);

private:
    Bitboard player_ = 0;
    Bitboard opponent_ = 0;
    Key hash_ = 0;
    int turns_since_capture_ = 0;
    int turn_ = 1;
    Color side_ = Color::White;
    Variant variant_ = Variant::Tsivy;
};

inline UndoInfo Position::make_move(const Move& m) {
    const UndoInfo undo{turns_since_capture_};
    const auto& keys = kZobrist.piece;
    const int us = int(side_);
    const bool placed = m.from == m.to; // a Fanoron-telo placement
    hash_ ^= (placed ? 0 : keys[us][m.from]) ^ keys[us][m.to] ^ kZobrist.black_to_move;
    for (Bitboard c = m.captured; c;) hash_ ^= keys[us ^ 1][pop_lsb(c)];
    const Bitboard moved = player_ ^ (placed ? 0 : bit(m.from)) ^ bit(m.to);
    player_ = opponent_ ^ m.captured;
    opponent_ = moved;
    side_ = ~side_;
    turns_since_capture_ = m.captured ? 0 : turns_since_capture_ + 1;
    ++turn_;
    return undo;
}

inline void Position::unmake_move(const Move& m, const UndoInfo& undo) {
    --turn_;
    turns_since_capture_ = undo.turns_since_capture;
    side_ = ~side_;
    const Bitboard moved = opponent_;
    opponent_ = player_ ^ m.captured;
    const bool placed = m.from == m.to;
    player_ = moved ^ (placed ? 0 : bit(m.from)) ^ bit(m.to);
    const auto& keys = kZobrist.piece;
    const int us = int(side_);
    hash_ ^= (placed ? 0 : keys[us][m.from]) ^ keys[us][m.to] ^ kZobrist.black_to_move;
    for (Bitboard c = m.captured; c;) hash_ ^= keys[us ^ 1][pop_lsb(c)];
}

// Why `p` cannot arise in a game of its variant, or "" when it can: every entry point that takes
// a position from a user (position strings, opening suites, the protocol, the solver, table
// probes, positions logs) checks it here. Every piece is on a point of the board, at most one on
// each point. Each side holds at most the pieces the variant's start gives it; both
// sides have pieces unless the side to move has none (the game is over: it lost them all);
// in Fanoron-telo each side places at most kTeloPieces, White first (so White to move has as
// many pieces as Black, Black to move one fewer, or both all of theirs).
std::string position_problem(const Position& p);
// Throws std::invalid_argument with position_problem's text when there is one.
void check_position(const Position& p);

// The name of point s on this board: file letter a.., rank number 1.. ("e3", "a10").
std::string square_name(Square s, Variant v);
// `text` for an error message: control characters (a line break, a tab, NUL) written as \xNN, so
// that a message quoting any input stays one line.
std::string printable(std::string_view text);
// The point named like "e3" or "a10" (either case) on this board, or kNoSquare.
Square parse_square(std::string_view name, Variant v);

} // namespace fanorona
