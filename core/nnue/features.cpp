#include "core/nnue/features.h"

#include <bit>
#include <memory>

namespace fanorona::nnue {

namespace {

LineTable make_line_table(Variant v) {
    const Geometry& g = geometry(v);
    const int cells = g.points;
    LineTable t;
    std::array<std::array<std::int8_t, 3>, kMaxLines> sq{};
    for (int c = 0; c < cells; ++c) {
        const Square s = square_of(g, c);
        for (const Direction d : {East, North, NorthEast, NorthWest}) {
            const Square n1 = g.neighbor[std::size_t(d)][std::size_t(s)];
            if (n1 == kNoSquare) continue;
            const Square n2 = g.neighbor[std::size_t(d)][std::size_t(n1)];
            if (n2 == kNoSquare) continue;
            const auto l = std::size_t(t.count++);
            sq[l] = {std::int8_t(s), std::int8_t(n1), std::int8_t(n2)};
        }
    }
    // The 180-degree rotation maps a line (a, b, c) onto the line (rot c, rot b, rot a) of the
    // same direction: Black's number of line l is that line's, its digits run from c to a.
    const auto rot = [&](std::int8_t s) {
        return std::int8_t(square_of(g, cells - 1 - cell_of(g, s)));
    };
    for (int l = 0; l < t.count; ++l) {
        const auto& p = sq[std::size_t(l)];
        int black_line = -1;
        for (int r = 0; r < t.count; ++r)
            if (sq[std::size_t(r)] == std::array<std::int8_t, 3>{rot(p[2]), rot(p[1]), rot(p[0])})
                black_line = r;
        const auto base = [&](int line) {
            return std::uint16_t(2 * cells + kLineConfigs * line - 1);
        };
        t.view[std::size_t(Color::White)][std::size_t(l)] = {base(l), p};
        t.view[std::size_t(Color::Black)][std::size_t(l)] = {base(black_line), {p[2], p[1], p[0]}};
        for (const std::int8_t s : p) {
            auto& n = t.lines_of_count[std::size_t(s)];
            t.lines_of[std::size_t(s)][n++] = std::uint8_t(l);
        }
    }
    return t;
}

void point_features(const Position& pos, Color perspective, ActiveFeatures& out) {
    const Geometry& g = pos.geo();
    for (const Color owner : {Color::White, Color::Black})
        for (Bitboard b = pos.pieces(owner); b;)
            out.index[std::size_t(out.size++)] =
                std::uint16_t(point_feature(g, perspective, owner, pop_lsb(b)));
}

} // namespace

const LineTable& line_table(Variant v) {
    static const std::unique_ptr<const std::array<LineTable, kVariantCount>> tables = [] {
        auto t = std::make_unique<std::array<LineTable, kVariantCount>>();
        for (int v = 0; v < kVariantCount; ++v) (*t)[std::size_t(v)] = make_line_table(Variant(v));
        return std::unique_ptr<const std::array<LineTable, kVariantCount>>(std::move(t));
    }();
    return (*tables)[std::size_t(v)];
}

void active_features(const Position& pos, FeatureSet features, Color perspective,
                     ActiveFeatures& out) {
    out.size = 0;
    point_features(pos, perspective, out);
    if (features != FeatureSet::PointsLines) return;
    const LineTable& t = line_table(pos.variant());
    const Bitboard own = pos.pieces(perspective), other = pos.pieces(~perspective);
    const auto& views = t.view[std::size_t(perspective)];
    for (int l = 0; l < t.count; ++l) {
        const LineTable::View& view = views[std::size_t(l)];
        if (const int config = line_config(view, own, other); config != 0)
            out.index[std::size_t(out.size++)] = std::uint16_t(view.base + config);
    }
}

void move_delta(Variant v, FeatureSet features, Color perspective, Color mover, const Move& m,
                const PieceSets& before, FeatureDelta& out) {
    const Geometry& g = geometry(v);
    out.removed_size = 0;
    out.added_size = 0;
    if (m.from != m.to)
        out.removed[std::size_t(out.removed_size++)] =
            std::uint16_t(point_feature(g, perspective, mover, m.from));
    out.added[std::size_t(out.added_size++)] =
        std::uint16_t(point_feature(g, perspective, mover, m.to));
    for (Bitboard c = m.captured; c;)
        out.removed[std::size_t(out.removed_size++)] =
            std::uint16_t(point_feature(g, perspective, ~mover, pop_lsb(c)));
    if (features != FeatureSet::PointsLines) return;

    // The lines through a changed point, each once, and their configs before and after.
    const LineTable& t = line_table(v);
    const Bitboard moved = bit(m.from) | bit(m.to);
    std::array<std::uint64_t, kMaxLines / 64> touched{};
    for (Bitboard c = moved | m.captured; c;) {
        const auto s = std::size_t(pop_lsb(c));
        for (int i = 0; i < t.lines_of_count[s]; ++i) {
            const unsigned l = t.lines_of[s][std::size_t(i)];
            touched[l / 64] |= std::uint64_t(1) << (l % 64);
        }
    }
    const Bitboard mover_before = before[std::size_t(mover)];
    const Bitboard other_before = before[std::size_t(~mover)];
    const Bitboard mover_after = (mover_before & ~bit(m.from)) | bit(m.to);
    const Bitboard other_after = other_before & ~m.captured;
    const bool own_moves = perspective == mover;
    const Bitboard own_before = own_moves ? mover_before : other_before;
    const Bitboard opp_before = own_moves ? other_before : mover_before;
    const Bitboard own_after = own_moves ? mover_after : other_after;
    const Bitboard opp_after = own_moves ? other_after : mover_after;
    const auto& views = t.view[std::size_t(perspective)];
    for (std::size_t w = 0; w < touched.size(); ++w)
        for (std::uint64_t bits = touched[w]; bits; bits &= bits - 1) {
            const std::size_t l = w * 64 + std::size_t(std::countr_zero(bits));
            const LineTable::View& view = views[l];
            const int old_config = line_config(view, own_before, opp_before);
            const int new_config = line_config(view, own_after, opp_after);
            if (old_config == new_config) continue;
            if (old_config != 0)
                out.removed[std::size_t(out.removed_size++)] =
                    std::uint16_t(view.base + old_config);
            if (new_config != 0)
                out.added[std::size_t(out.added_size++)] = std::uint16_t(view.base + new_config);
        }
}

} // namespace fanorona::nnue
