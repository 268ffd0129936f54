#include "selfplay/tournament/tournament.h"
#include "selfplay/formats/json_text.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <utility>

#include "selfplay/formats/formats.h"
#include "selfplay/games/program_info.h"
#include "selfplay/tournament/series_tally.h"

#include "selfplay/tournament/stats/elo.h"
#include "selfplay/tournament/stats/stats_json.h"

namespace fanorona {

namespace {

using Json = nlohmann::json;

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
    void replay(const GameRecord& g, const GameSlot& s) override;
    void add(const PlayedGame& game, const GameSlot& s, RunFolder& folder) override {
        if (series_)
            add_series_game(game, s, folder);
        else
            add_pair_game(game, s, folder);
    }
    std::string progress() const override;
    bool finished() const override { return standings.decided(); }
    bool open_ended() const override { return c_.sprt.has_value(); }
    std::string take_block() override { return std::exchange(block_, std::string()); }

    Standings standings;              // in Vela series: the normal games only
    std::uint64_t places = 0;         // Vela series: game places seen (skipped ones included)
    std::map<int, SeriesTally> tally; // Vela series: by pairing index

    SeriesTally& series_tally(const GameSlot& s) { return tally[s.pairing]; }

private:
    // A game of a Vela series: one live line per series (the live stream's "pair" is the
    // series' two places), after its Vela game.
    void add_series_game(const PlayedGame& game, const GameSlot& s, RunFolder& folder);
    // A game of a pair: a live line once the pair is complete.
    void add_pair_game(const PlayedGame& game, const GameSlot& s, RunFolder& folder);
    // The players' rows of the ratings table ("players" of stats::render_json) when the standings
    // just reached a multiple of the rating interval not rated yet; also renews the progress
    // line's ratings ("A +12 B -3 C -9", best first; "-" without ratings); with `print` (a game
    // played now, not replayed) the table is also due on stdout (take_block).
    std::optional<Json> ratings_due(bool print);

    const TournamentConfig& c_;
    std::vector<std::string> names_;
    bool series_ = c_.run.vela_series;
    std::uint64_t rated_pairs_ = 0; // the standings' pairs at the last ratings
    std::string ratings_text_;      // the progress line's ratings ("" before the first)
    std::string block_;             // the ratings table due on stdout ("" when none)
};

void TournamentObserver::replay(const GameRecord& g, const GameSlot& s) {
    if (series_) {
        ++places;
        series_tally(s).add(g, s, c_.run.rules);
        if (!s.vela) standings.add(g, s.first, s.second, s.first_of_pair, c_.sprt);
        (void)ratings_due(false);
        return;
    }
    standings.add(g, s.first, s.second, s.first_of_pair, c_.sprt);
    (void)ratings_due(false);
}

void TournamentObserver::add_series_game(const PlayedGame& game, const GameSlot& s,
                                         RunFolder& folder) {
    const int a = s.first, b = s.second;
    ++places;
    if (!s.vela) {
        standings.add(game.record, a, b, s.first_of_pair, c_.sprt);
        series_tally(s).add(game.record, s, c_.run.rules);
        return;
    }
    SeriesTally& t = series_tally(s);
    t.add(game.record, s, c_.run.rules);
    Json line = {{"pair", places / 2 - 1},
                 {"games", places},
                 {"players", {names_[std::size_t(a)], names_[std::size_t(b)]}},
                 {"kind", std::string(game_kind_name(game.record.kind))},
                 {"reasons", {game.record.reason}},
                 {"series", t.to_json()}};
    if (standings.sprt) line["sprt"] = sprt_json(*standings.sprt, *c_.sprt);
    if (auto r = ratings_due(true)) line["ratings"] = std::move(*r);
    folder.append_live(line);
}

void TournamentObserver::add_pair_game(const PlayedGame& game, const GameSlot& s,
                                       RunFolder& folder) {
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
    if (auto r = ratings_due(true)) line["ratings"] = std::move(*r);
    folder.append_live(line);
}

std::string TournamentObserver::progress() const {
    if (names_.size() != 2)
        return std::to_string(standings.pairs) + " pairs" +
               (ratings_text_.empty() ? "" : "  " + ratings_text_);
    const auto e = stats::estimate_elo(standings.results.pentanomial(0, 1));
    const stats::WDL w = standings.results.wdl(0, 1);
    char buf[240];
    std::snprintf(buf, sizeof buf, "%s vs %s: W %llu D %llu L %llu  Elo ", names_[0].c_str(),
                  names_[1].c_str(), static_cast<unsigned long long>(w.wins),
                  static_cast<unsigned long long>(w.draws),
                  static_cast<unsigned long long>(w.losses));
    std::string s = buf;
    // "-" until the estimate exists (no games, or no spread to measure its interval by).
    if (std::isfinite(e.elo) && std::isfinite(e.elo_error95)) {
        std::snprintf(buf, sizeof buf, "%+.1f +- %.1f", e.elo, e.elo_error95);
        s += buf;
    } else {
        s += "-";
    }
    if (standings.sprt) {
        std::snprintf(buf, sizeof buf, "  LLR %.2f [%.2f, %.2f]", standings.sprt->llr,
                      standings.sprt->lower_bound, standings.sprt->upper_bound);
        s += buf;
    }
    return s;
}

std::optional<Json> TournamentObserver::ratings_due(bool print) {
    const std::uint64_t n = c_.rating_interval;
    if (n == 0 || standings.pairs == 0 || standings.pairs % n != 0 ||
        standings.pairs == rated_pairs_)
        return std::nullopt;
    rated_pairs_ = standings.pairs;
    const stats::ResultsTable table = stats::make_results_table(standings.results, c_.ratings);
    std::string text;
    for (const stats::PlayerRow& r : table.rows) {
        char buf[32];
        if (std::isfinite(r.elo))
            std::snprintf(buf, sizeof buf, " %+.0f", r.elo);
        else
            std::snprintf(buf, sizeof buf, " -");
        text += (text.empty() ? "" : " ") + r.name + buf;
    }
    ratings_text_ = text;
    if (print)
        block_ = "Ratings after " + std::to_string(standings.pairs) + " pairs (" +
                 std::to_string(standings.games) + " games):\n" + stats::render_text(table) +
                 "\n"; // a blank line before the next block or the final table
    return stats::render_json(table)["players"];
}

// The Vela series block of results.txt for one pairing.
std::string series_text(const std::string& a, const std::string& b, const SeriesTally& t) {
    const Json j = t.to_json();
    char buf[512];
    auto wdl = [](const stats::WDL& w) {
        return std::to_string(w.wins) + "-" + std::to_string(w.draws) + "-" +
               std::to_string(w.losses);
    };
    auto elo = [](const Json& x) {
        char e[64];
        if (x["elo"].is_null()) return std::string("n/a");
        std::snprintf(e, sizeof e, "%+.1f +- %.1f", x["elo"].get<double>(),
                      x["elo_error95"].is_null() ? NAN : x["elo_error95"].get<double>());
        return std::string(e);
    };
    std::snprintf(buf, sizeof buf,
                  "\nVela series %s vs %s (W-D-L from %s's side unless said)\n"
                  "  normal games  %s  Elo %s  (avg %.1f turns)\n"
                  "  Vela games    %s for the beneficiary  Elo %s  (avg %.1f turns; victim "
                  "reached normal rules in %llu)\n"
                  "  series        %s  Elo %s  (%llu ended by a drawn normal game)\n",
                  a.c_str(), b.c_str(), a.c_str(), wdl(t.normal).c_str(),
                  elo(j["normal"]["first_player"]).c_str(),
                  j["normal"]["average_turns"].get<double>(), wdl(t.vela).c_str(),
                  elo(j["vela"]["beneficiary"]).c_str(), j["vela"]["average_turns"].get<double>(),
                  static_cast<unsigned long long>(t.vela_reached_normal_phase),
                  wdl(t.series).c_str(), elo(j["series"]["first_player"]).c_str(),
                  static_cast<unsigned long long>(t.skipped));
    return buf;
}

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
    run.summary_format = kTournamentResultsFormat;
    TournamentObserver observer(c, names);
    const Standings& standings = observer.standings;
    TournamentResult result;
    run_games(run, observer, [&](const RunOutcome& outcome, RunFolder& folder) {
        result.played_now = outcome.played_now;
        result.seconds = outcome.seconds;
        const std::uint64_t places = run.vela_series ? observer.places : standings.games;
        result.interrupted = !standings.decided() && places < run.games;
        result.results = standings.results;
        result.games = standings.games;
        result.pairs = standings.pairs;
        result.sprt = standings.sprt;
        result.table = stats::make_results_table(standings.results, c.ratings);

        Json out = {{"format", kTournamentResultsFormat},
                    {"games", result.games},
                    {"pairs", result.pairs},
                    {"scheduled_games", run.games},
                    {"complete", places == run.games || standings.decided()},
                    {"games_this_run", result.played_now},
                    {"seconds", result.seconds},
                    {"players", descriptions},
                    {"program", program_json()},
                    {"table", stats::render_json(result.table)}};
        // Each external engine's `id name`, by player name (absent: no external engine spoke).
        for (std::size_t p = 0; p < names.size() && p < outcome.engine_names.size(); ++p)
            if (!outcome.engine_names[p].empty())
                out["engine_names"][names[p]] = outcome.engine_names[p];
        if (run.players.size() == 2)
            out["match"] = stats::to_json(stats::estimate_elo(standings.results.pentanomial(0, 1)));
        if (standings.sprt) out["sprt"] = sprt_json(*standings.sprt, *c.sprt);
        std::string text = stats::render_text(result.table);
        if (run.vela_series) {
            // The table, "match" and the SPRT count the normal games; this block every kind.
            out["series_places"] = places;
            Json by_pairing = Json::array();
            const Schedule schedule = run.schedule();
            for (const auto& [p, t] : observer.tally) {
                const auto [a, b] = schedule.pairings[std::size_t(p)];
                Json j = t.to_json();
                j["players"] = {names[std::size_t(a)], names[std::size_t(b)]};
                by_pairing.push_back(j);
                text += series_text(names[std::size_t(a)], names[std::size_t(b)], t);
            }
            out["vela_series"] = by_pairing;
        }
        // Under MPI: each rank's games and forfeits of this session (a bad machine shows).
        if (!outcome.by_rank.empty()) {
            out["by_rank"] = by_rank_json(outcome.by_rank);
            text += by_rank_text(outcome.by_rank);
        }
        folder.finish("results.json", to_json_text(out, 2) + "\n");
        folder.finish("results.txt", text);
    });
    return result;
}

} // namespace fanorona
