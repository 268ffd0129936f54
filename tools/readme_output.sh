#!/bin/sh
# Runs the main job (the command of the Makefile's `run` target) in a fresh folder and writes what
# it prints into README.md, between the lines starting `<!-- main-job-output: begin` and
# `<!-- main-job-output: end`. tests/test_readme.cpp ([readme]) fails when the two differ.
# Usage: tools/readme_output.sh [BUILD_DIR]   (default build; takes as long as `make run`)
set -eu
cd "$(dirname "$0")/.."
BUILD=${1:-build}
job=$(awk '/^run:/ { getline; if (sub(/^\t\$\(FANORONA\) /, "")) print; exit }' Makefile)
case "$job" in
*"--out runs/main"*) ;;
*) echo "readme_output.sh: no '\$(FANORONA) ... --out runs/main' under the Makefile's run:" >&2; exit 1 ;;
esac
grep -q '^<!-- main-job-output: begin' README.md && grep -q '^<!-- main-job-output: end' README.md || {
  echo "readme_output.sh: README.md has no main-job-output markers" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "running: $BUILD/tools/fanorona $job (in $tmp/main)" >&2
# shellcheck disable=SC2086 # the job's words are separate arguments
"$BUILD/tools/fanorona" $(echo "$job" | sed "s#--out runs/main#--out $tmp/main#") \
  >"$tmp/stdout" 2>"$tmp/stderr" || { cat "$tmp/stderr" >&2; exit 1; }
{
  echo '```'
  echo '$ make run'
  echo "build/tools/fanorona $job"
  sed "s#$tmp/main#runs/main#g" "$tmp/stdout"
  echo '```'
} >"$tmp/block"
awk -v block="$tmp/block" '
  /^<!-- main-job-output: begin/ { print; while ((getline line < block) > 0) print line; skip = 1; next }
  /^<!-- main-job-output: end/ { skip = 0 }
  !skip { print }' README.md >"$tmp/README.md"
cp "$tmp/README.md" README.md
echo "README.md: main job output updated" >&2
cat "$tmp/block"
