// Proof files: "FNRPRF\r\n", then little-endian u32 version, u32 variant, u64 count, count
// records of (u64 key, i8 lo, i8 hi, 6 zero bytes), and a u64 FNV-1a checksum of the records.

#include "selfplay/formats/proof_file.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>

#include "core/common/files.h"
#include "core/common/hash.h"
#include "selfplay/formats/formats.h"

namespace fanorona {

namespace {

constexpr std::size_t kHeader = 8 + 4 + 4 + 8;
constexpr std::size_t kRecord = 16;

template <class T> void put(std::string& out, T v) {
    for (std::size_t i = 0; i < sizeof(T); ++i)
        out.push_back(char((std::uint64_t(v) >> (8 * i)) & 0xFF));
}

template <class T> T get(const std::string& in, std::size_t at) {
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i)
        v |= std::uint64_t(std::uint8_t(in[at + i])) << (8 * i);
    return T(v);
}

std::uint64_t fnv1a(const char* p, std::size_t n) {
    return fnv1a64(std::string_view(p, n));
}

} // namespace

ProofFile read_proof_file(const std::string& path) {
    const std::string data = read_file_bytes(path, kProofFileLimits);
    const auto bad = [&](const std::string& why) { return FileError(path + ": " + why); };
    if (data.size() < kHeader || data.compare(0, 8, kProofFileMagic) != 0)
        throw bad("not a proof file (its first bytes are not the proof file magic)");
    if (const auto version = get<std::uint32_t>(data, 8); version != kProofFileVersion)
        throw bad("proof file version " + std::to_string(version) + ", this program reads " +
                  std::to_string(kProofFileVersion));
    const auto variant = get<std::uint32_t>(data, 12);
    if (variant >= std::uint32_t(kVariantCount))
        throw bad("variant " + std::to_string(variant) + " out of range");
    const auto count = get<std::uint64_t>(data, 16);
    if (count > (data.size() - kHeader) / kRecord || data.size() != kHeader + count * kRecord + 8)
        throw bad("size " + std::to_string(data.size()) + " bytes does not match its count of " +
                  std::to_string(count) + " bounds (a truncated or damaged file)");
    if (fnv1a(data.data() + kHeader, count * kRecord) !=
        get<std::uint64_t>(data, kHeader + count * kRecord))
        throw bad("checksum mismatch (a damaged file)");
    ProofFile f;
    f.variant = Variant(variant);
    f.bounds.reserve(count);
    for (std::uint64_t i = 0; i < count; ++i) {
        const std::size_t at = kHeader + i * kRecord;
        const ProvenBound b{get<std::uint64_t>(data, at), int(get<std::int8_t>(data, at + 8)),
                            int(get<std::int8_t>(data, at + 9))};
        if (b.lo < -1 || b.hi > 1 || b.lo > b.hi || (b.lo == -1 && b.hi == 1))
            throw bad("bound " + std::to_string(i) + ": lo " + std::to_string(b.lo) + " hi " +
                      std::to_string(b.hi) + " is not a proven bound");
        if (i > 0 && b.key <= f.bounds.back().key)
            throw bad("bound " + std::to_string(i) + ": keys out of order");
        f.bounds.push_back(b);
    }
    return f;
}

void write_proof_file(const std::string& path, ProofFile f) {
    std::sort(f.bounds.begin(), f.bounds.end(),
              [](const ProvenBound& a, const ProvenBound& b) { return a.key < b.key; });
    std::string out(kProofFileMagic);
    put<std::uint32_t>(out, kProofFileVersion);
    put<std::uint32_t>(out, std::uint32_t(f.variant));
    put<std::uint64_t>(out, f.bounds.size());
    out.reserve(out.size() + f.bounds.size() * kRecord + 8);
    for (const ProvenBound& b : f.bounds) {
        put<std::uint64_t>(out, b.key);
        put<std::uint8_t>(out, std::uint8_t(std::int8_t(b.lo)));
        put<std::uint8_t>(out, std::uint8_t(std::int8_t(b.hi)));
        put<std::uint32_t>(out, 0);
        put<std::uint16_t>(out, 0);
    }
    put<std::uint64_t>(out, fnv1a(out.data() + kHeader, f.bounds.size() * kRecord));
    write_file_atomically(path, out);
}

} // namespace fanorona
