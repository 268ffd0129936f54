#include "selfplay/tournament/tournament.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>

#include "stats/elo.h"
#include "stats/stats_json.h"

namespace fanorona {

namespace {

using Json = nlohmann::json;

// A number for printf: NaN stays NaN ("nan"), infinities become NaN.
double finite_or_null(double x) {
    return std::isfinite(x) ? x : NAN;
}

// The SPRT state as stats_json writes it, plus the test's settings as typed.
Json sprt_json(const stats::SprtResult& r, const stats::SprtConfig& c) {
    Json j = stats::to_json(c, r);
    j["test"] = c.to_string();
    return j;
}

// The running state fed by finished games, in game order.
struct Standings {
    stats::PairwiseResults results;
    std::uint64_t games = 0, pairs = 0;
    std::optional<stats::SprtResult> sprt;
    stats::WDL half; // the first game of the current pair, from the pairing's first player

    // Adds a game between pairing (a, b); returns true when it completed a pair.
    bool add(const GameRecord& g, int a, int b, bool a_is_white,
             const std::optional<stats::SprtConfig>& test) {
        ++games;
        stats::WDL w;
        const bool white_won = g.result == GameResult::WhiteWins;
        const bool black_won = g.result == GameResult::BlackWins;
        if (!white_won && !black_won)
            w.draws = 1;
        else if (white_won == a_is_white)
            w.wins = 1;
        else
            w.losses = 1;
        if (a_is_white) {
            half = w;
            return false;
        }
        results.add_pair(std::size_t(a), std::size_t(b), half + w);
        ++pairs;
        if (test) sprt = stats::sprt_test(results.pentanomial(0, 1), *test);
        return true;
    }
    bool decided() const { return sprt && sprt->verdict != stats::SprtVerdict::Continue; }
};

} // namespace

TournamentConfig::TournamentConfig() {
    run.kind = "tournament";
    run.pairing = Pairing::Gauntlet;
    run.games = 20;
    run.log_positions = false;
    run.out_dir = "tournament";
}

namespace {

// The tournament's side of the driver: standings, the SPRT and the live stream.
class TournamentObserver : public GameObserver {
public:
    TournamentObserver(const TournamentConfig& c, std::vector<std::string> names)
        : c_(c), names_(std::move(names)) {
        standings.results = stats::PairwiseResults(names_);
    }
    void replay(const GameRecord& g, const GameSlot& s) override {
        standings.add(g, s.first, s.second, s.first_of_pair, c_.sprt);
    }
    void add(const PlayedGame& game, const GameSlot& s, RunFolder& folder) override {
        const int a = s.first, b = s.second;
        if (!standings.add(game.record, a, b, s.first_of_pair, c_.sprt)) return;
        const auto e =
            stats::estimate_elo(standings.results.pentanomial(std::size_t(a), std::size_t(b)));
        Json line = {
            {"pair", standings.pairs - 1},
            {"games", standings.games},
            {"players", {names_[std::size_t(a)], names_[std::size_t(b)]}},
            {"pair_score", standings.results.pentanomial(std::size_t(a), std::size_t(b)).counts},
            {"reasons", {game.record.reason}},
            {"pairing", stats::to_json(e)}};
        if (standings.sprt) line["sprt"] = sprt_json(*standings.sprt, *c_.sprt);
        folder.append_live(line);
    }
    std::string progress() const override {
        if (names_.size() != 2) return std::to_string(standings.pairs) + " pairs";
        const auto e = stats::estimate_elo(standings.results.pentanomial(0, 1));
        char buf[160];
        std::snprintf(buf, sizeof buf, "%s vs %s: Elo %+.1f +- %.1f", names_[0].c_str(),
                      names_[1].c_str(), finite_or_null(e.elo), finite_or_null(e.elo_error95));
        std::string s = buf;
        if (standings.sprt) {
            std::snprintf(buf, sizeof buf, "  LLR %.2f [%.2f, %.2f]", standings.sprt->llr,
                          standings.sprt->lower_bound, standings.sprt->upper_bound);
            s += buf;
        }
        return s;
    }
    bool finished() const override { return standings.decided(); }

    Standings standings;

private:
    const TournamentConfig& c_;
    std::vector<std::string> names_;
};

} // namespace

TournamentResult run_tournament(const TournamentConfig& c) {
    if (c.run.pairing == Pairing::SelfPlay)
        throw std::invalid_argument("a tournament pairs different players");
    if (c.sprt && c.run.players.size() != 2)
        throw std::invalid_argument(
            "--sprt tests one player against another: give exactly two --player");
    RunConfig run = c.run;
    run.kind = "tournament";
    run.extra_settings["sprt"] = c.sprt ? c.sprt->to_string() : "";
    run.validate();

    std::vector<std::string> names, descriptions;
    for (const EngineSpec& p : run.players) {
        names.push_back(p.name);
        descriptions.push_back(p.description());
    }
    run.live_path = c.live_path.empty() ? run.out_dir + "/live.jsonl" : c.live_path;
    run.summary_files = {"results.json", "results.txt"};
    run.summary_format = "fanorona-tournament-results 1";
    TournamentObserver observer(c, names);
    const Standings& standings = observer.standings;
    TournamentResult result;
    run_games(run, observer, [&](const RunOutcome& outcome, RunFolder& folder) {
        result.played_now = outcome.played_now;
        result.seconds = outcome.seconds;
        result.interrupted = !standings.decided() && standings.games < run.games;
        result.results = standings.results;
        result.games = standings.games;
        result.pairs = standings.pairs;
        result.sprt = standings.sprt;
        result.table = stats::make_results_table(standings.results);

        Json out = {{"format", "fanorona-tournament-results 1"},
                    {"games", result.games},
                    {"pairs", result.pairs},
                    {"scheduled_games", run.games},
                    {"complete", result.games == run.games || standings.decided()},
                    {"games_this_run", result.played_now},
                    {"seconds", result.seconds},
                    {"players", descriptions},
                    {"table", stats::render_json(result.table)}};
        if (run.players.size() == 2)
            out["match"] = stats::to_json(stats::estimate_elo(standings.results.pentanomial(0, 1)));
        if (standings.sprt) out["sprt"] = sprt_json(*standings.sprt, *c.sprt);
        folder.finish("results.json", out.dump(2) + "\n");
        folder.finish("results.txt", stats::render_text(result.table));
    });
    return result;
}

} // namespace fanorona
