#pragma once
// The output folder of a run of games (self-play, tournament, merge) as one guarded unit: a lock
// against a second writer, settings that a resume must match, appended files checked against
// each other and repaired (or refused) on --resume, every write checked. See docs/formats.md.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/append_file.h"
#include "core/common/folder_lock.h"
#include "selfplay/formats/corpus_file.h"
#include "selfplay/games/folder_scan.h"
#include "selfplay/games/game_runner.h"

namespace fanorona {

// What a run writes into its folder; fixed for the whole run.
// The user's option behind each settings key, for messages: {"games", "--games"}; a key of a
// nested object as "outer.inner" ({"spsa.batch", "--iteration-pairs"}). The tables are the
// command line's (tools/setting_options.h), passed down.
using SettingOptions = std::vector<std::pair<std::string, std::string>>;

struct RunFolderSpec {
    std::string dir;
    nlohmann::json settings;                // settings.json; its "format" names the kind of run
    std::vector<std::string> free_keys;     // settings a --resume may change (the number of games)
    GamesHeader header;                     // games.tsv's board and rules
    bool log_positions = false;             // positions.bin: one chunk per game
    bool corpus = false;                    // corpus.fcorpus: every game, a block at a time
    std::string live_path;                  // a stream of one JSON line per game pair; "": none
    std::vector<std::string> summary_files; // written by finish(); removed when the run starts
    std::string summary_format;             // the "format" of summary_files[0], checked on resume
    std::uint64_t first_index = 0;          // game k of the folder has index first_index + k * step
    std::uint64_t index_step = 1;
    bool resume = false; // keep the games there (repairing a torn tail); else they are an error
    SettingOptions setting_options; // the options behind the settings keys, for messages
};

// An open run folder. Invariants while it lives: this process holds DIR/.lock; settings.json is
// the spec's; games.tsv holds games first_index + k * step for k = 0..games_written()-1, each
// once, and positions.bin exactly one chunk per game; corpus.fcorpus's blocks hold the first of
// those games, in order, and the corpus writer the rest (written as its blocks fill, by flush(),
// and when the folder closes); the live stream one line per complete pair. Every write is
// checked: a failure throws RunFolderError/FileError naming the file, after which the folder is
// left as a torn tail that a --resume repairs.
class RunFolder {
public:
    // Takes the lock, checks (on resume) every file against the others and against the settings,
    // and either repairs them to what an uninterrupted run would have written so far or throws a
    // RunFolderError saying what is inconsistent (changing nothing); then writes settings.json and
    // opens the files for appending.
    explicit RunFolder(const RunFolderSpec& spec);
    // Writes the corpus's last block (as flush()) unless a write failed; errors are dropped here
    // (a --resume rebuilds what is missing from games.tsv).
    ~RunFolder();
    RunFolder(const RunFolder&) = delete;
    RunFolder& operator=(const RunFolder&) = delete;

    std::uint64_t games_already_written() const { return existing_games_; }
    std::uint64_t games_written() const { return games_; }
    std::uint64_t positions_written() const { return positions_; }
    std::uint64_t live_lines_written() const { return live_lines_; }

    // Appends one whole game (its positions chunk first, then its games line). The game's index
    // must be the next one; throws naming the file on a failed write.
    void append(const PlayedGame& game);
    // Writes the corpus's games not written yet as a block (nothing without spec.corpus).
    void flush();
    // Appends one line to the live stream (needs spec.live_path).
    void append_live(const nlohmann::json& line);
    // Writes DIR/name atomically (one of spec.summary_files), once the run's games are written
    // (flushing the corpus first).
    void finish(const std::string& name, const std::string& text);

    const std::string& dir() const { return spec_.dir; }
    static std::string games_path(const std::string& dir) { return dir + "/games.tsv"; }
    static std::string positions_path(const std::string& dir) { return dir + "/positions.bin"; }
    static std::string settings_path(const std::string& dir) { return dir + "/settings.json"; }
    static std::string corpus_path(const std::string& dir) { return dir + "/corpus.fcorpus"; }

private:
    void reconcile(const GamesScan& games, const PositionsScan& positions, const CorpusScan& corpus,
                   const LiveScan& live);
    // The steps of reconcile. Every check of the scans (a refusal throws RunFolderError): the
    // games to keep, and why fewer than games.tsv holds (into `reason`).
    std::uint64_t games_to_keep(const GamesScan& games, const PositionsScan& positions,
                                const CorpusScan& corpus, const LiveScan& live,
                                std::string& reason) const;
    // Cuts a scanned file back to the end of its first n records (to `empty` bytes, its header
    // or nothing, when n is 0) and says why: records past those kept, else a torn or bad tail.
    // The bytes kept.
    std::uint64_t cut_records(const std::string& path, std::uint64_t size,
                              const std::vector<std::uint64_t>& ends, std::uint64_t n,
                              std::uint64_t empty, const std::string& dropped,
                              const std::string& tail) const;
    // Each file cut back to the first `keep` games and opened for appending.
    void repair_positions(const PositionsScan& positions, std::uint64_t keep);
    void repair_games(const GamesScan& games, std::uint64_t keep, const std::string& reason);
    void repair_corpus(const CorpusScan& corpus, std::uint64_t keep);
    // Opens the corpus (cut after its first `kept` games) for appending and hands the writer the
    // folder's games after them, up to `keep`, from games.tsv.
    void reopen_corpus(const CorpusScan& corpus, std::uint64_t kept, std::uint64_t keep);
    // Tells on stderr what a resume cut (data dropped), whatever --quiet says.
    void note(const std::string& text) const;

    RunFolderSpec spec_;
    std::unique_ptr<FolderLock> lock_;
    AppendFile games_file_, positions_file_, live_file_, corpus_file_;
    std::unique_ptr<CorpusWriter> corpus_; // with spec.corpus
    std::uint64_t existing_games_ = 0, games_ = 0, positions_ = 0, live_lines_ = 0;
    bool broken_ = false; // a write failed: nothing more is appended
};

// Cuts the file `path` of `size` bytes to its first `bytes` (a resume's repair); returns how many
// bytes went (0 when it is not longer). Throws RunFolderError naming the file.
std::uint64_t cut_tail(const std::string& path, std::uint64_t size, std::uint64_t bytes);

// Checks DIR/settings.json against `now`: the same "format" (the same kind of run and version),
// and the same value for every key but `free_keys` (a key older versions did not write,
// net_fingerprints, may be absent from DIR's settings). Throws RunFolderError naming the file and
// the user's option that differs (by `options`, which the command's layer gives: this layer knows
// no option names; the settings key when it has none: "setting 'games' was 10, now 20").
void check_resume_settings(const std::string& dir, const nlohmann::json& now,
                           const std::vector<std::string>& free_keys,
                           const SettingOptions& options = {});
// The same for a settings file of any name (`fanorona rescore`'s OUT.settings.json).
void check_resume_settings_file(const std::string& path, const nlohmann::json& now,
                                const std::vector<std::string>& free_keys,
                                const SettingOptions& options);

} // namespace fanorona
