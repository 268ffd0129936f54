#include "selfplay/games/run_folder.h"
#include "selfplay/formats/json_text.h"

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <filesystem>

#include "core/common/files.h"
#include "selfplay/formats/corpus_convert.h"
#include "selfplay/formats/formats.h"
#include "selfplay/formats/position_log.h"

namespace fanorona {

namespace fs = std::filesystem;

namespace {

// Whether a games file holds at least one whole game line (anything but '#' header lines).
bool holds_games(const std::string& path) {
    if (!fs::exists(path)) return false;
    const std::string text = read_text_file(path, kGamesFileLimits);
    for (std::size_t pos = 0; pos < text.size();) {
        const std::size_t end = text.find('\n', pos);
        if (end == std::string::npos) return false;
        if (end > pos && text[pos] != '#') return true;
        pos = end + 1;
    }
    return false;
}

nlohmann::json read_json_object(const std::string& path) {
    std::string text;
    try {
        text = read_text_file(path, kJsonFileLimits);
    } catch (const FileError& e) {
        throw RunFolderError(e.what());
    }
    const auto j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        throw RunFolderError(path + ": not a JSON object (damaged?)");
    return j;
}

} // namespace

std::uint64_t cut_tail(const std::string& path, std::uint64_t size, std::uint64_t bytes) {
    if (size <= bytes) return 0;
    std::error_code ec;
    fs::resize_file(path, bytes, ec);
    if (ec) throw RunFolderError(path + ": cannot cut the damaged tail: " + ec.message());
    return size - bytes;
}

void check_resume_settings(const std::string& dir, const nlohmann::json& now,
                           const std::vector<std::string>& free_keys,
                           const SettingOptions& options) {
    check_resume_settings_file(dir + "/settings.json", now, free_keys, options);
}

void check_resume_settings_file(const std::string& path, const nlohmann::json& now_given,
                                const std::vector<std::string>& free_keys,
                                const SettingOptions& options) {
    const nlohmann::json before = read_json_object(path);
    // The settings as written (a name that is not UTF-8 is written with U+FFFD), so that a run
    // in a folder whose name is not UTF-8 resumes.
    const nlohmann::json now = nlohmann::json::parse(to_json_text(now_given));
    if (now.contains("format") && before.value("format", nlohmann::json()) != now["format"])
        throw RunFolderError(
            path + ": cannot resume: format " +
            (before.contains("format") ? to_json_text(before["format"]) : "absent") +
            ", but this run writes " + to_json_text(now["format"]) +
            " (the settings of another kind of run, or another version)");
    // The program that wrote the settings ("program") may change: a newer build goes on.
    auto is_free = [&](const std::string& key) {
        return key == "program" ||
               std::find(free_keys.begin(), free_keys.end(), key) != free_keys.end();
    };
    auto option_of = [&](const std::string& key) -> const std::string* {
        for (const auto& [k, option] : options)
            if (k == key) return &option;
        return nullptr;
    };
    // The setting that differs, named by its option, inside nested objects when they name theirs.
    auto refuse = [&](std::string key, const nlohmann::json* was, const nlohmann::json* is) {
        while (was && is && was->is_object() && is->is_object()) {
            std::string inner;
            for (const auto& [k, v] : is->items())
                if (!was->contains(k) || (*was)[k] != v) inner = k;
            for (const auto& [k, v] : was->items())
                if (inner.empty() && !is->contains(k)) inner = k;
            if (inner.empty() || !option_of(key + "." + inner)) break;
            key += "." + inner;
            was = was->contains(inner) ? &(*was)[inner] : nullptr;
            is = is->contains(inner) ? &(*is)[inner] : nullptr;
        }
        const std::string* option = option_of(key);
        throw RunFolderError(
            path +
            ": cannot resume with other settings: " + (option ? *option : "setting '" + key + "'") +
            " was " + (was ? was->dump() : "absent") + ", now " + (is ? is->dump() : "absent") +
            (option ? " (settings key '" + key + "')" : ""));
    };
    // Settings that earlier versions did not write: a folder without one resumes as before. They
    // are checked last, so that a change of the players is named as such, not by its networks.
    const std::vector<std::string> added_later = {"net_fingerprints"};
    auto added = [&](const std::string& key) {
        return std::find(added_later.begin(), added_later.end(), key) != added_later.end();
    };
    for (const bool late : {false, true})
        for (const auto& [key, value] : now.items()) {
            if (is_free(key) || added(key) != late) continue;
            if (late && !before.contains(key)) continue;
            if (!before.contains(key) || before[key] != value)
                refuse(key, before.contains(key) ? &before[key] : nullptr, &value);
        }
    // A setting written only when used (series, table adjudication, a shuffled suite...) that
    // this run does not use.
    for (const auto& [key, value] : before.items())
        if (!is_free(key) && !now.contains(key)) refuse(key, &value, nullptr);
}

RunFolder::RunFolder(const RunFolderSpec& spec) : spec_(spec) {
    // A file-size limit (ulimit -f) makes a write fail with EFBIG, reported like a full disk,
    // instead of killing the process with SIGXFSZ.
    std::signal(SIGXFSZ, SIG_IGN);
    lock_ = std::make_unique<FolderLock>(spec_.dir);
    const std::string gpath = games_path(spec_.dir), ppath = positions_path(spec_.dir);

    GamesScan games;
    PositionsScan positions;
    CorpusScan corpus;
    LiveScan live;
    if (!spec_.resume) {
        if (holds_games(gpath))
            throw RunFolderError(gpath + ": already holds games; use --resume to continue the "
                                         "run, or choose another folder");
    } else {
        games = scan_games(gpath, spec_.header);
        if (spec_.log_positions)
            positions = scan_positions(ppath, {spec_.header.variant, spec_.header.ruleset});
        if (spec_.corpus) corpus = scan_run_corpus(corpus_path(spec_.dir), spec_.header.rules());
        if (!spec_.live_path.empty()) live = scan_live(spec_.live_path);
        const bool any = !games.ends.empty() || !positions.ends.empty() || !corpus.ends.empty() ||
                         !live.ends.empty();
        if (any) {
            const std::string spath = settings_path(spec_.dir);
            if (!fs::exists(spath))
                throw RunFolderError(spath + ": missing, but the folder holds games (" +
                                     std::to_string(games.ends.size()) +
                                     " in games.tsv): the settings they were "
                                     "played with are unknown; restore it, or "
                                     "start a new --out folder");
            check_resume_settings(spec_.dir, spec_.settings, spec_.free_keys,
                                  spec_.setting_options);
            if (!spec_.summary_files.empty() && !spec_.summary_format.empty()) {
                const std::string sum = spec_.dir + "/" + spec_.summary_files.front();
                if (fs::exists(sum)) {
                    const nlohmann::json j = read_json_object(sum);
                    if (j.contains("format") && j["format"] != spec_.summary_format)
                        throw RunFolderError(sum + ": format " + to_json_text(j["format"]) +
                                             ", but this run writes \"" + spec_.summary_format +
                                             "\" (a folder of another kind of run)");
                }
            }
        }
    }
    reconcile(games, positions, corpus, live);
}

RunFolder::~RunFolder() {
    if (broken_ || !corpus_) return;
    try {
        corpus_->flush();
    } catch (const std::exception&) {
        // Dropped: the games are in games.tsv, and a --resume writes them into the corpus.
    }
}

namespace {

// Refuses games.tsv when its games are not the run's indices in order.
void check_game_indices(const GamesScan& games, const RunFolderSpec& spec,
                        const std::string& gpath) {
    for (std::uint64_t k = 0; k < games.ends.size(); ++k) {
        const std::uint64_t want = spec.first_index + k * spec.index_step;
        if (games.index[k] != want)
            throw RunFolderError(gpath + ":" + std::to_string(games.line[k]) + ": index: game " +
                                 std::to_string(games.index[k]) + " where game " +
                                 std::to_string(want) +
                                 " was expected (a game missing or written twice)");
    }
}

// The corpus's blocks: each must start with the game at its place in games.tsv. (Games missing
// from it are not cut from the folder: they are written again from games.tsv.)
void check_corpus_blocks(const CorpusScan& corpus, const GamesScan& games, const std::string& cpath,
                         const std::string& gpath) {
    const std::uint64_t g = games.ends.size();
    for (std::uint64_t k = 0, first = 0; k < corpus.ends.size(); first += corpus.games[k], ++k)
        if (first < g && corpus.first_game[k] != games.index[first])
            throw RunFolderError(cpath + ": block " + std::to_string(k + 1) + " starts with game " +
                                 std::to_string(corpus.first_game[k]) + ", but " + gpath + ":" +
                                 std::to_string(games.line[first]) + " is game " +
                                 std::to_string(games.index[first]));
}

} // namespace

std::uint64_t RunFolder::games_to_keep(const GamesScan& games, const PositionsScan& positions,
                                       const CorpusScan& corpus, const LiveScan& live,
                                       std::string& reason) const {
    const std::string gpath = games_path(spec_.dir), ppath = positions_path(spec_.dir);
    const std::string& lpath = spec_.live_path;
    const std::uint64_t g = games.ends.size();
    check_game_indices(games, spec_, gpath);
    std::uint64_t keep = g;
    std::vector<std::string> why;
    if (spec_.log_positions) {
        if (!positions.exists && g > 0)
            throw RunFolderError(ppath + ": missing, but games.tsv holds " + std::to_string(g) +
                                 " games");
        const std::uint64_t c = positions.ends.size();
        for (std::uint64_t k = 0; k < std::min(g, c); ++k)
            if (positions.first_game[k] &&
                *positions.first_game[k] != std::uint32_t(games.index[k]))
                throw RunFolderError(
                    ppath + ": chunk " + std::to_string(k + 1) + " holds the positions of game " +
                    std::to_string(*positions.first_game[k]) + ", but " + gpath + ":" +
                    std::to_string(games.line[k]) + " is game " + std::to_string(games.index[k]));
        if (c < keep) {
            why.push_back(std::to_string(keep - c) + " games without their positions chunk");
            keep = c;
        }
    }
    check_corpus_blocks(corpus, games, corpus_path(spec_.dir), gpath);
    if (!lpath.empty()) {
        if (!live.exists && g >= 2)
            throw RunFolderError(lpath + ": missing, but games.tsv holds " + std::to_string(g) +
                                 " games");
        if (!live.problem.empty() && live.valid < keep / 2)
            throw RunFolderError(lpath + ":" + std::to_string(live.valid + 1) + ": " +
                                 live.problem);
        if (2 * live.valid + 1 < keep) {
            why.push_back("game pair " + std::to_string(live.valid) + " without its live line");
            keep = 2 * live.valid + 1;
        }
    }
    for (const auto& w : why) reason += (reason.empty() ? "" : "; ") + w;
    return keep;
}

std::uint64_t RunFolder::cut_records(const std::string& path, std::uint64_t size,
                                     const std::vector<std::uint64_t>& ends, std::uint64_t n,
                                     std::uint64_t empty, const std::string& dropped,
                                     const std::string& tail) const {
    const std::uint64_t bytes = n ? ends[n - 1] : empty;
    const std::uint64_t cut = cut_tail(path, size, bytes);
    if (cut)
        note(path + ": cut " + std::to_string(cut) + " bytes (" +
             (n < ends.size() ? dropped : tail) + ")");
    return bytes;
}

void RunFolder::repair_positions(const PositionsScan& positions, std::uint64_t keep) {
    const std::string ppath = positions_path(spec_.dir);
    const std::uint64_t bytes =
        cut_records(ppath, positions.size, positions.ends, keep,
                    positions.has_header ? std::uint64_t(kPositionLogHeaderBytes) : 0,
                    "positions of games not in games.tsv", positions.tail_problem);
    positions_ = (bytes > std::uint64_t(kPositionLogHeaderBytes)
                      ? bytes - std::uint64_t(kPositionLogHeaderBytes) -
                            std::uint64_t(kPositionChunkHeaderBytes) * keep
                      : 0) /
                 kPositionRecordBytes;
    positions_file_ = AppendFile(ppath, !positions.has_header);
    if (!positions.has_header)
        positions_file_.append(encode_log_header({spec_.header.variant, spec_.header.ruleset}));
}

void RunFolder::repair_games(const GamesScan& games, std::uint64_t keep,
                             const std::string& reason) {
    const std::string gpath = games_path(spec_.dir);
    cut_records(gpath, games.size, games.ends, keep, games.header_end, reason, "a torn last line");
    games_file_ = AppendFile(gpath, !games.has_header);
    // A file begun by an older build goes on in its layout (without the per-move columns).
    spec_.header.move_stats = !games.has_header || games.move_stats;
    spec_.header.micro_times = !games.has_header || games.micro_times;
    if (!games.has_header) games_file_.append(games_header_lines(spec_.header));
}

void RunFolder::repair_corpus(const CorpusScan& corpus, std::uint64_t keep) {
    // The blocks that hold only games kept; the games after them are written again.
    std::uint64_t blocks = 0, kept = 0;
    while (blocks < corpus.ends.size() && kept + corpus.games[blocks] <= keep)
        kept += corpus.games[blocks++];
    const std::string cpath = corpus_path(spec_.dir);
    cut_records(cpath, corpus.size, corpus.ends, blocks,
                corpus.has_header ? std::uint64_t(kCorpusHeaderBytes) : 0,
                "blocks holding games not in games.tsv", corpus.tail_problem);
    if (spec_.resume && !corpus.exists && keep > 0)
        note(cpath + ": missing; written again from " + games_path(spec_.dir));
    reopen_corpus(corpus, kept, keep);
}

void RunFolder::reconcile(const GamesScan& games, const PositionsScan& positions,
                          const CorpusScan& corpus, const LiveScan& live) {
    // Step 1. Every check first: a refusal changes nothing.
    std::string reason;
    const std::uint64_t keep = games_to_keep(games, positions, corpus, live, reason);
    // Step 2. The repairs: cut every file back to the games kept.
    for (const auto& name : spec_.summary_files) fs::remove(spec_.dir + "/" + name);
    write_file_atomically(settings_path(spec_.dir), to_json_text(spec_.settings, 2) + "\n");
    if (spec_.log_positions) repair_positions(positions, keep);
    repair_games(games, keep, reason);
    if (spec_.corpus) repair_corpus(corpus, keep);
    if (const std::string& lpath = spec_.live_path; !lpath.empty()) {
        live_lines_ = std::min<std::uint64_t>(live.valid, keep / 2);
        cut_records(lpath, live.size, live.ends, live_lines_, 0,
                    "lines of game pairs not in games.tsv", "a torn last line");
        live_file_ = AppendFile(lpath, live_lines_ == 0);
    }
    existing_games_ = games_ = keep;
}

void RunFolder::reopen_corpus(const CorpusScan& corpus, std::uint64_t kept, std::uint64_t keep) {
    corpus_file_ = AppendFile(corpus_path(spec_.dir), !corpus.has_header);
    corpus_ = std::make_unique<CorpusWriter>(
        spec_.header.rules(), [this](const std::string& bytes) { corpus_file_.append(bytes); },
        corpus.has_header);
    if (kept >= keep) return;
    const std::string gpath = games_path(spec_.dir);
    GamesFile file;
    try {
        file = read_games_file(gpath);
    } catch (const GamesFileError& e) {
        throw RunFolderError(e.what());
    }
    for (std::uint64_t k = kept; k < keep; ++k)
        corpus_->add(corpus_game(file.games[k], file.header.rules(),
                                 gpath + ": game " + std::to_string(file.games[k].index)));
}

void RunFolder::flush() {
    if (!corpus_) return;
    if (broken_)
        throw RunFolderError(spec_.dir + ": an earlier write failed; nothing more is written");
    broken_ = true;
    corpus_->flush();
    broken_ = false;
}

void RunFolder::note(const std::string& text) const {
    // What a resume cuts is data dropped: said on stderr even with --quiet.
    std::fprintf(stderr, "resume: %s\n", text.c_str());
}

void RunFolder::append(const PlayedGame& game) {
    if (broken_)
        throw RunFolderError(spec_.dir + ": an earlier write failed; nothing more is written");
    const std::uint64_t want = spec_.first_index + games_ * spec_.index_step;
    if (game.record.index != want)
        throw RunFolderError(games_path(spec_.dir) + ": game " + std::to_string(game.record.index) +
                             " written where game " + std::to_string(want) + " was expected");
    broken_ = true; // until both writes succeed
    // The chunk first: a game counts once its games.tsv line is complete, and resume cuts a
    // chunk that has no line.
    if (spec_.log_positions) positions_file_.append(encode_chunk(game.positions));
    games_file_.append(format_game_record(game.record, spec_.header.series, spec_.header.move_stats,
                                          spec_.header.micro_times));
    // The corpus last: it is rebuilt from games.tsv on a resume.
    if (corpus_)
        corpus_->add(
            corpus_game(game.record, spec_.header.rules(),
                        games_path(spec_.dir) + ": game " + std::to_string(game.record.index)));
    broken_ = false;
    ++games_;
    if (spec_.log_positions) positions_ += game.positions.size();
}

void RunFolder::append_live(const nlohmann::json& line) {
    if (broken_)
        throw RunFolderError(spec_.dir + ": an earlier write failed; nothing more is written");
    if (!live_file_.is_open()) throw RunFolderError(spec_.dir + ": this run has no live stream");
    broken_ = true;
    live_file_.append(to_json_text(line) + "\n");
    broken_ = false;
    ++live_lines_;
}

void RunFolder::finish(const std::string& name, const std::string& text) {
    if (broken_) throw RunFolderError(spec_.dir + ": an earlier write failed; nothing is finished");
    flush();
    write_file_atomically(spec_.dir + "/" + name, text);
}

} // namespace fanorona
