#!/usr/bin/env bash
# Golden test of one sample: renders it in every format (render-sample.sh) and compares each
# report byte for byte with tests/golden/SAMPLE/report.*. ctest runs it under TZ=UTC and
# TZ=XXX-8: the outputs must not depend on the analyst's zone.
#   compare.sh BIN SOURCE_DIR SAMPLE
# On a difference: a short unified diff, and how to regenerate after reviewing it.
set -u
bin=$1 src=$2 sample=$3
golden=$src/tests/golden/$sample
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bash "$src/tests/golden/render-sample.sh" "$bin" "$src" "$sample" "$tmp" || exit 1
fail=0
exts=$("$bin" formats | cut -f2) || exit 1
for ext in $exts; do
  if [ ! -f "$golden/report.$ext" ]; then
    echo "missing golden: tests/golden/$sample/report.$ext"
    fail=1
  elif ! cmp -s "$golden/report.$ext" "$tmp/report.$ext"; then
    echo "differs from the golden (TZ=${TZ-unset}): tests/golden/$sample/report.$ext"
    diff -u --label "golden/$sample/report.$ext" --label "now/$sample/report.$ext" \
      "$golden/report.$ext" "$tmp/report.$ext" | head -n 40
    fail=1
  fi
done
if [ "$fail" -ne 0 ]; then
  echo "If the change is intended: review it, then run 'bash scripts/regen-goldens.sh build' and commit."
fi
exit "$fail"
