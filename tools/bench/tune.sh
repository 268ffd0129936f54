#!/bin/sh
# The tuner's benchmark: 1 million positions of random-playout games (tools/bench/make_positions),
# then `fanorona tune` on them with 2 threads. Prints features extracted per second, seconds per
# epoch and time to converge for each optimizer (and newton with --patterns), and the memory per
# position (from the matrix sizes, and from the peak resident memory over a run that stops after
# extraction).
#
#   tools/bench/tune.sh [BUILD_DIR] [POSITIONS]      (defaults: build, 1000000)
#
# Results go to stdout and, for machines, to $OUT/bench.csv (OUT defaults to /tmp/fanorona-bench-tune).
set -eu
BUILD=${1:-build}
POSITIONS=${2:-1000000}
OUT=${OUT:-/tmp/fanorona-bench-tune}
FANORONA=$BUILD/tools/fanorona
MAKE_POSITIONS=$BUILD/tools/make_positions
THREADS=2
mkdir -p "$OUT"
LOG=$OUT/positions.bin
# The fit starts from the material-only weights, so it has the other terms to find.
START=${START:-$(dirname "$0")/../../data/weights/weak.txt}

cmake --build "$BUILD" --target make_positions > /dev/null # not built by default
# Results drawn from the built-in weights through sigmoid(K * eval), K = 1/200: the fit has
# something to find (the random games' own results would do as well, with a flatter loss).
"$MAKE_POSITIONS" --positions "$POSITIONS" --label-k 0.005 --seed 1 --out "$LOG"

peak_kb() { # peak resident memory of a command, in kB (GNU time)
    /usr/bin/time -f '%M' -o "$OUT/time.txt" "$@" > "$OUT/run.txt" 2>&1 || { cat "$OUT/run.txt"; exit 1; }
    cat "$OUT/time.txt"
}

# Baseline: the same program on a log of one game (no data to speak of).
"$MAKE_POSITIONS" --positions 1 --out "$OUT/tiny.bin" > /dev/null
BASE_KB=$(peak_kb "$FANORONA" tune --data "$OUT/tiny.bin" --validation 0 --epochs 1 \
    --threads $THREADS --out "$OUT/tiny")

echo "optimizer,positions,extraction_s,positions_per_s,epochs,passes,fit_s,s_per_epoch,matrix_bytes_per_position,rss_bytes_per_position,start_validation_loss,final_validation_loss" > "$OUT/bench.csv"
# newton+patterns: tune --patterns (newton for the terms; the random games' results come from
# the terms alone, so the pattern fit only measures its cost: time, memory).
for OPT in newton lbfgs adam newton+patterns; do
    RUN=$OUT/$OPT
    case $OPT in
        *+patterns) ARGS="--optimizer ${OPT%+patterns} --patterns" ;;
        *) ARGS="--optimizer $OPT" ;;
    esac
    # shellcheck disable=SC2086
    KB=$(peak_kb "$FANORONA" tune --data "$LOG" $ARGS --threads $THREADS \
        --weights "$START" --out "$RUN")
    grep -E "^(features|converged|stopped|epoch limit|loss with|round [0-9]+:)" "$OUT/run.txt" |
        sed "s/^/[$OPT] /"
    python3 - "$RUN/tune.json" "$OPT" "$KB" "$BASE_KB" >> "$OUT/bench.csv" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
opt, kb, base = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
n = j["positions"]["train"] + j["positions"]["validation"]
epochs = max(j["epochs"], 1)
print(f'{opt},{n},{j["extraction_seconds"]:.3f},{n / j["extraction_seconds"]:.0f},{j["epochs"]},'
      f'{j["passes"]},{j["fit_seconds"]:.2f},{j["fit_seconds"] / epochs:.3f},'
      f'{j["bytes_per_position"]:.1f},{(kb - base) * 1024 / n:.1f},'
      f'{j["start_validation_loss"]:.6f},{j["final_validation_loss"]:.6f}')
PY
done
echo
column -s, -t < "$OUT/bench.csv"
echo "(peak RSS of the baseline run: $BASE_KB kB; rss_bytes_per_position = (peak RSS - baseline) / positions,"
echo " which includes the log's records while the features are extracted)"
