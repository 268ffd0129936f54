// Enumeration of a game graph and its retrograde solution (see solve_graph.h). The root is always
// expanded (its moves get values even when the tables hold it).

#include "core/solver/solve_graph.h"

#include <deque>

namespace fanorona {

std::optional<GameGraph> solve_graph(const Position& root, const Rules& rules,
                                     const EndgameProbe* tables, int table_pieces,
                                     std::size_t max_positions, std::uint64_t& nodes,
                                     const std::function<bool()>& stop) {
    GameGraph g;
    std::vector<Position> positions{root};
    std::vector<std::int8_t> known{2}; // 2: not known before the retrograde step
    std::vector<int> first{0};         // successors of node i: succ[first[i] .. first[i + 1])
    std::vector<int> succ;
    g.index.emplace(root.hash(), 0);
    MoveList moves;
    for (std::size_t i = 0; i < positions.size(); ++i) {
        const Position pos = positions[i];
        if (++nodes % kGraphStopInterval == 0 && stop && stop()) return std::nullopt;
        const Bitboard all = pos.player() | pos.opponent();
        std::optional<TableValue> tv;
        if (i > 0 && tables && pos.player() && pos.opponent() && popcount(all) <= table_pieces)
            tv = tables->probe(pos);
        if (tv) {
            known[i] = std::int8_t(table_outcome(*tv, rules, 0));
        } else {
            generate_moves(pos, rules, moves);
            if (moves.empty()) known[i] = -1;
            for (const Move& m : moves) {
                Position next = pos;
                next.make_move(m);
                const auto [it, added] = g.index.emplace(next.hash(), int(positions.size()));
                if (added) {
                    if (positions.size() >= max_positions) return std::nullopt;
                    positions.push_back(next);
                    known.push_back(2);
                }
                succ.push_back(it->second);
            }
        }
        first.push_back(int(succ.size()));
    }
    if (stop && stop()) return std::nullopt;
    const int n = int(positions.size());
    positions = {};
    // Predecessors (as a compressed list) and the count of successors not yet lost for the
    // opponent.
    std::vector<int> pfirst(n + 1, 0), pred(succ.size()), open(n);
    for (int s : succ) ++pfirst[s + 1];
    for (int i = 0; i < n; ++i) pfirst[i + 1] += pfirst[i];
    std::vector<int> fill(pfirst.begin(), pfirst.end() - 1);
    for (int i = 0; i < n; ++i) {
        open[i] = first[i + 1] - first[i];
        for (int k = first[i]; k < first[i + 1]; ++k) pred[fill[succ[k]]++] = i;
    }
    g.value.assign(n, 0);
    g.level.assign(n, 0);
    std::deque<int> queue;
    for (int i = 0; i < n; ++i)
        if (known[i] != 2) {
            g.value[i] = known[i];
            if (known[i] != 0) queue.push_back(i);
        }
    std::vector<std::uint8_t> decided(n, 0);
    for (int i = 0; i < n; ++i) decided[i] = known[i] != 2;
    // Breadth-first by level: a win at the first lost successor (the shortest), a loss when the
    // last successor turns out won for the opponent (the longest).
    while (!queue.empty()) {
        const int c = queue.front();
        queue.pop_front();
        for (int k = pfirst[c]; k < pfirst[c + 1]; ++k) {
            const int p = pred[k];
            if (decided[p]) continue;
            if (g.value[c] == -1) {
                g.value[p] = 1, g.level[p] = g.level[c] + 1, decided[p] = 1;
                queue.push_back(p);
            } else if (--open[p] == 0) {
                g.value[p] = -1, g.level[p] = g.level[c] + 1, decided[p] = 1;
                queue.push_back(p);
            }
        }
    }
    return g;
}

} // namespace fanorona
