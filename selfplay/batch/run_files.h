#pragma once
// The output folder of a run of games: games.tsv and positions.bin, appended one whole game at a
// time in game order, so that an interrupted run can be resumed exactly where it stopped.

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/files.h"
#include "selfplay/game/game_runner.h"

namespace fanorona {

// Thrown when the output folder cannot be written (unwritable, disk full); what() names the file.
struct RunFilesError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Open appenders for a run's files. Invariant: both files hold the same number of whole games
// (each game is one games.tsv line and one positions.bin chunk, possibly empty).
class RunFiles {
public:
    // Creates the folder and files. With `resume`, keeps what is there: counts the whole games,
    // cuts off any torn tail (and any game present in only one file), and appends after them.
    // Without `resume`, existing games in the folder are an error (so nothing is overwritten).
    RunFiles(const std::string& dir, const GamesHeader& header, bool log_positions, bool resume);
    ~RunFiles();
    RunFiles(const RunFiles&) = delete;
    RunFiles& operator=(const RunFiles&) = delete;

    std::uint64_t games_already_written() const { return existing_; }
    void append(const PlayedGame& game); // writes and flushes one whole game
    std::uint64_t positions_written() const { return positions_; }

    static std::string games_path(const std::string& dir) { return dir + "/games.tsv"; }
    static std::string positions_path(const std::string& dir) { return dir + "/positions.bin"; }

private:
    void write(std::FILE* f, const std::string& bytes, const std::string& path);

    std::string dir_;
    std::FILE* games_ = nullptr;
    std::FILE* positions_file_ = nullptr;
    std::uint64_t existing_ = 0;
    std::uint64_t positions_ = 0;
};

// Checks that DIR/settings.json holds the same values as `now` for every key but `free_keys`
// (the ones a resumed run may change, such as the number of games); throws naming the setting.
void check_resume_settings(const std::string& dir, const nlohmann::json& now,
                           const std::vector<std::string>& free_keys);

} // namespace fanorona
