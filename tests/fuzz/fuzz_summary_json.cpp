// Fuzz target: the summaries `fanorona report` reads (docs/formats.md, "Report"): self-play
// summary.json, a tournament's results.json and live.jsonl, tune.json and loss.csv, openings.json.
// The report reads its inputs tolerantly: whatever a file holds, its section is built without an
// exception escaping, and each problem is noted in one line.

#include <filesystem>

#include "tests/fuzz/fuzz_target.h"
#include "tools/report/sections.h"

FUZZ_TARGET(summary_json) {
    using namespace fanorona::report;
    if (size == 0) return 0;
    const std::string_view text = fuzz::as_text(data + 1, size - 1);
    // tune.json names weights files that the section reads: only inside the temporary folder.
    if (text.find("/proc") != text.npos || text.find("/sys") != text.npos ||
        text.find("/dev") != text.npos)
        return 0;
    const std::string dir = fuzz::temp_dir() + "/report";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    ReportInputs in;
    in.max_frames = 20;
    Notes notes;
    std::string html;
    try {
        switch (data[0] % 6) {
        case 0:
            fuzz::write_temp("report/summary.json", text);
            in.selfplay = dir;
            html = selfplay_section(in, notes);
            break;
        case 1:
            fuzz::write_temp("report/results.json", text);
            in.tournament = dir;
            html = tournament_section(in, notes);
            break;
        case 2:
            fuzz::write_temp("report/live.jsonl", text);
            in.tournament = dir;
            html = tournament_section(in, notes);
            break;
        case 3:
            fuzz::write_temp("report/tune.json", text);
            in.tune = dir;
            html = tune_section(in, notes);
            break;
        case 4:
            fuzz::write_temp("report/loss.csv", text);
            in.tune = dir;
            html = tune_section(in, notes);
            break;
        case 5:
            fuzz::write_temp("report/openings.json", text);
            in.opening_stats = dir;
            html = openings_section(in, notes);
            break;
        }
    } catch (const std::exception& e) {
        fuzz::fail(std::string("a report section threw: ") + e.what());
    }
    for (const std::string& w : notes.warnings)
        fuzz::check(w.find('\n') == std::string::npos, "a note of more than one line: " + w);
    fuzz::check(html.find("</section>") != std::string::npos, "a section without its end");
    return 0;
}
