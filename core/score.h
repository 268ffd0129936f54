#pragma once
// The score scale shared by the evaluation, the endgame tables and the search: centi-pieces for
// the side to move. A win in n plies (turns) scores kWinScore - n, a loss in n plies
// -(kWinScore - n); won table positions score just below every forced win the search sees, and
// every evaluation lies below those. Below the search (search.h), so that the evaluation need not
// include it.

namespace fanorona {

inline constexpr int kWinScore = 30000;
inline constexpr int kMaxPly = 128; // deepest ply the search reaches (extensions included)
inline constexpr int kInfiniteScore = kWinScore + 1;
// Scores of won table positions lie in (kTableWinScore - kTableBand, kTableWinScore], below every
// forced win the search sees and above every evaluation.
inline constexpr int kTableWinScore = kWinScore - kMaxPly - 1;
inline constexpr int kTableBand = 700;

// True for a win or loss score (a forced end of the game within kMaxPly plies).
constexpr bool is_decisive(int score) {
    return score >= kWinScore - kMaxPly || score <= -(kWinScore - kMaxPly);
}
// Plies to the end of the game for a decisive score (positive: the side to move wins).
constexpr int plies_to_end(int score) {
    return score > 0 ? kWinScore - score : -(kWinScore + score);
}

} // namespace fanorona
