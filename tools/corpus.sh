#!/usr/bin/env bash
# The corpus self-play (data/corpus/README.md) as one command: `make corpus` starts it, or resumes
# it, in the background at the lowest priority on one thread, and reports how far it is;
# `make corpus-stop` stops it (it resumes); `make corpus-chunk` stops it and writes its next
# chunks into data/corpus (commit them with their rows of data/corpus/README.md).
#
#   tools/corpus.sh start|status|stop|chunk
#
# The run folder is runs/corpus-GEN-sSEED (not in the repository; GEN the default network's
# generation, from `fanorona --version`). Its seed is the one of the run folder of that
# generation this machine already has, else one past the largest seed of data/corpus's chunks and
# of this machine's run folders, so no seed is played twice and a new default network starts a
# new seed. FANORONA (default build/tools/fanorona) is the program; THREADS (default 1) its
# threads; MIN_GAMES and MAX_GAMES (default 1,000 and 20,000) the games of a chunk; STOP_SECONDS
# (default 300) how long a stop waits for the games in progress.
set -euo pipefail
cd "$(dirname "$0")/.."

FANORONA=${FANORONA:-build/tools/fanorona}
THREADS=${THREADS:-1}
STOP_SECONDS=${STOP_SECONDS:-300}
NODES=20000
[ -x "$FANORONA" ] || { echo "corpus: $FANORONA is missing (run: make program)" >&2; exit 1; }
# The default network's generation, from its file as `fanorona --version` names it (net
# tsivy-points-h128-l16-int8-gen6.net): the run folder's and the chunks' names say it.
NET_GEN=$("$FANORONA" --version | sed -n 's/^net .*-\(gen[0-9][0-9]*\)\.net$/\1/p')
[ -n "$NET_GEN" ] || {
    echo "corpus: $FANORONA --version names no default network of a generation (net ...-genN.net)" >&2
    exit 1
}

# The seed of this machine's run folder of the default network's generation, else the next seed
# after every seed used: the committed chunks' and this machine's run folders' of any generation
# (a run of an older default network stays as it was: its resume would refuse the new network).
run_seed() {
    # The seeds of this machine's run folders whose names start runs/PREFIX, a line each.
    folder_seeds() {
        ls -d runs/"$1"*/ 2>/dev/null | sed -n 's:.*-s\([0-9]*\)/$:\1:p' || true
    }
    local seed
    seed=$(folder_seeds "corpus-$NET_GEN-s" | sort -n | tail -1)
    if [ -n "$seed" ]; then
        echo "$seed"
        return
    fi
    local largest
    largest=$({
        ls data/corpus/*.fcorpus 2>/dev/null | sed -n 's/.*-s\([0-9]*\)-[0-9]*\.fcorpus$/\1/p'
        folder_seeds corpus-
    } | sort -n | tail -1)
    echo $((${largest:-7} + 1))
}

SEED=$(run_seed)
OUT=runs/corpus-$NET_GEN-s$SEED
NAME=tsivy-$NET_GEN-n$NODES-s$SEED
PIDFILE=$OUT/corpus.pid

running() { [ -f "$PIDFILE" ] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null; }
stopped() { ! running; }
# Whether process $1 leads its own session (setsid has run).
session_leader() { [ "$(ps -o sid= -p "$1" 2>/dev/null | tr -d ' ')" = "$1" ]; }

# Runs the command after $1 every 0.1 s until it succeeds, for $1 seconds at most; fails if it
# never did.
wait_for() {
    local steps=$(($1 * 10))
    shift
    until "$@"; do
        [ "$steps" -gt 0 ] || return 1
        steps=$((steps - 1))
        sleep 0.1
    done
}

games_done() {
    if [ -f "$OUT/games.tsv" ]; then grep -vc '^#' "$OUT/games.tsv" || true; else echo 0; fi
}

status() {
    local state=stopped
    running && state="running (pid $(cat "$PIDFILE"))"
    echo "corpus self-play: $OUT, $state, $(games_done) games played"
    echo "chunks of this run in data/corpus: $(ls data/corpus/$NAME-*.fcorpus 2>/dev/null | wc -l)"
    # What the chunks hold, read whole once (about a second for 4 MB): a line a chunk and the
    # total, or why they cannot be read (then no chunk counts as read).
    local info readable=yes
    info=$("$FANORONA" corpus info data/corpus 2>&1) || readable=no
    # This run's chunks hold its first games (corpus next-chunk): the rest waits for the next one.
    local chunked=0
    [ "$readable" = yes ] && chunked=$(echo "$info" |
        awk -v name="$NAME-" 'index($1, "/" name) { g += $2 } END { print g + 0 }')
    local pending=$(($(games_done) - chunked))
    [ "$pending" -ge 0 ] || pending=0
    echo "games of this run not yet in a chunk: $pending (make corpus-chunk writes them)"
    echo "data/corpus: $(ls data/corpus/*.fcorpus | wc -l) chunks, $(cat data/corpus/*.fcorpus | wc -c) bytes (cap 67108864)"
    if [ "$readable" = yes ]; then
        echo "$info" | awk '$1 == "total" {
            printf "data/corpus holds %s games, %s positions, %s with a search score\n", $2, $3, $4 }'
    else
        echo "data/corpus: unreadable: $info"
    fi
}

start() {
    if running; then
        status
        return
    fi
    mkdir -p runs
    local resume=()
    [ -f "$OUT/settings.json" ] && resume=(--resume)
    # Step 1. The documented command (data/corpus/README.md), at the lowest CPU and I/O priority.
    # setsid: a session of its own, so that the kernel's autogroup scheduling (which shares
    # the CPU between sessions whatever their nice values) can be told its lowest priority too.
    setsid nice -n 19 ionice -c 3 "$FANORONA" selfplay --nodes $NODES --openings random:8 \
        --games 200000 --threads "$THREADS" --seed "$SEED" --out "$OUT" "${resume[@]}" \
        >"$OUT.log" 2>&1 </dev/null &
    local pid=$!
    # Step 2. The pid goes into the run folder once it exists (selfplay makes it).
    wait_for 5 test -d "$OUT" || true
    mkdir -p "$OUT"
    echo $pid >"$PIDFILE"
    # Step 3. Its scheduling group at the lowest priority, once setsid has made its session (a
    # resumed run's folder exists at once: written earlier, the nice would go to the caller's).
    wait_for 5 session_leader "$pid" || true
    [ -w /proc/$pid/autogroup ] && echo 19 >/proc/$pid/autogroup 2>/dev/null || true
    echo "corpus: started ${resume[*]:-afresh} (pid $pid, seed $SEED, log $OUT.log)"
    status
}

# The self-play ends its games in progress when told to stop; at the lowest priority on a busy
# machine that takes a while: STOP_SECONDS (default 300) at most, then it is left running and
# the command fails, saying so (nothing is chunked from a run still writing).
stop() {
    if running; then
        kill -TERM "$(cat "$PIDFILE")"
        if ! wait_for "$STOP_SECONDS" stopped; then
            echo "corpus: still running after $STOP_SECONDS s (pid $(cat "$PIDFILE")): try again" >&2
            exit 1
        fi
        echo "corpus: stopped (make corpus resumes it)"
    fi
    rm -f "$PIDFILE"
}

# Writes chunks until the games left are fewer than MIN_GAMES (default 1,000), each of at most
# MAX_GAMES (default 20,000): one command however many games wait.
chunk() {
    stop
    local before
    while :; do
        before=$(ls data/corpus/*.fcorpus 2>/dev/null | wc -l)
        "$FANORONA" corpus next-chunk "$OUT" --name "$NAME" --into data/corpus \
            --min-games "${MIN_GAMES:-1000}" --max-games "${MAX_GAMES:-20000}"
        [ "$(ls data/corpus/*.fcorpus 2>/dev/null | wc -l)" -gt "$before" ] || break
    done
}

case "${1:-start}" in
start) start ;;
status) status ;;
stop) stop ;;
chunk) chunk ;;
*)
    echo "usage: tools/corpus.sh start|status|stop|chunk" >&2
    exit 2
    ;;
esac
