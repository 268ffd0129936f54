#!/usr/bin/env bash
# The cost of the pattern features (core/patterns.h): the default weights against the default
# weights plus a full random pattern set (every canonical configuration of every class weighted,
# made here with awk). Two measures, the two weight sets interleaved, best of REPEATS (default 3):
#  - search speed: `fanorona bench` (depth DEPTH, default 8) nodes per second over its tsivy
#    positions (the only board with pattern windows; node counts differ, as the evaluation does);
#  - evaluation cost: `fanorona bench --evals N` ns per evaluate() (as the search calls it) and
#    per pattern part alone.
# Prints each figure and the ratio patterns/default (nps below 1: the patterns slow the search).
# Usage: tools/bench/patterns.sh [DEPTH]   (an idle machine; FANORONA=path/to/binary)
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${FANORONA:-build/tools/fanorona}
DEPTH=${1:-8}
REPEATS=${REPEATS:-3}
EVALS=${EVALS:-2000000}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# The default weights, as version 2, with pattern lines for every canonical configuration: the
# smallest of its mirror images for the self-symmetric classes (e* left-right, *3 top-bottom).
PAT=$TMP/patterns.txt
{
    "$BIN" eval --help > /dev/null # the binary exists
    sed 's/^fanorona-weights 1$/fanorona-weights 2/' data/weights/handset.txt
    awk 'BEGIN {
        srand(1); split("b2 c2 d2 e2 b3 c3 d3 e3", name, " ")
        for (c = 0; c < 8; ++c) {
            mf = (c % 4 == 3); mr = (c >= 4)
            for (k = 0; k < 19683; ++k) {
                x = k; for (d = 0; d < 9; ++d) { g[d] = x % 3; x = int(x / 3) }
                best = k
                for (f = 0; f <= mf; ++f) for (r = 0; r <= mr; ++r) {
                    m = 0
                    for (d = 8; d >= 0; --d) {
                        dx = d % 3; dy = int(d / 3)
                        sx = f ? 2 - dx : dx; sy = r ? 2 - dy : dy
                        m = m * 3 + g[3 * sy + sx]
                    }
                    if (m < best) best = m
                }
                if (best < k) continue
                s = ""
                for (dy = 2; dy >= 0; --dy) {
                    for (dx = 0; dx < 3; ++dx) s = s substr(".xo", g[3 * dy + dx] + 1, 1)
                    if (dy) s = s "/"
                }
                printf "pattern %s %s %d %d\n", name[c + 1], s, int(rand() * 201) - 100, int(rand() * 201) - 100
            }
        }
    }'
} > "$PAT"
lines=$(grep -c '^pattern ' "$PAT")

# `fanorona bench` text output -> "<tsivy nodes> <tsivy seconds>".
tsivy_nps() { awk '$2 == "tsivy" { n += $4; s += $6 } END { printf "%.0f\n", n / s }'; }
search() { "$BIN" bench --depth "$DEPTH" --hash 16 "$@" | tsivy_nps; }
evals() { "$BIN" bench --evals "$EVALS" --json "$@" | jq -r '"\(.ns_per_evaluate) \(.ns_per_pattern_sum) \(.ns_per_pattern_indices)"'; }
max() { printf '%s\n%s\n' "$1" "$2" | sed '/^$/d' | sort -g | tail -1; }
min() { printf '%s\n%s\n' "$1" "$2" | sed '/^$/d' | sort -g | head -1; }

nps_def="" nps_pat="" ev_def="" ev_pat="" ps_pat="" ix_pat=""
for _ in $(seq "$REPEATS"); do
    nps_def=$(max "$nps_def" "$(search --weights handset)") # the weights PAT adds patterns to
    nps_pat=$(max "$nps_pat" "$(search --weights "$PAT")")
    read -r e _ _ <<< "$(evals --weights handset)"
    ev_def=$(min "$ev_def" "$e")
    read -r e p i <<< "$(evals --weights "$PAT")"
    ev_pat=$(min "$ev_pat" "$e")
    ps_pat=$(min "$ps_pat" "$p")
    ix_pat=$(min "$ix_pat" "$i")
done
echo "pattern weights: $lines canonical configurations of 8 classes (random in [-100, 100])"
awk -v d="$nps_def" -v p="$nps_pat" -v depth="$DEPTH" 'BEGIN {
    printf "search (bench depth %d, tsivy positions): default %.0f nodes/s, patterns %.0f nodes/s, patterns/default %.3f\n", depth, d, p, p / d }'
awk -v d="$ev_def" -v p="$ev_pat" -v s="$ps_pat" -v i="$ix_pat" 'BEGIN {
    printf "evaluate(): default %.1f ns, patterns %.1f ns (+%.1f ns), patterns/default %.3f; pattern part alone %.1f ns (window indices %.1f ns)\n", d, p, p - d, p / d, s, i }'
load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo 0)
printf 'best of %d, load average %s%s\n' "$REPEATS" "$load" \
    "$(awk "BEGIN{if ($load > 1.5) print \" (busy machine: figures are pessimistic)\"}")"
