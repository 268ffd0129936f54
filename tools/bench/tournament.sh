#!/usr/bin/env bash
# Tournament speed: games per second of an in-process depth-2 match with 1 and 2 games at once,
# and the overhead of external engines (`fanorona engine` as a child process speaking the engine
# protocol through pipes) against the same games in-process, per game.
# Each time is the best of REPEATS (default 3) runs; the external games must equal the in-process
# ones (same moves, and the same depth and nodes per move in games.tsv's per-move columns).
# With OLD_BINARY (e.g. main's build) the in-process match, 1 at once, is also played by that
# binary, the two interleaved run by run, and the ratio of their best times is printed (below 1:
# this build is faster); the games must be the same (the first ten columns of games.tsv).
# Usage: tools/bench/tournament.sh [GAMES] [OLD_BINARY]   (default 400; run on an idle machine)
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${FANORONA:-build/tools/fanorona}
GAMES=${1:-400}
OLD=${2:-}
REPEATS=${REPEATS:-3}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

seconds() { grep -o "\"seconds\": [0-9.e+-]*" "$1/results.json" | head -1 | awk '{print $2}'; }
min() { printf '%s\n%s\n' "$1" "$2" | sed '/^$/d' | sort -g | head -1; }
run() { # binary, name, threads, player A, player B: one run's seconds (its folder is TMP/name)
    rm -rf "${TMP:?}/$2"
    "$1" tournament --games "$GAMES" --threads "$3" --openings random:4 --seed 3 \
        --quiet --player "$4" --player "$5" --out "$TMP/$2" > /dev/null
    seconds "$TMP/$2"
}
match() { # name, threads, player A, player B: the best wall time of REPEATS runs
    local best=""
    for _ in $(seq "$REPEATS"); do best=$(min "$best" "$(run "$BIN" "$@")"); done
    echo "$best"
}

IN_A=name=a,depth=2
IN_B=name=b,depth=2,weights=data/weights/weak.txt
EXT_A="name=a,cmd=$BIN,args=engine,depth=2"
EXT_B="name=b,cmd=$BIN,args=engine,depth=2,option.Weights=data/weights/weak.txt"

s1=$(match in1 1 "$IN_A" "$IN_B")
s2=$(match in2 2 "$IN_A" "$IN_B")
se=$(match ext1 1 "$EXT_A" "$EXT_B")
# Results and moves (columns 4-9), depths and nodes (12-13); not the times, nor the scores (an
# external engine's found win is `score mate N`, which the referee does not record).
cut -f4-9,12,13 "$TMP/in1/games.tsv" | sed 1,2d > "$TMP/in.games"
cut -f4-9,12,13 "$TMP/ext1/games.tsv" | sed 1,2d > "$TMP/ext.games"
cut -f4-9 "$TMP/in1/games.tsv" | sed 1,2d > "$TMP/in.moves"
cut -f4-9 "$TMP/ext1/games.tsv" | sed 1,2d > "$TMP/ext.moves"
if cmp -s "$TMP/in.games" "$TMP/ext.games"; then
    same="the same games, depths and nodes"
elif cmp -s "$TMP/in.moves" "$TMP/ext.moves"; then
    same="the same games, OTHER depths or nodes"
else
    same="DIFFERENT games"
fi
awk -v g="$GAMES" -v s1="$s1" -v s2="$s2" -v se="$se" -v same="$same" 'BEGIN {
    printf "in-process depth 2, 1 at once: %7.1f games/s (%.2f s)\n", g / s1, s1
    printf "in-process depth 2, 2 at once: %7.1f games/s (%.2f s), speed-up %.2fx\n", g / s2, s2, s1 / s2
    printf "external engines,   1 at once: %7.1f games/s (%.2f s): %.2f ms more per game (%s)\n",
        g / se, se, (se - s1) / g * 1000, same
}'

if [ -n "$OLD" ]; then
    old="" new=""
    for _ in $(seq "$REPEATS"); do
        old=$(min "$old" "$(run "$OLD" old 1 "$IN_A" "$IN_B")")
        new=$(min "$new" "$(run "$BIN" new 1 "$IN_A" "$IN_B")")
    done
    cut -f1-10 "$TMP/old/games.tsv" | sed 1,2d > "$TMP/old.games"
    cut -f1-10 "$TMP/new/games.tsv" | sed 1,2d > "$TMP/new.games"
    cmp -s "$TMP/old.games" "$TMP/new.games" && same="the same games" || same="DIFFERENT games"
    awk -v g="$GAMES" -v o="$old" -v n="$new" -v same="$same" -v old_bin="$OLD" 'BEGIN {
        printf "against %s, in-process depth 2, 1 at once (interleaved, best of each):\n", old_bin
        printf "  old %7.1f games/s (%.3f s)  new %7.1f games/s (%.3f s)  new/old time %.3f (%s)\n",
            g / o, o, g / n, n, n / o, same
    }'
fi
