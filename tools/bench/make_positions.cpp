// make_positions: a positions log of random-playout games, for the tuner's benchmark
// (tools/bench/tune.sh). Self-play is far too slow to make a million positions; these games
// of uniformly random legal moves are not, and their positions exercise the same code.

#include <cstdio>
#include <iostream>

#include <CLI/CLI.hpp>

#include "selfplay/formats/weights_file.h"
#include "tools/options.h"
#include "tuner/texel/synthetic.h"

int main(int argc, char** argv) {
    using namespace fanorona;
    CLI::App app{"Write a positions log of random-playout games (uniformly random legal moves "
                 "from the start position, every position with score 0 and the game's result)"};
    std::uint64_t positions = 1000000;
    std::uint64_t seed = 1;
    std::string out, variant = "tsivy", rules = "standard", label_weights;
    double label_k = 0;
    app.add_option("--positions", positions, "Play games until the log holds this many positions")
        ->capture_default_str();
    app.add_option("--out", out, "The positions log to write")->required();
    app.add_option("--variant", variant, std::string(kVariantHelp))
        ->check(fanorona::cli::variant_validator())
        ->capture_default_str();
    app.add_option("--rules", rules, "standard, firstturn or vela")
        ->check(CLI::IsMember({"standard", "firstturn", "vela"}))
        ->capture_default_str();
    app.add_option("--seed", seed, "Seed of the moves (and of the drawn results)")
        ->capture_default_str();
    app.add_option("--label-k", label_k,
                   "If > 0, replace every result by one drawn from sigmoid(K * eval) with the "
                   "--label-weights (a known answer for the tuner)")
        ->capture_default_str();
    app.add_option("--label-weights", label_weights, "Weights for --label-k (default: built-in)");
    try {
        app.parse(argc, argv);
        Rules r;
        r.variant = *parse_variant(variant);
        r.ruleset = *parse_ruleset(rules);
        std::vector<std::vector<PositionRecord>> games;
        std::uint64_t total = 0;
        for (std::uint32_t g = 0; total < positions; ++g) {
            games.push_back(random_playout_game(r, g, seed));
            total += games.back().size();
        }
        if (label_k > 0)
            label_from_weights(games, r, load_weights_file(label_weights), label_k, seed);
        write_position_log(out, {r.variant, r.ruleset}, games);
        std::printf("%llu positions of %zu games written to %s\n",
                    static_cast<unsigned long long>(total), games.size(), out.c_str());
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    } catch (const std::exception& e) {
        std::cerr << "make_positions: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
