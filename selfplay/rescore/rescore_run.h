#pragma once
// A run of `fanorona rescore`: the games of one or more corpus files, in order, each rescored
// (selfplay/rescore/rescore.h) and appended to an output corpus a block of --block-games games at a
// time, so that a long run can stop anywhere and --resume where it stopped. Beside the output:
// OUT.settings.json (what a resume must match), OUT.lock (one writer) and the summary.

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "selfplay/games/run_folder.h"
#include "selfplay/rescore/rescore.h"

namespace fanorona {

inline constexpr std::uint64_t kRescoreBlockGames = 200; // the default of --block-games
inline constexpr const char* kRescoreSettingsFormat = "fanorona-rescore 1";
inline constexpr const char* kRescoreSummaryFormat = "fanorona-rescore-summary 1";

// What a run rescores and where it writes. `settings.engine` is validated (kind Engine).
struct RescoreConfig {
    std::vector<std::string> inputs; // corpus files, all of one board and rules, read in order
    std::string out;                 // the output corpus
    std::string summary_out;         // the JSON summary; "": OUT.summary.json
    RescoreSettings settings;
    int threads = 0;                                // oneTBB workers of this process (0: all cores)
    std::uint64_t block_games = kRescoreBlockGames; // games per output block (at least 1)
    std::uint64_t max_games = 0;                    // the output's games at most (0: every game)
    bool resume = false;
    SettingOptions setting_options; // the options behind the settings keys, for a resume's message
    bool quiet = false;             // no progress line

    static std::string settings_path(const std::string& out) { return out + ".settings.json"; }
    std::string summary_path() const {
        return summary_out.empty() ? out + ".summary.json" : summary_out;
    }
};

// What a run did. Invariant: out_games = kept_games + games.
struct RescoreOutcome {
    Rules rules;                   // the corpus's
    std::uint64_t input_games = 0; // in the inputs' intact blocks when the run started
    std::uint64_t kept_games = 0;  // in the output already (a resume), checked against the inputs
    std::uint64_t games = 0;       // rescored and written by this run
    std::uint64_t out_games = 0;   // in the output at the end
    RescoreCount searched;         // by this run
    double seconds = 0;            // this run's rescoring
    bool interrupted = false;      // stopped by Ctrl-C before the inputs' (or --max-games') end
};

// The settings OUT.settings.json holds (a resume may change max_games only).
nlohmann::json rescore_settings_json(const RescoreConfig& config, const Rules& rules);

// Runs the rescore: locks OUT.lock; checks the inputs (corpus files of one board and rules); on
// --resume keeps the output's leading blocks of block_games games each (cutting any later,
// shorter or torn block, to be written again), after checking the settings and that these games
// are the inputs' first games; then rescores the rest and appends them block by block, and
// writes the summary file. Without --resume an output that holds games is refused. The output is
// the same file for any --threads, any number of MPI ranks, and any interruptions and resumes.
// Throws std::invalid_argument, RunFolderError, CorpusError or FileError naming the file.
RescoreOutcome run_rescore(const RescoreConfig& config);

// The summary: the settings, the counts and speeds of `outcome`.
nlohmann::json rescore_summary_json(const RescoreConfig& config, const RescoreOutcome& outcome);

} // namespace fanorona
