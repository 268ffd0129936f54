#include "core/tables/table_file.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <zlib.h>
#include <zstd.h>

#include "core/common/files.h"
#include "core/tables/table_code.h"

namespace fanorona::tables {

namespace {

constexpr char kMagic[8] = {'F', 'N', 'R', 'N', 'T', 'B', 'L', '\n'};
constexpr int kZstdLevel = 9;

void put(std::string& out, std::uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(char((v >> (8 * i)) & 0xff));
}

// Reads little-endian integers from a buffer, failing with the file's name when it runs out.
struct Reader {
    const std::string& data;
    const std::string& path;
    std::size_t pos = 0;
    std::uint64_t get(int bytes) {
        if (pos + std::size_t(bytes) > data.size())
            throw FileError(path + ": truncated table header");
        std::uint64_t v = 0;
        for (int i = 0; i < bytes; ++i) v |= std::uint64_t(std::uint8_t(data[pos + i])) << (8 * i);
        pos += std::size_t(bytes);
        return v;
    }
};

std::string serialize_header(const TableHeader& h) {
    std::string out(kMagic, sizeof kMagic);
    put(out, kTableFormatVersion, 4);
    put(out, std::uint64_t(h.variant), 1);
    put(out, std::uint64_t(h.mover), 1);
    put(out, std::uint64_t(h.other), 1);
    put(out, std::uint64_t(h.turn_limit), 1);
    put(out, h.positions, 8);
    put(out, h.block_positions, 4);
    put(out, h.blocks, 4);
    for (std::uint64_t c : h.counts) put(out, c, 8);
    put(out, std::uint64_t(h.longest_win), 4);
    put(out, h.longest_win_index, 8);
    put(out, std::uint64_t(h.longest_loss), 4);
    put(out, h.longest_loss_index, 8);
    put(out, h.exceptions, 8);
    put(out, std::uint64_t(h.symmetries), 1);
    put(out, h.unused, 8);
    for (std::uint64_t c : h.full_counts) put(out, c, 8);
    return out;
}
// Version 1's header, and version 2's (the symmetries, the unused slots, the whole counts).
constexpr std::size_t kHeaderBytesV1 = 8 + 4 + 4 + 8 + 4 + 4 + 5 * 8 + 4 + 8 + 4 + 8 + 8;
constexpr std::size_t kHeaderBytes = kHeaderBytesV1 + 1 + 8 + 5 * 8;

std::uint32_t crc(const void* data, std::size_t size, std::uint32_t start = 0) {
    uLong c = start;
    const auto* p = static_cast<const Bytef*>(data);
    while (size > 0) {
        const uInt n = uInt(std::min<std::size_t>(size, 1u << 30));
        c = crc32(c, p, n);
        p += n;
        size -= n;
    }
    return std::uint32_t(c);
}

std::string compress(const void* data, std::size_t size, const std::string& path) {
    std::string out(ZSTD_compressBound(size), '\0');
    ZSTD_CCtx* ctx = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(ctx, ZSTD_c_compressionLevel, kZstdLevel);
    ZSTD_CCtx_setParameter(ctx, ZSTD_c_checksumFlag, 1);
    const std::size_t n = ZSTD_compress2(ctx, out.data(), out.size(), data, size);
    ZSTD_freeCCtx(ctx);
    if (ZSTD_isError(n)) throw FileError(path + ": zstd: " + ZSTD_getErrorName(n));
    out.resize(n);
    return out;
}

// `path` opened for reading (a regular file), its size in `size`; FileError otherwise.
int open_table_file(const std::string& path, std::uint64_t& size) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw FileError(path + ": cannot open table file: " + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        ::close(fd);
        throw FileError(path + ": cannot read table file");
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(fd);
        throw FileError(path + (S_ISDIR(st.st_mode) ? ": a folder, not a table file"
                                                    : ": not a regular file, not a table file"));
    }
    size = std::uint64_t(st.st_size);
    return fd;
}

// The format version of a table file whose first bytes (up to kHeaderBytesV1) are `head`.
std::uint64_t table_version(const std::string& head, const std::string& path) {
    // A file that begins with the magic but ends inside the header is a truncated table.
    if (std::memcmp(head.data(), kMagic, std::min(head.size(), sizeof kMagic)) != 0 ||
        head.size() < sizeof kMagic)
        throw FileError(path + ": not a Fanorona table file");
    if (head.size() < kHeaderBytesV1)
        throw FileError(path + ": truncated table header (" + std::to_string(head.size()) +
                        " bytes)");
    Reader r{head, path, sizeof kMagic};
    const std::uint64_t version = r.get(4);
    if (version < 1 || version > kTableFormatVersion)
        throw FileError(path + ": table format version " + std::to_string(version) +
                        ", this program reads versions 1 to " +
                        std::to_string(kTableFormatVersion) +
                        " (a newer program's table: rebuild it with this one)");
    return version;
}

// The header's fields from its bytes `head` (serialize_header()'s layout of `version`).
TableHeader parse_table_header(const std::string& head, std::uint64_t version,
                               const std::string& path) {
    Reader r{head, path, sizeof kMagic + 4};
    TableHeader h;
    const std::uint64_t variant = r.get(1);
    if (variant >= std::uint64_t(kVariantCount) || is_telo(Variant(variant)))
        throw FileError(path + ": unknown variant " + std::to_string(variant));
    h.variant = Variant(variant);
    h.mover = int(r.get(1));
    h.other = int(r.get(1));
    h.turn_limit = int(r.get(1));
    h.positions = r.get(8);
    h.block_positions = std::uint32_t(r.get(4));
    h.blocks = std::uint32_t(r.get(4));
    for (std::uint64_t& c : h.counts) c = r.get(8);
    h.longest_win = int(r.get(4));
    h.longest_win_index = r.get(8);
    h.longest_loss = int(r.get(4));
    h.longest_loss_index = r.get(8);
    h.exceptions = r.get(8);
    if (version == 1) {
        std::copy(std::begin(h.counts), std::end(h.counts), std::begin(h.full_counts));
    } else {
        h.symmetries = int(r.get(1));
        h.unused = r.get(8);
        for (std::uint64_t& c : h.full_counts) c = r.get(8);
    }
    return h;
}

// The material and the block layout this program builds, the folded index's size.
void check_table_shape(const TableHeader& h, const std::string& path) {
    if ((h.symmetries != 1 && h.symmetries != board_symmetries(h.variant).count) ||
        h.unused > h.positions)
        throw FileError(path + ": unsupported table header (symmetries " +
                        std::to_string(h.symmetries) + ")");
    if (h.turn_limit < 1 || h.turn_limit > kTableTurnLimit ||
        h.block_positions != kBlockPositions || h.mover < 1 || h.other < 1 ||
        h.mover + h.other > geometry(h.variant).points)
        throw FileError(path + ": unsupported table header");
    std::optional<MaterialIndex> folded_index;
    try {
        folded_index.emplace(index_of(h));
    } catch (const std::invalid_argument& e) {
        throw FileError(path + ": " + e.what());
    }
    const MaterialIndex& index = *folded_index;
    if (index.size() != h.positions ||
        h.blocks != (h.positions + kBlockPositions - 1) / kBlockPositions)
        throw FileError(path + ": table header does not match its material");
    if (h.full_positions() != index.full_size())
        throw FileError(path + ": the header's counts of the whole material add up to " +
                        std::to_string(h.full_positions()) + ", not to its " +
                        std::to_string(index.full_size()) + " positions");
}

// The header's fields against each other and against its material; FileError naming the first
// that does not fit.
void check_table_header(const TableHeader& h, const std::string& path) {
    check_table_shape(h, path);
    std::uint64_t counted = h.unused;
    for (std::uint64_t c : h.counts) counted += std::min(c, h.positions + 1);
    if (counted != h.positions)
        throw FileError(path + ": the header's class counts add up to " + std::to_string(counted) +
                        ", not to its " + std::to_string(h.positions) + " positions");
    const std::uint64_t exceptions =
        h.counts[int(TableClass::CursedWin)] + h.counts[int(TableClass::BlessedLoss)];
    if (h.exceptions != exceptions)
        throw FileError(path + ": the header lists " + std::to_string(h.exceptions) +
                        " distances for its cursed wins and blessed losses, which it counts " +
                        std::to_string(exceptions));
    if (h.longest_win_index >= h.positions || h.longest_loss_index >= h.positions)
        throw FileError(path + ": the header's longest win or loss is not a position");
}

} // namespace

std::string table_file_name(Variant v, int mover, int other) {
    return std::string(variant_name(v)) + "-" + material_name(mover, other) + ".fntb";
}

std::string material_label(Variant v, int mover, int other) {
    return std::string(variant_name(v)) + " " + material_name(mover, other);
}

MaterialIndex index_of(const TableHeader& h) {
    return MaterialIndex(h.variant, h.mover, h.other, h.folded());
}

void summarize_codes(const std::vector<std::uint8_t>& codes, TableHeader& h) {
    for (std::uint64_t& c : h.counts) c = 0;
    for (std::uint64_t& c : h.full_counts) c = 0;
    h.unused = 0;
    h.longest_win = h.longest_loss = 0;
    h.longest_win_index = h.longest_loss_index = 0;
    const MaterialIndex index = index_of(h);
    for (std::uint64_t i = 0; i < codes.size(); ++i) {
        const std::uint8_t c = codes[i];
        if (c == kCodeUnused) {
            ++h.unused;
            continue;
        }
        const TableClass cls = code_class(c);
        ++h.counts[int(cls)];
        h.full_counts[int(cls)] += h.folded() ? index.orbit(i) : 1;
        if (cls == TableClass::Win && int(c) > h.longest_win) {
            h.longest_win = c;
            h.longest_win_index = i;
        }
        if (cls == TableClass::Loss && (int(c) - 101 > h.longest_loss || h.counts[2] == 1)) {
            h.longest_loss = c - 101;
            h.longest_loss_index = i;
        }
    }
    h.exceptions = h.counts[int(TableClass::CursedWin)] + h.counts[int(TableClass::BlessedLoss)];
}

std::uint64_t write_table_file(const std::string& path, Variant v, int mover, int other,
                               int turn_limit, const std::vector<std::uint8_t>& codes,
                               const std::vector<DistanceException>& exceptions, bool folded) {
    TableHeader h;
    h.variant = v;
    h.mover = mover;
    h.other = other;
    h.turn_limit = turn_limit;
    h.symmetries = folded ? board_symmetries(v).count : 1;
    h.positions = codes.size();
    h.blocks = std::uint32_t((codes.size() + kBlockPositions - 1) / kBlockPositions);
    summarize_codes(codes, h);
    if (h.exceptions != exceptions.size())
        throw std::logic_error(path + ": " + std::to_string(exceptions.size()) + " distances for " +
                               std::to_string(h.exceptions) + " cursed and blessed positions");
    std::vector<std::string> frames(h.blocks);
    tbb::parallel_for(std::uint32_t(0), h.blocks, [&](std::uint32_t b) {
        const std::uint64_t start = std::uint64_t(b) * kBlockPositions;
        const std::uint64_t n = std::min<std::uint64_t>(kBlockPositions, codes.size() - start);
        frames[b] = compress(codes.data() + start, n, path);
    });
    std::string raw;
    raw.reserve(exceptions.size() * 12);
    for (const DistanceException& e : exceptions) {
        put(raw, e.index, 8);
        put(raw, e.distance, 4);
    }
    const std::string exception_frame = compress(raw.data(), raw.size(), path);

    std::string out = serialize_header(h);
    std::uint64_t offset = 0;
    for (const std::string& f : frames) {
        put(out, offset, 8);
        offset += f.size();
    }
    put(out, offset, 8);
    put(out, offset + exception_frame.size(), 8);
    put(out, crc(out.data(), out.size()), 4);
    for (std::string& f : frames) {
        out += f;
        std::string().swap(f);
    }
    out += exception_frame;
    put(out, crc(out.data(), out.size()), 4);
    write_file_atomically(path, out);
    return out.size();
}

TableFile::TableFile(const std::string& path) : path_(path) {
    // Step 1. A regular file, open.
    fd_ = open_table_file(path, file_size_);
    try {
        // Step 2. The magic, the version and the header's bytes (longer from version 2 on).
        std::string head = read_range(0, std::min<std::uint64_t>(kHeaderBytesV1, file_size_));
        const std::uint64_t version = table_version(head, path);
        const std::size_t header_bytes = version == 1 ? kHeaderBytesV1 : kHeaderBytes;
        if (header_bytes > kHeaderBytesV1) {
            if (file_size_ < header_bytes) throw FileError(path + ": truncated table header");
            head = read_range(0, header_bytes);
        }
        // Step 3. The header's fields, each checked against the others and the material.
        header_ = parse_table_header(head, version, path);
        check_table_header(header_, path);
        // Step 4. The block offsets, and the checksum of the header and of them.
        const std::uint64_t table_bytes = (std::uint64_t(header_.blocks) + 2) * 8;
        if (header_bytes + table_bytes + 8 > file_size_) throw FileError(path + ": truncated");
        const std::string table = read_range(header_bytes, table_bytes + 4);
        Reader t{table, path};
        offsets_.resize(header_.blocks + 2);
        for (std::uint64_t& o : offsets_) o = t.get(8);
        const std::uint32_t stored = std::uint32_t(t.get(4));
        std::uint32_t c = crc(head.data(), head.size());
        c = crc(table.data(), table_bytes, c);
        if (c != stored) throw FileError(path + ": header checksum mismatch (corrupt file)");
        data_start_ = header_bytes + table_bytes + 4;
        for (std::size_t i = 1; i < offsets_.size(); ++i)
            if (offsets_[i] < offsets_[i - 1]) throw FileError(path + ": corrupt block offsets");
        if (data_start_ + offsets_.back() + 4 != file_size_)
            throw FileError(path + ": file size does not match its header (truncated?)");
    } catch (...) {
        ::close(fd_);
        throw;
    }
    // Step 5. No block read yet.
    blocks_ = std::make_unique<std::atomic<std::uint8_t*>[]>(header_.blocks);
    for (std::uint32_t b = 0; b < header_.blocks; ++b) blocks_[b].store(nullptr);
}

TableFile::~TableFile() {
    if (blocks_)
        for (std::uint32_t b = 0; b < header_.blocks; ++b) delete[] blocks_[b].load();
    if (fd_ >= 0) ::close(fd_);
}

std::string TableFile::read_range(std::uint64_t offset, std::uint64_t size) const {
    std::string out(size, '\0');
    std::uint64_t done = 0;
    while (done < size) {
        const ssize_t n = ::pread(fd_, out.data() + done, size - done, off_t(offset + done));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) throw FileError(path_ + ": cannot read (truncated table file?)");
        done += std::uint64_t(n);
    }
    return out;
}

std::vector<std::uint8_t> TableFile::read_block(std::uint32_t block) const {
    const std::string frame =
        read_range(data_start_ + offsets_[block], offsets_[block + 1] - offsets_[block]);
    const std::uint64_t start = std::uint64_t(block) * kBlockPositions;
    const std::size_t n =
        std::size_t(std::min<std::uint64_t>(kBlockPositions, header_.positions - start));
    std::vector<std::uint8_t> out(n);
    const std::size_t got = ZSTD_decompress(out.data(), n, frame.data(), frame.size());
    if (ZSTD_isError(got) || got != n)
        throw FileError(
            path_ + ": block " + std::to_string(block) + " is corrupt" +
            (ZSTD_isError(got) ? std::string(" (") + ZSTD_getErrorName(got) + ")" : ""));
    return out;
}

std::uint8_t TableFile::code(std::uint64_t index) const {
    const std::uint32_t b = std::uint32_t(index / kBlockPositions);
    std::uint8_t* data = blocks_[b].load(std::memory_order_acquire);
    if (!data) {
        const std::vector<std::uint8_t> codes = read_block(b);
        auto* fresh = new std::uint8_t[codes.size()];
        std::memcpy(fresh, codes.data(), codes.size());
        std::uint8_t* expected = nullptr;
        if (blocks_[b].compare_exchange_strong(expected, fresh, std::memory_order_acq_rel)) {
            data = fresh;
        } else {
            delete[] fresh;
            data = expected;
        }
    }
    return data[index % kBlockPositions];
}

std::vector<std::uint8_t> TableFile::load_codes() const {
    std::vector<std::uint8_t> all(header_.positions);
    tbb::parallel_for(std::uint32_t(0), header_.blocks, [&](std::uint32_t b) {
        const std::vector<std::uint8_t> codes = read_block(b);
        std::memcpy(all.data() + std::uint64_t(b) * kBlockPositions, codes.data(), codes.size());
    });
    return all;
}

const std::vector<DistanceException>& TableFile::exceptions() const {
    std::call_once(exceptions_once_, [this] {
        const std::uint32_t n = header_.blocks;
        const std::string frame =
            read_range(data_start_ + offsets_[n], offsets_[n + 1] - offsets_[n]);
        const std::size_t raw_size = std::size_t(header_.exceptions) * 12;
        // A zstd frame expands at most some 32768 times: a larger claim is a corrupt header.
        if (ZSTD_getFrameContentSize(frame.data(), frame.size()) != raw_size ||
            raw_size / 65536 > frame.size())
            throw FileError(path_ + ": the distance list is corrupt");
        std::string raw(raw_size, '\0');
        const std::size_t got = ZSTD_decompress(raw.data(), raw.size(), frame.data(), frame.size());
        if (ZSTD_isError(got) || got != raw_size)
            throw FileError(path_ + ": the distance list is corrupt");
        Reader r{raw, path_};
        exceptions_.resize(header_.exceptions);
        for (DistanceException& e : exceptions_) {
            e.index = r.get(8);
            e.distance = std::uint32_t(r.get(4));
        }
    });
    return exceptions_;
}

std::uint32_t TableFile::stored_checksum() const {
    const std::string last = read_range(file_size_ - 4, 4);
    std::uint32_t stored = 0;
    for (int i = 0; i < 4; ++i)
        stored |= std::uint32_t(std::uint8_t(last[std::size_t(i)])) << (8 * i);
    return stored;
}

void TableFile::check_file_checksum() const {
    const std::string all = read_range(0, file_size_);
    if (crc(all.data(), all.size() - 4) != stored_checksum())
        throw FileError(path_ + ": file checksum mismatch (corrupt file)");
}

std::vector<std::uint8_t> TableFile::load_checked_codes() const {
    check_file_checksum();
    std::vector<std::uint8_t> codes = load_codes();
    TableHeader found = header_;
    summarize_codes(codes, found);
    static const char* names[] = {"draws", "wins", "losses", "cursed wins", "blessed losses"};
    for (int c = 0; c < 5; ++c)
        if (found.counts[c] != header_.counts[c])
            throw FileError(path_ + ": the header counts " + std::to_string(header_.counts[c]) +
                            " " + names[c] + ", the table holds " +
                            std::to_string(found.counts[c]));
    for (int c = 0; c < 5; ++c)
        if (found.full_counts[c] != header_.full_counts[c])
            throw FileError(path_ + ": the header counts " +
                            std::to_string(header_.full_counts[c]) + " " + names[c] +
                            " in the whole material, the table stands for " +
                            std::to_string(found.full_counts[c]));
    if (header_.folded()) {
        const MaterialIndex index = index_of(header_);
        std::atomic<std::uint64_t> misplaced{~std::uint64_t(0)};
        tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, codes.size(), 1 << 16),
                          [&](const tbb::blocked_range<std::uint64_t>& r) {
                              for (std::uint64_t i = r.begin(); i != r.end(); ++i)
                                  if ((codes[i] == kCodeUnused) == index.used(i)) {
                                      std::uint64_t seen = misplaced.load();
                                      while (i < seen &&
                                             !misplaced.compare_exchange_weak(seen, i)) {
                                      }
                                      break;
                                  }
                          });
        if (const std::uint64_t i = misplaced.load(); i != ~std::uint64_t(0))
            throw FileError(path_ + ": slot " + std::to_string(i) + " is " +
                            (codes[i] == kCodeUnused ? "marked unused but holds a position"
                                                     : "unused but holds a value"));
    }
    if (found.longest_win != header_.longest_win ||
        found.longest_win_index != header_.longest_win_index)
        throw FileError(path_ + ": the header's longest win (" +
                        std::to_string(header_.longest_win) + " at position " +
                        std::to_string(header_.longest_win_index) + ") is not the table's (" +
                        std::to_string(found.longest_win) + " at " +
                        std::to_string(found.longest_win_index) + ")");
    if (found.longest_loss != header_.longest_loss ||
        found.longest_loss_index != header_.longest_loss_index)
        throw FileError(path_ + ": the header's longest loss (" +
                        std::to_string(header_.longest_loss) + " at position " +
                        std::to_string(header_.longest_loss_index) + ") is not the table's (" +
                        std::to_string(found.longest_loss) + " at " +
                        std::to_string(found.longest_loss_index) + ")");
    const std::vector<DistanceException>& ex = exceptions();
    for (std::size_t k = 0; k < ex.size(); ++k) {
        const std::uint64_t i = ex[k].index;
        if (i >= codes.size() || !code_is_cursed(codes[i]) || (k > 0 && ex[k - 1].index >= i))
            throw FileError(path_ + ": the distance list's entry " + std::to_string(k) +
                            " (position " + std::to_string(i) +
                            ") is not a cursed win or blessed loss in order");
    }
    return codes;
}

void TableFile::check_file_name() const {
    const std::string expected = table_file_name(header_.variant, header_.mover, header_.other);
    const std::string name = std::filesystem::path(path_).filename().string();
    if (name != expected)
        throw FileError(path_ + ": holds the table of " +
                        material_label(header_.variant, header_.mover, header_.other) +
                        ", whose file is " + expected + " (a copy of another material's file?)");
}

TableValue TableFile::value(std::uint64_t index) const {
    const std::uint8_t c = code(index);
    if (!code_is_cursed(c)) return code_value(c);
    return value_with_exceptions(c, index, exceptions());
}

TableValue value_with_exceptions(std::uint8_t code, std::uint64_t index,
                                 const std::vector<DistanceException>& exceptions) {
    if (!code_is_cursed(code)) return code_value(code);
    const auto it =
        std::lower_bound(exceptions.begin(), exceptions.end(), index,
                         [](const DistanceException& e, std::uint64_t i) { return e.index < i; });
    const int d = (it != exceptions.end() && it->index == index) ? int(it->distance) : 0;
    return {code_class(code), d};
}

} // namespace fanorona::tables
