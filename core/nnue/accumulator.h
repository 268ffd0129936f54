#pragma once
// The accumulator: the hidden layer's pre-activations of both perspectives, a full refresh from
// a position and the incremental update over one move; and the stack of them a search keeps
// (one entry per ply, updated lazily: an entry is computed from its parent only when evaluated).

#include <array>
#include <cstdint>

#include "core/nnue/features.h"
#include "core/nnue/network.h"

namespace fanorona::nnue {

// a_P[j] = b1q[j] + sum over P's active inputs f of w1q[f][j], by perspective (Color), for
// j < H (the entries from H on are unused). int16 arithmetic wraps as on the SIMD path.
struct Accumulator {
    alignas(64) std::array<std::array<std::int16_t, kMaxHidden>, 2> values;
};

// a = the accumulator of `pos` (full refresh).
void refresh(const Network& net, const Position& pos, Accumulator& a);
// `to` = `from` after `m`, played by `mover` from a position with pieces `before` (a real move:
// a pass changes no input, see copy_accumulator).
void update(const Network& net, const Accumulator& from, Accumulator& to, Color mover,
            const Move& m, const PieceSets& before);
void copy_accumulator(const Network& net, const Accumulator& from, Accumulator& to);

// The integer evaluation from a position's accumulator (side to move `stm`, `pieces` on board).
int evaluate(const Network& net, const Accumulator& a, Color stm, int pieces);

// One accumulator per ply of a search, each known by how it follows from the one below: the
// stack's bottom is refreshed from the root position, and push()es record moves whose updates
// are applied when an evaluation needs them. Allocates nothing after construction.
class AccumulatorStack {
public:
    static constexpr int kCapacity = 160;
    AccumulatorStack();
    // Empties the stack down to `pos`, refreshed.
    void reset(const Network& net, const Position& pos);
    // Records `m`, played from `before` (by its side to move).
    void push(const Position& before, const Move& m);
    // Records a null move (no change of pieces).
    void push_null();
    void pop() { --top_; }
    int size() const { return top_ + 1; }
    // The accumulator of the current position, applying the pending updates.
    const Accumulator& current(const Network& net);

private:
    struct Entry {
        Accumulator acc;
        Move move{0, 0, 0};
        PieceSets before{};
        Color mover = Color::White;
        bool null_move = false;
        bool computed = false;
    };
    std::array<Entry, kCapacity> entries_;
    int top_ = 0;
};

} // namespace fanorona::nnue
