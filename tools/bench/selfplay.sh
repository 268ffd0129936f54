#!/usr/bin/env bash
# Self-play speed: games/s and positions/s at --depth 4 and --nodes 2000 with 1 and 2 threads,
# the 1 -> 2 thread speed-up (target >= 1.85x), the cost of logging positions (target <= 5%),
# and memory per worker; each figure is the best of REPEATS (default 3) runs.
# Usage: tools/bench/selfplay.sh [GAMES]   (default 256; run on an idle machine)
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${FANORONA:-build/tools/fanorona}
GAMES=${1:-256}
REPEATS=${REPEATS:-3}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

. tools/bench/lib.sh
run_once() { # name, threads, extra args...: "games/s positions/s maxRSS_KB"
    local name=$1 threads=$2; shift 2
    rm -rf "${TMP:?}/$name"
    /usr/bin/time -f "%M" -o "$TMP/$name.rss" "$BIN" selfplay --games "$GAMES" --threads "$threads" \
        --openings random:6 --epsilon 0 --seed 11 --quiet --out "$TMP/$name" "$@" > /dev/null
    echo "$(field "$TMP/$name/summary.json" games_per_second) $(field "$TMP/$name/summary.json" positions_per_second) $(cat "$TMP/$name.rss")"
}
best() { printf '%s\n%s\n' "$1" "$2" | sort -g -k1,1 | tail -1; }
# The three runs are interleaved, REPEATS rounds, keeping each one's best: this machine's speed
# drifts by several percent over minutes, which would otherwise pass for a cost of logging.
measure() { # limit...: sets ONE, TWO and NOLOG to "games/s positions/s maxRSS_KB"
    ONE="0 0 0" TWO="0 0 0" NOLOG="0 0 0"
    for _ in $(seq "$REPEATS"); do
        ONE=$(best "$ONE" "$(run_once one 1 "$@")")
        NOLOG=$(best "$NOLOG" "$(run_once nolog 1 "$@" --no-positions)")
        TWO=$(best "$TWO" "$(run_once two 2 "$@")")
    done
}

for limit in "--depth 4" "--nodes 2000"; do
    measure $limit
    read -r g1 p1 m1 <<< "$ONE"
    read -r g2 p2 m2 <<< "$TWO"
    read -r g0 p0 m0 <<< "$NOLOG"
    cmp -s <(without_times "$TMP/one/games.tsv") <(without_times "$TMP/two/games.tsv") && same=identical || same=DIFFERENT
    printf '%-13s 1 thread: %7.2f games/s %9.0f positions/s | 2 threads: %7.2f games/s %9.0f positions/s | speed-up %.2fx (target 1.85) | games %s\n' \
        "$limit" "$g1" "$p1" "$g2" "$p2" "$(awk "BEGIN{print $g2 / $g1}")" "$same"
    printf '%-13s logging off: %7.2f games/s, logging costs %.1f%% (target <= 5%%) | max RSS 1 thread %d KB, 2 threads %d KB: %d KB per extra worker\n' \
        "$limit" "$g0" "$(awk "BEGIN{print ($g0 - $g1) / $g0 * 100}")" "$m1" "$m2" "$((m2 - m1))"
    rm -rf "$TMP"/one "$TMP"/two "$TMP"/nolog
done
