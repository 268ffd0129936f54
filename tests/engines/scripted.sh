#!/usr/bin/env bash
# A test engine that does as it is told: every line it reads is appended to the file $1, it
# answers the handshake, and it answers each "go" with two info lines and "bestmove $2" (so a
# test can check both what a client sends and what it makes of the replies).
log=$1
move=$2
: > "$log"
while IFS= read -r line; do
  echo "$line" >> "$log"
  case "$line" in
    uci) echo "id name scripted"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go*) echo "info depth 1 score cp 5 nodes 10 pv $move"
         echo "info depth 2 score cp -7 nodes 30 pv $move"
         echo "bestmove $move" ;;
    quit) exit 0 ;;
  esac
done
