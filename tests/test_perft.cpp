// Perft from the start positions against every reference value in docs/rules.md up to depth 6.

#include <catch2/catch.hpp>

#include "core/board/perft.h"

using namespace fanorona;

namespace {

std::uint64_t perft_from_start(Variant v, RuleSet rs, int depth) {
    Rules rules;
    rules.variant = v;
    rules.ruleset = rs;
    Position pos = Position::start(v);
    return perft(pos, rules, depth);
}

} // namespace

TEST_CASE("perft tsivy standard matches docs/rules.md", "[perft][slow]") {
    const std::uint64_t expected[] = {5, 39, 724, 18026, 431830, 9204447};
    for (int d = 1; d <= 6; ++d)
        CHECK(perft_from_start(Variant::Tsivy, RuleSet::Standard, d) == expected[d - 1]);
}

TEST_CASE("perft tsivy firstturn matches docs/rules.md", "[perft][slow]") {
    const std::uint64_t expected[] = {5, 17, 198, 4770, 116520, 2708181};
    for (int d = 1; d <= 6; ++d)
        CHECK(perft_from_start(Variant::Tsivy, RuleSet::FirstTurn, d) == expected[d - 1]);
}

TEST_CASE("perft tsivy vela matches docs/rules.md", "[perft]") {
    const std::uint64_t expected[] = {5, 24, 94, 817, 3984, 43015};
    for (int d = 1; d <= 6; ++d)
        CHECK(perft_from_start(Variant::Tsivy, RuleSet::Vela, d) == expected[d - 1]);
}

TEST_CASE("perft dimy matches docs/rules.md", "[perft]") {
    const std::uint64_t expected[] = {5, 21, 202, 3469, 34608, 306817};
    for (int d = 1; d <= 6; ++d)
        CHECK(perft_from_start(Variant::Dimy, RuleSet::Standard, d) == expected[d - 1]);
}
