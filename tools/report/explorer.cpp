// The opening explorer: the positions of an openings.json document as data for the page's script,
// which shows one position at a time (board, statistics, moves) and moves through the tree.

#include <cmath>

#include "core/board/notation.h"
#include "selfplay/formats/json_text.h"
#include "tools/report/html.h"
#include "tools/report/sections.h"
#include "tools/report/svg_board.h"

namespace fanorona::report {

namespace {

using Json = nlohmann::json;

constexpr int kSpacing = 40; // board_svg's spacing of the explorer's board

// A number rounded to `decimals` places, or null (NaN, missing).
Json rounded(double x, int decimals) {
    if (!std::isfinite(x)) return nullptr;
    const double scale = std::pow(10.0, decimals);
    return std::round(x * scale) / scale;
}

// A count (0 when missing).
Json count(const Json& j, const char* key) {
    const double x = number_at(j, key);
    return std::isfinite(x) && x >= 0 && x < 1e15 ? std::int64_t(x) : 0;
}

// The statistics the script shows of a position or a move.
void add_stats(Json& out, const Json& s) {
    out["g"] = count(s, "games");
    out["w"] = count(s, "white_wins");
    out["d"] = count(s, "draws");
    out["b"] = count(s, "black_wins");
    out["s"] = rounded(number_at(s, "score"), 3);
    out["l"] = rounded(number_at(s, "avg_length"), 1);
    out["e"] = rounded(number_at(s, "avg_eval"), 0);
}

// The board's points in square order, as the script addresses them (by index).
struct BoardIndex {
    Json points = Json::array();
    int index[64];

    explicit BoardIndex(const Geometry& g) {
        for (Square s = 0; s < 64; ++s) {
            index[s] = -1;
            if (!g.on_board(s)) continue;
            index[s] = int(points.size());
            const BoardPoint p = board_point(g, s, kSpacing);
            points.push_back({p.x, p.y});
        }
    }
    // The indices of `squares` on the board.
    template <class Squares> Json indices(const Squares& squares) const {
        Json out = Json::array();
        for (Square s : squares)
            if (s >= 0 && s < 64 && index[s] >= 0) out.push_back(index[s]);
        return out;
    }
};

// One move of a position as the script shows it: statistics, share, and its path and captures
// on the board when it can be read.
Json explorer_move(const Json& m, const Position& pos, const Rules& rules, const BoardIndex& bi) {
    Json mj = {{"n", string_at(m, "move")}, {"k", string_at(m, "child")}};
    add_stats(mj, m);
    mj["sh"] = rounded(number_at(m, "share"), 3);
    try {
        const BoardMarks marks =
            move_marks(pos, rules, parse_move(pos, rules, string_at(m, "move")));
        mj["pa"] = bi.indices(marks.path);
        std::vector<Square> captured;
        for (Bitboard b = marks.captured; b;) captured.push_back(pop_lsb(b));
        mj["ca"] = bi.indices(captured);
    } catch (const std::exception&) {
        // Statistics without the move drawn on the board.
    }
    return mj;
}

// One position (`pos`, read from `p`) as the script shows it: text, cells, side to move, line,
// statistics and moves.
Json explorer_node(const Json& p, const Position& pos, const Geometry& g, const Rules& rules,
                   const BoardIndex& bi) {
    std::string cells;
    for (Square s = 0; s < 64; ++s)
        if (g.on_board(s))
            cells += pos.pieces(Color::White) & bit(s)   ? 'w'
                     : pos.pieces(Color::Black) & bit(s) ? 'b'
                                                         : '.';
    Json node = {{"p", string_at(p, "position")},
                 {"c", cells},
                 {"t", pos.side_to_move() == Color::White ? "w" : "b"},
                 {"line", string_at(p, "line")}};
    add_stats(node, p);
    Json moves = Json::array();
    for (const Json& m : array_at(p, "moves")) moves.push_back(explorer_move(m, pos, rules, bi));
    node["m"] = std::move(moves);
    return node;
}

// The explorer's board and panel, from the first root (`nodes` by key).
std::string explorer_panel(const Json& nodes, const Json& roots, const Rules& rules) {
    const Json& root = nodes[roots[0].get<std::string>()];
    std::string out = "<div class=\"ex-board\">" +
                      board_svg(Position::from_string(root["p"].get<std::string>(), rules.variant),
                                {}, "", kSpacing) +
                      "</div>\n<div class=\"ex-panel\">\n";
    if (roots.size() > 1) {
        out += "<label class=\"ex-roots\">start position <select class=\"ex-root\">";
        for (const Json& r : roots) {
            const Json& n = nodes[r.get<std::string>()];
            out += "<option value=\"" + esc(r.get<std::string>()) + "\">" +
                   esc(n["p"].get<std::string>()) + " (" + num(number_of(n["g"]), 0) +
                   " games)</option>";
        }
        out += "</select></label>\n";
    }
    out += "<div class=\"ex-nav\"><button type=\"button\" class=\"ex-back\" disabled>&larr; "
           "back</button><span class=\"ex-path\"></span></div>\n"
           "<div class=\"ex-info\"><code class=\"ex-position\">" +
           esc(root["p"].get<std::string>()) +
           "</code></div>\n<table class=\"data ex-moves\"><thead><tr><th>move</th><th>games</th>"
           "<th>share</th><th>results (W/D/B)</th><th>score</th><th>length</th><th>eval</th>"
           "</tr></thead><tbody></tbody></table>\n<p class=\"note\">Click a move to play it, "
           "<i>back</i> or a move of the path to return. Score is White's; length is the average "
           "game length in turns; eval the average engine score (centi-pieces, White's view). "
           "Positions are keyed by their hash: a position reached by several move orders is one "
           "position with the games of all of them.</p>\n</div>\n</div>\n";
    return out;
}

} // namespace

std::string opening_explorer(const Json& j, const Rules& rules, const std::string& id,
                             const std::string& source, Notes& notes) {
    const Geometry& g = geometry(rules.variant);
    const BoardIndex bi(g);
    // Step 1. The positions that can be read, by key, and the roots among them.
    Json nodes = Json::object();
    std::size_t unreadable = 0;
    std::string first_problem;
    for (const Json& p : array_at(j, "positions")) {
        const std::string key = string_at(p, "hash");
        Position pos;
        try {
            pos = Position::from_string(string_at(p, "position"), rules.variant);
        } catch (const std::exception& e) {
            if (unreadable++ == 0) first_problem = "position " + key + ": " + e.what();
            continue;
        }
        nodes[key] = explorer_node(p, pos, g, rules, bi);
    }
    Json roots = Json::array();
    for (const Json& r : array_at(j, "roots"))
        if (r.is_string() && nodes.contains(r.get<std::string>())) roots.push_back(r);
    // Step 2. The page: the data for the script, the board and the panel.
    std::string out = "<div class=\"explorer\" id=\"" + esc(id) + "\">\n";
    if (unreadable > 0)
        out += notes.problem(source + ": " + std::to_string(unreadable) +
                             " positions could not be read, the first: " + first_problem);
    if (roots.empty()) return out + "<p class=\"note\">No positions to explore.</p></div>\n";
    const Json data = {{"points", bi.points}, {"r", kSpacing * 0.36},
                       {"spacing", kSpacing}, {"min_games", rounded(number_at(j, "min_games"), 0)},
                       {"roots", roots},      {"nodes", nodes}};
    // Inside <script> only "</" could end the element early; "<" appears only in strings.
    std::string text = to_json_text(data);
    for (std::size_t p = text.find('<'); p != std::string::npos; p = text.find('<', p))
        text.replace(p, 1, "\\u003c");
    out += "<script type=\"application/json\" class=\"ex-data\">" + text + "</script>\n";
    return out + explorer_panel(nodes, roots, rules);
}

const char* const kExplorerScript = R"JS(
  Array.prototype.forEach.call(document.querySelectorAll('.explorer'), function (ex) {
    var holder = ex.querySelector('script.ex-data');
    if (!holder) return;
    var data = JSON.parse(holder.textContent);
    var svg = ex.querySelector('svg.board');
    var body = ex.querySelector('.ex-moves tbody');
    var info = ex.querySelector('.ex-info');
    var pathBox = ex.querySelector('.ex-path');
    var back = ex.querySelector('.ex-back');
    var rootSelect = ex.querySelector('.ex-root');
    var NS = 'http://www.w3.org/2000/svg';
    var incoming = {}; // position key -> moves of the tree leading to it
    Object.keys(data.nodes).forEach(function (k) {
      data.nodes[k].m.forEach(function (m) { incoming[m.k] = (incoming[m.k] || 0) + 1; });
    });
    var path = [{key: data.roots[0], move: null}];

    function svgEl(name, attrs) {
      var e = document.createElementNS(NS, name);
      Object.keys(attrs).forEach(function (a) { e.setAttribute(a, attrs[a]); });
      return e;
    }
    function html(name, cls, text) {
      var e = document.createElement(name);
      if (cls) e.className = cls;
      if (text !== undefined) e.textContent = text;
      return e;
    }
    function fixed(x, d) { return x === null || x === undefined ? '\u2013' : x.toFixed(d); }
    function signed(x) { return x === null || x === undefined ? '\u2013' : (x > 0 ? '+' : '') + x.toFixed(0); }
    function wdl(s) {
      var bar = html('span', 'wdl'), total = s.w + s.d + s.b;
      [['w', s.w, 'White wins'], ['d', s.d, 'draws'], ['b', s.b, 'Black wins']].forEach(function (p) {
        var part = html('span', p[0]);
        var pct = total > 0 ? 100 * p[1] / total : 0;
        part.style.width = pct.toFixed(2) + '%';
        part.title = p[2] + ' ' + p[1] + ' (' + pct.toFixed(1) + '%)';
        bar.appendChild(part);
      });
      return bar;
    }
    function drawBoard(node, move) {
      Array.prototype.forEach.call(svg.querySelectorAll('.piece, .captured, .from, .move, .arrow, g.ex-layer'),
        function (e) { e.parentNode.removeChild(e); });
      var layer = svgEl('g', {'class': 'ex-layer'});
      var pt = data.points, r = data.r;
      if (move && move.pa && move.pa.length >= 2) {
        var a0 = pt[move.pa[0]];
        layer.appendChild(svgEl('circle', {'class': 'from', cx: a0[0], cy: a0[1], r: r * 1.05}));
        layer.appendChild(svgEl('polyline', {'class': 'move', points: move.pa.map(function (i) {
          return pt[i][0] + ',' + pt[i][1]; }).join(' ')}));
        var a = pt[move.pa[move.pa.length - 2]], b = pt[move.pa[move.pa.length - 1]];
        var dx = b[0] - a[0], dy = b[1] - a[1], len = Math.sqrt(dx * dx + dy * dy);
        var ux = dx / len, uy = dy / len, tx = b[0] - ux * r * 0.9, ty = b[1] - uy * r * 0.9;
        var w = data.spacing * 0.16, bk = data.spacing * 0.3;
        layer.appendChild(svgEl('polygon', {'class': 'arrow', points: [tx + ',' + ty,
          (tx - ux * bk - uy * w) + ',' + (ty - uy * bk + ux * w),
          (tx - ux * bk + uy * w) + ',' + (ty - uy * bk - ux * w)].join(' ')}));
      }
      for (var i = 0; i < node.c.length; ++i) {
        if (node.c[i] === '.') continue;
        layer.appendChild(svgEl('circle', {'class': 'piece ' + (node.c[i] === 'w' ? 'white' : 'black'),
          cx: pt[i][0], cy: pt[i][1], r: r}));
      }
      if (move && move.ca) move.ca.forEach(function (i) {
        var x = pt[i][0], y = pt[i][1], k = r * 0.7;
        var g = svgEl('g', {'class': 'captured'});
        if (node.c[i] === '.') // captured pieces belong to the side to move after the move
          g.appendChild(svgEl('circle', {'class': 'piece ' + (node.t === 'w' ? 'white' : 'black'),
            cx: x, cy: y, r: r}));
        g.appendChild(svgEl('path', {d: 'M' + (x - k) + ' ' + (y - k) + 'L' + (x + k) + ' ' + (y + k) +
          'M' + (x - k) + ' ' + (y + k) + 'L' + (x + k) + ' ' + (y - k)}));
        layer.appendChild(g);
      });
      svg.appendChild(layer);
      svg.setAttribute('data-position', node.p);
      svg.setAttribute('aria-label', node.p);
    }
    function render() {
      var here = path[path.length - 1], node = data.nodes[here.key];
      drawBoard(node, here.move);
      back.disabled = path.length < 2;
      pathBox.textContent = '';
      path.forEach(function (step, depth) {
        var b = html('button', 'ex-step', depth === 0 ? 'start' : depth + '. ' + step.move.n);
        b.type = 'button';
        b.setAttribute('data-depth', String(depth));
        if (depth === path.length - 1) b.className += ' current';
        pathBox.appendChild(b);
      });
      info.textContent = '';
      info.appendChild(html('code', 'ex-position', node.p));
      var p = html('p', 'ex-stats');
      p.appendChild(document.createTextNode(node.g + ' games'));
      p.appendChild(wdl(node));
      p.appendChild(document.createTextNode('White ' + node.w + ', draws ' + node.d + ', Black ' +
        node.b + ' \u00b7 score ' + fixed(node.s, 3) + ' \u00b7 average length ' + fixed(node.l, 1) +
        ' turns' + (node.e === null ? '' : ' \u00b7 eval ' + signed(node.e) + ' cp')));
      info.appendChild(p);
      if ((incoming[here.key] || 0) > 1)
        info.appendChild(html('p', 'ex-transposition', 'Transposition: ' + incoming[here.key] +
          ' moves of the tree lead to this position (first seen after: ' + (node.line || 'start') +
          '); its statistics count the games of every move order.'));
      body.textContent = '';
      node.m.forEach(function (m, i) {
        var tr = html('tr', 'ex-row');
        tr.setAttribute('data-index', String(i));
        var known = !!data.nodes[m.k];
        var label = path.length + '. ' + m.n;
        var cell = html('td');
        if (known) {
          var b = html('button', 'ex-move', label);
          b.type = 'button';
          cell.appendChild(b);
        } else {
          tr.className += ' ex-leaf';
          tr.title = 'the position after this move is not in the tree (fewer than ' +
            data.min_games + ' games, or beyond its turns)';
          cell.appendChild(html('span', 'ex-move', label));
        }
        tr.appendChild(cell);
        tr.appendChild(html('td', 'num', String(m.g)));
        var share = html('td', 'num'), bar = html('span', 'share'), fill = html('span');
        fill.style.width = (100 * (m.sh || 0)).toFixed(1) + '%';
        bar.appendChild(fill);
        share.appendChild(document.createTextNode(fixed(100 * (m.sh || 0), 0) + '%'));
        share.appendChild(bar);
        tr.appendChild(share);
        var res = html('td');
        res.appendChild(wdl(m));
        tr.appendChild(res);
        tr.appendChild(html('td', 'num', fixed(m.s, 3)));
        tr.appendChild(html('td', 'num', fixed(m.l, 1)));
        tr.appendChild(html('td', 'num', m.e === null ? '\u2013' : signed(m.e)));
        body.appendChild(tr);
      });
      ex.setAttribute('data-depth', String(path.length - 1));
    }
    body.addEventListener('click', function (e) {
      var tr = e.target.closest('tr.ex-row');
      if (!tr || tr.classList.contains('ex-leaf')) return;
      var here = data.nodes[path[path.length - 1].key];
      var m = here.m[Number(tr.getAttribute('data-index'))];
      path.push({key: m.k, move: m});
      render();
    });
    back.addEventListener('click', function () {
      if (path.length > 1) { path.pop(); render(); }
    });
    pathBox.addEventListener('click', function (e) {
      var b = e.target.closest('button.ex-step');
      if (!b) return;
      path.length = Number(b.getAttribute('data-depth')) + 1;
      render();
    });
    if (rootSelect) rootSelect.addEventListener('change', function () {
      path = [{key: rootSelect.value, move: null}];
      render();
    });
    render();
  });
)JS";

} // namespace fanorona::report
