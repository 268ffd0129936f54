#include "tools/report/svg_board.h"

#include <cmath>

#include "tools/report/html.h"

namespace fanorona::report {

namespace {

struct Layout {
    int spacing;
    int margin;
    const Geometry& g;
    double x(Square s) const { return margin + g.file(s) * spacing; }
    double y(Square s) const { return margin + (g.height - 1 - g.rank(s)) * spacing; }
};

std::string line(double x1, double y1, double x2, double y2) {
    return fmt("M%.1f %.1fL%.1f %.1f", x1, y1, x2, y2);
}

} // namespace

BoardPoint board_point(const Geometry& g, Square s, int spacing) {
    const Layout L{spacing, spacing * 2 / 3 + 6, g};
    return {L.x(s), L.y(s)};
}

BoardMarks move_marks(const Position& before, const Rules& rules, const Move& m) {
    BoardMarks marks;
    marks.captured = m.captured;
    marks.captured_color = ~before.side_to_move();
    marks.path.push_back(m.from);
    if (m.from == m.to) return marks; // a Fanoron-telo placement: no path to draw
    const StepPath path = find_path(before, rules, m);
    for (int i = 0; i < path.length; ++i) marks.path.push_back(path.steps[i].to);
    if (path.length == 0) marks.path.push_back(m.to);
    return marks;
}

std::string board_svg(const Position& pos, const BoardMarks& marks, const std::string& caption,
                      int spacing) {
    const Geometry& g = pos.geo();
    const Layout L{spacing, spacing * 2 / 3 + 6, g};
    const int width = 2 * L.margin + (g.width - 1) * spacing;
    const int height = 2 * L.margin + (g.height - 1) * spacing;
    std::string out = fmt("<svg class=\"board\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
                          "height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\"",
                          width, height, width, height);
    out += " aria-label=\"" + esc(pos.to_string()) + "\" data-position=\"" + esc(pos.to_string()) +
           "\">";
    out += "<title>" + esc(caption.empty() ? pos.to_string() : caption) + "</title>";
    out += fmt("<rect class=\"wood\" x=\"1\" y=\"1\" width=\"%d\" height=\"%d\" rx=\"6\"/>",
               width - 2, height - 2);
    // Lines: every orthogonal link once, and the diagonals leaving strong points up-right and
    // up-left (each diagonal link joins two strong points, so this draws each once).
    std::string d;
    for (Square s = 0; s < 64; ++s) {
        if (!g.on_board(s)) continue;
        for (Direction dir : {North, East, NorthEast, NorthWest}) {
            const Square t = g.neighbor[dir][s];
            if (t != kNoSquare) d += line(L.x(s), L.y(s), L.x(t), L.y(t));
        }
    }
    out += "<path class=\"lines\" d=\"" + d + "\"/>";
    // Coordinates.
    for (int x = 0; x < g.width; ++x)
        out += fmt("<text class=\"coord\" x=\"%.1f\" y=\"%d\">%c</text>", L.x(g.square(x, 0)),
                   height - 4, char('a' + x));
    for (int y = 0; y < g.height; ++y)
        out += fmt("<text class=\"coord\" x=\"5\" y=\"%.1f\">%d</text>", L.y(g.square(0, y)) + 4,
                   y + 1);
    const double r = spacing * 0.36;
    // The last move: start point ringed, path as a polyline, arrowhead at the end.
    if (marks.path.size() >= 2) {
        out += fmt("<circle class=\"from\" cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\"/>",
                   L.x(marks.path[0]), L.y(marks.path[0]), r * 1.05);
        std::string pts;
        for (Square s : marks.path) pts += fmt("%.1f,%.1f ", L.x(s), L.y(s));
        out += "<polyline class=\"move\" points=\"" + pts + "\"/>";
        const Square a = marks.path[marks.path.size() - 2], b = marks.path.back();
        const double dx = L.x(b) - L.x(a), dy = L.y(b) - L.y(a);
        const double len = std::hypot(dx, dy);
        const double ux = dx / len, uy = dy / len;
        const double tipx = L.x(b) - ux * r * 0.9, tipy = L.y(b) - uy * r * 0.9;
        const double w = spacing * 0.16, back = spacing * 0.3;
        out += fmt("<polygon class=\"arrow\" points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\"/>", tipx,
                   tipy, tipx - ux * back - uy * w, tipy - uy * back + ux * w,
                   tipx - ux * back + uy * w, tipy - uy * back - ux * w);
    }
    // Pieces.
    for (Color c : {Color::White, Color::Black})
        for (Bitboard b = pos.pieces(c); b;) {
            const Square s = pop_lsb(b);
            out += fmt("<circle class=\"piece %s\" cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\"/>",
                       c == Color::White ? "white" : "black", L.x(s), L.y(s), r);
        }
    // Captured pieces: faded, with a red cross.
    for (Bitboard b = marks.captured; b;) {
        const Square s = pop_lsb(b);
        const double x = L.x(s), y = L.y(s), k = r * 0.7;
        // A point the capturing piece later stepped onto keeps that piece: only the cross.
        const bool occupied = (pos.pieces(Color::White) | pos.pieces(Color::Black)) & bit(s);
        out += "<g class=\"captured\">";
        if (!occupied)
            out += fmt("<circle class=\"piece %s\" cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\"/>",
                       marks.captured_color == Color::White ? "white" : "black", x, y, r);
        out += fmt("<path d=\"M%.1f %.1fL%.1f %.1fM%.1f %.1fL%.1f %.1f\"/></g>", x - k, y - k,
                   x + k, y + k, x - k, y + k, x + k, y - k);
    }
    return out + "</svg>";
}

} // namespace fanorona::report
