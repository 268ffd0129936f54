// Fuzz target: a run folder's settings.json as the programs read it back: on --resume
// (check_resume_settings, against the settings of a self-play run) and when merging shards
// (merge_shards, with an empty games file and positions log beside it). A resume either matches
// or is refused with a one-line RunFolderError naming the file; a merge either succeeds or fails
// with a one-line error naming the shard's folder.

#include <filesystem>

#include "selfplay/formats/position_log.h"
#include "selfplay/games/driver.h"
#include "selfplay/games/run_folder.h"
#include "selfplay/selfplay.h"
#include "tests/fuzz/fuzz_target.h"

FUZZ_TARGET(settings_json) {
    using namespace fanorona;
    if (size == 0) return 0;
    const std::string_view text = fuzz::as_text(data + 1, size - 1);
    const std::string dir = fuzz::temp_dir() + "/shard", out = fuzz::temp_dir() + "/merged";
    std::filesystem::remove_all(dir);
    std::filesystem::remove_all(out);
    std::filesystem::create_directories(dir);
    const std::string path = fuzz::write_temp("shard/settings.json", text);
    if (data[0] & 1) {
        RunConfig c;
        c.games = 4;
        const nlohmann::json now = settings_json(c);
        try {
            check_resume_settings(dir, now, {"games"});
        } catch (const RunFolderError& e) {
            fuzz::check_one_line(e);
            fuzz::check(std::string_view(e.what()).find(path) != std::string_view::npos,
                        std::string("error without the file name: ") + e.what());
        }
        return 0;
    }
    fuzz::write_temp("shard/games.tsv", games_header_lines(GamesHeader{}));
    fuzz::write_temp("shard/positions.bin", encode_log_header(PositionLogHeader{}));
    try {
        (void)merge_shards({dir}, out);
    } catch (const std::exception& e) {
        fuzz::check_one_line(e);
        const std::string_view what = e.what();
        fuzz::check(what.find(dir) != what.npos || what.starts_with("merge:"),
                    std::string("error naming neither the shard nor the merge: ") + e.what());
    }
    return 0;
}
