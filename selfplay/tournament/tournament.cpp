#include "selfplay/tournament/tournament.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <set>

#include <tbb/enumerable_thread_specific.h>

#include "common/weights_fingerprint.h"
#include "selfplay/batch/batch_runner.h"
#include "selfplay/batch/progress.h"
#include "selfplay/batch/run_folder.h"
#include "stats/elo.h"
#include "stats/stats_json.h"

namespace fanorona {

namespace {

using Json = nlohmann::json;

void validate(const TournamentConfig& c) {
    if (c.players.size() < 2)
        throw std::invalid_argument("a tournament needs at least two --player");
    std::set<std::string> names;
    for (const auto& p : c.players)
        if (!names.insert(p.name).second)
            throw std::invalid_argument("--player: the name '" + p.name + "' is used twice");
    if (c.sprt && c.players.size() != 2)
        throw std::invalid_argument(
            "--sprt tests one player against another: give exactly two --player");
    if (c.rounds == 0) throw std::invalid_argument("--games/--rounds must be at least 1");
}

Json settings_json(const TournamentConfig& c) {
    Json players = Json::array(), fingerprints = Json::array();
    for (const auto& p : c.players) {
        players.push_back(p.description());
        fingerprints.push_back(p.kind == PlayerSpec::Kind::Engine
                                   ? weights_fingerprint(load_player_weights(p))
                                   : std::string("-"));
    }
    return {{"format", "fanorona-tournament-settings 1"},
            {"variant", variant_name(c.rules.variant)},
            {"rules", ruleset_name(c.rules.ruleset)},
            {"players", players},
            {"weights_fingerprints", fingerprints},
            {"pairing", c.format == TournamentConfig::Format::Gauntlet ? "gauntlet" : "roundrobin"},
            {"rounds", c.rounds},
            {"openings", c.openings.describe()},
            {"seed", c.seed},
            {"max_turns", c.adjudication.max_turns},
            {"win_margin", c.adjudication.win_margin},
            {"win_turns", c.adjudication.win_turns},
            {"sprt", c.sprt ? c.sprt->to_string() : ""}};
}

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

std::vector<std::pair<int, int>> tournament_pairings(const TournamentConfig& c) {
    std::vector<std::pair<int, int>> pairings;
    const int n = int(c.players.size());
    for (int a = 0; a < n; ++a)
        for (int b = a + 1; b < n; ++b)
            if (c.format == TournamentConfig::Format::RoundRobin || a == 0)
                pairings.emplace_back(a, b);
    return pairings;
}

TournamentResult run_tournament(const TournamentConfig& c) {
    validate(c);
    const auto pairings = tournament_pairings(c);
    const std::uint64_t per_round = 2 * pairings.size();
    const std::uint64_t total = per_round * c.rounds;
    RunFolderSpec spec;
    spec.dir = c.out_dir;
    spec.settings = settings_json(c);
    spec.free_keys = {"rounds"};
    spec.header = {c.rules.variant, c.rules.ruleset};
    spec.live_path = c.live_path.empty() ? c.out_dir + "/live.jsonl" : c.live_path;
    spec.summary_files = {"results.json", "results.txt"};
    spec.summary_format = "fanorona-tournament-results 1";
    spec.resume = c.resume;
    spec.quiet = c.quiet;
    RunFolder files(spec);
    const auto openings = load_openings(c.openings, c.rules, c.rounds, c.seed);
    if (!c.quiet && openings.size() < c.rounds && c.openings.kind == OpeningSpec::Kind::File)
        std::fprintf(stderr,
                     "warning: %llu rounds but %zu openings in %s: openings repeat, and "
                     "deterministic players replay the same games (the error bars are then too "
                     "narrow)\n",
                     static_cast<unsigned long long>(c.rounds), openings.size(),
                     c.openings.path.c_str());

    std::vector<std::string> names, descriptions;
    for (const auto& p : c.players) {
        names.push_back(p.name);
        descriptions.push_back(p.description());
    }
    auto place = [&](std::uint64_t index) {
        const auto& [a, b] = pairings[(index / 2) % pairings.size()];
        return std::tuple{a, b, index % 2 == 0};
    };

    Standings standings;
    standings.results = stats::PairwiseResults(names);
    const std::uint64_t existing = files.games_already_written();
    if (existing > 0) {
        const GamesFile old = read_games_file(RunFolder::games_path(c.out_dir));
        for (std::uint64_t i = 0; i < existing && i < old.games.size(); ++i) {
            const auto [a, b, a_white] = place(i);
            const GameRecord& g = old.games[i];
            const std::string expect_white = descriptions[a_white ? a : b];
            if (g.index != i || g.white != expect_white)
                throw std::runtime_error(RunFolder::games_path(c.out_dir) + ": game " +
                                         std::to_string(g.index) +
                                         " does not match this tournament's schedule");
            standings.add(g, a, b, a_white, c.sprt);
        }
    }

    std::vector<std::uint64_t> indices;
    for (std::uint64_t i = existing; i < total; ++i) indices.push_back(i);
    std::atomic<bool> stop{standings.decided()};

    tbb::enumerable_thread_specific<std::vector<std::unique_ptr<Player>>> workers;
    auto play = [&](std::uint64_t index) {
        auto& mine = workers.local();
        if (mine.empty()) mine.resize(c.players.size());
        const auto [a, b, a_white] = place(index);
        const int white = a_white ? a : b, black = a_white ? b : a;
        for (int p : {white, black})
            if (!mine[p]) mine[p] = make_player(c.players[p], c.rules, c.seed);
        GameSetup setup;
        setup.rules = c.rules;
        setup.opening = openings[(index / per_round) % openings.size()];
        setup.index = index;
        setup.seed = c.seed;
        setup.adjudication = c.adjudication;
        setup.time_control = c.players[white].time_control;
        setup.black_time_control = c.players[black].time_control;
        setup.white_name = descriptions[white];
        setup.black_name = descriptions[black];
        PlayedGame game = play_game(setup, *mine[white], *mine[black]);
        game.positions.clear();
        return game;
    };

    ProgressLine progress(total, c.quiet);
    auto describe = [&]() {
        if (c.players.size() != 2) return std::to_string(standings.pairs) + " pairs";
        const auto e = stats::estimate_elo(standings.results.pentanomial(0, 1));
        char buf[160];
        std::snprintf(buf, sizeof buf, "%s vs %s: Elo %+.1f +- %.1f", names[0].c_str(),
                      names[1].c_str(), finite_or_null(e.elo), finite_or_null(e.elo_error95));
        std::string s = buf;
        if (standings.sprt) {
            std::snprintf(buf, sizeof buf, "  LLR %.2f [%.2f, %.2f]", standings.sprt->llr,
                          standings.sprt->lower_bound, standings.sprt->upper_bound);
            s += buf;
        }
        return s;
    };
    auto sink = [&](PlayedGame&& game) {
        files.append(game);
        const auto [a, b, a_white] = place(game.record.index);
        if (standings.add(game.record, a, b, a_white, c.sprt)) {
            const auto e =
                stats::estimate_elo(standings.results.pentanomial(std::size_t(a), std::size_t(b)));
            Json line = {{"pair", standings.pairs - 1},
                         {"games", standings.games},
                         {"players", {names[a], names[b]}},
                         {"pair_score",
                          standings.results.pentanomial(std::size_t(a), std::size_t(b)).counts},
                         {"reasons", {game.record.reason}},
                         {"pairing", stats::to_json(e)}};
            if (standings.sprt) line["sprt"] = sprt_json(*standings.sprt, *c.sprt);
            files.append_live(line);
            if (standings.decided()) stop = true;
        }
        progress.update(standings.games, describe());
    };
    TournamentResult result;
    if (!stop) {
        progress.update(existing, describe(), true);
        result.played_now = run_batch(indices, BatchOptions{c.concurrency, &stop}, play, sink);
        progress.finish();
    }
    result.seconds = progress.elapsed_seconds();
    result.interrupted = !standings.decided() && standings.games < total;
    result.results = standings.results;
    result.games = standings.games;
    result.pairs = standings.pairs;
    result.sprt = standings.sprt;
    result.table = stats::make_results_table(standings.results);

    Json out = {{"format", "fanorona-tournament-results 1"},
                {"games", result.games},
                {"pairs", result.pairs},
                {"scheduled_games", total},
                {"complete", result.games == total || standings.decided()},
                {"games_this_run", result.played_now},
                {"seconds", result.seconds},
                {"players", descriptions},
                {"table", stats::render_json(result.table)}};
    if (c.players.size() == 2)
        out["match"] = stats::to_json(stats::estimate_elo(standings.results.pentanomial(0, 1)));
    if (standings.sprt) out["sprt"] = sprt_json(*standings.sprt, *c.sprt);
    files.finish("results.json", out.dump(2) + "\n");
    files.finish("results.txt", stats::render_text(result.table));
    return result;
}

} // namespace fanorona
