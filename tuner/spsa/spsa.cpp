#include "tuner/spsa/spsa.h"
#include "selfplay/formats/json_text.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "core/common/append_file.h"
#include "core/common/files.h"
#include "selfplay/formats/formats.h"
#include "selfplay/formats/params_file.h"
#include "selfplay/games/run_folder.h"
#include "selfplay/tournament/stats/stats_json.h"
#include "selfplay/tournament/tournament.h"

namespace fanorona {

namespace {

using Json = nlohmann::json;

std::string format_number(const char* format, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

// One iteration's record, spsa.csv's row: the games of theta+ (wins - losses is the result),
// and for each parameter theta after the update, the c_k and a_k used and the sign of the
// perturbation. Row 0 holds the start values only.
struct SpsaRow {
    std::uint64_t iteration = 0; // 1-based; 0: the start
    std::uint64_t pairs = 0;     // game pairs played up to the end of this iteration
    std::uint64_t wins = 0, draws = 0, losses = 0;
    std::vector<double> theta, c, a;
    std::vector<int> flip;

    long long result() const { return (long long)wins - (long long)losses; }
};

std::string csv_header(const std::vector<SpsaParam>& params) {
    std::string h = "iteration,pairs,wins,draws,losses,result";
    for (const SpsaParam& p : params)
        h += "," + p.name + "," + p.name + "_c," + p.name + "_a," + p.name + "_flip";
    return h + "\n";
}

std::string csv_line(const SpsaRow& r) {
    std::string s = std::to_string(r.iteration) + "," + std::to_string(r.pairs) + "," +
                    std::to_string(r.wins) + "," + std::to_string(r.draws) + "," +
                    std::to_string(r.losses) + "," + std::to_string(r.result());
    for (std::size_t i = 0; i < r.theta.size(); ++i) {
        s += "," + format_number("%.4f", r.theta[i]);
        if (r.iteration == 0) {
            s += ",,,";
            continue;
        }
        s += "," + format_number("%.6g", r.c[i]) + "," + format_number("%.6g", r.a[i]) + "," +
             std::to_string(r.flip[i]);
    }
    return s + "\n";
}

// The SPSA state fed by the driver: builds each iteration's two engines (stage_players), counts
// theta+'s games in game order, updates theta when an iteration's games are all in, and appends
// the iteration's row to spsa.csv. Invariant: rows_ holds the start and every finished
// iteration; theta_ is rows_.back().theta.
class SpsaObserver : public GameObserver {
public:
    explicit SpsaObserver(const SpsaConfig& c) : c_(c), shape_(c.shape()) {
        for (const SpsaParam& p : c_.params) {
            gains_.push_back(spsa_gains(p, shape_));
            theta_.push_back(p.start);
        }
        SpsaRow start;
        start.theta = theta_;
        rows_.push_back(start);
    }

    // The engines of iteration `it` (0-based) from values theta: theta+ ("plus") and theta-.
    std::vector<EngineSpec> engines(const std::vector<double>& theta, std::uint64_t it,
                                    SpsaRow* row) const {
        SpsaRow r;
        r.iteration = it + 1;
        r.pairs = (it + 1) * c_.iteration_pairs;
        r.flip = spsa_flips(c_.run.seed, it, c_.params.size());
        const std::uint64_t k = it * c_.iteration_pairs + 1; // the iteration's first pair
        std::vector<int> plus, minus;
        for (std::size_t i = 0; i < c_.params.size(); ++i) {
            const double ck = spsa_c_at(gains_[i], shape_, k);
            r.c.push_back(ck);
            r.a.push_back(spsa_a_at(gains_[i], shape_, k));
            plus.push_back(spsa_round(theta[i] + ck * r.flip[i], c_.params[i]));
            minus.push_back(spsa_round(theta[i] - ck * r.flip[i], c_.params[i]));
        }
        if (row) *row = r;
        return {spsa_engine(c_.base, c_.params, plus, "plus"),
                spsa_engine(c_.base, c_.params, minus, "minus")};
    }
    std::vector<EngineSpec> stage(std::uint64_t it) {
        if (it + 1 != rows_.size()) throw std::logic_error("spsa: iterations out of order");
        return engines(theta_, it, &current_);
    }

    void replay(const GameRecord& g, const GameSlot& s) override { count(g, s); }
    void add(const PlayedGame& game, const GameSlot& s, RunFolder& folder) override {
        if (!csv_.is_open()) { // the rows so far (the replayed ones), then row by row
            const std::string path = folder.dir() + "/spsa.csv";
            write_file_atomically(path, csv_text());
            csv_ = AppendFile(path, false);
        }
        if (count(game.record, s)) csv_.append(csv_line(rows_.back()));
    }
    std::string progress() const override {
        std::string s = "iteration " + std::to_string(rows_.size() - 1) + "/" +
                        std::to_string(c_.pairs / c_.iteration_pairs);
        for (std::size_t i = 0; i < theta_.size() && i < 4; ++i)
            s += "  " + c_.params[i].name + " " + format_number("%.2f", theta_[i]);
        return s;
    }

    std::string csv_text() const {
        std::string text = csv_header(c_.params);
        for (const SpsaRow& r : rows_) text += csv_line(r);
        return text;
    }
    void close_csv() {
        if (csv_.is_open()) csv_.close();
    }
    const std::vector<SpsaRow>& rows() const { return rows_; }
    const std::vector<double>& theta() const { return theta_; }
    const std::vector<SpsaGains>& gains() const { return gains_; }
    stats::WDL total; // theta+'s games over the whole run

private:
    // Counts a game of the current iteration; true when it completed the iteration.
    bool count(const GameRecord& g, const GameSlot& s) {
        const bool white_won = g.result == GameResult::WhiteWins;
        const bool black_won = g.result == GameResult::BlackWins;
        if (!white_won && !black_won) {
            ++current_.draws;
            ++total.draws;
        } else if ((white_won && s.white == 0) || (black_won && s.black == 0)) {
            ++current_.wins;
            ++total.wins;
        } else {
            ++current_.losses;
            ++total.losses;
        }
        if (current_.wins + current_.draws + current_.losses < 2 * c_.iteration_pairs) return false;
        for (std::size_t i = 0; i < theta_.size(); ++i)
            theta_[i] = spsa_step(theta_[i], c_.params[i], current_.c[i], current_.a[i],
                                  current_.result(), current_.flip[i]);
        current_.theta = theta_;
        rows_.push_back(current_);
        current_ = SpsaRow{};
        return true;
    }

    const SpsaConfig& c_;
    SpsaShape shape_;
    std::vector<SpsaGains> gains_;
    std::vector<double> theta_;
    std::vector<SpsaRow> rows_;
    SpsaRow current_;
    AppendFile csv_;
};

// The values of the engine as tuned: the base's own named values, then the tuned ones.
std::vector<std::pair<std::string, int>> params_file_values(const SpsaConfig& c,
                                                            const std::vector<int>& values) {
    std::vector<std::pair<std::string, int>> out;
    auto put = [&out](const std::string& name, int v) {
        for (auto& kv : out)
            if (kv.first == name) {
                kv.second = v;
                return;
            }
        out.emplace_back(name, v);
    };
    for (const auto& [k, v] : c.base.params) put(k, v);
    for (const auto& [k, v] : c.base.weight_values) put(k, v);
    for (std::size_t i = 0; i < c.params.size(); ++i) put(c.params[i].name, values[i]);
    return out;
}

// The verification match, tuned against start, in OUT/verify.
TournamentResult verify(const SpsaConfig& c, const std::vector<int>& values) {
    TournamentConfig t;
    RunConfig& r = t.run;
    r.rules = c.run.rules;
    r.openings = c.run.openings;
    r.adjudication = c.run.adjudication;
    r.threads = c.run.threads;
    r.quiet = c.run.quiet;
    r.resume = c.run.resume;
    r.setting_options = c.run.setting_options;
    r.seed = c.run.seed ^ 0x5645524946590000ULL; // "VERIFY": openings apart from the tuning's
    r.out_dir = c.run.out_dir + "/verify";
    r.games = c.verify_games + c.verify_games % 2;
    EngineSpec start = c.base;
    start.name = "start";
    r.players = {spsa_engine(c.base, c.params, values, "tuned"), start};
    return run_tournament(t);
}

// `given`, on a resume with the schedule the run began with (its gains decided the games
// played): settings.json's spsa.pairs.
SpsaConfig resumed_config(const SpsaConfig& given) {
    SpsaConfig c = given;
    const std::string settings_path = RunFolder::settings_path(c.run.out_dir);
    if (c.run.resume && c.schedule_pairs == 0 && std::filesystem::exists(settings_path)) {
        const Json before =
            Json::parse(read_text_file(settings_path, kJsonFileLimits), nullptr, false);
        if (before.is_object() && before.contains("spsa") && before["spsa"].is_object() &&
            before["spsa"].contains("pairs") && before["spsa"]["pairs"].is_number_unsigned() &&
            before["spsa"]["pairs"].get<std::uint64_t>() > 0)
            c.schedule_pairs = before["spsa"]["pairs"].get<std::uint64_t>();
    }
    return c;
}

// The run of games of an SPSA run: a gauntlet in stages, each stage's players from `observer`.
RunConfig spsa_run(const SpsaConfig& c, SpsaObserver& observer) {
    RunConfig run = c.run;
    run.kind = "spsa";
    run.pairing = Pairing::Gauntlet;
    run.games = 2 * c.pairs;
    run.stage_games = 2 * c.iteration_pairs;
    run.players = observer.engines(observer.theta(), 0, nullptr);
    run.stage_players = [&observer](std::uint64_t it) { return observer.stage(it); };
    const SpsaShape shape = c.shape();
    Json specs = Json::array();
    for (const SpsaParam& p : c.params) specs.push_back(p.to_string());
    // "batch" is --iteration-pairs: the key run folders and spsa.json hold keeps its name.
    run.extra_settings["spsa"] = {{"base", c.base.description()},
                                  {"params", specs},
                                  {"pairs", shape.pairs},
                                  {"batch", c.iteration_pairs},
                                  {"alpha", c.alpha},
                                  {"gamma", c.gamma},
                                  {"A", shape.A}};
    run.summary_files = {"spsa.json", "params.txt"};
    run.summary_format = kSpsaSummaryFormat;
    return run;
}

// spsa.json without its verification (null) and by_rank.
Json spsa_summary(const SpsaConfig& c, const SpsaObserver& observer, const SpsaResult& result,
                  const RunOutcome& outcome, bool complete) {
    Json params = Json::array();
    for (std::size_t i = 0; i < c.params.size(); ++i) {
        const SpsaParam& p = c.params[i];
        params.push_back({{"name", p.name},
                          {"start", p.start},
                          {"final", result.theta[i]},
                          {"value", result.values[i]},
                          {"min", p.min},
                          {"max", p.max},
                          {"c_end", p.c_end},
                          {"r_end", p.r_end},
                          {"c", observer.gains()[i].c},
                          {"a", observer.gains()[i].a}});
    }
    return {{"format", kSpsaSummaryFormat},
            {"complete", complete},
            {"iterations", result.iterations},
            {"scheduled_iterations", c.pairs / c.iteration_pairs},
            {"pairs", outcome.games / 2},
            {"games", outcome.games},
            {"games_this_run", outcome.played_now},
            {"seconds", outcome.seconds},
            {"games_per_second",
             outcome.seconds > 0 ? double(outcome.played_now) / outcome.seconds : 0.0},
            {"alpha", c.alpha},
            {"gamma", c.gamma},
            {"A", c.shape().A},
            {"batch", c.iteration_pairs},
            {"seed", c.run.seed},
            {"base", c.base.description()},
            {"plus_results", stats::to_json(observer.total)},
            {"params", params},
            {"params_file", "params.txt"},
            {"history", "spsa.csv"},
            {"verification", nullptr}};
}

} // namespace

SpsaConfig::SpsaConfig() {
    run.kind = "spsa";
    run.pairing = Pairing::Gauntlet;
    run.out_dir = "spsa";
    run.log_positions = false;
}

SpsaShape SpsaConfig::shape() const {
    SpsaShape s;
    s.alpha = alpha;
    s.gamma = gamma;
    s.pairs = schedule_pairs ? schedule_pairs : pairs;
    s.A = a_ratio * double(s.pairs);
    return s;
}

void SpsaConfig::validate() const {
    if (params.empty())
        throw std::invalid_argument("--spsa-param: give at least one value to tune");
    for (std::size_t i = 0; i < params.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (params[i].name == params[j].name)
                throw std::invalid_argument("--spsa-param " + params[i].name + ": given twice");
    if (base.kind != EngineSpec::Kind::Engine)
        throw std::invalid_argument("spsa tunes the toolkit's own engine");
    if (iteration_pairs < 1) throw std::invalid_argument("--iteration-pairs must be at least 1");
    if (pairs < 1 || pairs % iteration_pairs != 0)
        throw std::invalid_argument(
            "the game pairs must be a positive multiple of --iteration-pairs");
    if (!(alpha > 0 && alpha <= 1)) throw std::invalid_argument("--alpha must lie in (0, 1]");
    if (!(gamma > 0 && gamma <= 1)) throw std::invalid_argument("--gamma must lie in (0, 1]");
    if (!(a_ratio >= 0 && a_ratio <= 10))
        throw std::invalid_argument("--a-ratio must lie between 0 and 10");
}

EngineSpec spsa_engine(const EngineSpec& base, const std::vector<SpsaParam>& params,
                       const std::vector<int>& values, const std::string& name) {
    EngineSpec e = base;
    e.name = name;
    for (std::size_t i = 0; i < params.size(); ++i)
        e.set(params[i].name, std::to_string(values[i]));
    e.validate();
    return e;
}

SpsaResult run_spsa(const SpsaConfig& given) {
    given.validate();
    // Step 1. The settings, with the schedule a resumed run began with.
    const SpsaConfig c = resumed_config(given);
    // Step 2. The run of games: stages of pairs, each stage's engines from the observer's theta.
    SpsaObserver observer(c);
    const RunConfig run = spsa_run(c, observer);
    // Step 3. At the end: spsa.csv, params.txt and spsa.json, then the verification match.
    SpsaResult result;
    run_games(run, observer, [&](const RunOutcome& outcome, RunFolder& folder) {
        observer.close_csv();
        write_file_atomically(folder.dir() + "/spsa.csv", observer.csv_text());
        result.theta = observer.theta();
        for (std::size_t i = 0; i < c.params.size(); ++i)
            result.values.push_back(spsa_round(result.theta[i], c.params[i]));
        result.iterations = observer.rows().size() - 1;
        result.games = outcome.games;
        result.played_now = outcome.played_now;
        result.seconds = outcome.seconds;
        result.interrupted = outcome.interrupted;
        const bool complete = outcome.games == run.games;

        const std::string header = "fanorona spsa: " + std::to_string(result.iterations) +
                                   " iterations, " + std::to_string(outcome.games) +
                                   " games, seed " + std::to_string(c.run.seed) +
                                   (complete ? "" : " (incomplete)");
        folder.finish("params.txt",
                      format_params(params_file_values(c, result.values),
                                    {header, "base engine: " + c.base.description()}));
        Json& s = result.summary;
        s = spsa_summary(c, observer, result, outcome, complete);
        if (!outcome.by_rank.empty()) s["by_rank"] = by_rank_json(outcome.by_rank); // under MPI
        folder.finish("spsa.json", to_json_text(s, 2) + "\n");
        if (!complete || c.verify_games == 0) return;
        // Step 4. The tuned values against the start's.
        const TournamentResult v = verify(c, result.values);
        result.verification = stats::estimate_elo(v.results.pentanomial(0, 1));
        result.interrupted = v.interrupted;
        s["verification"] = {{"folder", "verify"},
                             {"games", v.games},
                             {"complete", !v.interrupted},
                             {"players", {"tuned", "start"}},
                             {"wdl", stats::to_json(v.results.wdl(0, 1))},
                             {"match", stats::to_json(*result.verification)}};
        folder.finish("spsa.json", to_json_text(s, 2) + "\n");
    });
    return result;
}

} // namespace fanorona
