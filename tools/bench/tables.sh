#!/usr/bin/env bash
# Endgame table builds: `fanorona tables build --variant tsivy --pieces N --threads 2` from an
# empty folder for each N given (default 4 5), one line per N: wall and CPU seconds, positions,
# positions per second (wall), bytes of the files and bytes per position, with the goal (5
# pieces under 120 s, 6 under 3600 s) and the load average (wall times on a busy machine are
# pessimistic; CPU seconds / 2 is what two idle cores would take at best). JSON lines in $OUT
# (default build/bench/tables.json). The folders are kept in $KEEP (default: removed).
# Usage: tools/bench/tables.sh [N...]   (run on an idle machine; FANORONA=path/to/binary)
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${FANORONA:-build/tools/fanorona}
OUT=${OUT:-build/bench/tables.json}
VARIANT=${VARIANT:-tsivy}
PIECES=("$@")
[ ${#PIECES[@]} -eq 0 ] && PIECES=(4 5)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$(dirname "$OUT")"
: > "$OUT"
for n in "${PIECES[@]}"; do
    dir=${KEEP:-$TMP}/$VARIANT-$n
    rm -rf "$dir"
    /usr/bin/time -f '%e %U %S' -o "$TMP/time" "$BIN" tables build --variant "$VARIANT" \
        --pieces "$n" --tables "$dir" --threads 2 --quiet > "$TMP/out"
    read -r wall user sys < "$TMP/time"
    positions=$(sed -E 's/^total: ([0-9]+) positions.*/\1/' "$TMP/out")
    bytes=$(cat "$dir"/*.fntb | wc -c)
    goal=$([ "$n" -le 5 ] && echo 120 || echo 3600)
    load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo 0)
    awk -v n="$n" -v v="$VARIANT" -v w="$wall" -v u="$user" -v s="$sys" -v p="$positions" \
        -v b="$bytes" -v g="$goal" -v l="$load" 'BEGIN {
        printf "%s %d pieces: %.1f s wall (goal %d s: %.2fx), %.1f s CPU, %d positions, %.0f positions/s, %d bytes, %.3f bytes/position, load %s\n",
            v, n, w, g, g / w, u + s, p, p / w, b, b / p, l
    }'
    printf '{"bench": "tables", "variant": "%s", "pieces": %d, "wall_seconds": %s, "cpu_seconds": %s, "positions": %s, "bytes": %s, "goal_seconds": %s, "load_average": %s}\n' \
        "$VARIANT" "$n" "$wall" "$(awk "BEGIN{print $user + $sys}")" "$positions" "$bytes" "$goal" "$load" >> "$OUT"
done
