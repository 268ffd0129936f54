#pragma once
// One material's table file, "<variant>-<A>v<B>.fntb" in a tables folder (docs/formats.md):
// a versioned header, a block offset table, zstd frames of 65536 one-byte codes (table_code.h),
// a zstd frame of the cursed and blessed positions' distances, and CRC-32 checksums of the
// header and of the whole file. Files are written atomically; blocks are read on demand.

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "core/endgame.h"
#include "core/tables/material_index.h"

namespace fanorona::tables {

// Version 2 adds the symmetries a table is folded by, its unused slots and the counts of the
// whole material; version 1 files (not folded) are still read.
inline constexpr std::uint32_t kTableFormatVersion = 2;
inline constexpr std::uint32_t kBlockPositions = 1u << 16;

// What a table file says about itself; the counts and the longest win are the per-material
// statistics. Invariants: counts plus unused sum to positions == the size of the material's
// index (folded when symmetries > 1); full_counts are the counts of the whole material (each
// stored position counted once per position of its class), equal to counts when not folded.
struct TableHeader {
    Variant variant = Variant::Tsivy;
    int mover = 0, other = 0;
    int turn_limit = kTableTurnLimit; // the no-capture limit the values count with
    std::uint64_t positions = 0;
    std::uint32_t block_positions = kBlockPositions;
    std::uint32_t blocks = 0;
    std::uint64_t counts[5] = {}; // positions per TableClass
    int longest_win = 0;          // largest Win distance (0: no win)
    std::uint64_t longest_win_index = 0;
    int longest_loss = 0; // largest Loss distance
    std::uint64_t longest_loss_index = 0;
    std::uint64_t exceptions = 0; // cursed and blessed positions (their distances are listed)
    int symmetries = 1;           // the symmetries the index folds by (1: not folded)
    std::uint64_t unused = 0;     // slots of a folded index no position maps to
    std::uint64_t full_counts[5] = {};
    bool folded() const { return symmetries > 1; }
    std::uint64_t stored() const { return positions - unused; } // positions with a value
    std::uint64_t full_positions() const {
        std::uint64_t n = 0;
        for (std::uint64_t c : full_counts) n += c;
        return n;
    }
};

// The index of a table's material as its header says (folded or not).
MaterialIndex index_of(const TableHeader& h);

// A cursed or blessed position's index and distance.
struct DistanceException {
    std::uint64_t index;
    std::uint32_t distance;
};

// The file name of a material: "tsivy-3v2.fntb".
std::string table_file_name(Variant v, int mover, int other);

// "tsivy 3v2": a material as messages name it.
std::string material_label(Variant v, int mover, int other);

// The header fields that follow from the codes: the counts per class (of the stored positions
// and of the whole material), the unused slots, the longest win and loss (the first position of
// each), and the number of exceptions (cursed and blessed codes). h's variant, material and
// symmetries say how the codes are indexed.
void summarize_codes(const std::vector<std::uint8_t>& codes, TableHeader& h);

// Writes a table (one code per slot of the material's index, folded or not; the exceptions sorted
// by index) atomically; the header's counts and longest lines are computed here. Returns the
// file's size in bytes.
std::uint64_t write_table_file(const std::string& path, Variant v, int mover, int other,
                               int turn_limit, const std::vector<std::uint8_t>& codes,
                               const std::vector<DistanceException>& exceptions,
                               bool folded = false);

// An open table file. Blocks are read and decompressed on first use and kept; safe to use from
// several threads. Errors (missing, not a regular file, truncated, corrupt, wrong version, a
// header whose counts do not add up) throw FileError naming the file.
class TableFile {
public:
    explicit TableFile(const std::string& path);
    ~TableFile();
    TableFile(const TableFile&) = delete;
    TableFile& operator=(const TableFile&) = delete;

    const TableHeader& header() const { return header_; }
    const std::string& path() const { return path_; }
    std::uint64_t file_size() const { return file_size_; }

    // The code of one position (reads its block on first use).
    std::uint8_t code(std::uint64_t index) const;
    // The full value of one position (cursed distances from the exception list).
    TableValue value(std::uint64_t index) const;
    // Every code, decompressed (for building and verifying).
    std::vector<std::uint8_t> load_codes() const;
    // The exception list, sorted by index.
    const std::vector<DistanceException>& exceptions() const;
    // Reads the whole file and checks its CRC-32; throws FileError on a mismatch.
    void check_file_checksum() const;
    // The CRC-32 the file ends with (of every byte before it), as stored: not checked.
    std::uint32_t stored_checksum() const;
    // Every code, after checking the whole file: its checksum, every block, the header's counts,
    // longest win and loss against the codes, and the exception list against the cursed codes
    // (sorted, one per cursed or blessed position), the unused codes against the index's unused
    // slots. Throws FileError naming the file.
    std::vector<std::uint8_t> load_checked_codes() const;
    // Throws FileError when the file's name is not the name of the material its header holds
    // (a copy of another material's file, say).
    void check_file_name() const;

private:
    std::vector<std::uint8_t> read_block(std::uint32_t block) const;
    std::string read_range(std::uint64_t offset, std::uint64_t size) const;

    std::string path_;
    int fd_ = -1;
    std::uint64_t file_size_ = 0;
    TableHeader header_;
    std::uint64_t data_start_ = 0;
    std::vector<std::uint64_t> offsets_; // blocks + 2: block starts, exceptions, end
    std::unique_ptr<std::atomic<std::uint8_t*>[]> blocks_;
    mutable std::once_flag exceptions_once_;
    mutable std::vector<DistanceException> exceptions_;
};

// The value of a code at `index` given the (sorted) exception list.
TableValue value_with_exceptions(std::uint8_t code, std::uint64_t index,
                                 const std::vector<DistanceException>& exceptions);

} // namespace fanorona::tables
