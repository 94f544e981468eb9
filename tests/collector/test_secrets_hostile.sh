#!/bin/bash
# Every secret form of secret-samples.tsv planted where a job keeps them: the match samples'
# environ entries and argv in the training process, its log lines in one of its plogs, and a
# password in the rank table its RANK_TABLE_FILE names. No planted secret (each sample's
# word ending in SECRET) is anywhere in the unpacked bundle or in the archive bytes; every
# near miss is in the bundle verbatim; the manifest names the rules that fired.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
SAMPLES=$LIB_DIR/secret-samples.tsv

fake_host_new
env=$SYSROOT/proc/$TRAIN_PID/environ cmd=$SYSROOT/proc/$TRAIN_PID/cmdline
plog=$SYSROOT/root/ascend/log/debug/plog/plog-4242_20260613170035000.log
chmod 600 "$env"
printf 'RANK_TABLE_FILE=/etc/hccl/rank_table.json\0' >> "$env"
logs=() near=() pids=(-p "$TRAIN_PID") next=5001
printf 'python3\0train.py\0' > "$cmd"
while IFS=$'\t' read -r where kind input _; do
  case $where in ''|'#'*|where) continue ;; esac
  input=$(printf '%b' "$input")
  if [ "$kind" = near_miss ]; then [ "$where" = arg ] || near+=("$input"); fi
  case $where in
    env) printf '%s\0' "$input" >> "$env" ;;
    arg)
      # One process a command line: the program decides what its -p means.
      if [ "$kind" = match ]; then
        pids+=(-p "$next")
        cp -a "$SYSROOT/proc/$TRAIN_PID" "$SYSROOT/proc/$next"
        chmod 600 "$SYSROOT/proc/$next/cmdline"
        printf '%s' "$input|" | tr '|' '\0' > "$SYSROOT/proc/$next/cmdline"
        next=$((next + 1))
      fi ;;
    log) logs+=("$input") ;;
  esac
done < "$SAMPLES"
chmod 400 "$env"
printf '%s\n' "${logs[@]}" > "$plog"
mkdir -p "$SYSROOT/etc/hccl"
printf '{"status": "completed", "server_list": [{"server_id": "10.0.0.7", "password": "ranktableJSONSECRET"}]}\n' \
  > "$SYSROOT/etc/hccl/rank_table.json"

secrets=$(cut -f3 "$SAMPLES" | grep -o -E '[A-Za-z0-9]*SECRET[0-9]*' | sort -u)
secrets+=$'\n'ranktableJSONSECRET
[ "$(printf '%s\n' "$secrets" | wc -l)" -ge 30 ] || fail "only $(printf '%s\n' "$secrets" | wc -l) planted secrets"
grep -q -a -F ranktableJSONSECRET "$SYSROOT/etc/hccl/rank_table.json" || fail "the rank table was not planted"

run_collect "${pids[@]}" --timeout 10
expect_rc 0
unpack_archive
check_bundle
[ -s "$B/processes/$TRAIN_PID/rank-table.json" ] || fail "the rank table was not collected"
[ -s "$B/logs/host/root/ascend/log/debug/plog/${plog##*/}" ] || fail "the plog with secrets was not collected"
while IFS= read -r s; do
  [ -n "$s" ] || continue
  found=$(grep -r -l -a -F -e "$s" "$H/unpacked" 2>/dev/null)
  [ -z "$found" ] || fail "secret $s found in: $found"
  grep -q -a -F -e "$s" "$ARCHIVE" && fail "secret $s in the archive bytes"
done <<< "$secrets"
for s in "${near[@]}"; do
  grep -r -q -a -F -e "${s%%$'\n'*}" "$B" || fail "near miss not kept verbatim: ${s%%$'\n'*}"
done
for k in url_credentials webhook assign cmdline_secret env_secret log_secret; do
  grep -q "\"kinds\": \[.*\"$k\"" "$B/manifest.json" || fail "manifest redaction kinds lack $k"
done
finish
