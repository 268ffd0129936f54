#!/usr/bin/env bash
# A real engine that first records how it was started, for the --player keys arg=, dir= and
# restart=on: `argv.sh FILE PROGRAM [ARG...]` appends to FILE (relative to its working folder)
# "pid PID", "pwd FOLDER" and one "arg ARG" line per ARG, then becomes `PROGRAM engine`.
out=$1
program=$2
shift 2
{
  echo "pid $$"
  echo "pwd $(pwd -P)"
  for a in "$@"; do echo "arg $a"; done
} >> "$out"
exec "$program" engine
