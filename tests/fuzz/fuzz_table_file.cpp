// Fuzz target: endgame table files (core/tables/table_file.h: the header, the block offsets, the
// zstd blocks, the distance list, the two CRC-32 checksums). Each input is read twice: as it is,
// and with its checksums made right (so that mutations reach the header's consistency checks and
// the blocks behind the checksums). A rejected file is a one-line FileError naming the file; an
// accepted one has a code and a value for every position that agree with its checked codes, and
// writes back (write_table_file) to a file that reads the same.

#include <algorithm>

#include <zlib.h>

#include "core/common/files.h"
#include "core/tables/material_index.h"
#include "core/tables/table_code.h"
#include "core/tables/table_file.h"
#include "tests/fuzz/fuzz_target.h"

namespace {

using namespace fanorona;
using namespace fanorona::tables;

// docs/formats.md: the fixed header before the offsets, of version 1 and of version 2.
constexpr std::size_t kHeaderBytesV1 = 104, kHeaderBytes = 153;
constexpr std::size_t kBlocksField = 28; // the header's block count (4 bytes)

bool same(const std::vector<DistanceException>& a, const std::vector<DistanceException>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                      [](const DistanceException& x, const DistanceException& y) {
                          return x.index == y.index && x.distance == y.distance;
                      });
}

void check_file(std::string_view bytes) {
    const std::string path = fuzz::write_temp("table.fntb", bytes);
    try {
        const TableFile f(path);
        const TableHeader& h = f.header();
        fuzz::check(h.positions == index_of(h).size(),
                    "a header whose positions are not its material's was accepted");
        const std::vector<std::uint8_t> codes = f.load_checked_codes();
        fuzz::check(codes.size() == h.positions, "codes for another number of positions");
        const std::vector<DistanceException>& ex = f.exceptions();
        const std::uint64_t step = std::max<std::uint64_t>(1, h.positions / 4096);
        for (std::uint64_t i = 0; i < h.positions; i += step) {
            fuzz::check(f.code(i) == codes[i], "code() differs from the checked codes");
            fuzz::check(f.value(i) == value_with_exceptions(codes[i], i, ex),
                        "value() differs from the checked codes");
        }
        const std::string again = fuzz::temp_dir() + "/again.fntb";
        write_table_file(again, h.variant, h.mover, h.other, h.turn_limit, codes, ex, h.folded());
        const TableFile g(again);
        fuzz::check(g.load_checked_codes() == codes && same(g.exceptions(), ex),
                    "a table read back differs");
        const TableHeader& k = g.header();
        fuzz::check(k.turn_limit == h.turn_limit && k.longest_win == h.longest_win &&
                        k.longest_loss == h.longest_loss && k.exceptions == h.exceptions &&
                        std::equal(k.counts, k.counts + 5, h.counts) &&
                        std::equal(k.full_counts, k.full_counts + 5, h.full_counts) &&
                        k.symmetries == h.symmetries && k.unused == h.unused,
                    "a header read back differs");
    } catch (const FileError& e) {
        fuzz::check_one_line(e);
        fuzz::check(std::string_view(e.what()).starts_with(path), "error without the file name");
    }
}

void put_crc(std::string& bytes, std::size_t end) {
    const auto c = std::uint32_t(crc32(0, reinterpret_cast<const Bytef*>(bytes.data()), uInt(end)));
    for (int i = 0; i < 4; ++i) bytes[end + std::size_t(i)] = char(c >> (8 * i));
}

} // namespace

FUZZ_TARGET(table_file) {
    const std::string_view input = fuzz::as_text(data, size);
    check_file(input);
    if (size < kHeaderBytes + 8) return 0;
    const std::size_t header_bytes = data[8] == 1 ? kHeaderBytesV1 : kHeaderBytes;
    std::string fixed(input);
    std::uint64_t blocks = 0;
    for (int i = 0; i < 4; ++i) blocks |= std::uint64_t(data[kBlocksField + i]) << (8 * i);
    const std::uint64_t header_end = header_bytes + (blocks + 2) * 8;
    if (header_end + 8 <= size) put_crc(fixed, std::size_t(header_end));
    put_crc(fixed, size - 4);
    check_file(fixed);
    return 0;
}
