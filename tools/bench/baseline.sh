#!/usr/bin/env bash
# The engine of today against the engine of a past commit, at equal time per move, both as
# external engines over the engine protocol (the same pipes, the same referee). The default
# baseline is 5e08ac2, the commit issue 15 was filed against: its hand-set weights, its search
# parameters and its time use are "today's defaults" of the issue's goal. The baseline is built
# once (its tree from `git archive` and a Release build of `fanorona` under OUT); then a gauntlet
# from the baseline's view against the shipped tuned files and against this build's hand-set
# defaults, and `fanorona timeuse` on both builds (the time each takes per move under `go
# movetime`).
# Prints each pairing from the baseline's side and writes OUT/baseline.json. Resumable.
#
#   tools/bench/baseline.sh [GAMES] [MOVETIME] [BASE_COMMIT]
#                           (defaults 300 games per pairing, 100 ms, 5e08ac2;
#                            OUT=/tmp/fanorona-baseline, OPENINGS=a suite file or random:6;
#                            a suite is shuffled by SEED, so other seeds play other openings)
set -euo pipefail
cd "$(dirname "$0")/../.."
. tools/bench/lib.sh
ROOT=$(pwd)
F=${FANORONA:-$ROOT/build/tools/fanorona}
GAMES=${1:-300}
MS=${2:-100}
BASE=${3:-5e08ac2}
OUT=${OUT:-/tmp/fanorona-baseline}
OPENINGS=${OPENINGS:-random:6}
SEED=${SEED:-30}
mkdir -p "$OUT"
OLD=$(build_commit "$BASE" "$OUT/src-$BASE")

W="$ROOT/data/weights/tuned.txt" P="$ROOT/data/params/tuned.txt"
ORDER=()
case "$OPENINGS" in random:* | start) ;; *) ORDER=(--openings-order random) ;; esac
t0=$(now)
"$F" tournament --format gauntlet --games "$GAMES" --openings "$OPENINGS" "${ORDER[@]}" \
    --seed "$SEED" --out "$OUT/match" --resume --quiet \
    --player "name=baseline,cmd=$OLD,args=engine,movetime=$MS" \
    --player "name=tuned,cmd=$F,args=engine --weights $W --params $P,movetime=$MS" \
    --player "name=handset,cmd=$F,args=engine --weights handset --params handset,movetime=$MS" > "$OUT/match.log"
t1=$(now)
"$F" timeuse --engine "$OLD engine" --movetimes "$MS" --json-out "$OUT/timeuse-baseline.json" \
    > "$OUT/timeuse-baseline.txt"
"$F" timeuse --engine "$F engine --weights $W --params $P" --movetimes "$MS" \
    --json-out "$OUT/timeuse-tuned.json" > "$OUT/timeuse-tuned.txt"

baseline_pairings "$OUT/match/results.txt" > "$OUT/pairings.txt"
if [ "$(wc -l < "$OUT/pairings.txt")" != 2 ]; then
    echo "baseline.sh: $OUT/match/results.txt: expected the pairings 'baseline vs tuned' and" \
        "'baseline vs handset' in the format this script reads; see $OUT/pairings.txt" >&2
    exit 1
fi
awk -v ms="$MS" -v base="$BASE" -v secs="$(secs "$t0" "$t1")" \
    -v old_ms="$(field "$OUT/timeuse-baseline.json" mean_ms)" \
    -v new_ms="$(field "$OUT/timeuse-tuned.json" mean_ms)" \
    -v json="$OUT/baseline.json" '
    BEGIN { printf "today against %s at %d ms a move (Elo from today'"'"'s side, 95%% interval)\n", base, ms }
    { elo = -$6
      printf "  %-8s %5d games  W %d D %d L %d  Elo %+6.1f +- %.1f  [%+.1f, %+.1f]\n", $1, $2, $5, $4, $3, elo, $7, elo - $7, elo + $7
      rows = rows sep sprintf("{\"player\": \"%s\", \"games\": %d, \"wins\": %d, \"draws\": %d, \"losses\": %d, \"elo\": %.1f, \"elo_error95\": %.1f}", $1, $2, $5, $4, $3, elo, $7)
      sep = ", " }
    END { printf "  time per move under movetime %d: baseline %s ms, today %s ms; match %.0f s\n", ms, old_ms, new_ms, secs
          printf "{\"baseline\": \"%s\", \"movetime_ms\": %d, \"seconds\": %.0f, \"baseline_ms_per_move\": %s, \"today_ms_per_move\": %s, \"pairings\": [%s]}\n", base, ms, secs, old_ms, new_ms, rows > json }' \
    "$OUT/pairings.txt"
