// `fanorona analyze`: searches one position, printing each iteration of iterative deepening.

#include <cstdio>
#include <memory>
#include <sstream>

#include <cstdlib>

#include <nlohmann/json.hpp>

#include "core/board/notation.h"
#include "core/board/replay.h"
#include "core/common/memory.h"
#include "core/common/text.h"
#include "selfplay/engine/protocol_server.h"
#include "selfplay/formats/json_text.h"
#include "tools/commands.h"
#include "tools/options.h"

namespace fanorona::cli {

namespace {

struct AnalyzeOptions {
    BoardOptions board;
    EngineOptions engine;
    std::string moves;
    bool json = false;
};

std::string score_text(int score) {
    if (!is_decisive(score) && std::abs(score) > kTableWinScore - kTableBand)
        return std::string(score > 0 ? "table win" : "table loss") + ", capture or end in " +
               std::to_string(kTableWinScore - std::abs(score)) + " turns";
    if (!is_decisive(score)) return std::to_string(score);
    const int plies = plies_to_end(score);
    return plies > 0 ? "win in " + std::to_string(plies) : "loss in " + std::to_string(-plies);
}

void run_analyze(const AnalyzeOptions& o) {
    const Rules rules = o.board.make_rules();
    Game game(rules, o.board.make_position());
    try {
        play_moves(game, split_words(o.moves));
    } catch (const ReplayError& e) {
        throw std::invalid_argument("--moves: " + std::string(e.what()));
    }
    if (const Outcome end = game.outcome(); end.over())
        throw std::invalid_argument(
            std::string(o.moves.find_first_not_of(" \t") != std::string::npos ? "--moves"
                                                                              : "--fen") +
            ": the game is over there (" + std::string(end_reason_name(end.reason)) + ", " +
            std::string(result_name(end.result)) + "): nothing to analyse");
    EngineSpec spec;
    o.engine.apply(spec);
    o.engine.check_rules(spec, rules);
    std::unique_ptr<Searcher> owned;
    allocate_for("--hash " + std::to_string(spec.hash_mb), std::uint64_t(spec.hash_mb) << 20,
                 [&] { owned = std::make_unique<Searcher>(spec.hash_mb); });
    Searcher& searcher = *owned;
    spec.configure(searcher);
    const SearchLimits limits = spec.search_limits();
    if (!o.json)
        std::printf("position %s (%s, %s)\n", game.position().to_string().c_str(),
                    std::string(variant_name(rules.variant)).c_str(),
                    std::string(ruleset_name(rules.ruleset)).c_str());
    const SearchResult r = searcher.search(game, limits, [&](const IterationInfo& it) {
        const std::string pv = EngineProtocol::pv_string(game, it.pv);
        const double nps = it.seconds > 0 ? double(it.nodes) / it.seconds : 0;
        if (o.json) {
            nlohmann::json j = {{"depth", it.depth},        {"seldepth", it.seldepth},
                                {"score", it.score},        {"decisive", is_decisive(it.score)},
                                {"nodes", it.nodes},        {"seconds", it.seconds},
                                {"nps", std::llround(nps)}, {"pv", pv}};
            std::printf("%s\n", to_json_text(j).c_str());
        } else {
            std::printf("depth %2d/%-2d score %6s nodes %10llu nps %9.0f time %7.3f pv %s\n",
                        it.depth, it.seldepth, score_text(it.score).c_str(),
                        static_cast<unsigned long long>(it.nodes), nps, it.seconds, pv.c_str());
        }
        std::fflush(stdout);
    });
    const std::string best =
        r.has_move ? move_to_string(game.position(), rules, r.best) : std::string("(none)");
    if (o.json) {
        nlohmann::json j = {{"bestmove", best},           {"score", r.score},
                            {"depth", r.depth},           {"nodes", r.nodes},
                            {"table_hits", r.table_hits}, {"seconds", r.seconds}};
        std::printf("%s\n", to_json_text(j).c_str());
    } else {
        std::printf("bestmove %s score %s depth %d nodes %llu time %.3f%s\n", best.c_str(),
                    score_text(r.score).c_str(), r.depth, static_cast<unsigned long long>(r.nodes),
                    r.seconds,
                    spec.tables ? (" tbhits " + std::to_string(r.table_hits)).c_str() : "");
    }
}

} // namespace

void add_analyze_command(CLI::App& app) {
    auto o = std::make_shared<AnalyzeOptions>();
    auto* cmd = app.add_subcommand(
        "analyze", "Search a position, printing each iteration's depth, score, nodes, nodes per "
                   "second and principal variation");
    o->board.add_to(*cmd);
    cmd->add_option("--moves", o->moves, "Moves to play from the position first, space-separated");
    o->engine.add_to(*cmd);
    cmd->add_flag("--json", o->json, "Print one JSON object per iteration, then the result");
    cmd->footer("With no limit, searches to depth " + std::to_string(EngineSpec::kDefaultDepth) +
                ". Limits combine: the first one reached ends the search.");
    cmd->callback([o] { run_analyze(*o); });
}

} // namespace fanorona::cli
