#pragma once
// The live report page of a run (--report-interval): the run folder's report.html rewritten
// while the games go, reloading itself in the browser, and written once more without the reload
// when the run ends. The run calls the page's writer from a thread of its own
// (RunConfig::on_interval), so no game waits for it.

#include <cstdio>
#include <functional>
#include <string>

#include "selfplay/games/driver.h"
#include "tools/report/report.h"

namespace fanorona::report {

// How often the live page reloads itself in the browser: as often as it is written, at least
// every 2 s.
inline int live_refresh_seconds(double interval) {
    return interval < 2 ? 2 : int(interval + 0.5);
}

// The writer of `dir`/report.html from `inputs` as a live page (it reloads itself).
inline std::function<void()> live_report_writer(ReportInputs inputs, const std::string& dir,
                                                double interval) {
    inputs.refresh_seconds = live_refresh_seconds(interval);
    return [inputs, path = dir + "/report.html"] { write_report(inputs, path); };
}

// Makes `run` rewrite its folder's report.html (from `inputs`) every `interval` seconds while it
// plays (0: never).
inline void attach_live_report(RunConfig& run, ReportInputs inputs, double interval) {
    if (interval <= 0) return;
    inputs.only_given = true;
    run.interval_seconds = interval;
    run.on_interval = live_report_writer(inputs, run.out_dir, interval);
}

// The final page of a run, `dir`/report.html (no reload), unless `interval` is 0; its warnings
// (unreadable inputs) go to stderr. A failed write is a warning: the run's results are in.
inline void write_final_report(ReportInputs inputs, const std::string& dir, double interval) {
    if (interval <= 0) return;
    inputs.only_given = true;
    const std::string path = dir + "/report.html";
    try {
        for (const std::string& w : write_report(inputs, path))
            std::fprintf(stderr, "fanorona: report: warning: %s\n", w.c_str());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fanorona: warning: %s: the report was not written: %s\n",
                     path.c_str(), e.what());
    }
}

} // namespace fanorona::report
