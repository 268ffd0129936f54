#pragma once
// The one byte stored per position (before compression):
//   0          Draw
//   1..100     Win in that many turns to the next capture or the end
//   101..201   Loss, distance = code - 101 (0: no legal move)
//   202        CursedWin  (distance in the file's exception list)
//   203        BlessedLoss (distance in the file's exception list)
//   255        an unused slot of a folded table (no position maps to it)

#include <cstdint>

#include "core/endgame.h"

namespace fanorona::tables {

inline constexpr std::uint8_t kCodeCursedWin = 202;
inline constexpr std::uint8_t kCodeBlessedLoss = 203;
inline constexpr std::uint8_t kCodeUnused = 255;

inline std::uint8_t encode_value(const TableValue& v) {
    switch (v.cls) {
    case TableClass::Win:
        return std::uint8_t(v.distance);
    case TableClass::Loss:
        return std::uint8_t(101 + v.distance);
    case TableClass::CursedWin:
        return kCodeCursedWin;
    case TableClass::BlessedLoss:
        return kCodeBlessedLoss;
    case TableClass::Draw:
        break;
    }
    return 0;
}

// The class of a code (a cursed or blessed code's distance is not in the code).
inline TableClass code_class(std::uint8_t c) {
    if (c == 0) return TableClass::Draw;
    if (c <= 100) return TableClass::Win;
    if (c <= 201) return TableClass::Loss;
    return c == kCodeCursedWin ? TableClass::CursedWin : TableClass::BlessedLoss;
}

// The value of a Draw, Win or Loss code.
inline TableValue code_value(std::uint8_t c) {
    if (c == 0) return {TableClass::Draw, 0};
    if (c <= 100) return {TableClass::Win, c};
    return {code_class(c), c <= 201 ? c - 101 : 0};
}

inline bool code_is_cursed(std::uint8_t c) {
    return c == kCodeCursedWin || c == kCodeBlessedLoss;
}

} // namespace fanorona::tables
