#pragma once
// The vector kernels of the integer network: adding and subtracting weight rows to accumulators
// (apply_rows: a refresh or a move's whole update in one pass), and the clipped dot product of the
// output layer (clipped, or clipped and squared). SSE2 or AVX2 intrinsics when the compiler targets
// them (no -march needed for SSE2 on x86-64), the scalar loops otherwise; the scalar loops are also
// callable (namespace scalar) so tests check that both give identical numbers (add_row and sub_row,
// one row at a time, are the reference the fused update is checked against). n is a multiple of
// kHiddenStep (16).

#include <cstdint>

namespace fanorona::nnue {

namespace scalar {
void add_row(std::int16_t* acc, const std::int16_t* row, int n);
void sub_row(std::int16_t* acc, const std::int16_t* row, int n);
// out[j] = in[j] + sum over the added rows of row[j] - sum over the removed rows of row[j]
// (wrapping as add_row and sub_row do; out may be in): a whole update in one pass over the
// accumulator.
void apply_rows(std::int16_t* out, const std::int16_t* in, const std::int16_t* const* added,
                int added_count, const std::int16_t* const* removed, int removed_count, int n);
// sum over j < n of clamp(a[j], 0, qa) * w[j].
std::int64_t crelu_dot(const std::int16_t* a, const std::int16_t* w, int n, int qa);
// sum over j < n of clamp(a[j], 0, qa)^2 * w[j], for qa <= 255 and |w[j]| <= kScreluMaxW2q (127):
// the vector paths multiply clamp(a) by w in int16 first.
std::int64_t screlu_dot(const std::int16_t* a, const std::int16_t* w, int n, int qa);
// out[r] = crelu_dot(own, w + r * 2n, n, qa) + crelu_dot(other, w + r * 2n + n, n, qa) for r <
// rows: a dense layer over both perspectives' clipped accumulators, for n <= kMaxHidden, qa <=
// 255 and |w| <= kLayer2MaxW2q, so that every sum fits int32 (2 * 512 * 255 * 4095 < 2^31).
void crelu_rows(std::int32_t* out, const std::int16_t* own, const std::int16_t* other,
                const std::int16_t* w, int rows, int n, int qa);
// The same layer with 8-bit weights, for qa <= 255 and |w| <= kLayer2Int8MaxW2q (64), so that
// two products add up in int16 (the vector path's maddubs), and n a multiple of 16 (as every
// hidden size): the same numbers as crelu_rows with the weights widened.
void crelu_rows_int8(std::int32_t* out, const std::int16_t* own, const std::int16_t* other,
                     const std::int8_t* w, int rows, int n, int qa);
} // namespace scalar

// The fastest path the compiler targets (scalar when no vector instructions are available).
void apply_rows(std::int16_t* out, const std::int16_t* in, const std::int16_t* const* added,
                int added_count, const std::int16_t* const* removed, int removed_count, int n);
std::int64_t crelu_dot(const std::int16_t* a, const std::int16_t* w, int n, int qa);
std::int64_t screlu_dot(const std::int16_t* a, const std::int16_t* w, int n, int qa);
void crelu_rows(std::int32_t* out, const std::int16_t* own, const std::int16_t* other,
                const std::int16_t* w, int rows, int n, int qa);
void crelu_rows_int8(std::int32_t* out, const std::int16_t* own, const std::int16_t* other,
                     const std::int8_t* w, int rows, int n, int qa);
// "avx2+vnni" (AVX2 with the 8-bit dot product of AVX-VNNI), "avx2", "sse2" or "scalar": the
// path apply_rows, crelu_dot and crelu_rows_int8 take.
const char* simd_path();

} // namespace fanorona::nnue
