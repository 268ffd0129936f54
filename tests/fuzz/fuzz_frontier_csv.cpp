// Fuzz target: the per-position CSV of `fanorona frontier` (tools/solve/frontier.h's
// parse_frontier_csv: the settings line, the header line, rows of 9 fields). The first line of the
// input is taken as the settings the run expects when it is a '#' settings line, so that mutations
// reach the rows. A rejected file is a one-line std::invalid_argument naming the file ("--csv-out:
// PATH:LINE: ..."); an accepted one has a position string for every row.

#include "tests/fuzz/fuzz_target.h"
#include "tools/solve/frontier.h"

namespace {

using namespace fanorona;

const std::string kName = "fuzz.csv";
const std::string kPrefix = "# fanorona frontier 1: ";

void check_text(const std::string& text, const std::string& settings) {
    try {
        const cli::FrontierCsvRows r = cli::parse_frontier_csv(text, kName, settings);
        fuzz::check(r.rows.size() == r.positions.size(), "rows without their positions");
        for (const cli::FrontierPosition& p : r.rows)
            fuzz::check(p.solved && !p.reused, "a row read as not solved");
    } catch (const std::invalid_argument& e) {
        fuzz::check_one_line(e);
        fuzz::check(std::string_view(e.what()).starts_with("--csv-out: " + kName + ":"),
                    "error without the file name");
    }
}

} // namespace

FUZZ_TARGET(frontier_csv) {
    const std::string input(fuzz::as_text(data, size));
    check_text(input, "variant=3x3 tables=none max_nodes=2000 max_seconds=0 hash=64");
    const std::string first = input.substr(0, input.find('\n'));
    if (first.starts_with(kPrefix)) check_text(input, first.substr(kPrefix.size()));
    return 0;
}
