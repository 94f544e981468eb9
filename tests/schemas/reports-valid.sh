#!/usr/bin/env bash
# reports-valid.sh TRIAGE CHECK SCHEMA INPUT...
# Analyzes each input alone (`analyze --format json`) and validates its report against the
# schema with CHECK (json_schema_check): the goldens cover four samples; the test bundles
# and the corpus of real pastes reach fields and nulls they do not (docs/json-report.md).
set -u
if [ $# -lt 4 ]; then
  echo "usage: reports-valid.sh TRIAGE CHECK SCHEMA INPUT..." >&2
  exit 2
fi
triage=$1 check=$2 schema=$3
shift 3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0 skipped=0
for input in "$@"; do
  "$triage" analyze --format json "$input" >"$tmp/report.json" 2>"$tmp/stderr"
  rc=$?
  # 0 clean, 1 findings; 2 cannot analyse (no report: a paste with nothing recognised);
  # anything else is a crash.
  if [ $rc -eq 2 ]; then
    echo "skipped $input: $(head -c 200 "$tmp/stderr")"
    skipped=$((skipped + 1))
    continue
  elif [ $rc -gt 2 ]; then
    echo "FAIL $input: analyze exit $rc: $(head -c 300 "$tmp/stderr")"
    fail=1
    continue
  fi
  n=$((n + 1))
  if ! "$check" "$schema" "$tmp/report.json" >"$tmp/violations"; then
    sed "s|^$tmp/report.json|$input|" "$tmp/violations" | head -20
    fail=1
  fi
done
echo "$n reports checked against $schema ($skipped inputs gave no report)"
[ $n -gt 0 ] || fail=1
exit $fail
