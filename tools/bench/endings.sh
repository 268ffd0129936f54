#!/usr/bin/env bash
# Won endings: each position of the suites (data/endings/*.txt, made by make_endings) is played
# once to its end by the engine against itself (selfplay --shard 0/2: one game per position) at
# DEPTH (default 4) or, if MOVETIME is set, at that movetime; prints per suite and binary the
# share the side ahead converted (won), its draws by reason, its losses and the mean turns of a
# win. With two binaries (before and after a change) their runs alternate suite by suite.
# Usage: tools/bench/endings.sh [--json-out FILE] BINARY [BINARY2]
#   env: DEPTH (4), MOVETIME (unset), THREADS (2), SUITES (data/endings/*.txt), ARGS (more
#   selfplay options for every binary, e.g. "--weights FILE")
set -euo pipefail
JSON=""
if [ "${1:-}" = "--json-out" ]; then JSON=$2; shift 2; fi
[ $# -ge 1 ] || { echo "usage: $0 [--json-out FILE] BINARY [BINARY2]" >&2; exit 1; }
BINS=("$@")
cd "$(dirname "$0")/../.."
SUITES=${SUITES:-$(ls data/endings/*.txt)}
LIMIT="--depth ${DEPTH:-4}"
[ -n "${MOVETIME:-}" ] && LIMIT="--movetime $MOVETIME"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# games.tsv -> "games converted nocapture repetition otherdraw lost mean_win_turns"
tally() {
    awk -F'\t' '!/^#/ {
        board = $8; sub(/ .*/, "", board)
        w = gsub(/W/, "W", board); b = gsub(/B/, "B", board)
        strong = w > b ? "1-0" : "0-1"; weak = w > b ? "0-1" : "1-0"
        n++
        if ($4 == strong) { won++; turns += $6 }
        else if ($4 == weak) lost++
        else if ($5 == "no-capture-limit") nocap++
        else if ($5 == "repetition") rep++
        else other++
    } END { printf "%d %d %d %d %d %d %.1f\n", n, won, nocap, rep, other, lost, won ? turns / won : 0 }' "$1"
}

rows=()
printf '%-22s %-8s %6s %10s %9s %11s %6s %5s %10s\n' suite binary games converted no-capture repetition other lost win-turns
for suite in $SUITES; do
    n=$(grep -vc '^#' "$suite")
    for i in "${!BINS[@]}"; do
        out="$TMP/run$i"
        rm -rf "$out"
        # shellcheck disable=SC2086
        "${BINS[$i]}" selfplay --openings "$suite" --games $((2 * n)) --shard 0/2 $LIMIT \
            --threads "${THREADS:-2}" --max-turns 0 --epsilon 0 --no-positions --quiet --out "$out" ${ARGS:-} > /dev/null
        read -r g won nocap rep other lost wt <<< "$(tally "$out/games.tsv")"
        printf '%-22s %-8s %6d %5d %3.0f%% %9d %11d %6d %5d %10s\n' "$(basename "$suite")" "#$((i + 1))" \
            "$g" "$won" "$(awk -v a="$won" -v b="$g" 'BEGIN { print 100 * a / b }')" "$nocap" "$rep" "$other" "$lost" "$wt"
        rows+=("{\"suite\": \"$suite\", \"binary\": \"${BINS[$i]}\", \"games\": $g, \"converted\": $won, \"no_capture_draws\": $nocap, \"repetition_draws\": $rep, \"other_draws\": $other, \"lost\": $lost, \"mean_win_turns\": $wt}")
    done
done
if [ -n "$JSON" ]; then
    {
        printf '{"format": "fanorona-endings 1", "limit": "%s", "results": [\n' "$LIMIT"
        for i in "${!rows[@]}"; do printf '  %s%s\n' "${rows[$i]}" "$([ "$i" -lt $((${#rows[@]} - 1)) ] && echo ,)"; done
        printf ']}\n'
    } > "$JSON"
fi
