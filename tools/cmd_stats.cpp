// `fanorona stats`: Elo, normalized Elo, LOS and an optional SPRT from match counts.

#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "selfplay/formats/json_text.h"
#include "selfplay/tournament/stats/elo.h"
#include "selfplay/tournament/stats/sprt.h"
#include "selfplay/tournament/stats/stats_json.h"
#include "tools/commands.h"

namespace fanorona::cli {

namespace {

struct StatsOptions {
    std::string wdl;
    std::string penta;
    std::string sprt;
    bool json = false;
};

// "12.34" or "inf" / "-" for values that do not exist.
std::string num(double x, const char* fmt = "%.2f") {
    if (std::isnan(x)) return "-";
    if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
    char buf[64];
    std::snprintf(buf, sizeof buf, fmt, x);
    return buf;
}

void run_stats(const StatsOptions& o) {
    if (o.wdl.empty() == o.penta.empty())
        throw std::invalid_argument("give the counts with either --wdl W,D,L or --penta "
                                    "P0,P1,P2,P3,P4");
    const bool is_penta = !o.penta.empty();
    stats::WDL wdl;
    stats::Pentanomial penta;
    try {
        if (is_penta)
            penta = stats::parse_pentanomial(o.penta);
        else
            wdl = stats::parse_wdl(o.wdl);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument((is_penta ? "--penta: " : "--wdl: ") + std::string(e.what()));
    }
    const stats::EloEstimate e = is_penta ? stats::estimate_elo(penta) : stats::estimate_elo(wdl);
    if (e.games == 0)
        throw std::invalid_argument(std::string(is_penta ? "--penta" : "--wdl") +
                                    ": all counts are zero (no games)");
    std::optional<stats::SprtConfig> config;
    stats::SprtResult sprt;
    if (!o.sprt.empty()) {
        config = stats::SprtConfig::parse(o.sprt);
        sprt = is_penta ? stats::sprt_test(penta, *config) : stats::sprt_test(wdl, *config);
    }

    if (o.json) {
        nlohmann::json j = stats::to_json(e);
        if (is_penta)
            j["pentanomial"] = stats::to_json(penta);
        else
            j["wdl"] = stats::to_json(wdl);
        if (config) j["sprt"] = stats::to_json(*config, sprt);
        std::cout << to_json_text(j, 2) << "\n";
        return;
    }
    if (is_penta)
        std::printf("Pairs       %llu (%llu games), pentanomial [%s]\n",
                    static_cast<unsigned long long>(e.pairs),
                    static_cast<unsigned long long>(e.games), stats::to_string(penta).c_str());
    else
        std::printf(
            "Games       %llu (W %llu, D %llu, L %llu)\n", static_cast<unsigned long long>(e.games),
            static_cast<unsigned long long>(wdl.wins), static_cast<unsigned long long>(wdl.draws),
            static_cast<unsigned long long>(wdl.losses));
    std::printf("Score       %s (standard error %s)\n", num(e.score, "%.5f").c_str(),
                num(e.score_stderr, "%.5f").c_str());
    std::printf("Elo         %s +- %s (95%%: %s .. %s)\n", num(e.elo).c_str(),
                num(e.elo_error95).c_str(), num(e.elo_lower).c_str(), num(e.elo_upper).c_str());
    std::printf("nElo        %s +- %s\n", num(e.nelo).c_str(), num(e.nelo_error95).c_str());
    std::printf("LOS         %s%%\n", num(100 * e.los).c_str());
    if (is_penta)
        std::printf("Draw ratio  %s%% of pairs scored 1 of 2 (DD or WL)\n",
                    num(100 * e.draw_ratio).c_str());
    else
        std::printf("Draw ratio  %s%%\n", num(100 * e.draw_ratio).c_str());
    if (config) {
        std::printf("SPRT        %s Elo, elo0 %g, elo1 %g, alpha %g, beta %g\n",
                    std::string(stats::model_name(config->model)).c_str(), config->elo0,
                    config->elo1, config->alpha, config->beta);
        std::printf("LLR         %s (bounds %.2f, %.2f): %s\n", num(sprt.llr).c_str(),
                    sprt.lower_bound, sprt.upper_bound,
                    std::string(stats::verdict_name(sprt.verdict)).c_str());
    }
}

} // namespace

void add_stats_command(CLI::App& app) {
    auto opts = std::make_shared<StatsOptions>();
    auto* cmd = app.add_subcommand(
        "stats", "Elo, normalized Elo, LOS and SPRT (fishtest's GSPRT) from W/D/L or game-pair "
                 "(pentanomial) counts of player A against player B");
    auto* wdl = cmd->add_option("--wdl", opts->wdl,
                                "A's wins, draws and losses as W,D,L (single games: trinomial "
                                "variance)");
    auto* penta = cmd->add_option(
        "--penta", opts->penta,
        "Game pairs by A's score in the pair, as P0,P1,P2,P3,P4 = LL, LD+DL, LW+WL+DD, WD+DW, WW "
        "(pentanomial variance)");
    wdl->excludes(penta);
    cmd->add_option("--sprt", opts->sprt,
                    "Also run the SPRT: elo0=X,elo1=Y[,alpha=0.05][,beta=0.05]"
                    "[,model=normalized|logistic] (normalized Elo by default)");
    cmd->add_flag("--json", opts->json, "Print the results as JSON");
    cmd->callback([opts] { run_stats(*opts); });
}

} // namespace fanorona::cli
