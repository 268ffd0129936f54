// Fuzz target: weights files (load_weights_file, which parses with parse_weights). Accepted
// weights lie within +-kMaxWeight and round-trip through format_weights; rejected files are a
// one-line WeightsError naming the file.

#include "core/weights.h"
#include "selfplay/formats/weights_file.h"
#include "tests/fuzz/fuzz_target.h"

FUZZ_TARGET(weights) {
    using namespace fanorona;
    const std::string path = fuzz::write_temp("weights.txt", fuzz::as_text(data, size));
    Weights w;
    try {
        w = load_weights_file(path);
    } catch (const WeightsError& e) {
        fuzz::check_one_line(e);
        fuzz::check(std::string_view(e.what()).starts_with(path), "error without the file name");
        return 0;
    }
    for (const std::int32_t v : w.values)
        fuzz::check(v >= -kMaxWeight && v <= kMaxWeight, "a weight out of range was accepted");
    if (w.patterns)
        for (const std::int32_t v : w.patterns->values)
            fuzz::check(v >= -kMaxWeight && v <= kMaxWeight,
                        "a pattern weight out of range was accepted");
    const std::string text = format_weights(w, {"a comment"});
    fuzz::check(parse_weights(text, "again") == w, "weights round trip");
    return 0;
}
