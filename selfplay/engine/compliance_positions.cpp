#include "selfplay/engine/compliance_positions.h"

namespace fanorona {

namespace {

// The longest random game (random games end far sooner on most boards).
constexpr int kMaxRandomPlies = 160;

bool playable(const Game& game) {
    return !game.outcome().over() && count_moves(game.position(), game.rules()) > 0;
}

} // namespace

Game random_game(const Rules& rules, int max_plies, Rng& rng) {
    Game game(rules, Position::start(rules.variant));
    MoveList moves;
    for (int ply = 0; ply < max_plies && !game.outcome().over(); ++ply) {
        generate_moves(game.position(), rules, moves);
        if (moves.empty()) break;
        game.play(moves[int(rng.below(std::uint64_t(moves.size())))]);
    }
    return game;
}

Game random_position(const Rules& rules, Rng& rng) {
    const Game whole = random_game(rules, kMaxRandomPlies, rng);
    // The longest playable prefix, then a random cut inside it.
    std::size_t plies = whole.moves().size();
    Game game(rules, whole.start());
    std::vector<std::size_t> cuts;
    if (playable(game)) cuts.push_back(0);
    for (std::size_t i = 0; i < plies; ++i) {
        game.play(whole.moves()[i]);
        if (playable(game)) cuts.push_back(i + 1);
    }
    const std::size_t cut = cuts.empty() ? 0 : cuts[rng.below(cuts.size())];
    Game out(rules, whole.start());
    for (std::size_t i = 0; i < cut; ++i) out.play(whole.moves()[i]);
    return out;
}

Game rebased(const Game& game, std::size_t ply) {
    Position p = game.start();
    for (std::size_t i = 0; i < ply && i < game.moves().size(); ++i) p.make_move(game.moves()[i]);
    Game out(game.rules(), p);
    for (std::size_t i = ply; i < game.moves().size(); ++i) out.play(game.moves()[i]);
    return out;
}

std::optional<Game> find_position(const Rules& rules, Rng& rng, int tries,
                                  const std::function<bool(const Game&)>& wanted) {
    for (int t = 0; t < tries; ++t) {
        const Game whole = random_game(rules, kMaxRandomPlies, rng);
        Game game(rules, whole.start());
        std::vector<std::size_t> hits;
        if (playable(game) && wanted(game)) hits.push_back(0);
        for (std::size_t i = 0; i < whole.moves().size(); ++i) {
            game.play(whole.moves()[i]);
            if (playable(game) && wanted(game)) hits.push_back(i + 1);
        }
        if (hits.empty()) continue;
        const std::size_t cut = hits[rng.below(hits.size())];
        Game out(rules, whole.start());
        for (std::size_t i = 0; i < cut; ++i) out.play(whole.moves()[i]);
        return out;
    }
    return std::nullopt;
}

std::string position_command(const Game& game) {
    const Position start = Position::start(game.rules().variant);
    std::string line =
        game.start() == start ? "position startpos" : "position fen " + game.start().to_string();
    if (!game.moves().empty()) line += " moves " + game.moves_string();
    return line;
}

bool chain_to_play(const Position& pos, const Rules& rules) {
    MoveList moves;
    generate_moves(pos, rules, moves);
    for (const Move& m : moves)
        if (m.is_capture() && find_path(pos, rules, m).length >= 2) return true;
    return false;
}

bool chain_played(const Game& game) {
    Position p = game.start();
    for (const Move& m : game.moves()) {
        if (m.is_capture() && find_path(p, game.rules(), m).length >= 2) return true;
        p.make_move(m);
    }
    return false;
}

bool capture_compulsory(const Position& pos, const Rules& rules) {
    MoveList moves;
    generate_moves(pos, rules, moves);
    return !moves.empty() && moves[0].is_capture();
}

bool rules_change_moves(const Position& pos, const Rules& rules) {
    Rules standard = rules;
    standard.ruleset = RuleSet::Standard;
    MoveList with, without;
    generate_moves(pos, rules, with);
    generate_moves(pos, standard, without);
    if (with.size() != without.size()) return true;
    for (const Move& m : with)
        if (!without.contains(m)) return true;
    return false;
}

} // namespace fanorona
