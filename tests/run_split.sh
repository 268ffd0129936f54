#!/usr/bin/env bash
# Runs the Catch2 tests of BINARY that match SPEC in JOBS processes side by side, the test names
# dealt out in turn, so that a sanitizer run (one process, one core) uses every core.
#   tests/run_split.sh BINARY SPEC [JOBS]
# Each process's report is printed when it ends, then the SLOWEST (default 15) test cases and
# sections of all of them with their seconds (what a sanitizer run spends its time on: each test
# case's time is summed over its runs, one per leaf section). Fails when
# any process fails, or when the processes together ran fewer test cases than SPEC lists (a name
# that did not match).
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 BINARY SPEC [JOBS]" >&2
  exit 2
fi
binary=$1 spec=$2 jobs=${3:-2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$binary" --list-test-names-only "$spec" | grep . > "$work/names" || true
total=$(wc -l < "$work/names")
if [ "$total" -eq 0 ]; then
  echo "run_split: no test matches $spec" >&2
  exit 1
fi
# Catch reads each line of an input file as a quoted test name, in which '\', '"', ',' (it still
# separates names) and brackets must be escaped.
awk -v n="$jobs" -v dir="$work" '{
  gsub(/\\/, "\\\\"); gsub(/"/, "\\\""); gsub(/,/, "\\,"); gsub(/\[/, "\\["); gsub(/\]/, "\\]");
  print > (dir "/part" ((NR - 1) % n))
}' "$work/names"

pids=()
parts=()
for part in "$work"/part*; do
  "$binary" -d yes -f "$part" > "$part.log" 2>&1 &
  pids+=($!)
  parts+=("$part")
done
status=0
ran=0
for i in "${!pids[@]}"; do
  if ! wait "${pids[$i]}"; then status=1; fi
  # Catch's "-d yes" lines ("0.123 s: name") go to the list of durations, the rest is printed.
  grep -E '^[0-9]+\.[0-9]+ s: ' "${parts[$i]}.log" >> "$work/durations" || true
  grep -vE '^[0-9]+\.[0-9]+ s: ' "${parts[$i]}.log" || true
  # "All tests passed (A assertions in N test cases)" or "test cases: N | ..." on a failure.
  n=$(grep -Eo '(in [0-9]+ test case|test cases: *[0-9]+)' "${parts[$i]}.log" | grep -Eo '[0-9]+' |
      tail -1 || true)
  ran=$((ran + ${n:-0}))
done
if [ "$status" -eq 0 ] && [ "$ran" -ne "$total" ]; then
  echo "run_split: $ran of the $total test cases of $spec ran" >&2
  status=1
fi
echo "run_split: the slowest test cases and sections (seconds):"
# A test case is run once per leaf section, each run a line with its name: their sum is its time.
awk '{ t = $1; sub(/^[0-9.]+ s: /, ""); sum[$0] += t }
     END { for (name in sum) printf "  %9.3f s: %s\n", sum[name], name }' "$work/durations" |
  sort -rn | head -n "${SLOWEST:-15}" || true
echo "run_split: $total test cases in ${#pids[@]} processes"
exit "$status"
