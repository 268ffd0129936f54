#!/usr/bin/env bash
# Strength from the toolkit, end to end, at equal time per move: self-play with the hand-set
# engine (weights and search parameters `handset`), the tuner fits the terms alone and the terms
# with the pattern features (`tune --patterns`) from the hand-set weights, then each tuned set
# plays the hand-set engine at MOVETIME ms a move (with the hand-set search parameters),
# both sides at the same time. Prints each match's Elo with its 95% interval (pentanomial) and
# what it cost: self-play games, positions, tuning and match seconds. Everything resumes: run it
# again after an interruption. Results for machines: OUT/strength.json.
#
#   tools/bench/strength.sh [SELFPLAY_GAMES] [MATCH_GAMES] [MOVETIME]
#                                            (defaults 40000, 400, 20; OUT=/tmp/fanorona-strength)
set -euo pipefail
cd "$(dirname "$0")/../.."
F=${FANORONA:-build/tools/fanorona}
GAMES=${1:-40000}
MATCH=${2:-400}
MS=${3:-20}
OUT=${OUT:-/tmp/fanorona-strength}
mkdir -p "$OUT"

. tools/bench/lib.sh

t0=$(now)
"$F" selfplay --games "$GAMES" --depth 4 --openings random:6 --epsilon 0.1 --explore-turns 12 \
    --weights handset --params handset --seed 11 --out "$OUT/selfplay" --resume --quiet
t1=$(now)
positions=$(field "$OUT/selfplay/summary.json" positions)

"$F" tune --data "$OUT/selfplay/positions.bin" --weights handset --out "$OUT/terms" --quiet > "$OUT/terms.log"
t2=$(now)
"$F" tune --data "$OUT/selfplay/positions.bin" --weights handset --patterns --out "$OUT/patterns" --quiet \
    > "$OUT/patterns.log"
t3=$(now)

json="{\"selfplay_games\": $GAMES, \"positions\": $positions, \"movetime_ms\": $MS,"
json+=" \"selfplay_seconds\": $(secs "$t0" "$t1"), \"tune_terms_seconds\": $(secs "$t1" "$t2"),"
json+=" \"tune_patterns_seconds\": $(secs "$t2" "$t3"), \"matches\": ["
sep=""
printf '%-9s %7s %9s %8s %8s\n' weights games elo "+-95%" seconds
for name in terms patterns; do
    m0=$(now)
    "$F" tournament --player "name=$name,weights=$OUT/$name/weights.txt,params=handset,movetime=$MS" \
        --player "name=default,weights=handset,params=handset,movetime=$MS" --games "$MATCH" --openings random:6 --seed 5 \
        --out "$OUT/match-$name" --resume --quiet > "$OUT/match-$name.log"
    m1=$(now)
    last=$(tail -1 "$OUT/match-$name/live.jsonl")
    echo "$last" > "$OUT/match-$name.last"
    elo=$(field "$OUT/match-$name.last" elo)
    err=$(field "$OUT/match-$name.last" elo_error95)
    games=$(field "$OUT/match-$name.last" games)
    printf '%-9s %7s %+9.1f %8.1f %8s\n' "$name" "$games" "$elo" "$err" "$(secs "$m0" "$m1")"
    json+="$sep{\"weights\": \"$name\", \"games\": $games, \"elo\": $elo, \"elo_error95\": $err,"
    json+=" \"seconds\": $(secs "$m0" "$m1")}"
    sep=", "
done
json+="]}"
echo "$json" > "$OUT/strength.json"
echo "self-play: $GAMES games, $positions positions, $(secs "$t0" "$t1") s;" \
    "tuning: terms $(secs "$t1" "$t2") s, patterns $(secs "$t2" "$t3") s (also $OUT/strength.json)"
