// Fuzz target: the trainer's checkpoints (selfplay/formats/train_checkpoint.h's parse_checkpoint:
// the text lines, the epochs, the parameter vectors and the CRC-32). Each input is read twice: as
// it is, and with a right checksum line appended (so that mutations reach the fields behind the
// checksum). A rejected file is a one-line CheckpointError naming the file; an accepted one has
// four vectors of one size and writes back (format_checkpoint) to bytes that read back to the same
// bytes.

#include <cinttypes>
#include <cstdio>

#include <zlib.h>

#include "selfplay/formats/train_checkpoint.h"
#include "tests/fuzz/fuzz_target.h"

namespace {

using namespace fanorona;

const std::string kName = "fuzz.ckpt";

void check_file(const std::string& bytes) {
    TrainCheckpoint c;
    try {
        c = parse_checkpoint(bytes, kName);
    } catch (const CheckpointError& e) {
        fuzz::check_one_line(e);
        fuzz::check(std::string_view(e.what()).starts_with(kName), "error without the file name");
        return;
    }
    const std::size_t n = c.params.size();
    fuzz::check(c.mean.size() == n && c.square.size() == n && c.best.size() == n,
                "vectors of different sizes were accepted");
    // Compared as bytes: NaN parameters (a diverged run) do not compare equal to themselves.
    const std::string again = format_checkpoint(c);
    fuzz::check(format_checkpoint(parse_checkpoint(again, "again")) == again,
                "checkpoint round trip");
}

} // namespace

FUZZ_TARGET(train_checkpoint) {
    const std::string input(fuzz::as_text(data, size));
    check_file(input);
    // The same content with a right checksum line (CRC-32 of every byte before it).
    const std::size_t at = input.rfind("checksum ");
    const std::string body = input.substr(0, at);
    const auto crc =
        std::uint32_t(crc32(0L, reinterpret_cast<const Bytef*>(body.data()), uInt(body.size())));
    char line[32];
    std::snprintf(line, sizeof line, "checksum %08" PRIx32 "\n", crc);
    check_file(body + line);
    return 0;
}
