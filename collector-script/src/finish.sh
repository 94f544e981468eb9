# shellcheck shell=bash
# End of a run: manifest.json, the archive, the summary and the exit code.

finish_run() {
  local rc=0 size
  if [ -e "${ROOT}/.dockerenv" ] || [ -e "${ROOT}/run/.containerenv" ]; then
    IN_CONTAINER=true
  else
    IN_CONTAINER=false
  fi
  check_disk_full
  step_gen collector/tools.tsv gen_tools_tsv
  check_npu_presence
  epoch_now; FINISHED_S=$EPOCH
  # An interrupt from here on must not lose the archive: it is already being made.
  trap '' INT TERM
  if ! write_manifest; then
    progress "cannot write manifest.json: the output file system of $OUT is full; no bundle was kept (free space, or use -o elsewhere)"
    rm -rf "$BUNDLE" "$WORK"
    progress "result: nothing usable (exit 2)"
    exit 2
  fi
  if ((COUNT_DENIED + COUNT_FAILED + COUNT_TIMED_OUT + COUNT_ABANDONED > 0)) ||
     ((INTERRUPTED || DEADLINE_HIT || DEVICE_UNRESPONSIVE || DISK_FULL)); then
    rc=1
  fi
  ((COUNT_SKIPPED_LATE > 0)) && rc=1
  print_summary
  report_shell_messages
  if make_archive; then
    file_size "$ARCHIVE"; size=$SIZE
    rm -rf "$BUNDLE" "$WORK"
    progress "archive: $ARCHIVE ($size bytes)"
  else
    rm -rf "$WORK"
    progress "could not write the archive; the bundle directory is $BUNDLE"
    rc=1
  fi
  ((COUNT_OK > 0)) || rc=2
  npu_presence_result
  # On a host without an NPU the bundle is not "complete" evidence of an NPU fault: the
  # result line says what is missing instead.
  if [ "$NP_STATE" = no_npu ] && ((rc < 2)); then
    progress "result: $NP_RESULT (exit $rc)"
    exit "$rc"
  fi
  [ -n "$NP_RESULT" ] && progress "$NP_RESULT"
  case $rc in
    0) progress "result: complete (exit 0)" ;;
    1) progress "result: partial (exit 1)" ;;
    2) progress "result: nothing usable (exit 2)" ;;
  esac
  exit "$rc"
}

# Whether the output disk filled up during the run (an item line could not be written, or
# 64 KiB cannot be written now): then the reserve made at the start is freed, the item list
# is written again from memory, and the manifest notes it.
check_disk_full() {
  local probe=$WORK/space-probe
  DISK_FULL=$ITEMS_UNWRITTEN
  head -c 65536 /dev/zero > "$probe" 2>/dev/null
  file_size "$probe"
  ((SIZE == 65536)) || DISK_FULL=1
  rm -f "$probe" "$WORK/reserve"
  ((DISK_FULL)) || return 0
  progress "the output file system of $OUT filled up during the run: items written after that are failed or cut"
  MANIFEST_NOTES+=("the output file system filled up during the run: items written after that are failed or cut (their status says so)")
  printf '%s\n' "${ITEM_LINES[@]}" > "$ITEMS.tmp" 2>/dev/null && mv -f "$ITEMS.tmp" "$ITEMS"
}

# Returns 1 when manifest.json could not be written whole (a full disk): the previous one, if
# any, stays.
write_manifest() {
  local f=$BUNDLE/manifest.json line first=1 i g out sep k
  iso_utc "$FINISHED_S"
  {
    printf '{\n"format": "ascend-bundle",\n"format_version": 1,\n'
    json_str "$COLLECTOR_VERSION"; printf '"collector_version": %s,\n' "$J"
    json_str "$HOST"; printf '"host": %s,\n' "$J"
    printf '"collected_at_utc": "%s",\n"finished_utc": "%s",\n' "$COLLECTED_AT" "$ISO"
    json_argv "${ARGS_ORIG[@]}"; printf '"args": %s,\n' "$J"
    printf '"uid": %s,\n' "$EUID"
    out="" sep=""
    for g in "${GROUPS[@]}"; do out+="$sep$g"; sep=","; done
    printf '"groups": [%s],\n' "$out"
    json_str_or_null "$SUDO_USER"; printf '"sudo_user": %s,\n' "$J"
    json_str "$ORIG_LOCALE"; printf '"locale": %s,\n' "$J"
    out="" sep=""
    for ((i = 0; i < ${#ORIG_LOCALE_VARS[@]}; i += 2)); do
      json_str "${ORIG_LOCALE_VARS[i]}"; out+="$sep$J: "
      json_str "${ORIG_LOCALE_VARS[i + 1]}"; out+=$J; sep=", "
    done
    printf '"locale_env": {%s},\n' "$out"
    printf '"in_container": %s,\n' "$IN_CONTAINER"
    out="" sep=""
    for k in "${REDACT_KINDS[@]}"; do json_str "$k"; out+="$sep$J"; sep=", "; done
    printf '"redaction": {"enabled": %s, "kinds": [%s]},\n' \
      "$( ((OPT_REDACT)) && echo true || echo false)" "$out"
    out="" sep=""
    for k in "${OPT_PIDS[@]}"; do out+="$sep$k"; sep=","; done
    printf '"options": {"timeout_s": %s, "deadline_s": %s, "safe_mode": %s, "pids": [%s]' \
      "$OPT_TIMEOUT" "$OPT_DEADLINE" "$( ((OPT_SAFE)) && echo true || echo false)" "$out"
    out="" sep=""
    for k in "${TARGET_PIDS[@]}"; do out+="$sep$k"; sep=","; done
    printf ', "target_pids": [%s], "boots": %s, "since_minutes": %s, "max_log_mb": %s, "pip": %s, "stacks": %s},\n' \
      "$out" "$OPT_BOOTS" "${SINCE_MIN:-null}" "$OPT_MAX_LOG_MB" "$( ((OPT_PIP)) && echo true || echo false)" \
      "$( ((OPT_STACKS)) && echo true || echo false)"
    printf '"interrupted": %s,\n"deadline_reached": %s,\n"device_unresponsive": %s,\n' \
      "$( ((INTERRUPTED)) && echo true || echo false)" \
      "$( ((DEADLINE_HIT)) && echo true || echo false)" \
      "$( ((DEVICE_UNRESPONSIVE)) && echo true || echo false)"
    if [ -n "$ROOT" ]; then json_str "$ROOT"; printf '"test_root": %s,\n' "$J"; fi
    manifest_mode_fields
    manifest_npu_presence
    printf '"items": [\n'
    for line in "${ITEM_LINES[@]}"; do
      ((first)) || printf ',\n'
      printf '%s' "$line"
      first=0
    done
    printf '\n]\n}\n'
  } > "$f.tmp" 2>/dev/null
  # A write that failed on the way leaves the file without its end.
  if [ "$(tail -c 4 "$f.tmp" 2>/dev/null)" = $']\n}' ]; then
    mv -f "$f.tmp" "$f" && return 0
  fi
  rm -f "$f.tmp"
  return 1
}

# Manifest fields of the run modes (--sysroot, --probes) and the run's notes (each line ends
# with a comma: more fields follow).
manifest_mode_fields() {
  local out="" sep="" n
  if [ -n "$OPT_SYSROOT" ]; then
    json_str "$OPT_SYSROOT"; out=$J
    json_str "$OPT_KERNEL"
    printf '"collection": "sysroot",\n"sysroot": {"dir": %s, "kernel": %s},\n' "$out" "$J"
  fi
  if ((OPT_PROBES)); then
    json_str_or_null "$PROBE_PY_HOST"
    printf '"probe_options": {"device": %s, "timeout_s": %s, "python": %s},\n' \
      "$OPT_PROBE_DEVICE" "$OPT_PROBE_TIMEOUT" "$J"
  fi
  ((${#MANIFEST_NOTES[@]})) || return 0
  out=""
  for n in "${MANIFEST_NOTES[@]}"; do json_str "$n"; out+="$sep$J"; sep=", "; done
  printf '"notes": [%s],\n' "$out"
}

# The archive, manifest.json first. Sets ARCHIVE (empty on failure). A hung tar or
# compressor must not hang the run: each try is stopped when its output has not grown for
# --timeout seconds; a failed zstd try is retried with gzip, and when no archive can be made
# the bundle directory stays, its manifest's notes saying why (the analyzer reads it as is).
make_archive() {
  local e name
  ARCHIVE_MEMBERS=("$BUNDLE_NAME/manifest.json")
  for e in "$BUNDLE"/* "$BUNDLE"/.[!.]*; do
    [ -e "$e" ] || continue
    name=${e##*/}
    [ "$name" = manifest.json ] && continue
    ARCHIVE_MEMBERS+=("$BUNDLE_NAME/$name")
  done
  ARCHIVE=""
  if have zstd; then
    archive_try zstd "$OUT/$BUNDLE_NAME.tar.zst" && return 0
    MANIFEST_NOTES+=("archive: tar | zstd $ARCHIVE_FAILURE; tried tar | gzip instead")
    progress "archive: tar | zstd $ARCHIVE_FAILURE; trying gzip"
    write_manifest
  fi
  archive_try gzip "$OUT/$BUNDLE_NAME.tar.gz" && return 0
  MANIFEST_NOTES+=("archive: tar | gzip $ARCHIVE_FAILURE; the bundle is this directory, not an archive")
  progress "archive: tar | gzip $ARCHIVE_FAILURE"
  write_manifest
  return 1
}

# The archiving pipeline with compressor $1 into $2 (a process group of its own).
bg_archive() {
  tar -cf - -C "$OUT" "${ARCHIVE_MEMBERS[@]}" | "$1" -q -c > "$2"
  local statuses="${PIPESTATUS[0]} ${PIPESTATUS[1]}"
  [ "$statuses" = "0 0" ]
}

# One try of the archive with compressor $1 into $2: ARCHIVE on success, else
# ARCHIVE_FAILURE says what happened.
archive_try() {
  local comp=$1 dest=$2 part=$2.part err=$WORK/archive.err pid i=0 last=-1 t_last rc msg=""
  set -m
  bg_archive "$comp" "$part" </dev/null 2>"$err" 3>&- &
  pid=$!
  set +m
  now_ms; t_last=$NOW_MS
  W_STATE=finished
  while kill -0 "$pid" 2>/dev/null; do
    poll_sleep "$i"
    i=$((i + 1))
    ((i % 5 == 4)) || continue
    now_ms
    file_size "$part"
    if ((SIZE != last)); then
      last=$SIZE t_last=$NOW_MS
    elif ((NOW_MS - t_last >= OPT_TIMEOUT * 1000)); then
      W_STATE=late
      break
    fi
  done
  if [ "$W_STATE" = late ]; then
    stop_group "$pid"
    ARCHIVE_FAILURE="made no progress for ${OPT_TIMEOUT}s and was stopped"
    [ "$W_STATE" = abandoned ] && ARCHIVE_FAILURE+=" (still there after KILL: $GROUP_NOTE)"
    rm -f "$part"
    return 1
  fi
  wait "$pid"
  rc=$?
  if ((rc == 0)) && mv -f "$part" "$dest"; then
    ARCHIVE=$dest
    return 0
  fi
  [ -s "$err" ] && IFS= read -r msg < "$err"
  ARCHIVE_FAILURE="failed${msg:+ ($msg)}"
  rm -f "$part"
  return 1
}

print_summary() {
  local status label e s p r n shown
  progress "items: $COUNT_OK ok, $COUNT_ABSENT absent, $COUNT_DENIED denied, $COUNT_FAILED failed, $COUNT_TIMED_OUT timed out, $COUNT_ABANDONED abandoned, $COUNT_SKIPPED skipped, $COUNT_TRUNCATED truncated"
  for status in absent denied failed timed_out abandoned skipped; do
    label=${status//_/ }
    n=0 shown=""
    for e in "${SUMMARY[@]}"; do
      s=${e%%$'\t'*}
      [ "$s" = "$status" ] || continue
      p=${e#*$'\t'}; r=${p#*$'\t'}; p=${p%%$'\t'*}
      n=$((n + 1))
      if ((n <= 12)); then shown+="${shown:+, }$p${r:+ ($r)}"; fi
    done
    ((n > 12)) && shown+=", and $((n - 12)) more"
    ((n > 0)) && progress "$label: $shown"
  done
  if ((${#TRUNCATED_PATHS[@]})); then
    progress "truncated (head and tail kept): ${TRUNCATED_PATHS[*]:0:12}"
  else
    progress "truncated: none"
  fi
  for e in "${ABANDONED_NOTES[@]}"; do progress "abandoned: $e (it may be stuck in the kernel)"; done
  ((${#TOOLS_ABSENT[@]})) && progress "tools absent: ${TOOLS_ABSENT[*]}"
}

# What the shell itself said, less its reports of the steps it killed: a collector bug
# must not go unseen.
report_shell_messages() {
  local f=$WORK/shell.stderr
  [ -s "$f" ] || return 0
  grep -v -E 'line [0-9]+: +[0-9]+ (Killed|Terminated|Hangup|Interrupt|Quit|Aborted|Broken pipe)' "$f" |
    sed "s/^/$PROG: shell: /" >&"$MSG_FD"
}
