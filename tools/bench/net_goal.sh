#!/usr/bin/env bash
# Issue 34's measurement: today's engine with no options ("default": the default network on 5x9),
# today's linear engine ("linear": --net none, the tuned weights) and, when asked, today's engine
# with a network file ("net", NET) against the best configuration of a past commit (default db25022: its
# data/weights/tuned.txt and data/params/tuned.txt), all three external engines over the engine
# protocol, each with the PIECES-piece endgame tables its own build wrote. One gauntlet from the
# baseline's side per limit (LIMITS: movetime=MS or nodes=N, the same for every player), GAMES
# games per pairing on a suite of balanced openings shuffled by SEED (`--openings-order random`).
# Games whose position is in the tables end there with the tables' value (`--adjudicate-tables`,
# today's tables): both engines probe their own tables from that point on, so this only saves
# the endgame's moves.
#
#   tools/bench/net_goal.sh [GAMES] [LIMIT...]
#       (defaults 400 games per pairing, limits movetime=50 movetime=200 nodes=8000;
#        OUT=/tmp/fanorona-net-goal, BASE=db25022, NET=tsivy (the built-in default network; or a file),
#        PIECES=6, SEED=34, PLAYERS="default linear" (which of today's engines play: default, linear, net), BOOK=a suite
#        file (default: built once under OUT with `openings --book --by-search`))
# Resumable: the old build, the tables, the book and each limit's tournament are kept in OUT.
# Prints each pairing from today's side with its 95% interval; writes OUT/net_goal.json.
set -euo pipefail
cd "$(dirname "$0")/../.."
. tools/bench/lib.sh
ROOT=$(pwd)
F=${FANORONA:-$ROOT/build/tools/fanorona}
GAMES=${1:-400}
shift || true
LIMITS=("$@")
[ ${#LIMITS[@]} -gt 0 ] || LIMITS=(movetime=50 movetime=200 nodes=8000)
BASE=${BASE:-db25022}
NET=${NET:-tsivy}
[ -f "$NET" ] && NET=$(realpath "$NET")
PIECES=${PIECES:-6}
SEED=${SEED:-34}
PLAYERS=${PLAYERS:-default linear}
OUT=${OUT:-/tmp/fanorona-net-goal}
mkdir -p "$OUT"
OLD_SRC="$OUT/src-$BASE"
OLD=$(build_commit "$BASE" "$OLD_SRC")

# Each build writes its own tables (a stopped build resumes).
for side in old today; do
    bin=$F folder=--tables
    [ "$side" = old ] && bin=$OLD folder=--out # the past commit's spelling of `tables build --tables`
    if [ ! -f "$OUT/tables-$side/done" ]; then
        echo "net_goal.sh: building $side's $PIECES-piece tables in $OUT/tables-$side" >&2
        "$bin" tables build --pieces "$PIECES" "$folder" "$OUT/tables-$side" --threads 2 > "$OUT/tables-$side.log"
        touch "$OUT/tables-$side/done"
    fi
done

BOOK=${BOOK:-$OUT/book4.txt}
if [ ! -s "$BOOK" ]; then
    "$F" openings --book "$BOOK.tmp" --by-search --turns 4 --depth 4 --balanced-cp -40:40 \
        --threads 2 > "$OUT/book.log"
    mv "$BOOK.tmp" "$BOOK"
fi

TB_OLD="$OUT/tables-old" TB="$OUT/tables-today"
declare -A ARGS=([default]="engine --tables $TB" [linear]="engine --net none --tables $TB"
    [net]="engine --net $NET --tables $TB")
JSON_ROWS=""
for limit in "${LIMITS[@]}"; do
    dir="$OUT/${limit/=/-}"
    players=(--player "name=baseline,cmd=$OLD,args=engine --weights $OLD_SRC/data/weights/tuned.txt --params $OLD_SRC/data/params/tuned.txt --tables $TB_OLD,$limit")
    for p in $PLAYERS; do players+=(--player "name=$p,cmd=$F,args=${ARGS[$p]},$limit"); done
    t0=$(now)
    "$F" tournament --format gauntlet --games "$GAMES" --openings "$BOOK" --openings-order random \
        --seed "$SEED" --adjudicate-tables "$TB" --threads 2 --out "$dir" --resume --quiet \
        "${players[@]}" > "$dir.log"
    t1=$(now)
    # Each pairing, from today's side.
    rows=0
    while read -r name games w d l elo err; do
        rows=$((rows + 1))
        elo=$(awk -v e="$elo" 'BEGIN { printf "%.1f", e == 0 ? 0 : -e }')
        printf '%-13s %-8s %4d games  W %d D %d L %d  Elo %+6.1f +- %.1f  [%+.1f, %+.1f]  (%.0f s)\n' \
            "$limit" "$name" "$games" "$l" "$d" "$w" "$elo" "$err" \
            "$(awk -v e="$elo" -v r="$err" 'BEGIN { print e - r }')" \
            "$(awk -v e="$elo" -v r="$err" 'BEGIN { print e + r }')" "$(secs "$t0" "$t1")"
        JSON_ROWS+="${JSON_ROWS:+, }{\"limit\": \"$limit\", \"player\": \"$name\", \"games\": $games, \"wins\": $l, \"draws\": $d, \"losses\": $w, \"elo\": $elo, \"elo_error95\": $err}"
    done < <(baseline_pairings "$dir/results.txt")
    if [ "$rows" != "$(echo $PLAYERS | wc -w)" ]; then
        echo "net_goal.sh: $dir/results.txt: expected a 'baseline vs PLAYER' pairing for each of" \
            "'$PLAYERS' in the format this script reads, found $rows" >&2
        exit 1
    fi
done
echo "{\"baseline\": \"$BASE\", \"net\": \"$(basename "$NET")\", \"pieces\": $PIECES, \"seed\": $SEED, \"pairings\": [$JSON_ROWS]}" > "$OUT/net_goal.json"
