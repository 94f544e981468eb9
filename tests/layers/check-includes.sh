#!/usr/bin/env bash
# The include rule: every `#include "..."` in the stage folders must run down (or sideways
# where stages.tsv allows it, with its reason). No per-file exceptions exist.
#   check-includes.sh TABLE ROOT                          exit 0 when every include holds
#   check-includes.sh TABLE ROOT --expect-violations N    exit 0 when exactly N are found
# The second form runs the control tree (tests/layers/control/), proving the check rejects.
set -u
# shellcheck source=verdict.sh
. "$(dirname "$0")/verdict.sh"
if [ $# -ne 2 ] && { [ $# -ne 4 ] || [ "$3" != --expect-violations ]; }; then
  echo "usage: check-includes.sh TABLE ROOT [--expect-violations N]" >&2
  exit 2
fi
table=$1 root=$2 expect=${4:-}
declare -A layer also
stages=()
n=0
while IFS=$'\t' read -r stage lay extra _why || [ -n "$stage" ]; do
  n=$((n + 1))
  [[ -z $stage || $stage == \#* || $stage == stage ]] && continue
  if [[ ! $lay =~ ^[0-9]+$ || -z ${extra:-} ]]; then
    echo "$table:$n: expected stage, layer (a number), may_also_include (or -), why" >&2
    exit 2
  fi
  layer[$stage]=$lay
  also[$stage]=" ${extra} "
  stages+=("$stage")
done <"$table"
[ ${#stages[@]} -gt 0 ] || { echo "$table: no stage" >&2; exit 2; }

# The stage of a path: the longest stage folder holding it ("" when none does).
stage_of() {
  local best="" s
  for s in "${stages[@]}"; do
    [[ $1 == "$s"/* && ${#s} -gt ${#best} ]] && best=$s
  done
  printf '%s' "$best"
}

declare -A tops
for s in "${stages[@]}"; do tops[${s%%/*}]=1; done
violations=0
report() { echo "$1"; violations=$((violations + 1)); }
cd "$root" || exit 2
while IFS= read -r -d '' file; do
  file=${file#./}
  from=$(stage_of "$file")
  if [ -z "$from" ]; then
    report "$file: in no stage of $table (add its folder there)"
    continue
  fi
  while IFS=: read -r line text; do
    inc=${text#*\"}
    inc=${inc%%\"*}
    to=$(stage_of "$inc")
    if [ -z "$to" ]; then
      report "$file:$line: #include \"$inc\": not a stage's file (includes name the path from the root)"
    elif [ "$to" = "$from" ] || [ "${layer[$to]}" -lt "${layer[$from]}" ]; then
      :
    elif [ "${layer[$to]}" -gt "${layer[$from]}" ]; then
      report "$file:$line: #include \"$inc\" runs up: $from (layer ${layer[$from]}) may not include $to (layer ${layer[$to]})"
    elif [[ ${also[$from]} != *" $to "* ]]; then
      report "$file:$line: #include \"$inc\" runs sideways: $from may not include $to (same layer; stages.tsv lists the allowed ones)"
    fi
  done < <(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$file")
done < <(find "${!tops[@]}" -type f \( -name '*.h' -o -name '*.cpp' \) -print0 2>/dev/null | sort -z)

finish "$violations" "$expect" "include(s) break the stage order of $table (docs/architecture.md)" \
  "include rule holds for every stage file"
