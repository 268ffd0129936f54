// Fuzz target: positions logs (read_position_log, and read_position_log_header). A bad header is
// a one-line PositionLogError naming the file; a damaged tail is dropped, not read; the records
// read are re-encoded to a log that reads back the same.

#include "selfplay/formats/position_log.h"
#include "tests/fuzz/fuzz_target.h"

FUZZ_TARGET(position_log) {
    using namespace fanorona;
    const std::string path = fuzz::write_temp("positions.bin", fuzz::as_text(data, size));
    PositionLog log;
    try {
        log = read_position_log(path);
    } catch (const PositionLogError& e) {
        fuzz::check_one_line(e);
        fuzz::check(std::string_view(e.what()).starts_with(path), "error without the file name");
        return 0;
    }
    fuzz::check(read_position_log_header(path) == log.header, "header read twice differs");
    fuzz::check(log.valid_bytes <= size, "valid part longer than the file");
    fuzz::check((log.valid_bytes == size) == log.tail_problem.empty(),
                "a dropped tail without a reason, or a reason without a dropped tail");
    // Everything read must be what the intact part of the file says: reading the intact bytes
    // alone gives the same records.
    const std::string intact =
        fuzz::write_temp("intact.bin", fuzz::as_text(data, std::size_t(log.valid_bytes)));
    const PositionLog again = read_position_log(intact);
    fuzz::check(again.records == log.records && again.chunks == log.chunks &&
                    again.tail_problem.empty(),
                "the intact part read alone differs");
    for (const PositionRecord& r : log.records) {
        fuzz::check((r.white & r.black) == 0, "a record with two pieces on one point");
        (void)r.position(log.header.variant);
    }
    return 0;
}
