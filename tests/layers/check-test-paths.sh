#!/usr/bin/env bash
# Tests sit on the path of what they test (docs/architecture.md): every parser header
# (parsers/<family>/*_parser.h, *_parsers.h) and every analysis header
# (correlator/analyses/*.h but analysis.h) has tests/unit/<same path>_test.cpp, or a row in
# the allow-list with the test that exercises it and why. Also: every analysis an analyses
# header declares is a row of correlator/analyses/table.cpp (else it never runs), and every
# test file under tests/unit/<dir>/ names a folder that exists.
#   check-test-paths.sh ALLOWLIST ROOT                          exit 0 when all hold
#   check-test-paths.sh ALLOWLIST ROOT --expect-violations N    exit 0 when exactly N fail
set -u
# shellcheck source=verdict.sh
. "$(dirname "$0")/verdict.sh"
if [ $# -ne 2 ] && { [ $# -ne 4 ] || [ "$3" != --expect-violations ]; }; then
  echo "usage: check-test-paths.sh ALLOWLIST ROOT [--expect-violations N]" >&2
  exit 2
fi
allow=$1 root=$2 expect=${4:-}
declare -A tested_in
n=0
while IFS=$'\t' read -r subject test why || [ -n "$subject" ]; do
  n=$((n + 1))
  [[ -z $subject || $subject == \#* || $subject == subject ]] && continue
  if [[ -z ${test:-} || -z ${why:-} ]]; then
    echo "$allow:$n: expected subject, tested_in, why" >&2
    exit 2
  fi
  tested_in[$subject]=$test
done <"$allow"
cd "$root" || exit 2
violations=0
report() { echo "$1"; violations=$((violations + 1)); }

subjects=()
while IFS= read -r -d '' h; do subjects+=("${h#./}"); done < <(
  find parsers correlator/analyses -maxdepth 2 -type f \( -name '*_parser.h' -o -name '*_parsers.h' \
    -o -path 'correlator/analyses/*.h' \) ! -name analysis.h -print0 2>/dev/null | sort -z)
declare -A is_subject
for s in "${subjects[@]}"; do
  is_subject[$s]=1
  test=tests/unit/${s%.h}_test.cpp
  if [ -f "$test" ]; then
    [ -n "${tested_in[$s]:-}" ] && report "$allow: $s has its test $test now: remove its row"
  elif [ -z "${tested_in[$s]:-}" ]; then
    report "$s: no test at $test (write it, or add a row to $allow with the test that exercises it and why)"
  elif [ ! -f "${tested_in[$s]}" ]; then
    report "$allow: $s: ${tested_in[$s]} does not exist"
  fi
done
for s in "${!tested_in[@]}"; do
  [ -n "${is_subject[$s]:-}" ] || report "$allow: $s is not a parser or analysis header (gone or renamed?)"
done

# Every declared analysis is run from the table.
if [ -d correlator/analyses ]; then
  while IFS= read -r fn; do
    grep -q "[{ ]$fn}" correlator/analyses/table.cpp 2>/dev/null ||
      report "correlator/analyses: $fn is declared but not a row of correlator/analyses/table.cpp"
  done < <(grep -ho '^void analyze_[a-z0-9_]*(const AnalysisContext' correlator/analyses/*.h |
           sed 's/^void \(analyze_[a-z0-9_]*\)(.*/\1/' | sort -u)
fi

# A test's folder mirrors a folder of the source tree.
while IFS= read -r -d '' t; do
  t=${t#./}
  dir=${t#tests/unit/}
  dir=${dir%/*}
  [ "$dir" = "${t#tests/unit/}" ] && continue  # shared helpers at the top
  [ -d "$dir" ] || report "$t: tests/unit/$dir mirrors no folder of the source tree"
done < <(find tests/unit -name '*_test.cpp' -print0 2>/dev/null | sort -z)

finish "$violations" "$expect" "test path problem(s) (docs/architecture.md, tests/layers/untested.tsv)" \
  "every parser and analysis has a test on its path or a reason"
