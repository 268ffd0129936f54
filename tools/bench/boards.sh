#!/usr/bin/env bash
# Move generator speed on every board layout, before and after a change: perft from the start
# position of each board below, run alternately by two binaries (BASE, the old one, and
# FANORONA, the new one) RUNS times each, in moves per second of the deepest depth (its nodes /
# its seconds). Prints per board the nodes, the best rate of each binary and their ratio
# (new / old), and writes the same as JSON lines to $OUT (default build/bench/boards.json).
# Exits 1 if the two binaries count different nodes.
# Boards: tsivy and dimy (the 9-wide layout), 5x7, 7x5 and 3x9 (also stride 9), 9x3, 9x5, 9x7,
# 3x11 and 5x11 (strides 3, 5, 7, 11), 3x15 (stride 15: the table-driven scan).
# Usage: BASE=path/to/old/fanorona tools/bench/boards.sh [RUNS]   (default 5; FANORONA=new binary)
set -euo pipefail
cd "$(dirname "$0")/../.."
NEW=${FANORONA:-build/tools/fanorona}
BASE=${BASE:?set BASE to the binary to compare against}
RUNS=${1:-5}
OUT=${OUT:-build/bench/boards.json}
BOARDS=${BOARDS:-"tsivy:6 dimy:7 5x7:6 7x5:7 3x9:8 9x3:10 9x5:6 9x7:5 3x11:7 5x11:5 3x15:7"}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# The deepest depth of `fanorona perft --json` in $1: "<nodes> <seconds>".
deepest() {
    tr -d ' \n' < "$1" | grep -o '{"depth":[0-9]*,[^}]*}' | tail -1 |
        sed -E 's/.*"nodes":([0-9]+).*"seconds":([0-9.e+-]+).*/\1 \2/'
}

mkdir -p "$(dirname "$OUT")"
: > "$OUT"
printf '%-6s %5s %12s %12s %12s %7s\n' board depth nodes "old M/s" "new M/s" ratio
for entry in $BOARDS; do
    board=${entry%%:*}
    depth=${entry##*:}
    best_old=""
    best_new=""
    nodes_old=""
    nodes_new=""
    for run in $(seq "$RUNS"); do
        for which in old new; do
            bin=$NEW
            [ "$which" = old ] && bin=$BASE
            "$bin" perft --variant "$board" --depth "$depth" --json > "$TMP/$which.json"
            read -r nodes secs <<< "$(deepest "$TMP/$which.json")"
            if [ "$which" = old ]; then
                nodes_old=$nodes
                if [ -z "$best_old" ] || awk "BEGIN{exit !($secs < $best_old)}"; then best_old=$secs; fi
            else
                nodes_new=$nodes
                if [ -z "$best_new" ] || awk "BEGIN{exit !($secs < $best_new)}"; then best_new=$secs; fi
            fi
        done
    done
    if [ "$nodes_old" != "$nodes_new" ]; then
        echo "$board perft $depth: $nodes_old nodes before, $nodes_new after" >&2
        exit 1
    fi
    old_rate=$(awk "BEGIN{printf \"%.1f\", $nodes_old / $best_old / 1e6}")
    new_rate=$(awk "BEGIN{printf \"%.1f\", $nodes_new / $best_new / 1e6}")
    ratio=$(awk "BEGIN{printf \"%.2f\", $best_old / $best_new}")
    printf '%-6s %5d %12d %12s %12s %6sx\n' "$board" "$depth" "$nodes_new" "$old_rate" "$new_rate" "$ratio"
    printf '{"bench": "boards", "board": "%s", "depth": %d, "nodes": %d, "runs": %d, "old_seconds": %s, "new_seconds": %s, "old_moves_per_second": %.0f, "new_moves_per_second": %.0f, "ratio": %s}\n' \
        "$board" "$depth" "$nodes_new" "$RUNS" "$best_old" "$best_new" \
        "$(awk "BEGIN{print $nodes_old / $best_old}")" "$(awk "BEGIN{print $nodes_new / $best_new}")" \
        "$ratio" >> "$OUT"
done
load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo 0)
echo "best of $RUNS interleaved runs each; load average $load"
