#include "selfplay/selfplay.h"
#include "selfplay/formats/json_text.h"

#include <filesystem>
#include <map>

#include "core/common/files.h"
#include "selfplay/formats/formats.h"
#include "selfplay/games/remote_link.h"
#include "selfplay/tournament/series_tally.h"

namespace fanorona {

namespace {

// Counts White wins, draws and Black wins for the summary and the progress line.
// In Vela series, skipped places are no game, and the games are also counted by kind.
class ResultCounter : public GameObserver {
public:
    explicit ResultCounter(const RunConfig& c) : series(c.vela_series), rules(c.rules) {}
    void replay(const GameRecord& g, const GameSlot& s) override { count(g, s); }
    void add(const PlayedGame& g, const GameSlot& s, RunFolder&) override { count(g.record, s); }
    std::string progress() const override {
        return "W " + std::to_string(white) + " D " + std::to_string(draws) + " B " +
               std::to_string(black);
    }
    std::uint64_t white = 0, draws = 0, black = 0;
    bool series = false;
    Rules rules;
    SeriesTally tally;

private:
    void count(const GameRecord& g, const GameSlot& s) {
        if (series) tally.add(g, s, rules);
        if (!g.played()) return;
        (g.result == GameResult::WhiteWins   ? white
         : g.result == GameResult::BlackWins ? black
                                             : draws)++;
    }
};

} // namespace

nlohmann::json SelfplaySummary::to_json(const RunConfig& config) const {
    return {
        {"format", kSelfplaySummaryFormat},
        {"settings", settings_json(config)},
        {"games", games},
        {"played_now", played_now},
        {"interrupted", interrupted},
        {"results", {{"white_wins", white_wins}, {"draws", draws}, {"black_wins", black_wins}}},
        {"positions", positions},
        {"seconds", seconds},
        {"games_per_second", seconds > 0 ? double(played_now) / seconds : 0.0},
        {"positions_per_second", 0.0},
    };
}

SelfplaySummary run_selfplay(const RunConfig& config) {
    RunConfig c = config;
    c.summary_files = {"summary.json"};
    c.summary_format = kSelfplaySummaryFormat;
    ResultCounter counter(c);
    SelfplaySummary summary;
    run_games(c, counter, [&](const RunOutcome& run, RunFolder& folder) {
        summary.games = run.games;
        summary.played_now = run.played_now;
        summary.white_wins = counter.white;
        summary.draws = counter.draws;
        summary.black_wins = counter.black;
        summary.positions = run.positions;
        summary.seconds = run.seconds;
        summary.interrupted = run.interrupted;
        nlohmann::json j = summary.to_json(c);
        if (remote_link().traffic)
            if (nlohmann::json traffic = remote_link().traffic(); !traffic.is_null())
                j["cluster"] = std::move(traffic);
        if (!run.by_rank.empty()) j["cluster"]["by_rank"] = by_rank_json(run.by_rank);
        j["positions_per_second"] = run.seconds > 0 ? double(run.new_positions) / run.seconds : 0.0;
        if (c.vela_series) j["series"] = counter.tally.to_json();
        if (!run.engine_names.empty() && !run.engine_names[0].empty())
            j["engine_name"] = run.engine_names[0]; // the external engine's `id name`
        folder.finish("summary.json", to_json_text(j, 2) + "\n");
    });
    return summary;
}

namespace {

// A shard's settings.json: a JSON object of the run settings' format.
nlohmann::json read_shard_settings(const std::string& spath) {
    nlohmann::json s;
    try {
        s = nlohmann::json::parse(read_text_file(spath, kJsonFileLimits));
    } catch (const std::exception& e) {
        throw std::runtime_error(spath + ": " + e.what());
    }
    if (!s.is_object()) throw std::runtime_error(spath + ": not a JSON object (damaged?)");
    if (s.value("format", nlohmann::json()) != kRunSettingsFormat)
        throw std::runtime_error(spath + ": format " +
                                 to_json_text(s.value("format", nlohmann::json())) +
                                 ", expected \"" + kRunSettingsFormat + "\"");
    return s;
}

// The shards read so far: their settings but the shard (the same in each), their games by
// index with their positions, the games file's header, and what the run logged.
struct ShardGames {
    nlohmann::json base;
    std::map<std::uint64_t, PlayedGame> games;
    std::optional<GamesHeader> header;
    bool log_positions = true, corpus = false;

    // Reads the shard in `dir` (`first`: the first shard's folder, for errors).
    void add(const std::string& dir, const std::string& first);
    // Refuses a merge that lacks a game of the run.
    void check_complete() const {
        const std::uint64_t total = base.value("games", std::uint64_t(0));
        std::uint64_t expected = 0;
        for (const auto& [index, g] : games) {
            if (index != expected)
                throw std::runtime_error(
                    "merge: game " + std::to_string(expected) +
                    " is missing from every shard (finish or resume that shard)");
            ++expected;
        }
        if (expected != total)
            throw std::runtime_error("merge: the shards hold " + std::to_string(expected) + " of " +
                                     std::to_string(total) + " games");
    }
};

void ShardGames::add(const std::string& dir, const std::string& first) {
    const std::string spath = dir + "/settings.json";
    const nlohmann::json s = read_shard_settings(spath);
    nlohmann::json comparable = s;
    comparable.erase("shard");
    if (base.is_null())
        base = comparable;
    else if (base != comparable)
        throw std::runtime_error(spath + ": settings differ from " + first +
                                 "/settings.json (only the shard may differ)");
    if (s.contains("log_positions") && !s["log_positions"].is_boolean())
        throw std::runtime_error(spath + ": log_positions: expected true or false");
    if (s.contains("games") && !s["games"].is_number_unsigned())
        throw std::runtime_error(spath + ": games: expected a count");
    log_positions = s.value("log_positions", true);
    if (s.contains("corpus") && !s["corpus"].is_boolean())
        throw std::runtime_error(spath + ": corpus: expected true or false");
    corpus = s.value("corpus", false);
    const GamesFile gf = read_games_file(RunFolder::games_path(dir));
    if (header && (header->variant != gf.header.variant || header->ruleset != gf.header.ruleset))
        throw std::runtime_error(RunFolder::games_path(dir) +
                                 ":1: header: variant or rules differ");
    header = gf.header;
    std::vector<std::vector<PositionRecord>> chunks;
    if (log_positions) {
        const PositionLog log = scan_position_log(
            RunFolder::positions_path(dir),
            [&chunks](const std::vector<PositionRecord>& r) { chunks.push_back(r); });
        (void)log;
    }
    for (std::size_t k = 0; k < gf.games.size(); ++k) {
        if (log_positions && k >= chunks.size()) break; // game without its positions
        PlayedGame g{gf.games[k], log_positions ? chunks[k] : std::vector<PositionRecord>{}, {}};
        if (!games.emplace(g.record.index, std::move(g)).second)
            throw std::runtime_error(RunFolder::games_path(dir) + ": game " +
                                     std::to_string(gf.games[k].index) +
                                     " appears in more than one shard");
    }
}

} // namespace

SelfplaySummary merge_shards(const std::vector<std::string>& dirs, const std::string& out_dir) {
    if (dirs.empty()) throw std::invalid_argument("merge: no shard folders given");
    // Step 1. Every shard read and checked.
    ShardGames shards;
    for (const std::string& dir : dirs) shards.add(dir, dirs.front());
    shards.check_complete();
    if (std::filesystem::exists(RunFolder::games_path(out_dir)))
        throw std::runtime_error(RunFolder::games_path(out_dir) +
                                 ": already exists; merge into a new folder");
    // Step 2. The games written as one run's.
    shards.base["shard"] = "0/1";
    nlohmann::json ordered =
        nlohmann::json::parse(to_json_text(shards.base)); // same key order as a run
    RunFolderSpec spec;
    spec.dir = out_dir;
    spec.settings = ordered;
    spec.header = *shards.header;
    spec.header.move_stats = true; // written as version 3, whatever the shards' versions
    spec.log_positions = shards.log_positions;
    spec.corpus = shards.corpus;
    spec.summary_files = {"summary.json"};
    RunFolder files(spec);
    for (auto& [index, g] : shards.games) files.append(g);
    // Step 3. The summary.
    SelfplaySummary summary;
    for (const auto& [index, g] : shards.games) {
        ++summary.games;
        (g.record.result == GameResult::WhiteWins   ? summary.white_wins
         : g.record.result == GameResult::BlackWins ? summary.black_wins
                                                    : summary.draws)++;
    }
    summary.positions = files.positions_written();
    nlohmann::json j = {{"format", kSelfplaySummaryFormat},
                        {"settings", ordered},
                        {"games", summary.games},
                        {"merged_from", dirs},
                        {"results",
                         {{"white_wins", summary.white_wins},
                          {"draws", summary.draws},
                          {"black_wins", summary.black_wins}}},
                        {"positions", summary.positions}};
    files.finish("summary.json", to_json_text(j, 2) + "\n");
    return summary;
}

} // namespace fanorona
