#include "core/nnue/simd.h"

#include <algorithm>
#include <array>

#include "core/nnue/architecture.h"

#if defined(__AVX2__) || defined(__SSE2__)
#include <immintrin.h>
#endif

namespace fanorona::nnue {

namespace scalar {

void add_row(std::int16_t* acc, const std::int16_t* row, int n) {
    for (int j = 0; j < n; ++j)
        acc[j] = std::int16_t(std::uint16_t(acc[j]) + std::uint16_t(row[j]));
}

void sub_row(std::int16_t* acc, const std::int16_t* row, int n) {
    for (int j = 0; j < n; ++j)
        acc[j] = std::int16_t(std::uint16_t(acc[j]) - std::uint16_t(row[j]));
}

void apply_rows(std::int16_t* out, const std::int16_t* in, const std::int16_t* const* added,
                int added_count, const std::int16_t* const* removed, int removed_count, int n) {
    for (int j = 0; j < n; ++j) {
        auto v = std::uint16_t(in[j]);
        for (int i = 0; i < added_count; ++i) v = std::uint16_t(v + std::uint16_t(added[i][j]));
        for (int i = 0; i < removed_count; ++i) v = std::uint16_t(v - std::uint16_t(removed[i][j]));
        out[j] = std::int16_t(v);
    }
}

std::int64_t crelu_dot(const std::int16_t* a, const std::int16_t* w, int n, int qa) {
    std::int64_t sum = 0;
    for (int j = 0; j < n; ++j) sum += std::int64_t(std::clamp<int>(a[j], 0, qa)) * w[j];
    return sum;
}

std::int64_t screlu_dot(const std::int16_t* a, const std::int16_t* w, int n, int qa) {
    std::int64_t sum = 0;
    for (int j = 0; j < n; ++j) {
        const std::int64_t v = std::clamp<int>(a[j], 0, qa);
        sum += v * v * w[j];
    }
    return sum;
}

void crelu_rows(std::int32_t* out, const std::int16_t* own, const std::int16_t* other,
                const std::int16_t* w, int rows, int n, int qa) {
    for (int r = 0; r < rows; ++r) {
        const std::int16_t* row = w + std::size_t(r) * 2 * std::size_t(n);
        out[r] = std::int32_t(crelu_dot(own, row, n, qa) + crelu_dot(other, row + n, n, qa));
    }
}

void crelu_rows_int8(std::int32_t* out, const std::int16_t* own, const std::int16_t* other,
                     const std::int8_t* w, int rows, int n, int qa) {
    for (int r = 0; r < rows; ++r) {
        const std::int8_t* row = w + std::size_t(r) * 2 * std::size_t(n);
        std::int32_t sum = 0;
        for (int j = 0; j < n; ++j)
            sum += std::clamp<int>(own[j], 0, qa) * row[j] +
                   std::clamp<int>(other[j], 0, qa) * row[n + j];
        out[r] = sum;
    }
}

} // namespace scalar

namespace {

// The clipped inputs of a dense layer: clamp(own, 0, qa) then clamp(other, 0, qa), 2n values.
struct ClippedInputs {
    alignas(64) std::array<std::int16_t, 2 * kMaxHidden> x;
    ClippedInputs(const std::int16_t* own, const std::int16_t* other, int n, int qa) {
#if defined(__SSE2__)
        // Eight at a time (n is a multiple of 16): max with 0, then min with qa, in int16.
        const __m128i zero = _mm_setzero_si128(), top = _mm_set1_epi16(std::int16_t(qa));
        auto* out = reinterpret_cast<__m128i*>(x.data());
        const auto clip = [&](const std::int16_t* a) {
            return _mm_min_epi16(
                _mm_max_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(a)), zero), top);
        };
        for (int j = 0; j < n; j += 8) {
            _mm_store_si128(out + j / 8, clip(own + j));
            _mm_store_si128(out + (n + j) / 8, clip(other + j));
        }
#else
        for (int j = 0; j < n; ++j) {
            x[std::size_t(j)] = std::int16_t(std::clamp<int>(own[j], 0, qa));
            x[std::size_t(n + j)] = std::int16_t(std::clamp<int>(other[j], 0, qa));
        }
#endif
    }
};

#if defined(__SSE2__)
// The sum of a register's four int32 lanes (exact when it fits int32).
inline std::int32_t sum_lanes(__m128i v) {
    const __m128i pair = _mm_add_epi32(v, _mm_unpackhi_epi64(v, v));
    return _mm_cvtsi128_si32(_mm_add_epi32(pair, _mm_shuffle_epi32(pair, 1)));
}
#endif

} // namespace

#if defined(__AVX2__)

const char* simd_path() {
#if defined(__AVXVNNI__) || (defined(__AVX512VNNI__) && defined(__AVX512VL__))
    return "avx2+vnni";
#else
    return "avx2";
#endif
}

// R registers of the accumulator stay in registers while every row is added or subtracted, then
// are stored once (R a constant, so that the block is never spilled to memory).
template <int R>
void apply_block(std::int16_t* out, const std::int16_t* in, const std::int16_t* const* added,
                 int added_count, const std::int16_t* const* removed, int removed_count, int j) {
    const auto load = [](const std::int16_t* p) {
        return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    };
    __m256i v[R];
    for (int r = 0; r < R; ++r) v[r] = load(in + j + 16 * r);
    for (int i = 0; i < added_count; ++i)
        for (int r = 0; r < R; ++r) v[r] = _mm256_add_epi16(v[r], load(added[i] + j + 16 * r));
    for (int i = 0; i < removed_count; ++i)
        for (int r = 0; r < R; ++r) v[r] = _mm256_sub_epi16(v[r], load(removed[i] + j + 16 * r));
    for (int r = 0; r < R; ++r)
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + j + 16 * r), v[r]);
}

void apply_rows(std::int16_t* out, const std::int16_t* in, const std::int16_t* const* added,
                int added_count, const std::int16_t* const* removed, int removed_count, int n) {
    // Blocks of 8 registers (128 lanes, half the 16 registers), then of 1 for the rest (n is a
    // multiple of 16).
    int j = 0;
    for (; j + 128 <= n; j += 128)
        apply_block<8>(out, in, added, added_count, removed, removed_count, j);
    for (; j < n; j += 16) apply_block<1>(out, in, added, added_count, removed, removed_count, j);
}

// sum clamp(a, 0, qa) * w (Squared: clamp(a, 0, qa)^2 * w, the product clamp * w taken in int16
// first) in 32-bit lanes, then summed in 64 bits. CReLU: each madd lane sums two products of at
// most 255 * 32768, and a lane takes n / 16 of them pairwise (n <= 512). SCReLU: (x w) fits int16
// (x <= 255, |w| <= 127), and a lane sums two products of at most 255 * 127 * 255, n / 8 of
// them. Both below 2^31, so the lanes never overflow and the sum is exact.
template <bool Squared>
std::int64_t clipped_dot(const std::int16_t* a, const std::int16_t* w, int n, int qa) {
    const __m256i zero = _mm256_setzero_si256();
    const __m256i top = _mm256_set1_epi16(std::int16_t(qa));
    __m256i sum = _mm256_setzero_si256();
    for (int j = 0; j < n; j += 16) {
        __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + j));
        x = _mm256_min_epi16(_mm256_max_epi16(x, zero), top);
        const __m256i y = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w + j));
        sum = _mm256_add_epi32(sum, Squared ? _mm256_madd_epi16(_mm256_mullo_epi16(x, y), x)
                                            : _mm256_madd_epi16(x, y));
    }
    alignas(32) std::int32_t lanes[8];
    _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), sum);
    std::int64_t total = 0;
    for (const std::int32_t v : lanes) total += v;
    return total;
}

std::int64_t crelu_dot(const std::int16_t* a, const std::int16_t* w, int n, int qa) {
    return clipped_dot<false>(a, w, n, qa);
}

std::int64_t screlu_dot(const std::int16_t* a, const std::int16_t* w, int n, int qa) {
    return clipped_dot<true>(a, w, n, qa);
}

// The inputs clipped once, then 8 rows at a time: each input register is loaded once for the 8
// rows' products, and the 8 rows' lanes are summed together by horizontal adds. A row's sum fits
// int32 (crelu_rows' bound), so its lanes and their sum are exact.
void crelu_rows(std::int32_t* out, const std::int16_t* own, const std::int16_t* other,
                const std::int16_t* w, int rows, int n, int qa) {
    const ClippedInputs in(own, other, n, qa);
    const int width = 2 * n;
    const auto load = [](const std::int16_t* p) {
        return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    };
    int r = 0;
    for (; r + 8 <= rows; r += 8) {
        const std::int16_t* w0 = w + std::size_t(r) * std::size_t(width);
        __m256i s[8];
        for (auto& v : s) v = _mm256_setzero_si256();
        for (int j = 0; j < width; j += 16) {
            const __m256i x = load(in.x.data() + j);
            for (int k = 0; k < 8; ++k)
                s[k] = _mm256_add_epi32(s[k], _mm256_madd_epi16(x, load(w0 + k * width + j)));
        }
        // After two rounds of hadd, each 128-bit half holds rows 0-3 (and 4-7) partial sums.
        const __m256i s0123 =
            _mm256_hadd_epi32(_mm256_hadd_epi32(s[0], s[1]), _mm256_hadd_epi32(s[2], s[3]));
        const __m256i s4567 =
            _mm256_hadd_epi32(_mm256_hadd_epi32(s[4], s[5]), _mm256_hadd_epi32(s[6], s[7]));
        const __m256i sums = _mm256_add_epi32(_mm256_permute2x128_si256(s0123, s4567, 0x20),
                                              _mm256_permute2x128_si256(s0123, s4567, 0x31));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + r), sums);
    }
    for (; r < rows; ++r) {
        const std::int16_t* row = w + std::size_t(r) * std::size_t(width);
        __m256i sum = _mm256_setzero_si256();
        for (int j = 0; j < width; j += 16)
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(load(in.x.data() + j), load(row + j)));
        out[r] =
            sum_lanes(_mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1)));
    }
}

// acc + the sums of 4 adjacent u8 x s8 products of x and w, in each int32 lane: one VNNI
// instruction where the CPU has it, else maddubs (pairs summed in int16) and a madd by ones. The
// two agree while a pair's sum fits int16 (no saturation), as crelu_rows_int8's bounds make it.
inline __m256i add_u8_s8_products(__m256i acc, __m256i x, __m256i w) {
#if defined(__AVXVNNI__)
    return _mm256_dpbusd_avx_epi32(acc, x, w);
#elif defined(__AVX512VNNI__) && defined(__AVX512VL__)
    return _mm256_dpbusd_epi32(acc, x, w);
#else
    return _mm256_add_epi32(acc,
                            _mm256_madd_epi16(_mm256_maddubs_epi16(x, w), _mm256_set1_epi16(1)));
#endif
}

// The inputs clipped to 0..qa once, as unsigned bytes (2n of them), then 4 rows at a time: each
// 32 inputs take one maddubs per row (pairs of u8 x s8 products summed in int16: at most 2 * 255 *
// 64, no saturation) and one madd by ones into int32 lanes. A row's sum fits int32 (at most
// 2 * 512 * 255 * 64), so its lanes and their sum are exact.
void crelu_rows_int8(std::int32_t* out, const std::int16_t* own, const std::int16_t* other,
                     const std::int8_t* w, int rows, int n, int qa) {
    alignas(32) std::array<std::uint8_t, 2 * kMaxHidden> x;
    const __m256i zero = _mm256_setzero_si256();
    const __m256i top = _mm256_set1_epi16(std::int16_t(qa));
    const auto clip = [&](const std::int16_t* from, std::uint8_t* to) {
        for (int j = 0; j < n; j += 32) {
            const auto load = [&](int k) {
                const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(from + k));
                return _mm256_min_epi16(_mm256_max_epi16(v, zero), top);
            };
            // packus interleaves the 128-bit halves: the permute puts the bytes back in order.
            const __m256i packed =
                _mm256_permute4x64_epi64(_mm256_packus_epi16(load(j), load(j + 16)), 0xD8);
            _mm256_store_si256(reinterpret_cast<__m256i*>(to + j), packed);
        }
    };
    const int width = 2 * n;
    if (n % 32 == 0) {
        clip(own, x.data());
        clip(other, x.data() + n);
    } else {
        for (int j = 0; j < n; ++j) {
            x[std::size_t(j)] = std::uint8_t(std::clamp<int>(own[j], 0, qa));
            x[std::size_t(n + j)] = std::uint8_t(std::clamp<int>(other[j], 0, qa));
        }
    }
    const auto load8 = [](const void* p) {
        return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    };
    int r = 0;
    for (; r + 4 <= rows; r += 4) {
        const std::int8_t* w0 = w + std::size_t(r) * std::size_t(width);
        __m256i s[4];
        for (auto& v : s) v = _mm256_setzero_si256();
        // width = 2n is a multiple of 32 (the hidden size is a multiple of 16): no tail.
        for (int j = 0; j < width; j += 32) {
            const __m256i xv = _mm256_load_si256(reinterpret_cast<const __m256i*>(x.data() + j));
            for (int k = 0; k < 4; ++k)
                s[k] = add_u8_s8_products(s[k], xv, load8(w0 + k * width + j));
        }
        const __m256i s01 = _mm256_hadd_epi32(s[0], s[1]);
        const __m256i s23 = _mm256_hadd_epi32(s[2], s[3]);
        const __m256i s0123 = _mm256_hadd_epi32(s01, s23);
        const __m128i sums =
            _mm_add_epi32(_mm256_castsi256_si128(s0123), _mm256_extracti128_si256(s0123, 1));
        alignas(16) std::int32_t lanes[4];
        _mm_store_si128(reinterpret_cast<__m128i*>(lanes), sums);
        for (int k = 0; k < 4; ++k) out[r + k] = lanes[k];
    }
    for (; r < rows; ++r) {
        const std::int8_t* row = w + std::size_t(r) * std::size_t(width);
        std::int32_t v = 0;
        for (int t = 0; t < width; ++t) v += int(x[std::size_t(t)]) * row[t];
        out[r] = v;
    }
}

#elif defined(__SSE2__)

const char* simd_path() {
    return "sse2";
}

// As the AVX2 path, with registers of 8 lanes.
template <int R>
void apply_block(std::int16_t* out, const std::int16_t* in, const std::int16_t* const* added,
                 int added_count, const std::int16_t* const* removed, int removed_count, int j) {
    const auto load = [](const std::int16_t* p) {
        return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    };
    __m128i v[R];
    for (int r = 0; r < R; ++r) v[r] = load(in + j + 8 * r);
    for (int i = 0; i < added_count; ++i)
        for (int r = 0; r < R; ++r) v[r] = _mm_add_epi16(v[r], load(added[i] + j + 8 * r));
    for (int i = 0; i < removed_count; ++i)
        for (int r = 0; r < R; ++r) v[r] = _mm_sub_epi16(v[r], load(removed[i] + j + 8 * r));
    for (int r = 0; r < R; ++r) _mm_storeu_si128(reinterpret_cast<__m128i*>(out + j + 8 * r), v[r]);
}

void apply_rows(std::int16_t* out, const std::int16_t* in, const std::int16_t* const* added,
                int added_count, const std::int16_t* const* removed, int removed_count, int n) {
    // Blocks of 8 registers (64 lanes), then of 2 for the rest (n is a multiple of 16).
    int j = 0;
    for (; j + 64 <= n; j += 64)
        apply_block<8>(out, in, added, added_count, removed, removed_count, j);
    for (; j < n; j += 16) apply_block<2>(out, in, added, added_count, removed, removed_count, j);
}

// As the AVX2 path with 4 lanes: a lane takes n / 8 <= 64 pairs of products (SCReLU: n / 4 <=
// 128 products), below 2^31.
template <bool Squared>
std::int64_t clipped_dot(const std::int16_t* a, const std::int16_t* w, int n, int qa) {
    const __m128i zero = _mm_setzero_si128();
    const __m128i top = _mm_set1_epi16(std::int16_t(qa));
    __m128i sum = _mm_setzero_si128();
    for (int j = 0; j < n; j += 8) {
        __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a + j));
        x = _mm_min_epi16(_mm_max_epi16(x, zero), top);
        const __m128i y = _mm_loadu_si128(reinterpret_cast<const __m128i*>(w + j));
        sum = _mm_add_epi32(sum, Squared ? _mm_madd_epi16(_mm_mullo_epi16(x, y), x)
                                         : _mm_madd_epi16(x, y));
    }
    alignas(16) std::int32_t lanes[4];
    _mm_store_si128(reinterpret_cast<__m128i*>(lanes), sum);
    std::int64_t total = 0;
    for (const std::int32_t v : lanes) total += v;
    return total;
}

std::int64_t crelu_dot(const std::int16_t* a, const std::int16_t* w, int n, int qa) {
    return clipped_dot<false>(a, w, n, qa);
}

std::int64_t screlu_dot(const std::int16_t* a, const std::int16_t* w, int n, int qa) {
    return clipped_dot<true>(a, w, n, qa);
}

// As the AVX2 path, a row at a time.
void crelu_rows(std::int32_t* out, const std::int16_t* own, const std::int16_t* other,
                const std::int16_t* w, int rows, int n, int qa) {
    const ClippedInputs in(own, other, n, qa);
    const int width = 2 * n;
    for (int r = 0; r < rows; ++r) {
        const std::int16_t* row = w + std::size_t(r) * std::size_t(width);
        __m128i sum = _mm_setzero_si128();
        for (int j = 0; j < width; j += 8)
            sum = _mm_add_epi32(
                sum,
                _mm_madd_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in.x.data() + j)),
                               _mm_loadu_si128(reinterpret_cast<const __m128i*>(row + j))));
        out[r] = sum_lanes(sum);
    }
}

// SSE2 has no u8 x s8 multiply (maddubs is SSSE3): the inputs clipped once as in crelu_rows,
// each 16 weights sign-extended to int16 (a byte unpacked into both halves of a lane, shifted
// right by 8) and multiplied with madd. Exact: a product is at most 255 x 128 and a row's sum
// fits int32, as in the scalar loop.
void crelu_rows_int8(std::int32_t* out, const std::int16_t* own, const std::int16_t* other,
                     const std::int8_t* w, int rows, int n, int qa) {
    const ClippedInputs in(own, other, n, qa);
    const int width = 2 * n; // a multiple of 32 (kHiddenStep)
    for (int r = 0; r < rows; ++r) {
        const std::int8_t* row = w + std::size_t(r) * std::size_t(width);
        __m128i sum = _mm_setzero_si128();
        for (int j = 0; j < width; j += 16) {
            const __m128i w8 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(row + j));
            const __m128i low = _mm_srai_epi16(_mm_unpacklo_epi8(w8, w8), 8);
            const __m128i high = _mm_srai_epi16(_mm_unpackhi_epi8(w8, w8), 8);
            const auto* x = reinterpret_cast<const __m128i*>(in.x.data() + j);
            sum = _mm_add_epi32(sum, _mm_madd_epi16(_mm_load_si128(x), low));
            sum = _mm_add_epi32(sum, _mm_madd_epi16(_mm_load_si128(x + 1), high));
        }
        out[r] = sum_lanes(sum);
    }
}

#else

const char* simd_path() {
    return "scalar";
}
void apply_rows(std::int16_t* out, const std::int16_t* in, const std::int16_t* const* added,
                int added_count, const std::int16_t* const* removed, int removed_count, int n) {
    scalar::apply_rows(out, in, added, added_count, removed, removed_count, n);
}
std::int64_t crelu_dot(const std::int16_t* a, const std::int16_t* w, int n, int qa) {
    return scalar::crelu_dot(a, w, n, qa);
}
std::int64_t screlu_dot(const std::int16_t* a, const std::int16_t* w, int n, int qa) {
    return scalar::screlu_dot(a, w, n, qa);
}
void crelu_rows(std::int32_t* out, const std::int16_t* own, const std::int16_t* other,
                const std::int16_t* w, int rows, int n, int qa) {
    scalar::crelu_rows(out, own, other, w, rows, n, qa);
}
void crelu_rows_int8(std::int32_t* out, const std::int16_t* own, const std::int16_t* other,
                     const std::int8_t* w, int rows, int n, int qa) {
    scalar::crelu_rows_int8(out, own, other, w, rows, n, qa);
}

#endif

} // namespace fanorona::nnue
