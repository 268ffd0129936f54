#include "selfplay/openings/opening_book.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "core/board/movegen.h"

namespace fanorona {

ScoreRange parse_range(const std::string& text, const std::string& option) {
    const auto colon = text.find(':');
    const auto bad = [&](const std::string& why) {
        return std::invalid_argument(option + ": '" + text + "': " + why);
    };
    if (colon == std::string::npos) throw bad("expected LOW:HIGH");
    ScoreRange r;
    try {
        std::size_t used = 0;
        const std::string lo = text.substr(0, colon), hi = text.substr(colon + 1);
        r.low = std::stod(lo, &used);
        if (used != lo.size()) throw std::invalid_argument(lo);
        r.high = std::stod(hi, &used);
        if (used != hi.size()) throw std::invalid_argument(hi);
    } catch (const std::logic_error&) {
        throw bad("expected two numbers LOW:HIGH");
    }
    if (!(r.low <= r.high)) throw bad("LOW is greater than HIGH");
    return r;
}

std::string opening_of(const OpeningNode& node, Variant variant) {
    if (node.root != board_string(Position::start(variant))) return node.position;
    if (node.line.empty()) return node.position;
    std::string out;
    for (const auto& m : node.line) out += (out.empty() ? "" : " ") + m;
    return out;
}

std::vector<BookEntry> balanced_book(const OpeningTree& tree, std::uint64_t min_games,
                                     ScoreRange range) {
    std::vector<const OpeningNode*> chosen;
    for (const OpeningNode* n : tree.nodes()) {
        if (n->ply != tree.plies() || n->stats.games < std::max<std::uint64_t>(min_games, 1) ||
            !range.contains(n->stats.score()))
            continue;
        const Position pos = Position::from_string(n->position, tree.rules().variant);
        if (wiped_out(pos) || count_moves(pos, tree.rules()) == 0) continue;
        chosen.push_back(n);
    }
    std::vector<BookEntry> out;
    for (const OpeningNode* n : chosen) out.push_back({opening_of(*n, tree.rules().variant), {}});
    std::vector<std::size_t> order(chosen.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const auto& x = chosen[a]->stats;
        const auto& y = chosen[b]->stats;
        if (x.games != y.games) return x.games > y.games;
        const double dx = std::abs(x.score() - 0.5), dy = std::abs(y.score() - 0.5);
        if (dx != dy) return dx < dy;
        return out[a].opening < out[b].opening;
    });
    std::vector<BookEntry> sorted;
    for (std::size_t i : order) {
        const OpeningStats& s = chosen[i]->stats;
        char buf[160];
        std::snprintf(buf, sizeof buf,
                      "games=%" PRIu64 " score=%.3f W=%" PRIu64 " D=%" PRIu64 " B=%" PRIu64
                      " length=%.1f",
                      s.games, s.score(), s.white_wins, s.draws, s.black_wins, s.avg_length());
        std::string comment = buf;
        if (const auto e = s.avg_eval()) {
            std::snprintf(buf, sizeof buf, " eval=%+.0f", *e);
            comment += buf;
        }
        sorted.push_back({out[i].opening, comment});
    }
    return sorted;
}

std::string format_book(const std::vector<BookEntry>& entries,
                        const std::vector<std::string>& header) {
    std::string out;
    for (const auto& h : header) out += "# " + h + "\n";
    for (const auto& e : entries) {
        out += e.opening;
        if (!e.comment.empty()) out += "  # " + e.comment;
        out += "\n";
    }
    return out;
}

} // namespace fanorona
