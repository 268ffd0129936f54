// make_endings: a suite of won endings (tools/bench/endings.sh plays them). Random placements
// of STRONG pieces against WEAK ones on the tsivy board, reproducible from the seed, kept when
// the position is quiet: neither side has a capture, whoever moves, so the strong side loses
// nothing at once and must make progress by manoeuvring. Half the positions have White as the
// strong side; the side to move alternates. Written as an opening suite (docs/formats.md): one
// position string per line after '#' comment lines.

#include <cstdio>
#include <fstream>
#include <set>

#include <CLI/CLI.hpp>

#include "core/board/movegen.h"
#include "core/board/position.h"
#include "core/common/rng.h"

namespace {

using namespace fanorona;

// True when the side to move in a position with `white`/`black` and `side` to move can capture.
bool can_capture(Bitboard white, Bitboard black, Color side) {
    const Position p = Position::from_pieces(Variant::Tsivy, white, black, side);
    return capturing_pieces(p) != 0;
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app{"Write a suite of won endings (STRONG pieces against WEAK, quiet placements) "
                 "as an opening suite file"};
    int strong = 6, weak = 2, count = 50;
    std::uint64_t seed = 1;
    std::string out;
    app.add_option("--strong", strong, "Pieces of the side ahead")
        ->capture_default_str()
        ->check(CLI::Range(1, 22));
    app.add_option("--weak", weak, "Pieces of the side behind")
        ->capture_default_str()
        ->check(CLI::Range(1, 22));
    app.add_option("--count", count, "Positions to write")
        ->capture_default_str()
        ->check(CLI::Range(1, 100000));
    app.add_option("--seed", seed, "Seed of the placements")->capture_default_str();
    app.add_option("--out", out, "The suite file to write")->required();
    CLI11_PARSE(app, argc, argv);

    const Geometry& g = geometry(Variant::Tsivy);
    std::vector<Square> points;
    for (Bitboard b = g.board; b;) points.push_back(Square(pop_lsb(b)));
    Rng rng(seed);
    std::set<std::string> seen;
    std::vector<std::string> lines;
    for (long attempts = 0; int(lines.size()) < count && attempts < 1000000L * count; ++attempts) {
        Bitboard a = 0, b = 0; // the strong and the weak side's pieces
        while (popcount(a) < strong) a |= bit(points[rng.below(points.size())]);
        while (popcount(b) < weak) {
            const Bitboard s = bit(points[rng.below(points.size())]);
            if (!(s & a)) b |= s;
        }
        const bool strong_white = lines.size() % 2 == 0;
        const Color to_move = (lines.size() / 2) % 2 == 0 ? Color::White : Color::Black;
        const Bitboard white = strong_white ? a : b, black = strong_white ? b : a;
        if (can_capture(white, black, Color::White) || can_capture(white, black, Color::Black))
            continue;
        const Position p = Position::from_pieces(Variant::Tsivy, white, black, to_move);
        if (count_moves(p, Rules{}) == 0) continue;
        if (!seen.insert(p.to_string()).second) continue;
        lines.push_back(p.to_string());
    }
    if (int(lines.size()) < count) {
        std::fprintf(stderr, "make_endings: found only %zu quiet positions\n", lines.size());
        return 1;
    }
    std::ofstream file(out);
    file << "# Won endings: " << strong << " pieces against " << weak
         << ", quiet random placements (neither side can capture); the strong side is\n"
            "# White and Black in turn. Written by: make_endings --strong "
         << strong << " --weak " << weak << " --count " << count << " --seed " << seed << "\n";
    for (const std::string& l : lines) file << l << "\n";
    file.close();
    if (!file) {
        std::fprintf(stderr, "make_endings: cannot write %s\n", out.c_str());
        return 1;
    }
    return 0;
}
