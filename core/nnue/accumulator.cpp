#include "core/nnue/accumulator.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "core/nnue/simd.h"

namespace fanorona::nnue {

namespace {

static_assert(std::has_single_bit(unsigned(kQL2)) && std::has_single_bit(unsigned(kQL2Int8)),
              "evaluate() divides by the second layer's scale with a shift");

const std::int16_t* weight_row(const Network& net, int feature) {
    return net.w1.data() + std::size_t(feature) * std::size_t(net.arch.hidden);
}

} // namespace

void refresh(const Network& net, const Position& pos, Accumulator& a) {
    const int h = net.arch.hidden;
    for (const Color persp : {Color::White, Color::Black}) {
        std::int16_t* v = a.values[std::size_t(persp)].data();
        ActiveFeatures active;
        active_features(pos, net.arch.features, persp, active);
        std::array<const std::int16_t*, kMaxActive> rows;
        for (int i = 0; i < active.size; ++i)
            rows[std::size_t(i)] = weight_row(net, active.index[std::size_t(i)]);
        apply_rows(v, net.b1.data(), rows.data(), active.size, nullptr, 0, h);
    }
}

void copy_accumulator(const Network& net, const Accumulator& from, Accumulator& to) {
    const auto bytes = std::size_t(net.arch.hidden) * sizeof(std::int16_t);
    for (int p = 0; p < 2; ++p)
        std::memcpy(to.values[std::size_t(p)].data(), from.values[std::size_t(p)].data(), bytes);
}

void update(const Network& net, const Accumulator& from, Accumulator& to, Color mover,
            const Move& m, const PieceSets& before) {
    const int h = net.arch.hidden;
    for (const Color persp : {Color::White, Color::Black}) {
        FeatureDelta d;
        move_delta(net.arch.variant, net.arch.features, persp, mover, m, before, d);
        std::array<const std::int16_t*, kMaxActive> added, removed;
        for (int i = 0; i < d.added_size; ++i)
            added[std::size_t(i)] = weight_row(net, d.added[std::size_t(i)]);
        for (int i = 0; i < d.removed_size; ++i)
            removed[std::size_t(i)] = weight_row(net, d.removed[std::size_t(i)]);
        apply_rows(to.values[std::size_t(persp)].data(), from.values[std::size_t(persp)].data(),
                   added.data(), d.added_size, removed.data(), d.removed_size, h);
    }
}

int evaluate(const Network& net, const Accumulator& a, Color stm, int pieces) {
    const Architecture& arch = net.arch;
    const int h = arch.hidden;
    const int bucket = output_bucket(pieces, arch.buckets, start_pieces(arch.variant));
    const std::int16_t* own = a.values[std::size_t(stm)].data();
    const std::int16_t* other = a.values[std::size_t(~stm)].data();
    // Row r of w2 over both perspectives' activations (network.h's out formula).
    const auto row_sum = [&](int r) {
        const std::int16_t* w2 = net.w2.data() + std::size_t(r) * 2 * std::size_t(h);
        return std::int64_t(net.b2[std::size_t(r)]) +
               (arch.activation == Activation::SCReLU
                    ? (screlu_dot(own, w2, h, arch.qa) + screlu_dot(other, w2 + h, h, arch.qa)) /
                          arch.qa
                    : crelu_dot(own, w2, h, arch.qa) + crelu_dot(other, w2 + h, h, arch.qa));
    };
    std::int64_t out = 0;
    if (arch.layer2 == 0) {
        out = row_sum(bucket);
    } else {
        const std::int16_t* w3 = net.w3.data() + std::size_t(bucket * arch.layer2);
        std::array<std::int32_t, kMaxLayer2> z;
        if (arch.layer2_int8)
            crelu_rows_int8(z.data(), own, other, net.w2.int8().data(), arch.layer2, h, arch.qa);
        else
            crelu_rows(z.data(), own, other, net.w2.data(), arch.layer2, h, arch.qa);
        // h_i = clamp((zq_i + q2 / 2) / q2, 0, QA) with a shift for the division: q2 is a power
        // of two, and a shift rounds down where the division truncates toward zero, which
        // differ only below zero, where the clamp makes both 0. (An idiv per unit was a third
        // of this function's time.)
        const std::int64_t q2 = w2_scale(arch);
        const int q2_shift = std::countr_zero(std::uint64_t(q2));
        out = net.b3[std::size_t(bucket)];
        for (int i = 0; i < arch.layer2; ++i) {
            const std::int64_t zq = net.b2[std::size_t(i)] + z[std::size_t(i)];
            out += std::clamp<std::int64_t>((zq + q2 / 2) >> q2_shift, 0, arch.qa) * w3[i];
        }
    }
    return int(out * arch.scale / (std::int64_t(arch.qa) * arch.qb));
}

AccumulatorStack::AccumulatorStack() = default;

void AccumulatorStack::reset(const Network& net, const Position& pos) {
    top_ = 0;
    refresh(net, pos, entries_[0].acc);
    entries_[0].computed = true;
}

void AccumulatorStack::push(const Position& before, const Move& m) {
    Entry& e = entries_[std::size_t(++top_)];
    e.move = m;
    e.before = piece_sets(before);
    e.mover = before.side_to_move();
    e.null_move = false;
    e.computed = false;
}

void AccumulatorStack::push_null() {
    Entry& e = entries_[std::size_t(++top_)];
    e.null_move = true;
    e.computed = false;
}

const Accumulator& AccumulatorStack::current(const Network& net) {
    int i = top_;
    while (!entries_[std::size_t(i)].computed) --i;
    for (++i; i <= top_; ++i) {
        Entry& e = entries_[std::size_t(i)];
        const Accumulator& parent = entries_[std::size_t(i - 1)].acc;
        if (e.null_move)
            copy_accumulator(net, parent, e.acc);
        else
            update(net, parent, e.acc, e.mover, e.move, e.before);
        e.computed = true;
    }
    return entries_[std::size_t(top_)].acc;
}

} // namespace fanorona::nnue
