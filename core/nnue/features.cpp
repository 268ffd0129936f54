#include "core/nnue/features.h"

namespace fanorona::nnue {

void active_features(const Position& pos, FeatureSet features, Color perspective,
                     ActiveFeatures& out) {
    (void)features; // Points is the only set
    const Geometry& g = pos.geo();
    out.size = 0;
    for (const Color owner : {Color::White, Color::Black})
        for (Bitboard b = pos.pieces(owner); b;)
            out.index[std::size_t(out.size++)] =
                std::uint16_t(point_feature(g, perspective, owner, pop_lsb(b)));
}

void move_delta(Variant v, FeatureSet features, Color perspective, Color mover, const Move& m,
                FeatureDelta& out) {
    (void)features;
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
}

} // namespace fanorona::nnue
