#pragma once
// The opening tree written for people (a text tree, an explorer view) and for machines (JSON and
// CSV; the fields are described in docs/formats.md, "Opening statistics").

#include <string>

#include <nlohmann/json.hpp>

#include "selfplay/openings/opening_tree.h"

namespace fanorona {

// What to show of a tree. Positions and moves with fewer than min_games games are left out.
struct OpeningView {
    std::uint64_t min_games = 1;
    int width = 3;           // text tree: at most this many moves listed per position
    double min_share = 0.15; // text tree: a move's line is followed only if this share chose it
};

std::string hash_hex(Key hash); // 16 lower-case hex digits

nlohmann::ordered_json opening_tree_json(const OpeningTree& tree, const OpeningView& view);
std::string opening_positions_csv(const OpeningTree& tree, const OpeningView& view);
std::string opening_moves_csv(const OpeningTree& tree, const OpeningView& view);

// The main lines from every root as an indented tree, one move per line.
std::string opening_text_tree(const OpeningTree& tree, const OpeningView& view);

// One position and the statistics of every move played from it, like an opening explorer.
std::string explore_text(const OpeningTree& tree, const OpeningNode& node, const OpeningView& view);

} // namespace fanorona
