#include "core/patterns.h"

#include <utility>

namespace fanorona {

namespace {

constexpr int kFiles = 9; // tsivy: 9 files, 5 ranks, stride 9 (kStride)
static_assert(kStride == kFiles);

constexpr int pow3(int n) {
    int p = 1;
    while (n-- > 0) p *= 3;
    return p;
}
static_assert(kPatternConfigs == pow3(kPatternPoints));

// The base-3 value of three points read from 3-bit masks (bit i: column i), columns 0..2 as
// digits 0..2, or reversed (column 2 as digit 0).
struct RowTable {
    std::array<std::array<std::array<std::uint16_t, 8>, 8>, 2> value{}; // [reversed][own][opp]
};
constexpr RowTable make_row_table() {
    RowTable t;
    for (int rev = 0; rev < 2; ++rev)
        for (int own = 0; own < 8; ++own)
            for (int opp = 0; opp < 8; ++opp) {
                int v = 0;
                for (int digit = 2; digit >= 0; --digit) {
                    const int column = rev ? 2 - digit : digit;
                    const int state = (own >> column & 1) ? 1 : (opp >> column & 1) ? 2 : 0;
                    v = v * 3 + state;
                }
                t.value[rev][own][opp] = std::uint16_t(v);
            }
    return t;
}
constexpr RowTable kRows = make_row_table();

// The configuration with its columns (mirror_files) and/or rows (mirror_ranks) reversed.
constexpr int mirror_config(int config, bool mirror_files, bool mirror_ranks) {
    int digits[kPatternPoints];
    for (int d = 0; d < kPatternPoints; ++d, config /= 3) digits[d] = config % 3;
    int out = 0;
    for (int d = kPatternPoints - 1; d >= 0; --d) {
        const int dx = d % 3, dy = d / 3;
        const int sx = mirror_files ? 2 - dx : dx, sy = mirror_ranks ? 2 - dy : dy;
        out = out * 3 + digits[3 * sy + sx];
    }
    return out;
}

// The symmetries that map a class's representative onto itself: the e file is its own mirror
// image left-right, rank 3 top-bottom.
constexpr bool class_mirrors_files(int c) {
    return c % 4 == 3;
}
constexpr bool class_mirrors_ranks(int c) {
    return c / 4 == 1;
}

// For the three kinds of self-symmetric class (files, ranks, both): the canonical form of each
// configuration, the smallest of its images under the class's symmetries.
struct CanonicalTable {
    std::array<std::array<std::uint16_t, kPatternConfigs>, 4> form{}; // [files + 2 * ranks]
};
CanonicalTable make_canonical_table() {
    CanonicalTable t;
    for (int kind = 0; kind < 4; ++kind) {
        const bool files = kind & 1, ranks = kind & 2;
        for (int k = 0; k < kPatternConfigs; ++k) {
            int best = k;
            if (files) best = std::min(best, mirror_config(k, true, false));
            if (ranks) best = std::min(best, mirror_config(k, false, true));
            if (files && ranks) best = std::min(best, mirror_config(k, true, true));
            t.form[kind][k] = std::uint16_t(best);
        }
    }
    return t;
}
// Built once at start-up (too big a computation for a constant expression); never changed.
const CanonicalTable kCanonical = make_canonical_table();

constexpr int canonical_kind(int c) {
    return int(class_mirrors_files(c)) + 2 * int(class_mirrors_ranks(c));
}

constexpr std::array<PatternWindow, kPatternWindows> make_windows() {
    std::array<PatternWindow, kPatternWindows> w{};
    int i = 0;
    for (int rank = 1; rank <= 3; ++rank)
        for (int file = 1; file <= 7; ++file) {
            const bool mf = file > 4, mr = rank > 2;
            const int rep_file = mf ? 8 - file : file, rep_rank = mr ? 4 - rank : rank;
            w[i++] = {make_square(file, rank), std::uint8_t((rep_rank - 1) * 4 + rep_file - 1), mf,
                      mr};
        }
    return w;
}
constexpr std::array<PatternWindow, kPatternWindows> kWindows = make_windows();

constexpr std::string_view kClassNames[kPatternClasses] = {"b2", "c2", "d2", "e2",
                                                           "b3", "c3", "d3", "e3"};

} // namespace

const std::array<PatternWindow, kPatternWindows>& pattern_windows() {
    return kWindows;
}

namespace {

// Window I's pattern weight number; every window constant folded into the code (the shifts, the
// reading direction, whether to look up the canonical form).
template <int I> std::uint32_t window_index(Bitboard player, Bitboard opponent) {
    constexpr PatternWindow w = kWindows[I];
    constexpr int low = w.centre - kFiles - 1; // the window's lower left point
    constexpr int kind = canonical_kind(w.cls);
    const auto row = [&](int dy) { // the base-3 value of row dy in the class's orientation
        const int shift = low + (w.mirror_ranks ? 2 - dy : dy) * kFiles;
        const auto own = unsigned(player >> shift) & 7, opp = unsigned(opponent >> shift) & 7;
        return int(kRows.value[w.mirror_files][own][opp]);
    };
    int config = row(2) * 729 + row(1) * 27 + row(0);
    if constexpr (kind != 0) config = kCanonical.form[kind][config];
    return std::uint32_t(w.cls) * kPatternConfigs + std::uint32_t(config);
}

template <std::size_t... I>
void all_windows(Bitboard player, Bitboard opponent, PatternIndices& out,
                 std::index_sequence<I...>) {
    ((out[I] = window_index<int(I)>(player, opponent)), ...);
}

} // namespace

void pattern_indices(Bitboard player, Bitboard opponent, PatternIndices& out) {
    all_windows(player, opponent, out, std::make_index_sequence<kPatternWindows>());
}

std::string_view pattern_class_name(int c) {
    return c >= 0 && c < kPatternClasses ? kClassNames[c] : std::string_view{};
}

std::optional<int> parse_pattern_class(std::string_view name) {
    for (int c = 0; c < kPatternClasses; ++c)
        if (kClassNames[c] == name) return c;
    return std::nullopt;
}

std::string pattern_config_string(int config) {
    std::string s;
    for (int dy = 2; dy >= 0; --dy) {
        for (int dx = 0; dx < 3; ++dx) {
            int digit = config;
            for (int d = 0; d < 3 * dy + dx; ++d) digit /= 3;
            s += ".xo"[digit % 3];
        }
        if (dy) s += '/';
    }
    return s;
}

std::optional<int> parse_pattern_config(std::string_view text) {
    if (text.size() != 11 || text[3] != '/' || text[7] != '/') return std::nullopt;
    int digits[kPatternPoints];
    for (int dy = 2, pos = 0; dy >= 0; --dy, ++pos)
        for (int dx = 0; dx < 3; ++dx, ++pos) {
            const char ch = text[std::size_t(pos)];
            const int v = ch == '.' ? 0 : ch == 'x' ? 1 : ch == 'o' ? 2 : -1;
            if (v < 0) return std::nullopt;
            digits[3 * dy + dx] = v;
        }
    int config = 0;
    for (int d = kPatternPoints - 1; d >= 0; --d) config = config * 3 + digits[d];
    return config;
}

bool pattern_config_canonical(int c, int config) {
    return pattern_canonical_config(c, config) == config;
}

int pattern_canonical_config(int c, int config) {
    const int kind = canonical_kind(c);
    return kind ? int(kCanonical.form[kind][config]) : config;
}

} // namespace fanorona
