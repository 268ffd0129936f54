// The game browser's part of the report page's script: builds the table of games from the
// browser's JSON (game_browser in games_view.cpp), filters it, and shows a clicked game's moves
// with their scores, depths, times and nodes, a chart of the scores and its engine log lines.

#include "tools/report/sections.h"

namespace fanorona::report {

const char* const kBrowserScript = R"JS(
  Array.prototype.forEach.call(document.querySelectorAll('.game-browser'), function (gb) {
    var holder = gb.querySelector('.gb-data');
    if (!holder) return;
    var data = JSON.parse(holder.textContent);
    var results = ['1-0', '\u00bd-\u00bd', '0-1'];
    var playerSel = gb.querySelector('.gb-player'), resultSel = gb.querySelector('.gb-result'),
        reasonSel = gb.querySelector('.gb-reason'), openingIn = gb.querySelector('.gb-opening'),
        count = gb.querySelector('.gb-count'), tbody = gb.querySelector('.gb-games tbody'),
        view = gb.querySelector('.gb-view');
    function el(name, cls, text) {
      var e = document.createElement(name);
      if (cls) e.className = cls;
      if (text !== undefined && text !== null) e.textContent = String(text);
      return e;
    }
    function option(sel, value, text) { var o = el('option', null, text); o.value = value; sel.appendChild(o); }
    option(playerSel, '', 'any');
    data.players.forEach(function (p, i) { option(playerSel, String(i), p); });
    function fillResults() {
      var keep = resultSel.value;
      while (resultSel.firstChild) resultSel.removeChild(resultSel.firstChild);
      option(resultSel, '', 'any');
      option(resultSel, 'w', 'White wins'); option(resultSel, 'd', 'draw'); option(resultSel, 'b', 'Black wins');
      if (playerSel.value !== '') { option(resultSel, 'won', 'the player won'); option(resultSel, 'lost', 'the player lost'); }
      resultSel.value = Array.prototype.some.call(resultSel.options, function (o) { return o.value === keep; }) ? keep : '';
    }
    fillResults();
    option(reasonSel, '', 'any');
    data.reasons.forEach(function (r, i) { option(reasonSel, String(i), r); });
    function matches(g) {
      var p = playerSel.value === '' ? -1 : Number(playerSel.value);
      if (p >= 0 && g[1] !== p && g[2] !== p) return false;
      var r = resultSel.value;
      if (r === 'w' && g[3] !== 0) return false;
      if (r === 'd' && g[3] !== 1) return false;
      if (r === 'b' && g[3] !== 2) return false;
      if (r === 'won' && !((g[1] === p && g[3] === 0) || (g[2] === p && g[3] === 2))) return false;
      if (r === 'lost' && !((g[1] === p && g[3] === 2) || (g[2] === p && g[3] === 0))) return false;
      if (reasonSel.value !== '' && g[4] !== Number(reasonSel.value)) return false;
      var o = openingIn.value.trim();
      if (o && data.openings[g[6]].indexOf(o) < 0) return false;
      return true;
    }
    function draw() {
      while (tbody.firstChild) tbody.removeChild(tbody.firstChild);
      var shown = 0, n = 0;
      data.games.forEach(function (g, k) {
        if (!matches(g)) return;
        ++n;
        if (shown >= data.max_rows) return;
        ++shown;
        var tr = el('tr', 'gb-row');
        tr.setAttribute('data-game', String(g[0]));
        tr.setAttribute('data-row', String(k));
        [g[0], data.players[g[1]], data.players[g[2]], results[g[3]], data.reasons[g[4]], g[5],
         data.openings[g[6]]].forEach(function (v, i) {
          tr.appendChild(el('td', i === 0 || i === 5 ? 'num' : null, v));
        });
        tbody.appendChild(tr);
      });
      count.textContent = n + ' of ' + data.games.length + ' games' +
        (shown < n ? ' (the first ' + shown + ' listed: narrow the filter)' : '');
    }
    function scoreChart(d) {
      var ns = 'http://www.w3.org/2000/svg', w = 640, h = 160, clip = 1500;
      var svg = document.createElementNS(ns, 'svg');
      svg.setAttribute('class', 'chart gb-scores'); svg.setAttribute('width', w); svg.setAttribute('height', h);
      var pts = [], n = d.s.length;
      d.s.forEach(function (v, i) {
        if (v === null) return;
        v = Math.max(-clip, Math.min(clip, v));
        pts.push((20 + (w - 30) * (n > 1 ? i / (n - 1) : 0.5)).toFixed(1) + ',' + (h / 2 - v / clip * (h / 2 - 8)).toFixed(1));
      });
      var zero = document.createElementNS(ns, 'line');
      zero.setAttribute('x1', 20); zero.setAttribute('x2', w - 10); zero.setAttribute('y1', h / 2); zero.setAttribute('y2', h / 2);
      zero.setAttribute('class', 'ref'); zero.setAttribute('stroke', '#888');
      svg.appendChild(zero);
      var line = document.createElementNS(ns, 'polyline');
      line.setAttribute('points', pts.join(' ')); line.setAttribute('class', 'series'); line.setAttribute('stroke', '#b8452f');
      svg.appendChild(line);
      return pts.length ? svg : null;
    }
    function show(k) {
      var g = data.games[k];
      Array.prototype.forEach.call(tbody.querySelectorAll('tr.selected'), function (t) { t.classList.remove('selected'); });
      var row = tbody.querySelector('tr[data-row="' + k + '"]');
      if (row) row.classList.add('selected');
      while (view.firstChild) view.removeChild(view.firstChild);
      view.setAttribute('data-game', String(g[0]));
      view.appendChild(el('p', 'viewer-head', 'Game ' + g[0] + ': ' + data.players[g[1]] + ' (White) against ' +
        data.players[g[2]] + ' (Black), ' + results[g[3]] + ' by ' + data.reasons[g[4]] + ' after ' + g[5] + ' turns; opening ' + data.openings[g[6]] + '.'));
      if (g[7] < 0) { view.appendChild(el('p', 'note', 'The moves of this game are not in the page (only the first games\u2019 are).')); return; }
      var d = data.details[g[7]];
      var chart = scoreChart(d);
      if (chart) { view.appendChild(el('p', 'note', 'Search scores (White\u2019s view, \u00b11500 at the edges):')); view.appendChild(chart); }
      var table = el('table', 'data gb-moves'), head = el('tr');
      var heads = ['turn', 'side', 'move', 'score', 'depth', 'ms', 'nodes'];
      if (d.c) heads.push('clock ms');
      heads.forEach(function (h) { head.appendChild(el('th', null, h)); });
      var thead = el('thead'); thead.appendChild(head); table.appendChild(thead);
      var body = el('tbody');
      function cell(a, i) { return a && a[i] !== null && a[i] !== undefined ? a[i] : '\u2013'; }
      d.m.forEach(function (m, i) {
        var tr = el('tr');
        var white = (i % 2 === 0) === (d.w === 1);
        var cells = [i + 1, white ? 'White' : 'Black', m, cell(d.s, i), cell(d.d, i), cell(d.t, i), cell(d.n, i)];
        if (d.c) cells.push(cell(d.c, i));
        cells.forEach(function (v, c) {
          tr.appendChild(el('td', c === 2 || c === 1 ? null : 'num', v));
        });
        body.appendChild(tr);
      });
      table.appendChild(body);
      var moves = el('div', 'gb-moves-box'); moves.appendChild(table); view.appendChild(moves);
      if (data.log) {
        view.appendChild(el('h4', null, 'Engine log'));
        if (!d.log || !d.log.length) view.appendChild(el('p', 'note', 'No lines of this game in the engine log (built-in players write none).'));
        else {
          var pre = el('pre', 'gb-log', d.log.map(function (l) { return l[0] + '\t' + l[1] + '\t' + l[2] + '\t' + l[3]; }).join('\n'));
          view.appendChild(pre);
          if (d.more) view.appendChild(el('p', 'note', d.more + ' more lines of this game are in the log file.'));
        }
      }
    }
    tbody.addEventListener('click', function (e) {
      var tr = e.target.closest('tr.gb-row');
      if (tr) show(Number(tr.getAttribute('data-row')));
    });
    playerSel.addEventListener('change', function () { fillResults(); draw(); });
    [resultSel, reasonSel].forEach(function (s) { s.addEventListener('change', draw); });
    openingIn.addEventListener('input', draw);
    draw();
  });
)JS";

} // namespace fanorona::report
