#!/usr/bin/env bash
# Checks that every Catch2 test case of BINARY is exactly one CTest test of BUILD_DIR and that
# CTest has no test Catch2 does not list (a name CTest's discovery split, such as one with ';',
# runs nothing), and that no name starts with '-' (Catch2 would read it as an option). CTest
# runs it as the test SELF (left out of the comparison).
#   tests/check_test_lists.sh BINARY BUILD_DIR SELF
set -euo pipefail
if [ $# -ne 3 ]; then
  echo "usage: $0 BINARY BUILD_DIR SELF" >&2
  exit 2
fi
binary=$1 build=$2 self=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Catch2 v2 exits with the number of test cases listed, not 0.
"$binary" --list-test-names-only > "$work/listed" || true
grep . "$work/listed" | sort > "$work/catch" || true
if [ ! -s "$work/catch" ]; then
  echo "check_test_lists: $binary lists no test case" >&2
  exit 1
fi
(cd "$build" && ctest -N) | sed -n 's/^ *Test *#[0-9]*: //p' | grep -vxF "$self" | sort > "$work/ctest"
status=0
if grep -F ';' "$work/catch" > "$work/semicolons"; then
  echo "check_test_lists: test case names with ';' (CTest splits them):" >&2
  cat "$work/semicolons" >&2
  status=1
fi
# A name that starts with '-' reaches Catch2 as an option when CTest passes it ("Unrecognised
# token"), so its test fails without running.
if grep -e '^-' "$work/catch" > "$work/dashes"; then
  echo "check_test_lists: test case names starting with '-' (Catch2 reads them as options):" >&2
  cat "$work/dashes" >&2
  status=1
fi
if ! diff "$work/catch" "$work/ctest" > "$work/diff"; then
  echo "check_test_lists: Catch2's test cases ('<') and CTest's tests ('>') differ:" >&2
  grep '^[<>]' "$work/diff" >&2
  status=1
fi
echo "check_test_lists: $(wc -l < "$work/catch") Catch2 test cases, $(wc -l < "$work/ctest") CTest tests"
exit "$status"
