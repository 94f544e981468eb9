#!/usr/bin/env bash
# Reports of two ascend-triage binaries, byte for byte: every sample, test bundle, corpus
# excerpt and perturbation, in text, JSON, Markdown and HTML (`--quiet analyze --format F`).
# A refactor must leave them identical (docs/testing.md, "Refactors"). Prints each report
# that differs and a count; exits 1 when any differs.
#   scripts/compare-reports.sh OLD_BINARY NEW_BINARY
set -u
if [ $# -ne 2 ] || [ ! -x "$1" ] || [ ! -x "$2" ]; then
  echo "usage: $0 OLD_BINARY NEW_BINARY (both executable)" >&2
  exit 2
fi
old=$(realpath "$1") new=$(realpath "$2")
cd "$(dirname "$0")/.."
n=0 d=0
for input in samples/*/ tests/data/*-bundle/ tests/data/real/*/ tests/data/perturbation/*; do
  [ -e "$input" ] || continue
  for format in text json md html; do
    n=$((n + 1))
    a=$("$old" --quiet analyze --format "$format" "$input" 2>&1 | sha256sum)
    b=$("$new" --quiet analyze --format "$format" "$input" 2>&1 | sha256sum)
    if [ "$a" != "$b" ]; then
      d=$((d + 1))
      echo "DIFF $format $input"
    fi
  done
done
echo "$n reports, $d differ"
[ "$d" -eq 0 ]
