#pragma once
// The name (and version) of every file format the toolkit writes, in one place: the readers and
// writers, the run folders' resume checks and the report's sections compare against these
// constants, never against a second spelling of the text. docs/formats.md describes each format.
//
// Two names live in core instead, beside the code that owns their text: the weights text's
// "fanorona-weights" (kWeightsMagic, core/weights.h: core parses weights texts, this layer reads
// and writes their files) and the endgame table files' binary magic "FNRNTBL\n"
// (core/tables/table_file.cpp: the endgame tables, the one part of core that reads and writes
// files of a format of their own). The endings
// benchmark's "fanorona-endings 1" is written by a shell script (tools/bench/endings.sh).

#include <cstdint>
#include <string_view>

#include "core/common/files.h"
#include "core/weights.h"

namespace fanorona {

// Text files with a header line "NAME VERSION".
inline constexpr std::string_view kGamesFormatName = "fanorona-games"; // "# fanorona-games 1 ..."
inline constexpr std::string_view kGamesFormatVersion = "1";           // one game per line
inline constexpr std::string_view kGamesSeriesFormatVersion = "2"; // Vela series: 2 more columns
inline constexpr std::string_view kGamesStatsFormatVersion = "3";  // times, depths, nodes per move
inline constexpr std::string_view kGamesMicroFormatVersion = "4";  // the times in microseconds
// The engine log (`--log FILE`): "# fanorona-engine-log 1", then one tab-separated line per line.
inline constexpr std::string_view kEngineLogFormat = "fanorona-engine-log 1";
inline constexpr std::string_view kParamsMagic = "fanorona-params";
inline constexpr int kParamsFormatVersion = 1;
// kWeightsMagic ("fanorona-weights", versions 1 and 2): core/weights.h, included above.
// The network trainer's checkpoint (text lines, then binary parameters): "NAME VERSION".
inline constexpr std::string_view kTrainCheckpointMagic = "fanorona-train-checkpoint 1";

// Binary files: the first 8 bytes.
inline constexpr std::string_view kPositionLogMagic{"FNRPOS\r\n", 8};
inline constexpr std::string_view kCorpusMagic{"FNRCRP\r\n", 8};    // corpus files (--corpus)
inline constexpr std::string_view kProofFileMagic{"FNRPRF\r\n", 8}; // solve --proof
inline constexpr std::uint32_t kProofFileVersion = 1;

// JSON files: the value of their "format" member.
inline constexpr const char* kRunSettingsFormat = "fanorona-run-settings 1"; // settings.json
inline constexpr const char* kSelfplaySummaryFormat = "fanorona-selfplay-summary 1"; // summary.json
inline constexpr const char* kTournamentResultsFormat = "fanorona-tournament-results 1";
inline constexpr const char* kOpeningsFormat = "fanorona-openings 1";          // openings.json
inline constexpr const char* kLoopSettingsFormat = "fanorona-loop-settings 2"; // loop settings.json
inline constexpr const char* kTuneFormat = "fanorona-tune 1";                  // tune.json
inline constexpr const char* kSpsaSummaryFormat = "fanorona-spsa 1";           // spsa.json
inline constexpr const char* kTimeuseFormat = "fanorona-timeuse 1";            // timeuse --json
inline constexpr const char* kCheckEngineFormat = "fanorona-check-engine 1";   // check-engine
inline constexpr const char* kTimeuseGamesFormat = "fanorona-timeuse-games 1"; // timeuse GAMES

// Every whole-file reader's limits (read_file_bytes(path, limits), core/common/files.h): the
// format's name, its first bytes ("" where comments or whitespace may come first) and its largest
// size, so that a file of another kind is told by its first bytes and a huge one by its size,
// before the rest is read.
inline constexpr std::size_t kMiB = std::size_t(1) << 20;
// The largest network (kMaxHidden 512 units, kMaxBuckets 64, lines features) stays below 64 MiB.
inline constexpr FileLimits kNetFileLimits{"network", "fanorona-net ", 64 * kMiB};
// Weights: 157464 pattern weights at about 40 bytes a line, and comments.
inline constexpr FileLimits kWeightsFileLimits{"weights", "", 32 * kMiB};
inline constexpr FileLimits kParamsFileLimits{"parameters", "", 1 * kMiB};
inline constexpr FileLimits kOpeningsFileLimits{"openings", "", 256 * kMiB};
inline constexpr FileLimits kEnginesFileLimits{"engines", "", 16 * kMiB};
// Files of a run folder or a loop: settings, summaries and results (JSON).
inline constexpr FileLimits kJsonFileLimits{"JSON", "", 64 * kMiB};
// What the report reads of a run besides its games files: JSON, CSV and text.
inline constexpr FileLimits kReportInputLimits{"report input", "", 1024 * kMiB};
inline constexpr FileLimits kGamesFileLimits{"games", "# fanorona-games", 4096 * kMiB};
inline constexpr FileLimits kProofFileLimits{"proof", kProofFileMagic, 4096 * kMiB};
inline constexpr FileLimits kCheckpointFileLimits{"checkpoint", kTrainCheckpointMagic, 1024 * kMiB};
inline constexpr FileLimits kFrontierCsvLimits{"frontier CSV", "# fanorona frontier 1",
                                               1024 * kMiB};

} // namespace fanorona
