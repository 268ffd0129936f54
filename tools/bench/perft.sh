#!/usr/bin/env bash
# Move generator speed: perft 7 from the tsivy start (175,212,423 move sequences) on one core,
# in moves per second (depth-7 nodes / depth-7 seconds) against the target of 40 million.
# Prints the best of RUNS wall times as moves/s and its ratio to the target, then the CPU time and
# the load average (wall times on a busy machine are pessimistic), and writes the same figures as
# JSON to $OUT (default build/bench/perft.json). Exits 1 if the node count is wrong.
# Usage: tools/bench/perft.sh [RUNS]   (default 3; run on an idle machine; FANORONA=path/to/binary)
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${FANORONA:-build/tools/fanorona}
RUNS=${1:-3}
OUT=${OUT:-build/bench/perft.json}
EXPECTED=175212423
TARGET=40000000
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# The depth-7 entry of `fanorona perft --json`: "<nodes> <seconds>".
depth7() { tr -d ' \n' < "$1" | grep -o '{"depth":7,[^}]*}' | sed -E 's/.*"nodes":([0-9]+).*"seconds":([0-9.e+-]+).*/\1 \2/'; }

best=""
best_cpu=""
for run in $(seq "$RUNS"); do
    # CPU seconds of the whole run (depths 1 to 7), a check on wall times taken on a busy machine.
    if ! cpu=$( { TIMEFORMAT=%U; time "$BIN" perft --depth 7 --json > "$TMP/run$run.json" 2> "$TMP/err"; } 2>&1 ); then
        cat "$TMP/err" >&2
        exit 1
    fi
    read -r nodes secs <<< "$(depth7 "$TMP/run$run.json")"
    if [ "$nodes" != "$EXPECTED" ]; then
        echo "perft 7: $nodes nodes, expected $EXPECTED" >&2
        exit 1
    fi
    if [ -z "$best" ] || awk "BEGIN{exit !($secs < $best)}"; then best=$secs; fi
    if [ -z "$best_cpu" ] || awk "BEGIN{exit !($cpu < $best_cpu)}"; then best_cpu=$cpu; fi
done
rate=$(awk "BEGIN{printf \"%.0f\", $EXPECTED / $best}")
ratio=$(awk "BEGIN{printf \"%.2f\", $rate / $TARGET}")
printf 'perft 7 (tsivy start): %d nodes in %.3f s (best of %d) = %.1f million moves/s, %.2fx the target of %d million\n' \
    "$EXPECTED" "$best" "$RUNS" "$(awk "BEGIN{print $rate / 1e6}")" "$ratio" "$((TARGET / 1000000))"
load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo 0)
printf 'CPU time of the whole run (depths 1-7): %s s; load average %s%s\n' "$best_cpu" "$load" \
    "$(awk "BEGIN{if ($load > 1.5) print \" (busy machine: wall times are pessimistic)\"}")"
mkdir -p "$(dirname "$OUT")"
printf '{"bench": "perft", "depth": 7, "nodes": %d, "seconds": %s, "runs": %d, "moves_per_second": %s, "target_moves_per_second": %d, "ratio_to_target": %s, "cpu_seconds_depths_1_to_7": %s, "load_average": %s}\n' \
    "$EXPECTED" "$best" "$RUNS" "$rate" "$TARGET" "$ratio" "$best_cpu" "$load" > "$OUT"
