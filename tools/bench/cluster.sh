#!/usr/bin/env bash
# MPI speed on one machine: self-play games per second at --depth 4 for 1 rank x 2 threads,
# 2 ranks x 1 thread (mpirun) and 1 x 1, the efficiency of 2 ranks against 1 x 2 (goal >= 0.95),
# the bytes rank 0 receives per game and the CPU time of its serving thread; then a simulated
# cluster of RANKS ranks (oversubscribed, depth-1 games) showing how many games per second rank 0
# can take in. Each speed is the best of REPEATS (default 3) interleaved runs.
# Usage: tools/bench/cluster.sh [GAMES] [RANKS]   (defaults 256 and 8; an idle machine)
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${FANORONA:-build/tools/fanorona}
GAMES=${1:-256}
RANKS=${2:-8}
REPEATS=${REPEATS:-3}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
MPIRUN="env OMPI_MCA_btl_vader_single_copy_mechanism=none mpirun --allow-run-as-root --oversubscribe"

. tools/bench/lib.sh
run() { # name, ranks, threads, depth, games -> games/s
    local out="$TMP/$1"
    rm -rf "$out"
    local cmd=("$BIN" selfplay --games "$5" --depth "$4" --threads "$3" --openings random:6 --epsilon 0 --seed 11 --quiet --out "$out")
    if [ "$2" -gt 1 ]; then $MPIRUN -np "$2" "${cmd[@]}" > /dev/null; else "${cmd[@]}" > /dev/null; fi
    field "$out/summary.json" games_per_second
}
best() { printf '%s\n%s\n' "$1" "$2" | sed '/^$/d' | sort -g | tail -1; }
one_two="" two_one="" one_one=""
for _ in $(seq "$REPEATS"); do
    one_two=$(best "$one_two" "$(run r1t2 1 2 4 "$GAMES")")
    two_one=$(best "$two_one" "$(run r2t1 2 1 4 "$GAMES")")
    one_one=$(best "$one_one" "$(run r1t1 1 1 4 "$GAMES")")
done
bytes=$(field "$TMP/r2t1/summary.json" bytes_received_per_remote_game)
remote=$(field "$TMP/r2t1/summary.json" remote_games)
serve=$(field "$TMP/r2t1/summary.json" rank0_serve_cpu_seconds)
secs=$(field "$TMP/r2t1/summary.json" seconds)
awk -v a="$one_two" -v b="$two_one" -v c="$one_one" -v by="$bytes" -v rg="$remote" -v s="$serve" -v w="$secs" -v g="$GAMES" 'BEGIN {
    printf "depth 4, %d games: 1 rank x 2 threads %.1f games/s, 2 ranks x 1 thread %.1f games/s, 1 x 1 %.1f games/s\n", g, a, b, c
    printf "efficiency of 2 ranks x 1 thread against 1 rank x 2 threads: %.3f\n", b / a
    printf "rank 1 played %d games; rank 0 received %.0f bytes per game; its serving thread used %.3f s of CPU in %.2f s (%.2f%% of one core)\n", rg, by, s, w, 100 * s / w
}'
sim=$(run sim "$RANKS" 1 1 $((GAMES * 8)))
remote=$(field "$TMP/sim/summary.json" remote_games)
serve=$(field "$TMP/sim/summary.json" rank0_serve_cpu_seconds)
awk -v n="$RANKS" -v gs="$sim" -v rg="$remote" -v s="$serve" 'BEGIN {
    printf "simulated %d ranks (oversubscribed, depth 1): %.1f games/s in all; rank 0 served %d games with %.3f s of CPU: it can take in about %.0f games/s\n", n, gs, rg, s, (s > 0 ? rg / s : 0)
}'
