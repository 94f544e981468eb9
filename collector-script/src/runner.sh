# shellcheck shell=bash
# The runner: every step runs in a background process group with its output going to
# files, watched by the main loop (TERM, then KILL, then "abandoned"), and becomes one item
# of the manifest. The step_* functions at the end are what the phases call.

poll_sleep() {
  local d=0.1
  if (($1 < 3)); then d=0.005; elif (($1 < 12)); then d=0.02; fi
  if [ -n "$POLL_FD" ]; then
    read -r -t "$d" -u "$POLL_FD" _
  else
    sleep "$d"
  fi
}

group_alive() { kill -0 -- "-$1" 2>/dev/null || kill -0 "$1" 2>/dev/null; }

# Waits up to $2 seconds for process group $1 to disappear.
wait_group_gone() {
  local end i=0
  now_ms; end=$((NOW_MS + $2 * 1000))
  while group_alive "$1"; do
    poll_sleep $((12 + i)); i=$((i + 1))
    now_ms
    ((NOW_MS >= end)) && return 1
  done
  return 0
}

# Whether group $1 still holds a process that is not a zombie (a container whose init does
# not reap leaves zombies, which are gone for our purpose). GROUP_NOTE says what is left.
group_still_present() {
  local pgid=$1 pid i=0 file=$WORK/group.$1 line live=""
  group_alive "$pgid" || return 1
  PGID_QUERY=$pgid
  bg_group_members </dev/null > "$file" 2>/dev/null &
  pid=$!
  while kill -0 "$pid" 2>/dev/null && ((i < 40)); do poll_sleep 12; i=$((i + 1)); done
  if kill -0 "$pid" 2>/dev/null; then
    kill -KILL "$pid" 2>/dev/null
    GROUP_NOTE="process group $pgid is still there after KILL"
    return 0
  fi
  wait "$pid" 2>/dev/null
  while IFS= read -r line; do
    case $line in *" Z") ;; *) live+="${live:+, }$line" ;; esac
  done < "$file"
  [ -n "$live" ] || return 1
  GROUP_NOTE="process group $pgid is still there after KILL (pid state: $live)"
  return 0
}

# "pid state" of every process in group $1 (to tell zombies from processes stuck in the
# kernel after KILL).
bg_group_members() {
  local f line rest
  for f in /proc/[0-9]*/stat; do
    IFS= read -r line < "$f" 2>/dev/null || continue
    rest=${line##*) }
    # shellcheck disable=SC2086  # split the fields of /proc/<pid>/stat: state ppid pgrp ...
    set -- $rest
    if [ "$3" = "$PGID_QUERY" ]; then
      f=${f#/proc/}
      printf '%s %s\n' "${f%/stat}" "$1"
    fi
  done
}

# TERM, then KILL, the process group of step process $1; W_STATE=abandoned when it stays.
stop_group() {
  local pid=$1
  kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null
  if ! wait_group_gone "$pid" "$KILL_GRACE"; then
    kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null
    if ! wait_group_gone "$pid" "$KILL_GRACE"; then
      GROUP_NOTE=""
      if group_still_present "$pid"; then
        W_STATE=abandoned
        return
      fi
    fi
  fi
  wait "$pid" 2>/dev/null
}

# Watches step process $1 started at $2 (ms) for up to $3 ms. W_STATE: finished (W_RC set),
# late (then stopped), abandoned, interrupted. The clock is read every few polls only: a
# fork is not free on a sick host.
watch_step() {
  local pid=$1 t0=$2 limit=$3 i=0
  W_STATE=finished W_RC=""
  while kill -0 "$pid" 2>/dev/null; do
    if ((INTERRUPTED)); then W_STATE=interrupted; break; fi
    poll_sleep "$i"
    i=$((i + 1))
    if ((i % 5 == 4)); then
      now_ms
      if ((NOW_MS - t0 >= limit)); then W_STATE=late; break; fi
    fi
  done
  if [ "$W_STATE" = finished ]; then
    wait "$pid" 2>/dev/null
    W_RC=$?
    return
  fi
  stop_group "$pid"
}

# Whether a finished step's files say "permission denied": stderr always; stdout too when it
# is short ($3 bytes), since a tool may print its refusal there and exit 0.
permission_message() {
  local out=$1 err=$2 size=$3 re='[Pp]ermission [Dd]enied|[Oo]peration not permitted|insufficient permission|[Aa]ccess denied|must be root|not seeing messages from other users'
  if [ -s "$err" ] && grep -q -E "$re" "$err" 2>/dev/null; then return 0; fi
  if ((size > 0 && size <= 512)) && grep -q -E "$re" "$out" 2>/dev/null; then return 0; fi
  return 1
}

# Gate before a step: sets R_STATUS/R_REASON to skip it; returns 1 to drop it silently
# (after an interrupt nothing more is started or recorded). Leaves NOW_MS set.
step_gate() {
  local kind=$1
  R_STATUS="" R_REASON=""
  if ((INTERRUPTED)); then return 1; fi
  now_ms
  if ((NOW_MS >= DEADLINE_MS)); then
    DEADLINE_HIT=1
    R_STATUS=skipped R_REASON=deadline
  elif [ "$kind" = device ] && ((OPT_SAFE)); then
    R_STATUS=skipped R_REASON=option
  elif [ "$kind" = device ] && ((DEVICE_UNRESPONSIVE)); then
    R_STATUS=skipped R_REASON=device_unresponsive
  fi
  return 0
}

reset_result() {
  R_STATUS="" R_REASON="" R_RC="" R_ERROR="" R_START="" R_DUR="" R_BYTES="" R_SHA=""
  R_MTIME="" R_OUT="" R_KEPT="" R_ERRF=""
}

# Creates the bundle directory holding path $1 (once per directory).
ensure_parent() {
  local d
  case $1 in
    */*)
      d=${1%/*}
      [ -n "${MADE_DIRS[$d]}" ] && return 0
      mkdir -p "$BUNDLE/$d" && MADE_DIRS[$d]=1 ;;
  esac
}

# TP = full path of tool $1, empty when not installed (looked up once).
tool_path() {
  if [ -z "${TOOL_PATHS[$1]+x}" ]; then TOOL_PATHS[$1]=$(type -P "$1" 2>/dev/null); fi
  TP=${TOOL_PATHS[$1]}
}

# Runs BODY ARGS... ($5...) in the background as the step writing bundle path $2 and
# records its item. $1 kind (host|device), $3 source, $4 exec argv JSON (empty for file
# reads). With STEP_KEEP=1 the output stays in the work directory (R_OUT) and no item is
# recorded: the caller records one later.
run_step() {
  local kind=$1 path=$2 source=$3 execj=$4 out err pid t0 limit by_deadline=0 clean=1 size=0
  shift 4
  reset_result
  step_gate "$kind" || return 0
  if [ -n "$R_STATUS" ]; then
    [ "${STEP_KEEP:-0}" = 1 ] || record_item "$path" "$source" "$execj"
    return 0
  fi
  STEP_N=$((STEP_N + 1))
  STEP_BASE=$WORK/steps/$STEP_N
  err=$STEP_BASE.err
  if [ "${STEP_KEEP:-0}" = 1 ]; then
    out=$STEP_BASE.out
  else
    ensure_parent "$path"
    out=$BUNDLE/$path
  fi
  t0=$NOW_MS
  limit=$(( ${STEP_LIMIT:-$OPT_TIMEOUT} * 1000 ))
  if ((DEADLINE_MS - t0 < limit)); then limit=$((DEADLINE_MS - t0)); by_deadline=1; fi
  STEP_INNER_LIMIT=$((limit / 1000 + 2 * KILL_GRACE + 2))
  epoch_now; R_START=$EPOCH
  # A process group of its own (set -m) so that TERM and KILL reach everything it starts;
  # the user's stderr (MSG_FD) is not inherited, so nothing left behind holds it open.
  set -m
  "$@" </dev/null >"$out" 2>"$err" 3>&- &
  pid=$!
  set +m
  watch_step "$pid" "$t0" "$limit"
  now_ms; R_DUR=$((NOW_MS - t0))
  if [ -s "$out" ]; then file_size "$out"; size=$SIZE; fi
  case $W_STATE in
    finished) classify_finished "$execj" "$out" "$err" "$size" ;;
    late)
      R_STATUS=timed_out R_ERROR=timeout clean=0
      if ((by_deadline)); then R_REASON=deadline; DEADLINE_HIT=1; fi ;;
    abandoned)
      R_STATUS=abandoned R_ERROR=unkillable clean=0
      if ((by_deadline)); then R_REASON=deadline; DEADLINE_HIT=1; fi
      ABANDONED_NOTES+=("$path: $GROUP_NOTE")
      printf '%s: %s\n' "$PROG" "$GROUP_NOTE" >> "$err" ;;
    interrupted) R_STATUS=failed R_ERROR=interrupted clean=0 ;;
  esac
  if [ "$kind" = device ]; then
    case $R_STATUS in timed_out|abandoned) DEVICE_UNRESPONSIVE=1 ;; esac
  fi
  if [ -s "$STEP_BASE.mtime" ]; then
    read -r R_MTIME < "$STEP_BASE.mtime"
    [[ $R_MTIME =~ ^[0-9]+$ ]] || R_MTIME=""
  fi
  [ -s "$STEP_BASE.kinds" ] && merge_kinds "$STEP_BASE.kinds"
  if [ -s "$STEP_BASE.kept" ]; then
    read -r R_KEPT < "$STEP_BASE.kept"
    [[ $R_KEPT =~ ^\[(\[[0-9]+,[0-9]+\],?)+\]$ ]] || R_KEPT=""
  fi
  # A file taken on a process's word and refused (owned.sh) says why in the item's error.
  if [ -s "$STEP_BASE.refused" ]; then
    read -r R_ERROR < "$STEP_BASE.refused"
    [[ $R_ERROR =~ ^refused_[a-z_]+$ ]] || R_ERROR=refused
  fi
  # A kept step's stderr is the caller's to store (with the item it records, if any).
  R_ERRF=""
  if [ "${STEP_KEEP:-0}" = 1 ]; then
    [ -s "$err" ] && R_ERRF=$err
    R_OUT=$out
    return 0
  fi
  [ -s "$err" ] && store_err "$err" "$path"
  keep_output "$out" "$size" "$clean"
  record_item "$path" "$source" "$execj"
}

# Decides what stays of a step's output file $1 ($2 bytes). A killed step's file is swapped
# for a snapshot: a process that escaped the kill may still be writing to it.
keep_output() {
  local out=$1 size=$2 clean=$3
  if ((size == 0)) && [ "$R_STATUS" != ok ]; then
    rm -f "$out"
    return 0
  fi
  if ((clean == 0)) && ((size > 0)); then
    mv -f "$out" "$STEP_BASE.out" && cat "$STEP_BASE.out" > "$out"
    file_size "$out"; size=$SIZE
  fi
  R_BYTES=$size
  hash_file "$out"; R_SHA=$HASH
}

classify_finished() {
  local execj=$1 out=$2 err=$3 size=$4 rc=$W_RC
  if [ -n "$execj" ]; then
    R_RC=$rc
    if ((rc == 0)); then
      if permission_message "$out" "$err" "$size"; then
        R_STATUS=denied R_REASON=permission R_ERROR=permission_message
      else
        R_STATUS=ok
      fi
    elif [ -n "$TIMEOUT_BIN" ] && { ((rc == 124)) || ((rc == 137)); }; then
      R_STATUS=timed_out R_ERROR=timeout
    elif ((rc == 127)); then
      R_STATUS=absent R_REASON=tool_missing R_ERROR=not_found
    elif ((rc == 126)) || permission_message "$out" "$err" "$size"; then
      R_STATUS=denied R_REASON=permission R_ERROR=exit_$rc
    else
      R_STATUS=failed R_ERROR=exit_$rc
    fi
    return
  fi
  case $rc in
    0) R_STATUS=ok ;;
    65) R_STATUS=absent R_REASON=source_missing R_ERROR=not_found ;;
    66) R_STATUS=denied R_REASON=permission R_ERROR=permission_denied ;;
    *)
      if permission_message "$out" "$err" "$size"; then
        R_STATUS=denied R_REASON=permission R_ERROR=permission_denied
      else
        R_STATUS=failed R_ERROR=exit_$rc
      fi ;;
  esac
}

merge_kinds() {
  local k have_k
  while IFS= read -r k; do
    [ -n "$k" ] || continue
    for have_k in "${REDACT_KINDS[@]}"; do [ "$have_k" = "$k" ] && continue 2; done
    REDACT_KINDS+=("$k")
  done < "$1"
}

# Keeps the first ERR_CAP bytes of a step's stderr in <path>.err (appended: the listings of
# several log roots share logs/index.tsv.err).
store_err() {
  local err=$1 path=$2
  ensure_parent "$path"
  file_size "$err"
  if ((SIZE > ERR_CAP)); then
    dd if="$err" bs="$ERR_CAP" count=1 2>/dev/null >> "$BUNDLE/$path.err"
    printf '\n[%s: stderr cut at %s of %s bytes]\n' "$PROG" "$ERR_CAP" "$SIZE" >> "$BUNDLE/$path.err"
  else
    cat "$err" >> "$BUNDLE/$path.err"
  fi
}

# Appends the item of the last step (R_* values) to manifest.items.jsonl.
record_item() {
  local path=$1 source=$2 execj=$3 pj sj rj ej st mt shj line
  json_str "$path"; pj=$J
  json_str_or_null "$source"; sj=$J
  json_str_or_null "$R_REASON"; rj=$J
  json_str_or_null "$R_ERROR"; ej=$J
  json_str_or_null "$R_SHA"; shj=$J
  st=null; if [ -n "$R_START" ]; then iso_utc "$R_START"; st="\"$ISO\""; fi
  mt=null; if [ -n "$R_MTIME" ]; then iso_utc "$R_MTIME"; mt="\"$ISO\""; fi
  line="{\"path\":$pj,\"source\":$sj,\"exec\":${execj:-null},\"status\":\"$R_STATUS\""
  line+=",\"reason\":$rj,\"rc\":${R_RC:-null},\"started_utc\":$st,\"duration_ms\":${R_DUR:-null}"
  line+=",\"bytes\":${R_BYTES:-null},\"sha256\":$shj,\"source_mtime_utc\":$mt"
  if [ -n "$R_KEPT" ]; then
    line+=",\"truncated\":true,\"kept_ranges\":$R_KEPT,\"error\":$ej}"
    COUNT_TRUNCATED=$((COUNT_TRUNCATED + 1))
    TRUNCATED_PATHS+=("$path")
  else
    line+=",\"truncated\":false,\"kept_ranges\":null,\"error\":$ej}"
  fi
  ITEM_LINES+=("$line")
  printf '%s\n' "$line" >> "$ITEMS" 2>/dev/null || ITEMS_UNWRITTEN=1
  case $R_STATUS in
    ok) COUNT_OK=$((COUNT_OK + 1)) ;;
    absent) COUNT_ABSENT=$((COUNT_ABSENT + 1)) ;;
    denied) COUNT_DENIED=$((COUNT_DENIED + 1)) ;;
    skipped)
      COUNT_SKIPPED=$((COUNT_SKIPPED + 1))
      case $R_REASON in deadline|device_unresponsive) COUNT_SKIPPED_LATE=$((COUNT_SKIPPED_LATE + 1)) ;; esac ;;
    failed) COUNT_FAILED=$((COUNT_FAILED + 1)) ;;
    timed_out) COUNT_TIMED_OUT=$((COUNT_TIMED_OUT + 1)) ;;
    abandoned) COUNT_ABANDONED=$((COUNT_ABANDONED + 1)) ;;
  esac
  # The summary names the reason, or for a failure its error (exit_<n>, interrupted).
  [ "$R_STATUS" = ok ] || SUMMARY+=("$R_STATUS"$'\t'"$path"$'\t'"${R_REASON:-${R_ERROR#timeout}}")
}

# Records bundle file $1 (already written) as an item with the last step's outcome (R_*).
record_bundle_file() {
  R_BYTES="" R_SHA=""
  if [ -f "$BUNDLE/$1" ]; then
    file_size "$BUNDLE/$1"; R_BYTES=$SIZE
    hash_file "$BUNDLE/$1"; R_SHA=$HASH
  fi
  record_item "$1" "$2" "$3"
}

# Records item $1 (source $2) with the outcome of the step before (its reason and error),
# for a file that could not be made because the step it needs did not succeed.
record_as_before() {
  local st=$R_STATUS re=$R_REASON er=$R_ERROR
  reset_result
  R_STATUS=$st R_REASON=$re R_ERROR=$er
  if [ "$st" != skipped ]; then epoch_now; R_START=$EPOCH; R_DUR=0; fi
  record_item "$1" "$2" ""
}

# Records item $1 as skipped for want of an option (the --pip listings).
record_skipped_option() {
  reset_result
  step_gate host || return 0
  [ -n "$R_STATUS" ] || { R_STATUS=skipped R_REASON=option; }
  record_item "$1" "" ""
}

# step_exec PATH KIND TOOL ARGS...: runs a tool; absent when it is not installed.
step_exec() {
  local path=$1 kind=$2 execj
  shift 2
  json_argv "$@"; execj=$J
  tool_path "$1"
  if [ -z "$TP" ]; then
    reset_result
    step_gate "$kind" || return 0
    [ -n "$R_STATUS" ] || { R_STATUS=absent R_REASON=tool_missing R_ERROR=not_found; }
    record_item "$path" "" "$execj"
    return 0
  fi
  shift
  run_step "$kind" "$path" "$TP" "$execj" bg_exec "$TP" "$@"
}

# step_copy PATH SOURCE: copies a host file.
step_copy() { run_step host "$1" "$2" "" bg_copy "$2"; }

# step_func PATH SOURCE BODY ARGS...: a collector function reading host files.
step_func() {
  local path=$1 source=$2
  shift 2
  run_step host "$path" "$source" "" "$@"
}

# step_gen PATH FUNCTION ARGS...: content the collector already holds (no host access).
step_gen() {
  local path=$1
  shift
  reset_result
  ensure_parent "$path"
  epoch_now; R_START=$EPOCH; R_DUR=0
  "$@" > "$BUNDLE/$path"
  R_STATUS=ok
  file_size "$BUNDLE/$path"; R_BYTES=$SIZE
  hash_file "$BUNDLE/$path"; R_SHA=$HASH
  record_item "$path" "" ""
}
