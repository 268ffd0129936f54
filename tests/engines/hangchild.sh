#!/usr/bin/env bash
# A test engine that starts a helper child (which would outlive it unless its whole process group
# is killed) and then hangs on "go". $1: a file to which each start appends that child's PID.
sleep 1000 &
echo $! >> "$1"
exec bash "$(dirname "$0")/common.sh" hang
