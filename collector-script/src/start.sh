# shellcheck shell=bash
# Start of a run: locale, tools, output and work directories, timeout(1) and free-space checks.

record_locale() {
  ORIG_LOCALE=${LC_ALL:-${LC_CTYPE:-${LANG:-}}}
  ORIG_LOCALE=${ORIG_LOCALE:-C}
  ORIG_LOCALE_VARS=()
  local v
  for v in LANG LC_ALL LC_CTYPE LC_MESSAGES LC_TIME; do
    if [ -n "${!v+x}" ]; then ORIG_LOCALE_VARS+=("$v" "${!v}"); fi
  done
}

detect_tools() {
  local t
  if have sha256sum; then HASH_TOOL=sha256sum
  elif have shasum; then HASH_TOOL=shasum
  elif have openssl; then HASH_TOOL=openssl
  fi
  have stat && HAVE_STAT=1
  local d
  d=$(date +%s%N 2>/dev/null)
  [[ $d =~ ^[0-9]{16,}$ ]] && DATE_NS=1
  if read -r d _ 2>/dev/null < /proc/uptime && [[ $d =~ ^[0-9]+\.[0-9]{2}$ ]]; then CLOCK_UPTIME=1; fi
  TOOLS_ABSENT=()
  for t in "${OPTIONAL_TOOLS[@]}"; do have "$t" || TOOLS_ABSENT+=("$t"); done
}

gen_tools_tsv() {
  local t p note
  tsv_row tool path present note
  for t in "${OPTIONAL_TOOLS[@]}"; do
    tool_path "$t"; p=$TP
    note=""
    [ "$t" = timeout ] && note=$TIMEOUT_NOTE
    tsv_row "$t" "$p" "$([ -n "$p" ] && echo 1 || echo 0)" "$note"
  done
}

on_signal() {
  if ((INTERRUPTED)); then
    progress "interrupted again: stopping without an archive"
    exit 130
  fi
  INTERRUPTED=1
  progress "interrupted: stopping the current step and archiving what exists"
}

# A trustworthy timeout(1) bounds every tool even if the collector itself dies; one that
# does not behave (or hangs) is not used.
probe_timeout() {
  have timeout || { TIMEOUT_NOTE="absent"; return 0; }
  STEP_LIMIT=5 step_exec collector/timeout-check.txt host timeout -k 1 3 sleep 0
  if [ "$R_STATUS" = ok ]; then
    TIMEOUT_BIN=$(type -P timeout)
    TIMEOUT_NOTE="used as an inner guard"
  else
    TIMEOUT_NOTE="not used: its check ended $R_STATUS"
    progress "timeout(1) misbehaves ($R_STATUS); relying on the collector's own watch"
  fi
}

check_free_space() {
  local min_mb=${ASCEND_COLLECT_MIN_FREE_MB:-300} avail
  [[ $min_mb =~ ^[0-9]+$ ]] || min_mb=300
  STEP_LIMIT=10 step_exec collector/df.txt host df -Pk "$OUT"
  if [ "$R_STATUS" != ok ]; then
    progress "could not measure free space in $OUT ($R_STATUS); going on"
    return 0
  fi
  avail=$(awk 'NR == 2 { print $4 }' "$BUNDLE/collector/df.txt")
  [[ $avail =~ ^[0-9]+$ ]] || return 0
  if ((avail < min_mb * 1024)); then
    progress "refusing to start: $((avail / 1024)) MB free in $OUT, at least $min_mb MB needed"
    rm -rf "$BUNDLE" "$WORK"
    exit 2
  fi
}

init_run() {
  local host ts
  ROOT=${ASCEND_COLLECT_ROOT:-}
  ROOT=${ROOT%/}
  if [ -z "$ROOT" ]; then
    PATH=$PATH:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/usr/local/Ascend/driver/tools
  fi
  export PATH
  umask 077
  detect_tools
  epoch_now; START_S=$EPOCH
  now_ms; START_MS=$NOW_MS
  DEADLINE_MS=$((START_MS + OPT_DEADLINE * 1000))
  iso_utc "$START_S"; COLLECTED_AT=$ISO
  ts=${ISO//[-:]/}
  host=${HOSTNAME:-unknown}
  HOST=$host
  host=${host//[!A-Za-z0-9._-]/_}
  OUT=$OPT_OUT
  mkdir -p "$OUT" 2>/dev/null || { progress "cannot create output directory $OUT"; exit 2; }
  OUT=$(cd "$OUT" && pwd) || { progress "cannot enter output directory $OPT_OUT"; exit 2; }
  BUNDLE_NAME=ascend-bundle-$host-$ts
  if [ -e "$OUT/$BUNDLE_NAME" ] || [ -e "$OUT/$BUNDLE_NAME.tar.zst" ] || [ -e "$OUT/$BUNDLE_NAME.tar.gz" ]; then
    BUNDLE_NAME=$BUNDLE_NAME-$$
  fi
  BUNDLE=$OUT/$BUNDLE_NAME
  WORK=$OUT/.$BUNDLE_NAME.work
  if ! mkdir "$BUNDLE" "$WORK" "$WORK/tmp" "$WORK/steps" 2>/dev/null; then
    progress "cannot write in $OUT"
    exit 2
  fi
  export TMPDIR=$WORK/tmp
  # Room for the manifest if the output disk fills up during the run: freed at the end.
  # A disk without that room gets no reserve (a part of one would only fill it sooner).
  head -c $((RESERVE_KB * 1024)) /dev/zero > "$WORK/reserve" 2>/dev/null
  file_size "$WORK/reserve"
  ((SIZE == RESERVE_KB * 1024)) || rm -f "$WORK/reserve"
  exec 3>&2 2>>"$WORK/shell.stderr"
  MSG_FD=3
  ITEMS=$BUNDLE/manifest.items.jsonl
  : > "$ITEMS"
  if have mkfifo && mkfifo "$WORK/poll" 2>/dev/null; then
    exec {POLL_FD}<>"$WORK/poll"
  fi
  build_log_masks
  LOG_CAP=$((OPT_MAX_LOG_MB * 1048576))
  if ((OPT_MAX_TOTAL_MB > 0 && OPT_MAX_TOTAL_MB * 1048576 / 4 < LOG_CAP)); then
    LOG_CAP=$((OPT_MAX_TOTAL_MB * 1048576 / 4))
  fi
  trap on_signal INT TERM
  progress "collecting into $BUNDLE (timeout ${OPT_TIMEOUT}s per step, deadline ${OPT_DEADLINE}s)"
  check_free_space
  probe_timeout
}
