#pragma once
// Endgame tables as core sees them: the value a table gives a position, how a move's value follows
// from the value of the position it leads to, and an abstract probe (the tables/ library
// implements it over the table files: in core only the tables read and write files, through
// core/common's file helpers; the evaluation and the search open none). docs/formats.md "Endgame
// tables" defines the values exactly.

#include <optional>
#include <string>
#include <vector>

#include "core/board/movegen.h"

namespace fanorona {

// The no-capture limit tables are built for by default (Rules::no_capture_limit of the standard
// rules); a build may choose a smaller one (at most this).
inline constexpr int kTableTurnLimit = 100;

// The value of a position for the side to move, counted from a fresh no-capture counter:
//   Win / Loss: decided within the no-capture limit (100 turns unless built otherwise);
//   CursedWin / BlessedLoss: won / lost when endless play is a draw but the limit is not counted,
//     a draw under the limit;
//   Draw: neither side can force a win.
enum class TableClass : std::uint8_t {
    Draw = 0,
    Win = 1,
    Loss = 2,
    CursedWin = 3,
    BlessedLoss = 4
};

// A class and its distance: the turns to the next capture or to the end of the game on an
// optimal line (a capture available now: 1; no legal move: 0; a draw: 0). Win and Loss
// distances never exceed the tables' no-capture limit.
struct TableValue {
    TableClass cls = TableClass::Draw;
    int distance = 0;
    friend bool operator==(const TableValue&, const TableValue&) = default;
};

// The value for the mover of a move whose resulting position (opponent to move, counter reset by
// a capture) has the value `after`; `captures_all` when the move takes the last enemy piece
// (`after` is then ignored). A win or loss longer than `limit` becomes cursed / blessed.
TableValue value_of_move(bool is_capture, bool captures_all, const TableValue& after,
                         int limit = kTableTurnLimit);

// An order on values for the side to move: larger is better (a quicker win, a longer loss).
long table_rank(const TableValue& v);

// The value negated (the opponent's view of the same outcome).
TableClass negate(TableClass c);

// True when tables built for no-capture limit `limit` answer for games under these rules: the
// standard rule set with the no-capture limit off or equal to `limit`.
bool tables_apply(const Rules& rules, int limit = kTableTurnLimit);

// The outcome for the side to move in a game under `rules` (for which tables_apply holds) with
// the position's no-capture counter: +1 a forced win, -1 a forced loss, 0 a draw.
int table_outcome(const TableValue& v, const Rules& rules, int turns_since_capture);

// Read access to endgame tables. Implementations are immutable after construction and safe to
// probe from several threads at once.
class EndgameProbe {
public:
    virtual ~EndgameProbe() = default;
    // The largest total piece count all of whose materials are in the tables (0: none).
    virtual int max_pieces(Variant v) const = 0;
    // The no-capture limit the tables were built for.
    virtual int turn_limit() const { return kTableTurnLimit; }
    // True when the tables answer for games under `rules` (see tables_apply).
    bool serve(const Rules& rules) const { return tables_apply(rules, turn_limit()); }
    // Why the tables cannot serve games under `rules` ("" when they can): other rules or another
    // no-capture limit (see serve), and, for implementations that know, tables of another board
    // only or a table of the board that a missing table makes unusable. Setting up a game with
    // tables asks this once and refuses a non-empty answer.
    virtual std::string unusable_for(const Rules& rules) const;
    // The value of `pos` (standard rules, counter ignored), or nullopt when not in the tables.
    virtual std::optional<TableValue> probe(const Position& pos) const = 0;
};

// One legal move with its value for the mover.
struct TableMove {
    Move move;
    TableValue value;
};

// The value for the mover of playing `m` in `pos`, from the tables' value of the position it
// leads to; nullopt when that position is not in the tables.
std::optional<TableValue> table_value_of_move(const EndgameProbe& tables, const Position& pos,
                                              const Move& m);

// Every legal move of `pos` (standard rules) with its value, best first (ties in generation
// order); nullopt when a position after a move is not in the tables. The position's own value
// is the first move's value (or Loss 0 without moves: an empty list).
std::optional<std::vector<TableMove>> rank_table_moves(const EndgameProbe& tables,
                                                       const Position& pos);

} // namespace fanorona
