#pragma once
// FNV-1a 64, the one hash of the project's files: checksums, architecture hashes, fingerprints.

#include <cstdint>
#include <string_view>

namespace fanorona {

// The published FNV-1a 64 parameters (offset basis 14695981039346656037, prime 1099511628211):
// what network files written now and proof files carry.
inline constexpr std::uint64_t kFnv1a64Basis = 14695981039346656037ull;
inline constexpr std::uint64_t kFnv1a64Prime = 1099511628211ull;
// The offset basis the first writers used, the published one without its last digit. Network
// architecture hashes and weights fingerprints keep it (they are recorded in files and run
// folders, and are compared, not verified against a standard); network files written with it
// are still read (their checksum is accepted under either basis).
inline constexpr std::uint64_t kFnv1a64ShortBasis = 1469598103934665603ull;

// FNV-1a 64 of `bytes`, continuing from `h` (a basis, or a hash of earlier bytes).
constexpr std::uint64_t fnv1a64(std::string_view bytes, std::uint64_t h = kFnv1a64Basis) {
    for (const char c : bytes) h = (h ^ std::uint8_t(c)) * kFnv1a64Prime;
    return h;
}

} // namespace fanorona
