#pragma once
// perft: the number of move sequences of a given length, the standard move-generator check.

#include <cstdint>

#include "core/board/movegen.h"

namespace fanorona {

std::uint64_t perft(Position& pos, const Rules& rules, int depth);

} // namespace fanorona
