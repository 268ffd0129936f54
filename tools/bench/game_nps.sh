#!/usr/bin/env bash
# Search speed in game positions: nodes per second of `fanorona analyze --nodes NODES` over
# POSITIONS positions of the 5x9 board sampled from a short self-play run (middle games: turns 8
# to 40, scores within +-400 centi-pieces), for each configuration, interleaved, best of REPEATS.
# `fanorona bench`'s positions are few and mostly short searches; this is what a game's moves
# search. Configurations: the engine with no options ("default", the network), "linear" (--net
# none) and, when OTHER is set, that binary with OTHER_ARGS ("other", e.g. an older build).
# Prints each configuration's nodes/s and its ratio to the first.
# Usage: tools/bench/game_nps.sh [NODES]   (default 200000; an idle machine; FANORONA=binary,
#        POSITIONS=30, REPEATS=3, OTHER=binary, OTHER_ARGS="--weights ... --params ...")
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${FANORONA:-build/tools/fanorona}
NODES=${1:-200000}
POSITIONS=${POSITIONS:-30}
REPEATS=${REPEATS:-3}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# The positions: a self-play run of the default engine, one position a game.
"$BIN" selfplay --nodes 2000 --openings random:8 --games $((POSITIONS * 6)) --threads 1 --seed 5 \
    --quiet --out "$TMP/sp" > /dev/null
"$BIN" dump "$TMP/sp/positions.bin" |
    awk '$4 >= 8 && $4 <= 40 && $6 > -400 && $6 < 400 && !seen[$2]++' |
    sed -E 's/.*result [^ ]+ +//' | head -n "$POSITIONS" > "$TMP/fens.txt"
count=$(wc -l < "$TMP/fens.txt")

# One pass of configuration $1 (binary $2, then its options): total nodes / total seconds.
nps() {
    local bin=$2
    shift 2
    while read -r fen; do
        "$bin" analyze --fen "$fen" --nodes "$NODES" "$@" | grep '^bestmove'
    done < "$TMP/fens.txt" | awk '{ for (i = 1; i < NF; i++) { if ($i == "nodes") n += $(i + 1);
        if ($i == "time") t += $(i + 1) } } END { printf "%.0f\n", n / t }'
}

names=(default linear)
[ -n "${OTHER:-}" ] && names+=(other)
declare -A best
for _ in $(seq "$REPEATS"); do
    for name in "${names[@]}"; do
        case $name in
            default) v=$(nps default "$BIN") ;;
            linear) v=$(nps linear "$BIN" --net none) ;;
            # shellcheck disable=SC2086 # OTHER_ARGS is a list of options
            other) v=$(nps other "$OTHER" ${OTHER_ARGS:-}) ;;
        esac
        if [ -z "${best[$name]:-}" ] || [ "$v" -gt "${best[$name]}" ]; then best[$name]=$v; fi
    done
done
first=${best[default]}
for name in "${names[@]}"; do
    awk -v n="$name" -v v="${best[$name]}" -v f="$first" -v c="$count" -v nodes="$NODES" \
        'BEGIN { printf "%-8s %9.0f nodes/s  ratio to default %.3f  (%d positions, %d nodes each)\n", n, v, v / f, c, nodes }'
done
load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo 0)
printf 'best of %d, load average %s\n' "$REPEATS" "$load"
