#include "core/board/symmetry.h"

namespace fanorona {

namespace {

std::array<BoardSymmetries, kVariantCount> make_symmetries() {
    std::array<BoardSymmetries, kVariantCount> all{};
    for (std::size_t v = 0; v < all.size(); ++v) {
        const Geometry& g = kGeometries[v];
        const int w = g.width, h = g.height;
        BoardSymmetries& out = all[v];
        out.count = 0;
        const int maps = w == h ? 8 : 4;
        for (int k = 0; k < maps; ++k) {
            std::array<std::int8_t, 64> m{};
            for (auto& x : m) x = -1;
            for (int y = 0; y < h; ++y)
                for (int x = 0; x < w; ++x) {
                    int nx = (k & 1) ? w - 1 - x : x, ny = (k & 2) ? h - 1 - y : y;
                    if (k & 4) {
                        const int t = nx;
                        nx = ny;
                        ny = t;
                    }
                    m[std::size_t(g.square(x, y))] = std::int8_t(g.square(nx, ny));
                }
            // Kept only when every line maps onto a line.
            bool lines = true;
            for (int d = 0; d < kDirections; ++d)
                for (int s = 0; s < 64; ++s) {
                    const int q = g.neighbor[std::size_t(d)][std::size_t(s)];
                    if (q < 0) continue;
                    bool found = false;
                    for (int e = 0; e < kDirections; ++e)
                        if (g.neighbor[std::size_t(e)][std::size_t(m[std::size_t(s)])] ==
                            m[std::size_t(q)])
                            found = true;
                    if (!found) lines = false;
                }
            if (lines) out.map[std::size_t(out.count++)] = m;
        }
    }
    return all;
}

} // namespace

const BoardSymmetries& board_symmetries(Variant v) {
    static const std::array<BoardSymmetries, kVariantCount> all = make_symmetries();
    return all[std::size_t(v)];
}

Position mirror_files(const Position& p) {
    const Variant v = p.variant();
    return Position::from_pieces(v, mirror_files(p.pieces(Color::White), v),
                                 mirror_files(p.pieces(Color::Black), v), p.side_to_move(),
                                 p.turns_since_capture(), p.turn());
}

} // namespace fanorona
