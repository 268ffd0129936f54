#!/usr/bin/env bash
# Runs every libFuzzer target of a FANORONA_FUZZ build for FUZZ_SECONDS each (JOBS at a time),
# starting from its seed corpus (tests/fuzz/corpus/NAME, not changed: new inputs go to
# BUILD/fuzz-corpus/NAME), and prints one row per target from libFuzzer's final statistics:
# executions, executions per second, new inputs, peak memory, and the result. The same as JSON in
# BUILD/fuzz.json. A crash or sanitizer report leaves its input in BUILD/fuzz-artifacts/ and the
# log in BUILD/fuzz-logs/NAME.log, and makes the script fail (after running the others).
#   usage: tests/fuzz/run.sh BUILD [FUZZ_SECONDS] [JOBS]
set -uo pipefail
build=${1:?usage: run.sh BUILD [SECONDS] [JOBS]}
seconds=${2:-60}
jobs=${3:-2}
src=$(cd "$(dirname "$0")" && pwd)
bin="$build/tests/fuzz"
mkdir -p "$build/fuzz-corpus" "$build/fuzz-artifacts" "$build/fuzz-logs"

run_one() { # NAME: fuzzes one target; its exit status is libFuzzer's
    local name=$1 work="$build/fuzz-corpus/$1"
    mkdir -p "$work"
    # Sanitizer reports end the run (libFuzzer saves the input); leaks are reported as well.
    ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$bin/fuzz_$name" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 -max_len=4096 \
        -print_final_stats=1 -artifact_prefix="$build/fuzz-artifacts/$name-" \
        "$work" "$src/corpus/$name" > "$build/fuzz-logs/$name.log" 2>&1
}
export -f run_one
export build bin src seconds

names=$(cd "$src/corpus" && ls)
printf '%s\n' $names | xargs -P "$jobs" -I{} bash -c 'run_one {}; echo $? > "$build/fuzz-logs/{}.status"'

stat() { # NAME KEY: a value of libFuzzer's final statistics
    sed -n "s/^stat::$2: *//p" "$build/fuzz-logs/$1.log" | tail -1
}
failed=0
json="{\"seconds_per_target\": $seconds, \"targets\": ["
printf '%-14s %12s %10s %6s %8s  %s\n' target executions exec/s new rss_mb result
sep=""
for name in $names; do
    status=$(cat "$build/fuzz-logs/$name.status")
    runs=$(stat "$name" number_of_executed_units)
    rate=$(stat "$name" average_exec_per_sec)
    new=$(stat "$name" new_units_added)
    rss=$(stat "$name" peak_rss_mb)
    result=ok
    if [ "$status" != 0 ]; then
        result="FAILED (status $status, see $build/fuzz-logs/$name.log)"
        failed=1
    fi
    printf '%-14s %12s %10s %6s %8s  %s\n' "$name" "${runs:-?}" "${rate:-?}" "${new:-?}" "${rss:-?}" "$result"
    json+="$sep{\"target\": \"$name\", \"executions\": ${runs:-null}, \"executions_per_second\": ${rate:-null}, \"new_inputs\": ${new:-null}, \"peak_rss_mb\": ${rss:-null}, \"ok\": $([ "$status" = 0 ] && echo true || echo false)}"
    sep=", "
done
json+="]}"
echo "$json" > "$build/fuzz.json"
echo "(also in $build/fuzz.json)"
# What a failing target found, where a CI log shows it: the report's first lines and the input.
for name in $names; do
    [ "$(cat "$build/fuzz-logs/$name.status")" = 0 ] && continue
    echo "--- $name: $build/fuzz-logs/$name.log"
    grep -m1 -A14 -E 'ERROR|fuzz check failed|runtime error' "$build/fuzz-logs/$name.log"
    grep -E '^Base64:|Test unit written' "$build/fuzz-logs/$name.log"
done
exit $failed
