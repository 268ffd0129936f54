#pragma once
// Little-endian integers in byte buffers and the CRC-32 (zlib) of bytes: the pieces the binary
// formats' headers and checksums are made of (positions logs, corpus files).

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include <zlib.h>

namespace fanorona {

// Writes the low `bytes` bytes of `v` to `out`, least significant first.
inline void put_le(std::uint8_t* out, std::uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out[i] = std::uint8_t(v >> (8 * i));
}
// Reads `bytes` bytes from `in`, least significant first.
inline std::uint64_t get_le(const std::uint8_t* in, int bytes) {
    std::uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v |= std::uint64_t(in[i]) << (8 * i);
    return v;
}

// The CRC-32 (zlib's) of `size` bytes, continuing from `crc` (0 to start).
inline std::uint32_t crc32_of(const void* data, std::size_t size, std::uint32_t crc = 0) {
    uLong c = crc;
    const auto* p = static_cast<const Bytef*>(data);
    while (size > 0) {
        const uInt n = uInt(std::min<std::size_t>(size, std::size_t(1) << 30));
        c = crc32(c, p, n);
        p += n;
        size -= n;
    }
    return std::uint32_t(c);
}

} // namespace fanorona
