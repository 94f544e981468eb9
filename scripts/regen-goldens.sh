#!/usr/bin/env bash
# Regenerates the golden reports tests/golden/<sample>/report.EXT, one per format that
# `ascend-triage formats` lists (reports/formats.cpp), for every sample (a directory samples/<name>/ with its description samples/<name>.md):
#   bash scripts/regen-goldens.sh BUILD_DIR      (e.g. build)
# Review the diff (git diff tests/golden) before committing: a golden that changes is a
# report that changes. Refuses to run in CI (CI=true): there the goldens are checked, never
# rewritten. GOLDEN_DIR overrides the output directory (the refusal test uses it).
set -euo pipefail
if [ "${CI:-}" = true ]; then
  echo "regen-goldens: refusing to run with CI=true: CI checks the goldens, it must not rewrite them" >&2
  exit 3
fi
if [ $# -ne 1 ]; then
  echo "usage: bash scripts/regen-goldens.sh BUILD_DIR" >&2
  exit 2
fi
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$1" && pwd)
bin=$build/ascend-triage
[ -x "$bin" ] || { echo "regen-goldens: no $bin (build first)" >&2; exit 2; }
golden=${GOLDEN_DIR:-$src/tests/golden}
count=0
for desc in "$src"/samples/*.md; do
  sample=$(basename "$desc" .md)
  [ -d "$src/samples/$sample" ] || continue
  rm -f "$golden/$sample"/report.*
  # The goldens are made in UTC; the test checks that UTC+8 gives the same bytes.
  TZ=UTC bash "$src/tests/golden/render-sample.sh" "$bin" "$src" "$sample" "$golden/$sample"
  count=$((count + 1))
done
echo "regen-goldens: wrote $count sample(s) x $("$bin" formats | wc -l) formats under ${golden#"$src"/}"
