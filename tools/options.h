#pragma once
// Options shared by several subcommands: variant, rules and a start position.

#include <string>

#include <CLI/CLI.hpp>

#include "core/position.h"

namespace fanorona::cli {

// The --variant, --rules and --fen options as a user typed them.
struct BoardOptions {
    std::string variant = "tsivy";
    std::string rules = "standard";
    std::string fen;

    // Adds --variant and --rules, and --fen unless the command starts its games from openings.
    void add_to(CLI::App& cmd, bool with_fen = true);
    Rules make_rules() const;       // throws std::invalid_argument on unknown names
    Position make_position() const; // the --fen position, or the start position
};

inline void BoardOptions::add_to(CLI::App& cmd, bool with_fen) {
    cmd.add_option("--variant", variant, "Board: tsivy (5x9) or dimy (5x5)")
        ->check(CLI::IsMember({"tsivy", "dimy"}))
        ->capture_default_str();
    cmd.add_option("--rules", rules,
                   "Rule set: standard, firstturn (no chained capture on each side's first turn) "
                   "or vela (White is the beneficiary; see RULES.md)")
        ->check(CLI::IsMember({"standard", "firstturn", "vela"}))
        ->capture_default_str();
    if (!with_fen) return;
    cmd.add_option("--fen", fen,
                   "Start from this position string (default: the start position): ranks from "
                   "the top down separated by '/', W and B for pieces, a digit for a run of empty "
                   "points, then w or b for the side to move, optionally followed by the turns "
                   "since the last capture and the turn number, e.g. "
                   "\"BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w\"");
}

inline Rules BoardOptions::make_rules() const {
    Rules r;
    r.variant = *parse_variant(variant);
    r.ruleset = *parse_ruleset(rules);
    return r;
}

inline Position BoardOptions::make_position() const {
    const Variant v = *parse_variant(variant);
    if (fen.empty()) return Position::start(v);
    try {
        return Position::from_string(fen, v);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument("--fen: " + std::string(e.what()));
    }
}

} // namespace fanorona::cli
