#!/usr/bin/env bash
# Renders one sample in every report format, exactly as the goldens are made:
#   render-sample.sh BIN SOURCE_DIR SAMPLE OUT_DIR
# Runs from SOURCE_DIR with the relative path samples/SAMPLE, so the paths in the reports do
# not depend on where the tree is checked out. Writes OUT_DIR/report.EXT for every format
# that `BIN formats` lists (name, extension, description: the table in reports/formats.cpp).
# Exit 0, or 2 when the analyzer could not analyse (exit 0 or 1 is a successful analysis).
set -u
bin=$1 src=$2 sample=$3 out=$4
mkdir -p "$out"
cd "$src" || exit 2
formats=$("$bin" formats) || { echo "$bin formats: failed" >&2; exit 2; }
while IFS=$'\t' read -r format ext _; do
  "$bin" --color never analyze --format "$format" "samples/$sample" </dev/null >"$out/report.$ext" 2>"$out/stderr.$ext"
  rc=$?
  if [ "$rc" -gt 1 ]; then
    echo "ascend-triage analyze --format $format samples/$sample: exit $rc" >&2
    cat "$out/stderr.$ext" >&2
    exit 2
  fi
  rm -f "$out/stderr.$ext"
done <<<"$formats"
