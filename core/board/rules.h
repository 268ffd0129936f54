#pragma once
// The rule settings of one game: board variant, options, and draw limits.

#include <optional>
#include <string>
#include <string_view>

#include "core/board/types.h"

namespace fanorona {

enum class RuleSet : std::uint8_t { Standard = 0, FirstTurn = 1, Vela = 2 };

// Everything that decides which moves are legal and when a game ends. Vela makes White the
// beneficiary; its restrictions hold while Black (the victim) has more than kVelaVictimFloor
// pieces.
struct Rules {
    Variant variant = Variant::Tsivy;
    RuleSet ruleset = RuleSet::Standard;
    int repetition_count = 3;   // the same position this many times is a draw (0: off)
    int no_capture_limit = 100; // this many consecutive turns without capture is a draw (0: off)

    static constexpr int kVelaVictimFloor = 5;
    friend bool operator==(const Rules&, const Rules&) = default;
};

// "tsivy" (5x9), "dimy" (5x5), "telo" (Fanoron-telo, 3x3), else ranks x files such as "7x9".
std::string_view variant_name(Variant v);
std::string_view ruleset_name(RuleSet r);
// "tsivy, standard": the board and the rule set, as error messages name a file's rules.
std::string rules_name(const Rules& r);
// Any name variant_name prints, and "5x9" and "5x5" for tsivy and dimy; nullopt otherwise.
std::optional<Variant> parse_variant(std::string_view s);
// The accepted variant names for help texts and error messages.
inline constexpr std::string_view kVariantHelp =
    "tsivy (5x9), dimy (5x5), telo (Fanoron-telo on 3x3), or any RxC with R and C odd, at least "
    "3, and R*C <= 64 (e.g. 3x3, 5x7, 7x9, 9x5, 3x21)";
std::optional<RuleSet> parse_ruleset(std::string_view s);

} // namespace fanorona
