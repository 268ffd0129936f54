#!/usr/bin/env bash
# Two builds of `fanorona` against each other on the same work: self-play at depth 4 (1 and 2
# threads) and a depth-2 tournament (2 games at once), the two binaries interleaved, REPEATS
# rounds (default 3), best wall time of each; prints the times and the ratio NEW/OLD per case
# (below 1: the new build is faster). For checking that a refactor costs no speed.
# Usage: tools/bench/compare.sh OLD_BINARY NEW_BINARY [GAMES]   (default 256; an idle machine)
set -euo pipefail
OLD=$1 NEW=$2 GAMES=${3:-256}
REPEATS=${REPEATS:-3}
cd "$(dirname "$0")/../.."
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# The thread option of a binary: --threads, or --concurrency for tournaments of older builds.
threads_flag() { "$1" tournament --help 2>&1 | grep -q -- '--concurrency' && echo --concurrency || echo --threads; }
wall() { local t0 t1; t0=$(date +%s.%N); "$@" > /dev/null; t1=$(date +%s.%N); awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }'; }
run_case() { # binary, case -> seconds
    local bin=$1 out="$TMP/run"
    rm -rf "$out"
    case $2 in
    sp1) wall "$bin" selfplay --games "$GAMES" --depth 4 --hash 16 --threads 1 --openings random:6 --epsilon 0 --seed 11 --quiet --out "$out" ;;
    sp2) wall "$bin" selfplay --games "$GAMES" --depth 4 --hash 16 --threads 2 --openings random:6 --epsilon 0 --seed 11 --quiet --out "$out" ;;
    t2) wall "$bin" tournament --games "$GAMES" "$(threads_flag "$bin")" 2 --openings random:4 --seed 3 --quiet \
            --player name=a,depth=2 --player name=b,depth=2,weights=data/weights/weak.txt --out "$out" ;;
    esac
}
min() { printf '%s\n%s\n' "$1" "$2" | sed '/^$/d' | sort -g | head -1; }
for c in sp1 sp2 t2; do
    old="" new=""
    for _ in $(seq "$REPEATS"); do
        old=$(min "$old" "$(run_case "$OLD" $c)")
        new=$(min "$new" "$(run_case "$NEW" $c)")
    done
    awk -v c=$c -v o="$old" -v n="$new" 'BEGIN { printf "%-4s old %7.3f s  new %7.3f s  new/old %.3f\n", c, o, n, n / o }'
done
