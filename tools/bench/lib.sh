# Helpers shared by the benchmark scripts of tools/bench (sourced, not run).

# The wall clock in seconds, with nanoseconds.
now() { date +%s.%N; }
# The seconds from $1 to $2 (two now() values), one decimal.
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
# A number from a JSON file written one object per line: the first "key": value of key $2 in $1.
field() { grep -o "\"$2\": *[-0-9.e+]*" "$1" | head -1 | sed 's/.*: *//'; }
