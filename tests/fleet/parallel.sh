#!/usr/bin/env bash
# The map step of fleet triage with GNU parallel, then the reduce on what it wrote: the recipe
# of docs/fleet.md, run for real. Usage: parallel.sh BIN REPO_ROOT. Exit 77 (skipped) without
# GNU parallel, unless CI=true (then that is a failure).
set -euo pipefail
bin=$(readlink -f "$1") root=$(readlink -f "$2")
if ! command -v parallel >/dev/null || ! parallel --version 2>/dev/null | grep -q 'GNU parallel'; then
  [ "${CI:-}" = true ] && { echo "FAIL (CI=true): GNU parallel is not installed (Debian: parallel)" >&2; exit 1; }
  echo "SKIP: GNU parallel is not installed (Debian: parallel)"; exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

for variant in fleet-4node fleet-4node-node1; do
  want=node3
  [ "$variant" = fleet-4node-node1 ] && want=node1
  mkdir -p "$tmp/$variant"
  # The map: one job per bundle, all cores; analyze exits 1 when it has findings, which is fine.
  ls -d "$root/samples/$variant"/node* |
    parallel --will-cite --halt now,fail=1 \
      "'$bin' --quiet analyze --format summary {} -o '$tmp/$variant/{/}.json'; [ \$? -le 1 ]" ||
    fail "$variant: a map job failed"
  [ "$(ls "$tmp/$variant"/*.json | wc -l)" = 4 ] || fail "$variant: the map did not write 4 summaries"
  # The reduce.
  rc=0
  "$bin" fleet "$tmp/$variant" >"$tmp/$variant.txt" || rc=$?
  [ "$rc" = 1 ] || fail "$variant: fleet exited $rc, want 1"
  grep -q "^  1\. origin  $want" "$tmp/$variant.txt" || { cat "$tmp/$variant.txt"; fail "$variant: $want is not first"; }
done
echo "parallel: map and reduce ok"
