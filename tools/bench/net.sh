#!/usr/bin/env bash
# The speed of the network evaluation against the linear one: `fanorona bench` (depth DEPTH,
# default 8) nodes per second over its tsivy positions (the board of the network; the dimy
# positions use the linear evaluation either way), without and with --net, interleaved, best of
# REPEATS (default 3); and `fanorona bench --evals N` ns per evaluation (the linear evaluate() as
# the search calls it, the network by full refresh). Node counts differ, as the evaluations do.
# NET: the network file (default: a random one, H=128, B=8, written by `fanorona net random`
# with feature set FEATURES, default points; FEATURES=points+lines for the lines set).
# Prints each figure and the ratio net/linear.
# Usage: tools/bench/net.sh [DEPTH]   (an idle machine; FANORONA=path/to/binary, NET=file,
# FEATURES=set)
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${FANORONA:-build/tools/fanorona}
DEPTH=${1:-8}
REPEATS=${REPEATS:-3}
EVALS=${EVALS:-1000000}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
NET=${NET:-}
FEATURES=${FEATURES:-points}
if [ -z "$NET" ]; then
    NET=$TMP/random.net
    "$BIN" net random --out "$NET" --seed 1 --features "$FEATURES" > /dev/null
fi

# `fanorona bench` text output -> tsivy nodes per second.
tsivy_nps() { awk '$2 == "tsivy" { n += $4; s += $6 } END { printf "%.0f\n", n / s }'; }
search() { "$BIN" bench --depth "$DEPTH" --hash 16 "$@" | tsivy_nps; }
evals() { "$BIN" bench --evals "$EVALS" --json "$@" | jq -r '"\(.ns_per_evaluate) \(.ns_per_net_evaluate)"'; }
max() { printf '%s\n%s\n' "$1" "$2" | sed '/^$/d' | sort -g | tail -1; }
min() { printf '%s\n%s\n' "$1" "$2" | sed '/^$/d' | sort -g | head -1; }

nps_lin="" nps_net="" ev_lin="" ev_net=""
for _ in $(seq "$REPEATS"); do
    nps_lin=$(max "$nps_lin" "$(search)")
    nps_net=$(max "$nps_net" "$(search --net "$NET")")
    read -r l n <<< "$(evals --net "$NET")"
    ev_lin=$(min "$ev_lin" "$l")
    ev_net=$(min "$ev_net" "$n")
done
"$BIN" net info "$NET" | sed -n 2p
awk -v l="$nps_lin" -v n="$nps_net" -v depth="$DEPTH" 'BEGIN {
    printf "search (bench depth %d, tsivy positions): linear %.0f nodes/s, net %.0f nodes/s, net/linear %.3f\n", depth, l, n, n / l }'
awk -v l="$ev_lin" -v n="$ev_net" 'BEGIN {
    printf "one evaluation: linear %.1f ns, net by full refresh %.1f ns, net/linear %.3f\n", l, n, n / l }'
load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo 0)
printf 'best of %d, load average %s%s\n' "$REPEATS" "$load" \
    "$(awk "BEGIN{if ($load > 1.5) print \" (busy machine: figures are pessimistic)\"}")"
