#!/bin/bash
# Every sample of tests/collector/secret-samples.tsv through the collector's own redaction (the
# built script, sourced): an environ entry through redact_nul_stream and the secret rules, an
# argv likewise, a log through the rules: a match gives exactly its expected text, a near miss
# stays byte for byte. Then every rule of secret-rules.tsv has a match sample.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=../../collector-script/ascend-collect.sh
. "$COLLECTOR"
export LC_ALL=C
STEP_BASE=$(mktemp -d)/step
build_log_masks
SAMPLES=$LIB_DIR/secret-samples.tsv
n=0
while IFS=$'\t' read -r where kind input want; do
  case $where in ''|'#'*|where) continue ;; esac
  n=$((n + 1))
  input=$(printf '%b' "$input")
  if [ "$kind" = near_miss ]; then want=$input; else want=$(printf '%b' "$want"); fi
  case $where in
    env) got=$(printf '%s\0' "$input" | redact_nul_stream environ | mask_text -z | tr '\0' '\n') ;;
    arg) got=$(printf '%s' "$input" | tr '|' '\0' | redact_nul_stream cmdline | mask_text -z | tr '\0' '|') ;;
    log) got=$(printf '%s\n' "$input" | mask_text) ;;
    *) fail "$SAMPLES: unknown where '$where'"; continue ;;
  esac
  [ "$got" = "$want" ] || fail "$where $kind: [$input] gave [$got], want [$want]"
  # A log sample with a secret must also pass the cheap pre-filter, or it is copied unmasked.
  if [ "$where" = log ] && [ "$kind" = match ] && ! printf '%s\n' "$input" | grep -q -i -F "${LOG_GREP[@]}"; then
    fail "log match [$input] does not pass the trigger pre-filter"
  fi
done < "$SAMPLES"
((n >= 40)) || fail "only $n samples read from $SAMPLES"
# Every rule has a sample that it masks.
for ((i = 0; i < ${#RULE_IDS[@]}; i++)); do
  hit=0
  while IFS=$'\t' read -r _ kind input _; do
    [ "$kind" = match ] || continue
    printf '%b' "$input" | grep -z -q -i -E -e "${RULE_PATS[i]}" && { hit=1; break; }
  done < "$SAMPLES"
  ((hit)) || fail "rule ${RULE_IDS[i]} has no match sample"
done
say "$n samples, ${#RULE_IDS[@]} rules"
finish
