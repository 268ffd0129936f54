#pragma once
// Helpers of the tests that check solvers against endgame tables built on the spot: a fresh
// table folder, the tables' value in the solvers' semantics, and random positions.

#include <algorithm>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "cli_helpers.h"
#include "core/board/position.h"
#include "core/endgame.h"
#include "core/tables/builder.h"
#include "core/tables/tablebase.h"

namespace test_tables {

// Tables of up to `pieces` pieces built into a fresh folder named `name`.
inline std::shared_ptr<const fanorona::tables::Tablebase> build(const std::string& name,
                                                                fanorona::Variant v, int pieces) {
    const std::string dir = test_cli::fresh_dir(name);
    fanorona::tables::build_tables({v, pieces, dir, fanorona::kTableTurnLimit}, {});
    return std::make_shared<const fanorona::tables::Tablebase>(dir);
}

// The tables' value without the no-capture limit (the solvers' semantics).
inline int table_value(const fanorona::tables::Tablebase& tb, const fanorona::Position& pos) {
    fanorona::Rules unlimited{pos.variant()};
    unlimited.no_capture_limit = 0;
    const auto v = tb.probe(pos);
    REQUIRE(v);
    return fanorona::table_outcome(*v, unlimited, 0);
}

// A random position with `a` pieces of the side to move and `b` of the other.
inline fanorona::Position random_position(fanorona::Variant v, int a, int b, std::mt19937_64& rng) {
    using namespace fanorona;
    std::vector<Square> points;
    for (Bitboard bb = geometry(v).board; bb;) points.push_back(pop_lsb(bb));
    std::shuffle(points.begin(), points.end(), rng);
    Bitboard mover = 0, other = 0;
    for (int i = 0; i < a; ++i) mover |= bit(points[i]);
    for (int i = a; i < a + b; ++i) other |= bit(points[i]);
    return Position::from_pieces(v, mover, other, Color(rng() & 1));
}

// A random position of 2 to `pieces` pieces, each side at least one (the material drawn first).
inline fanorona::Position random_position_up_to(fanorona::Variant v, int pieces,
                                                std::mt19937_64& rng) {
    const int total = 2 + int(rng() % std::uint64_t(pieces - 1));
    const int a = 1 + int(rng() % std::uint64_t(total - 1));
    return random_position(v, a, total - a, rng);
}

} // namespace test_tables
