# Helpers shared by the benchmark scripts of tools/bench (sourced, not run).

# The wall clock in seconds, with nanoseconds.
now() { date +%s.%N; }
# The seconds from $1 to $2 (two now() values), one decimal.
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
# A number from a JSON file written one object per line: the first "key": value of key $2 in $1.
field() { grep -o "\"$2\": *[-0-9.e+]*" "$1" | head -1 | sed 's/.*: *//'; }
# The gauntlet pairings of a tournament's results.txt ($1) whose first player is "baseline", a
# line each: "NAME GAMES W D L ELO ERR" from the baseline's side. The results line reads
# "  baseline vs NAME: 400 games, W 1 D 2 L 3, score .., Elo (pair) -12.3 +- 4.5, ...".
baseline_pairings() {
    sed -nE 's/^  baseline vs ([a-z]+): ([0-9]+) games, W ([0-9]+) D ([0-9]+) L ([0-9]+),.* Elo[^-+0-9]*([-+0-9.]+) \+- ([0-9.]+),.*/\1 \2 \3 \4 \5 \6 \7/p' "$1"
}
# Builds `fanorona` of commit $1 once in folder $2 (its tree from `git archive`, a Release build;
# the log in $2.log) and prints the binary's path. Run from the repository's root.
build_commit() {
    local bin="$2/build/tools/fanorona"
    if [ ! -x "$bin" ]; then
        rm -rf "$2"
        mkdir -p "$2"
        git archive "$1" | tar -x -C "$2"
        cmake -S "$2" -B "$2/build" -DCMAKE_BUILD_TYPE=Release > "$2.log"
        cmake --build "$2/build" -j"${JOBS:-2}" --target fanorona >> "$2.log"
    fi
    echo "$bin"
}
# A games file ($1) with its measured columns (`times`, and version 4's `clocks` and `latencies`,
# which depend on the machine) made '-': what two runs that play the same games have in common.
without_times() {
    awk -F'\t' -v OFS='\t' '
        /^# fanorona-games / { v4 = /^# fanorona-games 4 / }
        !/^#/ && !v4 && NF == 13 { $11 = "-" }
        !/^#/ && !v4 && NF == 15 { $13 = "-" }
        !/^#/ && v4 && NF == 15 { $11 = "-"; $14 = "-"; $15 = "-" }
        !/^#/ && v4 && NF == 17 { $13 = "-"; $16 = "-"; $17 = "-" }
        { print }' "$1"
}
