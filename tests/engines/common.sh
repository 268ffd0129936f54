# Shared by the misbehaving test engines: answers the handshake like a real engine.
# $1 is what to do on "go": crash | hang | illegal | malformed | slowstart | chattystart (endless
# id lines for uci, never uciok) | chattygo (endless info lines for go, never bestmove)
mode=$1
while IFS= read -r line; do
  case "$line" in
    uci)
      [ "$mode" = slowstart ] && { sleep 100; exit 0; }
      [ "$mode" = chattystart ] && while :; do echo "id name chatty"; done
      echo "id name broken-$mode"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go*)
      case "$mode" in
        crash) exit 3 ;;
        hang) sleep 100 ;;
        chattygo) while :; do echo "info depth 1 nodes 5 score cp 0"; done ;;
        illegal) echo "info depth 1 score cp 5"; echo "bestmove a1a2" ;;
        malformed) echo "bestmove" ;;
      esac ;;
    quit) exit 0 ;;
  esac
done
