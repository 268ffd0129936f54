#include "selfplay/selfplay.h"

#include <filesystem>
#include <map>
#include <memory>

#include <tbb/enumerable_thread_specific.h>

#include "common/weights_fingerprint.h"
#include "core/weights.h"
#include "selfplay/batch/batch_runner.h"
#include "selfplay/batch/progress.h"
#include "selfplay/batch/run_folder.h"
#include "selfplay/game/players.h"

namespace fanorona {

namespace {

std::string limits_description(const SearchLimits& l) {
    std::string s;
    auto add = [&s](const std::string& part) { s += (s.empty() ? "" : ",") + part; };
    if (l.depth) add("depth=" + std::to_string(l.depth));
    if (l.nodes) add("nodes=" + std::to_string(l.nodes));
    if (l.movetime_ms) add("movetime=" + std::to_string(l.movetime_ms));
    if (s.empty()) add("depth=" + std::to_string(SearchLimits::kDefaultDepth));
    return s;
}

void check_config(const SelfplayConfig& c) {
    if (c.games == 0) throw std::invalid_argument("--games must be at least 1");
    if (c.shard_count < 1 || c.shard_index < 0 || c.shard_index >= c.shard_count)
        throw std::invalid_argument("--shard I/N needs 0 <= I < N");
    if (c.exploration.epsilon < 0 || c.exploration.epsilon > 1)
        throw std::invalid_argument("--epsilon must lie between 0 and 1");
}

SelfplaySummary count_results(const std::string& dir) {
    SelfplaySummary s;
    const GamesFile file = read_games_file(RunFolder::games_path(dir));
    for (const GameRecord& g : file.games) {
        ++s.games;
        if (g.result == GameResult::WhiteWins) ++s.white_wins;
        if (g.result == GameResult::BlackWins) ++s.black_wins;
        if (g.result == GameResult::Draw) ++s.draws;
    }
    return s;
}

} // namespace

std::string player_description(const SelfplayConfig& c) {
    return "fanorona(" + limits_description(c.limits) + ",weights=" + c.weights_name + ")";
}

nlohmann::json settings_json(const SelfplayConfig& c) {
    return {
        {"format", "fanorona-selfplay-settings 1"},
        {"variant", variant_name(c.rules.variant)},
        {"rules", ruleset_name(c.rules.ruleset)},
        {"games", c.games},
        {"limits", limits_description(c.limits)},
        {"weights", c.weights_name},
        {"weights_fingerprint", weights_fingerprint(c.weights)},
        {"hash_mb", c.hash_mb},
        {"openings", c.openings.describe()},
        {"seed", c.seed},
        {"max_turns", c.adjudication.max_turns},
        {"win_margin", c.adjudication.win_margin},
        {"win_turns", c.adjudication.win_turns},
        {"epsilon", c.exploration.epsilon},
        {"explore_turns", c.exploration.turns},
        {"log_positions", c.log_positions},
        {"shard", std::to_string(c.shard_index) + "/" + std::to_string(c.shard_count)},
    };
}

nlohmann::json SelfplaySummary::to_json(const SelfplayConfig& config) const {
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
        {"positions_per_second", seconds > 0 ? double(positions) / seconds : 0.0},
    };
}

SelfplaySummary run_selfplay(const SelfplayConfig& config) {
    check_config(config);
    RunFolderSpec spec;
    spec.dir = config.out_dir;
    spec.settings = settings_json(config);
    spec.free_keys = {"games"};
    spec.header = {config.rules.variant, config.rules.ruleset};
    spec.log_positions = config.log_positions;
    spec.summary_files = {"summary.json"};
    spec.summary_format = kSelfplaySummaryFormat;
    spec.first_index = std::uint64_t(config.shard_index);
    spec.index_step = std::uint64_t(config.shard_count);
    spec.resume = config.resume;
    spec.quiet = config.quiet;
    RunFolder files(spec);

    const std::uint64_t pairs = (config.games + 1) / 2;
    const std::vector<Opening> openings =
        load_openings(config.openings, config.rules, pairs, config.seed);

    std::vector<std::uint64_t> indices;
    for (std::uint64_t i = config.shard_index; i < config.games; i += config.shard_count)
        indices.push_back(i);
    const std::uint64_t skip =
        std::min<std::uint64_t>(files.games_already_written(), indices.size());
    indices.erase(indices.begin(), indices.begin() + std::ptrdiff_t(skip));
    const std::uint64_t positions_before = files.positions_written();

    const std::string name = player_description(config);
    tbb::enumerable_thread_specific<std::unique_ptr<Searcher>> searchers;
    auto play = [&](std::uint64_t index) {
        auto& searcher = searchers.local();
        if (!searcher) {
            searcher = std::make_unique<Searcher>(config.hash_mb);
            searcher->set_weights(config.weights);
        }
        SearchPlayer player(*searcher, config.limits);
        GameSetup setup;
        setup.rules = config.rules;
        setup.opening = openings[(index / 2) % openings.size()];
        setup.index = index;
        setup.seed = config.seed;
        setup.adjudication = config.adjudication;
        setup.exploration = config.exploration;
        setup.white_name = setup.black_name = name;
        PlayedGame game = play_game(setup, player, player);
        if (!config.log_positions) game.positions.clear();
        return game;
    };

    SelfplaySummary summary;
    ProgressLine progress(indices.size() + skip, config.quiet);
    std::uint64_t done = skip, w = 0, d = 0, b = 0;
    auto sink = [&](PlayedGame&& game) {
        files.append(game);
        ++done;
        (game.record.result == GameResult::WhiteWins   ? w
         : game.record.result == GameResult::BlackWins ? b
                                                       : d)++;
        progress.update(done, "W " + std::to_string(w) + " D " + std::to_string(d) + " B " +
                                  std::to_string(b));
    };
    progress.update(done, "", true);
    summary.played_now = run_batch(indices, BatchOptions{config.threads}, play, sink);
    progress.finish();
    summary.seconds = progress.elapsed_seconds();
    summary.interrupted = summary.played_now < indices.size();

    const SelfplaySummary counts = count_results(config.out_dir);
    summary.games = counts.games;
    summary.white_wins = counts.white_wins;
    summary.draws = counts.draws;
    summary.black_wins = counts.black_wins;
    summary.positions = files.positions_written();
    const std::uint64_t new_positions = summary.positions - positions_before;
    nlohmann::json j = summary.to_json(config);
    j["positions_per_second"] = summary.seconds > 0 ? double(new_positions) / summary.seconds : 0.0;
    files.finish("summary.json", j.dump(2) + "\n");
    return summary;
}

SelfplaySummary merge_shards(const std::vector<std::string>& dirs, const std::string& out_dir) {
    if (dirs.empty()) throw std::invalid_argument("merge: no shard folders given");
    nlohmann::json base;
    std::map<std::uint64_t, PlayedGame> games;
    std::optional<GamesHeader> header;
    bool log_positions = true;
    for (const std::string& dir : dirs) {
        const std::string spath = dir + "/settings.json";
        nlohmann::json s;
        try {
            s = nlohmann::json::parse(read_text_file(spath));
        } catch (const std::exception& e) {
            throw std::runtime_error(spath + ": " + e.what());
        }
        if (s.value("format", nlohmann::json()) != "fanorona-selfplay-settings 1")
            throw std::runtime_error(spath + ": format " +
                                     s.value("format", nlohmann::json()).dump() +
                                     ", expected \"fanorona-selfplay-settings 1\"");
        nlohmann::json comparable = s;
        comparable.erase("shard");
        if (base.is_null())
            base = comparable;
        else if (base != comparable)
            throw std::runtime_error(spath + ": settings differ from " + dirs.front() +
                                     "/settings.json (only the shard may differ)");
        log_positions = s.value("log_positions", true);
        const GamesFile gf = read_games_file(RunFolder::games_path(dir));
        if (header &&
            (header->variant != gf.header.variant || header->ruleset != gf.header.ruleset))
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
            PlayedGame g{gf.games[k], log_positions ? chunks[k] : std::vector<PositionRecord>{}};
            if (!games.emplace(g.record.index, std::move(g)).second)
                throw std::runtime_error(RunFolder::games_path(dir) + ": game " +
                                         std::to_string(gf.games[k].index) +
                                         " appears in more than one shard");
        }
    }
    const std::uint64_t total = base.value("games", std::uint64_t(0));
    std::uint64_t expected = 0;
    for (const auto& [index, g] : games) {
        if (index != expected)
            throw std::runtime_error("merge: game " + std::to_string(expected) +
                                     " is missing from every shard (finish or resume that shard)");
        ++expected;
    }
    if (expected != total)
        throw std::runtime_error("merge: the shards hold " + std::to_string(expected) + " of " +
                                 std::to_string(total) + " games");
    if (std::filesystem::exists(RunFolder::games_path(out_dir)))
        throw std::runtime_error(RunFolder::games_path(out_dir) +
                                 ": already exists; merge into a new folder");
    base["shard"] = "0/1";
    nlohmann::json ordered = nlohmann::json::parse(base.dump()); // same key order as a run
    RunFolderSpec spec;
    spec.dir = out_dir;
    spec.settings = ordered;
    spec.header = *header;
    spec.log_positions = log_positions;
    spec.summary_files = {"summary.json"};
    RunFolder files(spec);
    for (auto& [index, g] : games) files.append(g);
    SelfplaySummary summary = count_results(out_dir);
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
    files.finish("summary.json", j.dump(2) + "\n");
    return summary;
}

} // namespace fanorona
