#!/usr/bin/env bash
# Tournament speed: games per second of an in-process depth-2 match with 1 and 2 games at once,
# and the overhead of external engines (`fanorona engine` as a child process speaking the engine
# protocol through pipes) against the same games in-process, per game.
# Each time is the best of REPEATS (default 3) runs; the external games must equal the in-process
# ones (same moves). Usage: tools/bench/tournament.sh [GAMES]   (default 400; run on an idle machine)
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${FANORONA:-build/tools/fanorona}
GAMES=${1:-400}
REPEATS=${REPEATS:-3}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

seconds() { grep -o "\"seconds\": [0-9.e+-]*" "$1/results.json" | head -1 | awk '{print $2}'; }
match() { # name, threads, player A, player B: the best wall time of REPEATS runs
    local best=""
    for _ in $(seq "$REPEATS"); do
        rm -rf "${TMP:?}/$1"
        "$BIN" tournament --games "$GAMES" --threads "$2" --openings random:4 --seed 3 \
            --quiet --player "$3" --player "$4" --out "$TMP/$1" > /dev/null
        best=$(printf '%s\n%s\n' "$best" "$(seconds "$TMP/$1")" | sed '/^$/d' | sort -g | head -1)
    done
    echo "$best"
}

IN_A=name=a,depth=2
IN_B=name=b,depth=2,weights=data/weights/weak.txt
EXT_A="name=a,cmd=$BIN,args=engine,depth=2"
EXT_B="name=b,cmd=$BIN,args=engine,depth=2,option.Weights=data/weights/weak.txt"

s1=$(match in1 1 "$IN_A" "$IN_B")
s2=$(match in2 2 "$IN_A" "$IN_B")
se=$(match ext1 1 "$EXT_A" "$EXT_B")
cut -f4-9 "$TMP/in1/games.tsv" > "$TMP/in.games"
cut -f4-9 "$TMP/ext1/games.tsv" > "$TMP/ext.games"
cmp -s "$TMP/in.games" "$TMP/ext.games" && same="the same games" || same="DIFFERENT games"
awk -v g="$GAMES" -v s1="$s1" -v s2="$s2" -v se="$se" -v same="$same" 'BEGIN {
    printf "in-process depth 2, 1 at once: %7.1f games/s (%.2f s)\n", g / s1, s1
    printf "in-process depth 2, 2 at once: %7.1f games/s (%.2f s), speed-up %.2fx\n", g / s2, s2, s1 / s2
    printf "external engines,   1 at once: %7.1f games/s (%.2f s): %.2f ms more per game (%s)\n",
        g / se, se, (se - s1) / g * 1000, same
}'
